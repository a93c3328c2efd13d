import { call } from '../api.js';
import { h, money, show } from '../dom.js';
import { clearErrors, pageError, showErrors } from '../errors.js';
import { checkbox, field, registrationBlock, select, text } from '../form.js';
import { signaturePad } from '../signature.js';
import { offerOfPage } from './waitlist.js';

const MAX_GUESTS = 10;

// The registration form of a category: the team and its athletes, supplements, guests,
// waivers with a drawn signature, promocode and purchaser; then the checkout summary and the
// payment session, whose page the browser goes to.
export async function registerPage(eventId, categoryId) {
  const back = h('p', {}, h('a', { href: `#/events/${encodeURIComponent(eventId)}` }, '← Back to the event'));
  show(back, h('p', { class: 'muted' }, 'Loading…'));
  let ev;
  try {
    ev = await call('GET', `/events/${encodeURIComponent(eventId)}`);
  } catch (err) {
    show(back, pageError(err));
    return;
  }
  const category = ev.categories.find((c) => c.id === categoryId);
  if (!category) {
    show(back, h('div', { class: 'page-error' }, 'This category is not open for registration.'));
    return;
  }
  const main = registrationBlock(ev, category, '');
  const supplements = supplementInputs(ev);
  const guests = guestList(ev);
  const waivers = waiverInputs(ev);
  const purchase = {
    promocode: text('promocode', { maxLength: 64, autocapitalize: 'characters' }),
    purchaserName: text('purchaserName', { autocomplete: 'name', maxLength: 120 }),
    purchaserEmail: h('input', { type: 'email', dataset: { path: 'purchaserEmail' }, autocomplete: 'email' }),
    termsAccepted: checkbox('termsAccepted'),
  };
  const summaryBox = h('section', { class: 'summary', hidden: true });
  const form = h('form', { class: 'register', novalidate: true },
    h('div', { class: 'form-errors', role: 'alert', hidden: true }),
    h('fieldset', {}, h('legend', {}, category.name), main.el),
    supplements.el, guests.el, waivers.el,
    h('fieldset', {}, h('legend', {}, 'Purchase'),
      field('Promocode (optional)', purchase.promocode),
      field('Your name', purchase.purchaserName), field('Your e-mail (receipts go here)', purchase.purchaserEmail),
      field('I accept the terms and conditions', purchase.termsAccepted)),
    h('button', { type: 'submit', id: 'review' }, 'Review order'),
    summaryBox,
  );

  // body is the purchase as the session takes it, without idempotencyKey and URLs.
  const body = () => {
    const out = { eventId: ev.id, categoryId: category.id, ...main.collect(), ...supplements.collect(), ...waivers.collect(),
      termsAccepted: purchase.termsAccepted.checked, purchaserName: purchase.purchaserName.value.trim(),
      purchaserEmail: purchase.purchaserEmail.value.trim() };
    const guestRegistrations = guests.collect();
    if (guestRegistrations.length > 0) {
      guestRegistrations.forEach((g) => { g.waiversAccepted = out.waiversAccepted; });
      out.guestRegistrations = guestRegistrations;
    }
    const code = purchase.promocode.value.trim().toUpperCase();
    if (code) out.promocode = code;
    return out;
  };
  const checkout = new Checkout(ev, category);
  form.addEventListener('input', () => { summaryBox.hidden = true; });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors(form);
    try {
      const purchaseBody = body();
      const summary = await call('POST', '/checkout/registration/summary', summaryRequest(purchaseBody));
      summaryBox.replaceChildren(...summaryView(summary, ev), h('button', { type: 'button', id: 'pay', onclick: () => checkout.pay(form, purchaseBody) }, `Pay ${money(summary.total, summary.currency)}`));
      summaryBox.hidden = false;
      summaryBox.scrollIntoView({ block: 'start' });
    } catch (err) {
      showErrors(form, err);
    }
  });
  show(back, h('h1', {}, `Register: ${ev.name}`), form);
}

// Checkout opens the payment session of a purchase. A purchase intent (the same body) keeps
// its idempotency key across retries, so a retried request never holds or charges twice.
class Checkout {
  constructor(ev, category) {
    this.ev = ev;
    this.category = category;
    this.intent = null;
  }

