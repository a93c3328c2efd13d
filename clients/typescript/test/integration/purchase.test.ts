// The whole test-mode purchase against a running system, as docs/integration.md tells it:
// search, price, an organizer registration, a browser checkout session, its test completion
// and the order.completed webhook, verified. system/clients runs it with these variables set.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';

import { createBrowserClient, createClient, verifyWebhook, type Schemas, type WebhookEvent } from '@podium/client';

const env = {
  baseUrl: process.env.PODIUM_BASE_URL ?? '',
  secretKey: process.env.PODIUM_SECRET_KEY ?? '',
  publishableKey: process.env.PODIUM_PUBLISHABLE_KEY ?? '',
  origin: process.env.PODIUM_ORIGIN ?? '',
  eventId: process.env.PODIUM_EVENT_ID ?? '',
};
const missing = Object.entries(env).filter(([, v]) => v === '').map(([k]) => k);

test('a test-mode purchase from search to the verified order.completed webhook',
  { skip: missing.length > 0 && `set PODIUM_BASE_URL and the rest (missing: ${missing.join(', ')})`, timeout: 90_000 },
  async (t) => {
    const podium = createClient({ baseUrl: env.baseUrl, secretKey: env.secretKey });
    const shop = createBrowserClient({ baseUrl: env.baseUrl, publishableKey: env.publishableKey, origin: env.origin });

    // A loopback receiver, registered with the test key: a test endpoint gets test events.
    const hooks = receiver();
    t.after(() => hooks.close());
    const endpoint = await podium.post('/organizer/webhook-endpoints', {
      body: { url: `${await hooks.url}/hooks`, eventTypes: ['order.completed'], description: 'TypeScript client test' },
    });
    t.after(() => podium.delete('/organizer/webhook-endpoints/{endpointId}', { path: { endpointId: endpoint.id } }));
    assert.equal(endpoint.livemode, false);

    // Search and price.
    const events = await podium.post('/organizer/events/search', { body: { limit: 100 } });
    assert.ok(events.data.some((e) => e.id === env.eventId), `event ${env.eventId} not found by the search`);
    const event = await podium.get('/organizer/events/{eventId}', { path: { eventId: env.eventId } });
    const cards = await shop.get('/browser/events/{eventId}/pricing-cards', { path: { eventId: env.eventId } });
    const category = event.categories.find((c) => c.teamSize.min === 2)!;
    const card = cards.cards.find((c) => c.categoryId === category.id);
    assert.ok(card && card.activePrice > 0, `no price for category ${category.id}`);

    // A registration the organizer creates.
    const created = await podium.post('/organizer/registrations', {
      body: { ...entry(event, category.id, 'TS Organizer'), eventId: env.eventId },
    });
    assert.equal(created.livemode, false);

    // The buyer's checkout session, then its test outcome instead of a payment.
    const session = await shop.post('/browser/checkout/registration/session', {
      body: purchase(event, category.id, 'TS Buyers'),
    });
    assert.ok(session.orderId, 'the session has no order id');
    const outcome = await podium.post('/organizer/test/checkout-sessions/{sessionId}/complete', {
      path: { sessionId: session.sessionId },
    });
    assert.deepEqual([outcome.outcome, outcome.orderId, outcome.livemode], ['complete', session.orderId, false]);

    const hook = await hooks.wait((e) => e.type === 'order.completed' && e.data.objectId === session.orderId, endpoint.secret);
    assert.equal(hook.data.livemode, false);
    if (hook.type === 'order.completed') assert.equal(hook.data.object.status, 'COMPLETED');
  });

type EventDetail = Schemas['EventDetail'];

/** The team fields of a registration of two in categoryId, answering the required fields. */
function entry(event: EventDetail, categoryId: string, team: string) {
  const athletes = ['Ana', 'Bea'].map((name, i) => ({
    fullname: `${name} ${team}`,
    idNumber: `X123456${i}`,
    email: `${name.toLowerCase()}.${team.replace(/\W/g, '').toLowerCase()}@example.com`,
    phone: '+34600111222',
    gender: 'FEMALE' as const,
    birthDate: '1990-04-01',
  }));
  const customFields: Schemas['CustomFieldValue'][] = [];
  for (const f of event.formFields) {
    if (!f.required || (f.categoryIds.length > 0 && !f.categoryIds.includes(categoryId))) continue;
    const value = f.type === 'number' ? 1 : f.type === 'boolean' ? true : f.type === 'date' ? '2000-01-01' : (f.options?.[0] ?? 'yes');
    if (f.appliesTo === 'TEAM') customFields.push({ fieldId: f.id, value });
    else athletes.forEach((_, athleteIndex) => customFields.push({ fieldId: f.id, value, athleteIndex }));
  }
  return { categoryId, teamName: team, athletes, customFields };
}

/** A checkout session's body: the entry, the waivers accepted and signed, the purchaser. */
function purchase(event: EventDetail, categoryId: string, team: string): Schemas['CheckoutSessionRequest'] {
  const waivers = event.waivers.filter((w) => !w.forMinors);
  return {
    ...entry(event, categoryId, team),
    eventId: event.id,
    idempotencyKey: `ts-${Date.now()}`,
    waiversAccepted: Object.fromEntries(waivers.map((w) => [w.id, true])),
    legalSignature: {
      signerName: 'Ana Atleta',
      signerIdNumber: 'X1234560',
      authorityAccepted: true,
      locale: 'en',
      waiverVersions: waivers.map((w) => ({ waiverId: w.id, version: w.version })),
      strokes: [[{ x: 0.1, y: 0.2, t: 0 }, { x: 0.4, y: 0.5, t: 120 }]],
    },
    termsAccepted: true,
    purchaserEmail: 'ana@example.com',
    purchaserName: 'Ana Atleta',
    successUrl: `${env.origin}/thanks`,
    cancelUrl: `${env.origin}/cart`,
  };
}

/** A webhook receiver on a loopback port that keeps each request until a test waits for it. */
function receiver() {
  const arrived: { headers: IncomingMessage['headers']; body: Buffer }[] = [];
  let notify = () => {};
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrived.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(204).end();
      notify();
    });
  });
  const url = new Promise<string>((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
  return {
    url,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    /** Waits for the first request that verifies with secret and matches. */
    async wait(match: (e: WebhookEvent) => boolean, secret: string): Promise<WebhookEvent> {
      for (let seen = 0; ; ) {
        while (seen < arrived.length) {
          const { headers, body } = arrived[seen++]!;
          const e = verifyWebhook(secret, headers, body);
          if (match(e)) return e;
        }
        await new Promise<void>((resolve) => (notify = resolve));
      }
    },
  };
}
