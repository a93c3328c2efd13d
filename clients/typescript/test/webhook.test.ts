import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';

import { Webhook, WebhookVerificationError } from 'standardwebhooks';

import { verifyWebhook } from '@podium/client';

const body = JSON.stringify({
  type: 'order.completed',
  timestamp: '2026-05-09T18:03:21.447Z',
  data: {
    objectId: 'ord_4Zx6Cv8Bn0Mq2Wr4Ty6Ui8Op',
    sequence: 3,
    livemode: false,
    object: { orderId: 'ord_4Zx6Cv8Bn0Mq2Wr4Ty6Ui8Op', status: 'COMPLETED', amount: 10650, currency: 'EUR' },
  },
});

const newSecret = () => 'whsec_' + randomBytes(32).toString('base64');

/** The headers of a message signed at `at` with each of the secrets. */
function signed(payload: string, at: Date, ...secrets: string[]): Record<string, string> {
  const id = 'msg_2Kq4Ws6Ed8Rf0Tg2Yh4Uj6Ik';
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, payload)).join(' '),
  };
}

test('a valid message is verified and typed by its type', () => {
  const secret = newSecret();
  const e = verifyWebhook(secret, new Headers(signed(body, new Date(), secret)), Buffer.from(body));
  assert.equal(e.id, 'msg_2Kq4Ws6Ed8Rf0Tg2Yh4Uj6Ik');
  assert.equal(e.type, 'order.completed');
  if (e.type === 'order.completed') {
    assert.equal(e.data.object.amount, 10650);
    assert.equal(e.data.livemode, false);
  }
});

test('a tampered body, another secret and an old timestamp are refused', () => {
  const secret = newSecret();
  const now = signed(body, new Date(), secret);
  assert.throws(() => verifyWebhook(secret, now, body.replace('10650', '1')), WebhookVerificationError);
  assert.throws(() => verifyWebhook(newSecret(), now, body), WebhookVerificationError);
  const old = signed(body, new Date(Date.now() - 6 * 60 * 1000), secret);
  assert.throws(() => verifyWebhook(secret, old, body), WebhookVerificationError);
  assert.throws(() => verifyWebhook(secret, {}, body), WebhookVerificationError);
});

test('during a rotation either secret verifies the message signed with both', () => {
  const previous = newSecret();
  const current = newSecret();
  // node:http gives header names in lower case, possibly as arrays.
  const h = signed(body, new Date(), previous, current);
  for (const s of [previous, current]) {
    assert.equal(verifyWebhook(s, h, body).data.objectId, 'ord_4Zx6Cv8Bn0Mq2Wr4Ty6Ui8Op');
  }
  assert.throws(() => verifyWebhook(newSecret(), h, body), WebhookVerificationError);
});
