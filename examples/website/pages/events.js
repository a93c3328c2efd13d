import { call } from '../api.js';
import { dateRange, h, show } from '../dom.js';
import { pageError } from '../errors.js';

// The organizer's published events.
export async function eventsPage() {
  show(h('h1', {}, 'Events'), h('p', { class: 'muted' }, 'Loading…'));
  try {
    const list = await call('POST', '/events/search', { limit: 50 });
    show(
      h('h1', {}, 'Events'),
      list.data.length === 0 ? h('p', {}, 'No events are open yet.') : h('ul', { class: 'event-list' }, list.data.map((ev) =>
        h('li', { class: 'card' },
          h('h2', {}, h('a', { href: `#/events/${encodeURIComponent(ev.id)}` }, ev.name)),
          h('p', {}, dateRange(ev.startDate, ev.endDate), ' · ', [ev.location.venue, ev.location.city].filter(Boolean).join(', '))))),
    );
  } catch (err) {
    show(h('h1', {}, 'Events'), pageError(err));
  }
}
