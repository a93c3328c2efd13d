// h builds an element: h('p', {class: 'x', onclick: fn}, 'text', child, [more children]).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) el.addEventListener(name.slice(2), value);
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name in el && typeof value !== 'string') el[name] = value;
    else el.setAttribute(name, value === true ? '' : value);
  }
  el.append(...children.flat().filter((c) => c !== undefined && c !== null && c !== false));
  return el;
}

// money writes an amount in minor units of currency.
export function money(minor, currency) {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 100);
}

// dateRange writes an event's first and last days.
export function dateRange(start, end) {
  return start === end ? start : `${start} – ${end}`;
}

// show replaces the page's content.
export function show(...nodes) {
  document.getElementById('app').replaceChildren(...nodes);
}
