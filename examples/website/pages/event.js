import { call } from '../api.js';
import { dateRange, h, money, show } from '../dom.js';
import { pageError } from '../errors.js';
import { waitlistForm } from './waitlist.js';

// An event with one pricing card per category.
export async function eventPage(eventId) {
  show(h('p', { class: 'muted' }, 'Loading…'));
  try {
    const id = encodeURIComponent(eventId);
    const [ev, pricing] = await Promise.all([call('GET', `/events/${id}`), call('GET', `/events/${id}/pricing-cards`)]);
    const categories = Object.fromEntries(ev.categories.map((c) => [c.id, c]));
    show(
      h('p', {}, h('a', { href: '#/' }, '← All events')),
      h('h1', {}, ev.name),
      h('p', { class: 'muted' }, dateRange(ev.startDate, ev.endDate), ' · ',
        [ev.location.venue, ev.location.address, ev.location.city].filter(Boolean).join(', ')),
      h('p', {}, ev.description),
      h('div', { class: 'cards' }, pricing.cards.map((card) => pricingCard(ev, categories[card.categoryId], card, pricing.currency))),
      ev.sponsors.length > 0 && h('p', { class: 'muted' }, 'Sponsors: ', ev.sponsors.map((s) => s.name).join(', ')),
    );
  } catch (err) {
    show(h('p', {}, h('a', { href: '#/' }, '← All events')), pageError(err));
  }
}

function pricingCard(ev, category, card, currency) {
  const soldOut = card.availableCount === 0;
  const team = category.teamSize.min === category.teamSize.max ? `${category.teamSize.min}` : `${category.teamSize.min}–${category.teamSize.max}`;
  const ages = [category.ageMin !== null && `${category.ageMin}+`, category.ageMax !== null && `up to ${category.ageMax}`].filter(Boolean).join(', ');
  return h('section', { class: 'card pricing-card', dataset: { category: card.categoryId } },
    h('h2', {}, card.name),
    h('p', { class: 'muted' }, `Team of ${team} · ${category.gender.toLowerCase()}`, ages && ` · ${ages}`),
    h('p', { class: 'price' }, money(card.activePrice, currency),
      card.activePrice !== card.basePrice && h('s', { class: 'muted' }, money(card.basePrice, currency))),
    h('p', { class: 'places' },
      card.quota === null ? `${card.registeredCount} registered · unlimited places`
        : `${card.registeredCount} registered · ${card.availableCount} of ${card.quota} places left`),
    card.tiers.length > 0 && h('ul', { class: 'tiers' }, card.tiers.map((t) =>
      h('li', { class: t.active ? 'active' : '' }, `${t.name ?? 'Tier'}: ${money(t.price, currency)}`, tierLimits(t, ev.timezone), t.active && ' (now)'))),
    soldOut ? waitlistForm(ev, category)
      : h('a', { class: 'button', href: `#/events/${encodeURIComponent(ev.id)}/register/${encodeURIComponent(card.categoryId)}` }, 'Register'),
  );
}

// tierLimits words a tier's conditions; its dates are days in the event's time zone, the end
// one excluded.
function tierLimits(t, timeZone) {
  const day = (at) => new Date(at).toLocaleDateString('en-CA', { timeZone });
  const limits = [];
  if (t.startsAt) limits.push(`from ${day(t.startsAt)}`);
  if (t.endsAt) limits.push(`before ${day(t.endsAt)}`);
  if (t.upToCount) limits.push(`first ${t.upToCount} places`);
  return limits.length > 0 ? ` (${limits.join(', ')})` : '';
}
