import { call } from '../api.js';
import { h } from '../dom.js';

// waitlistForm lets a buyer join a sold-out category's waitlist. The offer mailed when a place
// frees up links back to the category's registration page with ?waitlistOffer=…, which the
// purchase then sends (see offerOfPage).
export function waitlistForm(ev, category) {
  const email = h('input', { type: 'email', name: 'email', required: true, autocomplete: 'email', placeholder: 'you@example.com' });
  const name = h('input', { name: 'name', required: true, minLength: 2, autocomplete: 'name', placeholder: 'Your name' });
  const status = h('p', { class: 'muted', role: 'status' });
  const button = h('button', { type: 'submit' }, 'Join the waitlist');
  const form = h('form', { class: 'waitlist', onsubmit: async (e) => {
    e.preventDefault();
    button.disabled = true;
    const offerPage = `${location.origin}${location.pathname}#/events/${encodeURIComponent(ev.id)}/register/${encodeURIComponent(category.id)}`;
    try {
      const entry = await call('POST', `/events/${encodeURIComponent(ev.id)}/waitlist`, {
        categoryId: category.id, email: email.value.trim(), name: name.value.trim(), teamSize: category.teamSize.min, offerUrl: offerPage,
      });
      form.replaceChildren(h('p', { class: 'joined' }, entry.position
        ? `You are number ${entry.position} on the waitlist. We will e-mail you when a place is yours.`
        : 'A place is already held for you: check your e-mail.'));
    } catch (err) {
      button.disabled = false;
      status.textContent = err.message;
    }
  } }, h('p', {}, 'Sold out'), email, name, button, status);
  return form;
}

// offerOfPage is the waitlist offer the page was opened with (the offer mail's link), if any.
export function offerOfPage() {
  return new URLSearchParams(location.search).get('waitlistOffer') ?? '';
}
