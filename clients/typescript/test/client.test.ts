import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createBrowserClient, createClient, PodiumError, type Schemas } from '@podium/client';

interface Sent {
  url: URL;
  method: string;
  headers: Headers;
  body: string | undefined;
}

/** A fetch that answers every request with status and body, keeping what was sent. */
function fakeFetch(status: number, body: string, headers: Record<string, string> = {}) {
  const sent: Sent[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    sent.push({
      url: new URL(String(input)),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: init?.body as string | undefined,
    });
    return new Response(body === '' ? null : body, { status, headers: { 'content-type': 'application/json', ...headers } });
  };
  return { fetch: fetch as typeof globalThis.fetch, sent };
}

test('a secret-key client sends the key and the JSON body under the API path', async () => {
  const f = fakeFetch(201, '{"data":[],"total":0,"limit":20,"offset":0}');
  const podium = createClient({ baseUrl: 'https://api.podium.example/', secretKey: 'pdm_sk_test_x', fetch: f.fetch });
  const list = await podium.post('/organizer/events/search', { body: { search: 'throwdown' } });
  assert.equal(list.total, 0);
  const s = f.sent[0]!;
  assert.equal(s.url.href, 'https://api.podium.example/external/v1/organizer/events/search');
  assert.equal(s.method, 'POST');
  assert.equal(s.headers.get('authorization'), 'Bearer pdm_sk_test_x');
  assert.equal(s.headers.get('content-type'), 'application/json');
  assert.deepEqual(JSON.parse(s.body!), { search: 'throwdown' });
});

test('path and query parameters are filled in and escaped', async () => {
  const f = fakeFetch(200, '{"data":[],"total":0,"limit":5,"offset":10}');
  const podium = createClient({ baseUrl: 'https://api.podium.example/external/v1', secretKey: 'k', fetch: f.fetch });
  await podium.get('/organizer/webhook-endpoints/{endpointId}/deliveries', {
    path: { endpointId: 'wep_1/..' },
    query: { limit: 5, offset: 10 },
  });
  assert.equal(f.sent[0]!.url.pathname, '/external/v1/organizer/webhook-endpoints/wep_1%2F../deliveries');
  assert.equal(f.sent[0]!.url.search, '?limit=5&offset=10');
  assert.equal(f.sent[0]!.body, undefined);
});

test('a browser client sends the publishable key and the origin', async () => {
  const f = fakeFetch(200, '{"eventId":"evt_1","currency":"EUR","cards":[]}');
  const shop = createBrowserClient({
    baseUrl: 'http://localhost:8080',
    publishableKey: 'pdm_pk_test_x',
    origin: 'https://shop.example',
    fetch: f.fetch,
  });
  const cards = await shop.get('/browser/events/{eventId}/pricing-cards', { path: { eventId: 'evt_1' } });
  assert.equal(cards.eventId, 'evt_1');
  const s = f.sent[0]!;
  assert.equal(s.url.pathname, '/external/v1/browser/events/evt_1/pricing-cards');
  assert.equal(s.headers.get('x-publishable-key'), 'pdm_pk_test_x');
  assert.equal(s.headers.get('origin'), 'https://shop.example');
  assert.equal(s.headers.get('authorization'), null);
});

test('an error answer rejects with a PodiumError carrying the standard body', async () => {
  const f = fakeFetch(
    400,
    JSON.stringify({
      statusCode: 400,
      code: 'validation_failed',
      error: 'Bad Request',
      message: ['categoryId is required', 'limit must be at most 100'],
      problems: [{ path: 'categoryId', code: 'required', message: 'categoryId is required' }],
      requestId: 'req_body',
    }),
    { 'x-request-id': 'req_header', 'retry-after': '2' },
  );
  const podium = createClient({ baseUrl: 'http://localhost:8080', secretKey: 'k', fetch: f.fetch });
  const err = await podium.post('/organizer/registrations', { body: {} as Schemas['CreateRegistrationRequest'] }).then(
    () => assert.fail('resolved'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof PodiumError);
  assert.equal(err.statusCode, 400);
  assert.equal(err.code, 'validation_failed');
  assert.deepEqual(err.messages, ['categoryId is required', 'limit must be at most 100']);
  assert.equal(err.problems[0]?.path, 'categoryId');
  assert.equal(err.requestId, 'req_body');
  assert.equal(err.retryAfter, 2);
  assert.match(err.message, /validation_failed: categoryId is required; limit must be at most 100/);
});

test('an error answer of another shape still rejects with a PodiumError', async () => {
  const f = fakeFetch(502, '<html>bad gateway</html>', { 'x-request-id': 'req_header' });
  const podium = createClient({ baseUrl: 'http://localhost:8080', secretKey: 'k', fetch: f.fetch });
  await assert.rejects(podium.get('/organizer/events/{eventId}', { path: { eventId: 'evt_1' } }), (e: unknown) => {
    assert.ok(e instanceof PodiumError);
    assert.equal(e.statusCode, 502);
    assert.equal(e.code, undefined);
    assert.equal(e.requestId, 'req_header');
    return true;
  });
});

// Compile-time checks: tsc fails the build when the types stop refusing these.
export async function typeChecks(): Promise<void> {
  const podium = createClient({ baseUrl: 'x', secretKey: 'k' });
  // @ts-expect-error an unknown path
  await podium.get('/organizer/nothing');
  // @ts-expect-error a path parameter is required
  await podium.get('/organizer/events/{eventId}');
  // @ts-expect-error the checkout session's body is required
  await podium.post('/browser/checkout/registration/session');
  // @ts-expect-error a body of the wrong shape
  await podium.post('/organizer/events/search', { body: { limit: 'ten' } });
  const outcome = await podium.post('/organizer/test/checkout-sessions/{sessionId}/complete', { path: { sessionId: 's' } });
  const livemode: false = outcome.livemode;
  void livemode;
}
