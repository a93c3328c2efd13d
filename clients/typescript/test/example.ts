// The test-mode purchase of docs/integration.md, compiled with the tests (never run): the
// guide's names and shapes stay the client's. system/clients runs the same flow for real.
import { createServer } from 'node:http';

import { createBrowserClient, createClient, PodiumError, verifyWebhook, type Schemas } from '@podium/client';

type Purchase = Schemas['CheckoutSessionRequest'];

export async function example(
  categoryId: string,
  athletes: Purchase['athletes'],
  customFields: Purchase['customFields'],
  waiversAccepted: Purchase['waiversAccepted'],
  legalSignature: Purchase['legalSignature'],
  idempotencyKey: string,
): Promise<void> {
  const baseUrl = 'http://localhost:8080';
  const podium = createClient({ baseUrl, secretKey: process.env.PODIUM_SECRET_KEY! });
  const shop = createBrowserClient({ baseUrl, publishableKey: process.env.PODIUM_PUBLISHABLE_KEY!, origin: 'http://localhost:5173' });

  const endpoint = await podium.post('/organizer/webhook-endpoints', {
    body: { url: 'https://backend.example.com/webhooks', eventTypes: ['order.completed'] },
  });
  const events = await podium.post('/organizer/events/search', { body: { search: 'summer' } });
  const event = await podium.get('/organizer/events/{eventId}', { path: { eventId: events.data[0]!.id } });
  const cards = await shop.get('/browser/events/{eventId}/pricing-cards', { path: { eventId: event.id } });
  console.log(cards.cards.map((c) => [c.name, c.activePrice, cards.currency]));

  try {
    const session = await shop.post('/browser/checkout/registration/session', {
      body: { eventId: event.id, categoryId, teamName: 'Ana & Bea', athletes, customFields, waiversAccepted,
        legalSignature, termsAccepted: true, purchaserEmail: 'ana@example.com', purchaserName: 'Ana Example',
        idempotencyKey, successUrl: 'http://localhost:5173/thanks', cancelUrl: 'http://localhost:5173/cart' },
    });
    await podium.post('/organizer/test/checkout-sessions/{sessionId}/complete', { path: { sessionId: session.sessionId } });
  } catch (err) {
    if (err instanceof PodiumError) console.error(err.code, err.requestId, err.problems);
    else throw err;
  }

  createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      try {
        const hook = verifyWebhook(endpoint.secret, req.headers, Buffer.concat(chunks));
        if (hook.type === 'order.completed') console.log(hook.data.object.orderId, hook.data.livemode);
        res.writeHead(204).end();
      } catch {
        res.writeHead(401).end();
      }
    });
  }).listen(3000);
}
