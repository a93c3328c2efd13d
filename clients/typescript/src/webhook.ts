import { Webhook } from 'standardwebhooks';
import type { webhooks } from './schema.js';

/** The webhook types, and `ping`. */
export type WebhookType = keyof webhooks;

type BodyOf<T extends WebhookType> = NonNullable<webhooks[T]['post']> extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** A verified webhook: its body, typed by `type`, and its message id. */
export type WebhookEvent = {
  [T in WebhookType]: BodyOf<T> & {
    /** The message id (webhook-id), the same on every retry: the key to handle it once. */
    id: string;
  };
}[WebhookType];

/** Request headers as fetch's Request or node:http's IncomingMessage give them. */
export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

const signed = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/**
 * Checks a webhook's signature with the endpoint's signing secret (`whsec_...`) by the
 * Standard Webhooks library and returns its body. Throws (a WebhookVerificationError) for a
 * body or headers changed on the way, another secret's signature, or a timestamp more than five
 * minutes from now. While a rotated secret's predecessor still signs, both signatures come and
 * either secret verifies. Pass the body exactly as received, not parsed and re-serialized.
 */
export function verifyWebhook(secret: string, headers: HeadersLike, body: string | Uint8Array): WebhookEvent {
  const h: Record<string, string> = {};
  for (const name of signed) {
    const v = headers instanceof Headers ? headers.get(name) : pick(headers, name);
    if (v) h[name] = v;
  }
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const event = new Webhook(secret).verify(payload, h) as Omit<WebhookEvent, 'id'>;
  return { ...event, id: h['webhook-id'] ?? '' } as WebhookEvent;
}

function pick(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(' ') : v;
  }
  return undefined;
}
