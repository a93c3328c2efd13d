import { eventsPage } from './pages/events.js';
import { eventPage } from './pages/event.js';
import { registerPage } from './pages/register.js';
import { successPage } from './pages/success.js';

// Hash routes: #/, #/events/<id>, #/events/<id>/register/<category id>, #/success/<id>.
const routes = [
  [/^#?\/?$/, eventsPage],
  [/^#\/events\/([^/]+)$/, eventPage],
  [/^#\/events\/([^/]+)\/register\/([^/]+)$/, registerPage],
  [/^#\/success\/([^/]+)$/, successPage],
];

function route() {
  for (const [pattern, page] of routes) {
    const m = location.hash.match(pattern);
    if (m) {
      page(...m.slice(1).map(decodeURIComponent));
      window.scrollTo(0, 0);
      return;
    }
  }
  location.hash = '#/';
}

window.addEventListener('hashchange', route);
route();