  async pay(form, purchaseBody) {
    const json = JSON.stringify(purchaseBody);
    if (this.intent?.json !== json) this.intent = { json, key: `web-${crypto.randomUUID()}` };
    const origin = location.origin;
    const offer = offerOfPage(); // opened from a waitlist offer's link: buy the place it holds
    const request = { ...purchaseBody, idempotencyKey: this.intent.key, ...(offer && { waitlistOffer: offer }),
      successUrl: `${origin}/#/success/${encodeURIComponent(this.ev.id)}`,
      cancelUrl: `${origin}/#/events/${encodeURIComponent(this.ev.id)}/register/${encodeURIComponent(this.category.id)}` };
    const button = form.querySelector('#pay');
    button.disabled = true;
    try {
      const session = await call('POST', '/checkout/registration/session', request);
      sessionStorage.setItem('podium.purchase', JSON.stringify({ eventId: this.ev.id, email: purchaseBody.purchaserEmail }));
      window.location = session.sessionUrl;
    } catch (err) {
      button.disabled = false;
      showErrors(form, err);
    }
  }
}

function summaryRequest(b) {
  const out = { categoryId: b.categoryId, purchaserEmail: b.purchaserEmail,
    selectedSupplementIds: b.selectedSupplementIds, supplementSelections: b.supplementSelections };
  if (b.promocode) out.promocode = b.promocode;
  if (b.guestRegistrations) out.guestRegistrations = b.guestRegistrations.map((g) => ({ categoryId: g.categoryId }));
  return out;
}

function summaryView(s, ev) {
  const names = Object.fromEntries(ev.categories.map((c) => [c.id, c.name]));
  const row = (label, amount, cls) => h('tr', { class: cls }, h('td', {}, label), h('td', { class: 'amount' }, money(amount, s.currency)));
  return [
    h('h2', {}, 'Order summary'),
    h('table', {},
      s.lineItems.map((l) => [
        row(`${l.kind === 'GUEST' ? `Guest ${l.guestIndex + 1}: ` : ''}${l.categoryName ?? names[l.categoryId] ?? l.categoryId}`, l.price),
        (l.supplements ?? []).map((sup) => row(`  + ${sup.name ?? sup.supplementId}`, sup.amount, 'sub')),
      ]),
      row('Subtotal', s.subtotal, 'subtotal'),
      s.discount > 0 && row(`Discount${s.promocode ? ` (${s.promocode.code})` : ''}`, -s.discount),
      s.fees > 0 && row('Fees', s.fees),
      row('Total', s.total, 'total')),
    s.promocode && !s.promocode.applied && h('p', { class: 'field-error' }, `Promocode ${s.promocode.code} not applied: ${s.promocode.reason ?? ''}`),
  ];
}

// The event's active supplements: single-price ones ticked, ones with options chosen.
function supplementInputs(ev) {
  if (ev.supplements.length === 0) return { el: '', collect: () => ({}) };
  const rows = ev.supplements.map((s) => {
    const per = s.per === 'ATHLETE' ? ' per athlete' : '';
    if (s.kind === 'SINGLE_PRICE') {
      return { s, input: checkbox('selectedSupplementIds', { value: s.id, dataset: { names: s.id } }), label: `${s.name}: ${money(s.price, s.currency)}${per}` };
    }
    const options = [['', 'None'], ...s.options.map((o) => [o.id, `${o.name}: ${money(o.price, s.currency)}${per}`])];
    return { s, input: select('supplementSelections', options, { dataset: { names: s.id } }), label: s.name };
  });
  return {
    el: h('fieldset', {}, h('legend', {}, 'Extras'), rows.map((r) => field(r.label, r.input))),
    collect: () => ({
      selectedSupplementIds: rows.filter((r) => r.s.kind === 'SINGLE_PRICE' && r.input.checked).map((r) => r.s.id),
      supplementSelections: rows.filter((r) => r.s.kind === 'OPTIONS' && r.input.value).map((r) => ({ supplementId: r.s.id, optionId: r.input.value })),
    }),
  };
}

