// The browser API of Podium, called with the site's publishable key. config.js is written by
// the server that serves the site (system/stack/website.go): the gateway's URL and the key.
let config = null;
try {
  ({ config } = await import('./config.js'));
} catch {
  // Left null: every call fails with a MissingConfig error the page shows.
}

// ApiError is an answer of the API other than 2xx, in its standard error body.
export class ApiError extends Error {
  constructor(status, body) {
    const messages = [body.message ?? `HTTP ${status}`].flat();
    super(messages.join('; '));
    this.status = status;
    this.code = body.code ?? '';
    this.messages = messages;
    this.problems = body.problems ?? [];
    this.requestId = body.requestId ?? '';
  }
}

// BlockedError is a call the browser did not let through (fetch threw): the page's origin is
// not one the publishable key allows (CORS), or the API cannot be reached at all.
export class BlockedError extends Error {}

// call sends a browser API request: path is relative to /external/v1/browser.
export async function call(method, path, body) {
  if (!config) {
    throw new BlockedError('This site has no config.js: serve it with `make run` (system/cmd/devstack), which writes the gateway URL and publishable key.');
  }
  const headers = { 'x-publishable-key': config.publishableKey };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(`${config.gatewayUrl}/external/v1/browser${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new BlockedError(`The browser blocked the call to the registration API: this page's origin (${location.origin}) is not allowed by the publishable key, or the API at ${config.gatewayUrl} cannot be reached.`);
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}
