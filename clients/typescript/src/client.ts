import type { paths } from './schema.js';
import { PodiumError } from './errors.js';

/** The path of the API under a deployment's base address, the document's server. */
export const API_PATH = '/external/v1';

export type Method = 'get' | 'post' | 'patch' | 'delete';

/** The paths of the document that have an operation of method M. */
export type PathsWith<M extends Method> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

/** The operation of path P and method M, as openapi-typescript generated it. */
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

type JSONBody<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;

/** The body of an operation's success answer (2xx), the client's result. */
export type Success<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends 200 | 201 | 202 | 204 ? JSONBody<R[S]> : never }[keyof R]
  : never;

type PathParams<O> = O extends { parameters: { path: infer P } } ? { path: P } : { path?: undefined };
type QueryParams<O> = O extends { parameters: { query?: infer Q } }
  ? [Exclude<Q, undefined>] extends [never] ? { query?: undefined } : { query?: Exclude<Q, undefined> }
  : { query?: undefined };
type BodyParam<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { body: B }
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? [B] extends [never] ? { body?: undefined } : { body?: B }
    : { body?: undefined };

/** What a request takes besides its method and path: its parameters, body and extras. */
export type RequestOptions<O> = PathParams<O> & QueryParams<O> & BodyParam<O> & {
  /** Extra headers, e.g. `If-None-Match`. The client sets the key's headers itself. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
};

type Init<O> = {} extends RequestOptions<O> ? [options?: RequestOptions<O>] : [options: RequestOptions<O>];

/** A client of the API: every operation of the document, typed by its path and method. */
export interface PodiumClient {
  /**
   * Sends one operation and resolves with its success body; an answer of status 400 or more
   * rejects with a {@link PodiumError}.
   */
  request<M extends Method, P extends PathsWith<M>>(method: M, path: P, ...init: Init<Operation<P, M>>): Promise<Success<Operation<P, M>>>;
  get<P extends PathsWith<'get'>>(path: P, ...init: Init<Operation<P, 'get'>>): Promise<Success<Operation<P, 'get'>>>;
  post<P extends PathsWith<'post'>>(path: P, ...init: Init<Operation<P, 'post'>>): Promise<Success<Operation<P, 'post'>>>;
  patch<P extends PathsWith<'patch'>>(path: P, ...init: Init<Operation<P, 'patch'>>): Promise<Success<Operation<P, 'patch'>>>;
  delete<P extends PathsWith<'delete'>>(path: P, ...init: Init<Operation<P, 'delete'>>): Promise<Success<Operation<P, 'delete'>>>;
}

interface CommonOptions {
  /** The deployment's address (`https://api.podium.example`), with or without {@link API_PATH}. */
  baseUrl: string;
  /** The fetch to use; globalThis.fetch by default. */
  fetch?: typeof fetch;
}

export interface ClientOptions extends CommonOptions {
  /** A secret key, `pdm_sk_live_...` or `pdm_sk_test_...`: never in a browser. */
  secretKey: string;
}

export interface BrowserClientOptions extends CommonOptions {
  /** A publishable key, `pdm_pk_live_...` or `pdm_pk_test_...`. */
  publishableKey: string;
  /**
   * The page's origin, one of the key's allowed origins. Browsers send it themselves (and
   * refuse to let a page set it); give it when calling from Node, e.g. in tests.
   */
  origin?: string;
}

/** A client of the organizer API, authenticated by a secret key. For servers only. */
export function createClient(options: ClientOptions): PodiumClient {
  return newClient(options, { authorization: `Bearer ${options.secretKey}` });
}

/** A client of the browser API, authenticated by a publishable key and the page's origin. */
export function createBrowserClient(options: BrowserClientOptions): PodiumClient {
  const headers: Record<string, string> = { 'x-publishable-key': options.publishableKey };
  if (options.origin) headers['origin'] = options.origin;
  return newClient(options, headers);
}

interface LooseOptions {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function newClient(options: CommonOptions, auth: Record<string, string>): PodiumClient {
  if (!options.baseUrl) throw new TypeError('podium: baseUrl is empty');
  let server = options.baseUrl.replace(/\/+$/, '');
  if (!server.endsWith(API_PATH)) server += API_PATH;
  const doFetch = options.fetch ?? globalThis.fetch;

  async function send(method: Method, path: string, o: LooseOptions = {}): Promise<unknown> {
    const url = new URL(server + expand(path, o.path));
    for (const [name, value] of Object.entries(o.query ?? {})) {
      for (const v of Array.isArray(value) ? value : [value]) {
        if (v !== undefined && v !== null) url.searchParams.append(name, String(v));
      }
    }
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers, ...auth };
    let body: string | undefined;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const res = await doFetch(url, { method: method.toUpperCase(), headers, body, signal: o.signal });
    const text = await res.text();
    if (res.status >= 400) throw new PodiumError(res.status, text, res.headers);
    return text === '' ? undefined : JSON.parse(text);
  }

  const request = (method: Method, path: string, o?: LooseOptions) => send(method, path, o);
  return {
    request,
    get: (path: string, o?: LooseOptions) => send('get', path, o),
    post: (path: string, o?: LooseOptions) => send('post', path, o),
    patch: (path: string, o?: LooseOptions) => send('patch', path, o),
    delete: (path: string, o?: LooseOptions) => send('delete', path, o),
  } as PodiumClient;
}

/** expand fills a path template's {name} segments with the path parameters, escaped. */
function expand(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new TypeError(`podium: path parameter ${name} of ${template} is missing`);
    return encodeURIComponent(String(v));
  });
}