// Guests: registrations the buyer pays for someone else, each in a category of its own.
function guestList(ev) {
  const guests = [];
  const box = h('div', { class: 'guests' });
  const addGuest = () => {
    if (guests.length >= MAX_GUESTS) return;
    const i = guests.length;
    const prefix = `guestRegistrations[${i}].`;
    const name = text(`${prefix}guestName`, { maxLength: 200 });
    const email = h('input', { type: 'email', dataset: { path: `${prefix}guestEmail` } });
    const categorySelect = select(`${prefix}categoryId`, ev.categories.map((c) => [c.id, c.name]));
    const slot = h('div');
    let block;
    const setCategory = () => {
      block = registrationBlock(ev, ev.categories.find((c) => c.id === categorySelect.value), prefix);
      slot.replaceChildren(block.el);
    };
    categorySelect.addEventListener('change', setCategory);
    setCategory();
    const el = h('fieldset', { class: 'guest' }, h('legend', {}, `Guest ${i + 1}`),
      field("Guest's name", name), field("Guest's e-mail", email), field('Category', categorySelect), slot);
    guests.push({ el, collect: () => ({ guestName: name.value.trim(), guestEmail: email.value.trim(), categoryId: categorySelect.value, ...block.collect() }) });
    box.append(el);
  };
  const removeGuest = () => guests.pop()?.el.remove();
  return {
    el: h('fieldset', { dataset: { path: 'guestRegistrations' } }, h('legend', {}, 'Guests'),
      h('p', { class: 'muted' }, 'Register others in the same purchase; the waivers you sign cover them too.'), box,
      h('button', { type: 'button', class: 'secondary', onclick: addGuest }, 'Add a guest'), ' ',
      h('button', { type: 'button', class: 'secondary', onclick: removeGuest }, 'Remove the last guest')),
    collect: () => guests.map((g) => g.collect()),
  };
}

// The event's waivers, each accepted with a tick, and the signature that signs them.
function waiverInputs(ev) {
  if (ev.waivers.length === 0) return { el: '', collect: () => ({}) };
  const accepted = ev.waivers.map((w) => ({ w, input: checkbox(`waiversAccepted["${w.id}"]`) }));
  const signerName = text('legalSignature.signerName', { maxLength: 160 });
  const signerIdNumber = text('legalSignature.signerIdNumber', { maxLength: 80 });
  const authority = checkbox('legalSignature.authorityAccepted');
  const guardian = checkbox('legalSignature.guardianAuthorityAccepted');
  const canvas = h('canvas', { id: 'signature', width: 600, height: 180, dataset: { path: 'legalSignature.strokes' } });
  const pad = signaturePad(canvas);
  const el = h('fieldset', { dataset: { path: 'waiversAccepted' } }, h('legend', {}, 'Waivers and signature'),
    accepted.map(({ w, input }) => h('div', { class: 'waiver' },
      h('details', {}, h('summary', {}, `${w.title} (version ${w.version})`), h('p', { class: 'waiver-text' }, w.text)),
      field(`I accept “${w.title}”${w.forMinors ? ' (required when an athlete is under 18)' : ''}`, input))),
    h('div', { dataset: { path: 'legalSignature' } },
      field('Signer’s full name', signerName), field('Signer’s ID document number', signerIdNumber),
      field('I have the authority to sign for everyone registered', authority),
      field('I am the parent or legal guardian of the athletes under 18', guardian),
      h('div', { class: 'field' }, h('span', {}, 'Sign here'), canvas,
        h('button', { type: 'button', class: 'secondary', onclick: () => pad.clear() }, 'Clear the signature'))));
  return {
    el,
    collect: () => {
      const signature = { signerName: signerName.value.trim(), signerIdNumber: signerIdNumber.value.trim(),
        authorityAccepted: authority.checked, locale: 'en',
        waiverVersions: ev.waivers.map((w) => ({ waiverId: w.id, version: w.version })), strokes: pad.strokes() };
      if (guardian.checked) signature.guardianAuthorityAccepted = true;
      return { waiversAccepted: Object.fromEntries(accepted.map(({ w, input }) => [w.id, input.checked])), legalSignature: signature };
    },
  };
}
