import { call } from '../api.js';
import { h, show } from '../dom.js';
import { pageError } from '../errors.js';

// Waits between receipt lookups while the payment is confirmed (a few: lookups are limited).
const LOOKUP_DELAYS = [0, 1500, 3000, 6000];

// Back from the payment page: the purchase's receipts, once the payment is confirmed.
export async function successPage(eventId) {
  const purchase = JSON.parse(sessionStorage.getItem('podium.purchase') ?? '{}');
  const status = h('p', { id: 'receipt-status' }, 'Payment received. Confirming your registration…');
  show(h('h1', {}, 'Thank you!'), status);
  if (!purchase.email || purchase.eventId !== eventId) {
    status.textContent = 'Payment received. Your receipt is on its way by e-mail.';
    return;
  }
  try {
    for (const delay of LOOKUP_DELAYS) {
      await new Promise((resolve) => { setTimeout(resolve, delay); });
      const found = await call('POST', `/events/${encodeURIComponent(eventId)}/registration-receipts/lookup`, { email: purchase.email });
      if (found.found) {
        status.replaceWith(receipts(eventId, purchase, found.count));
        return;
      }
    }
    status.textContent = `Your payment is being confirmed. The receipt will be sent to ${purchase.email}.`;
  } catch (err) {
    status.replaceWith(pageError(err));
  }
}

function receipts(eventId, purchase, count) {
  const sent = h('p', { class: 'muted' });
  const send = async () => {
    try {
      const res = await call('POST', `/events/${encodeURIComponent(eventId)}/registration-receipts/send`, { email: purchase.email });
      sent.textContent = `${res.count} receipt${res.count === 1 ? '' : 's'} sent to ${purchase.email}.`;
    } catch (err) {
      sent.replaceWith(pageError(err));
    }
  };
  return h('section', { id: 'receipts', class: 'card' },
    h('p', {}, 'Your registration is confirmed.'),
    h('p', { id: 'receipt-count' }, `${count} receipt${count === 1 ? '' : 's'} for ${purchase.email}`),
    h('button', { type: 'button', onclick: send }, 'E-mail me my receipts'), sent);
}
