import { ApiError, BlockedError } from './api.js';
import { h } from './dom.js';

// showErrors puts each problem of err next to the input of form whose data-path names its
// field (or the nearest enclosing one: legalSignature.strokes[2] goes to the signature pad of
// legalSignature.strokes), and the rest in the form's .form-errors box at the top. Each note
// carries the problem's path and code, and the refusal's code (promocode_invalid).
export function showErrors(form, err) {
  clearErrors(form);
  const box = form.querySelector('.form-errors');
  const general = [];
  if (err instanceof ApiError && err.problems.length > 0) {
    for (const p of err.problems) {
      const input = inputFor(form, formPath(p.path), p.message);
      if (input) place(input, p, err.code);
      else general.push(p);
    }
  } else if (err instanceof ApiError) {
    general.push(...err.messages.map((message) => ({ path: '', code: err.code, message })));
  } else if (err instanceof BlockedError) {
    general.push({ path: '', code: 'blocked', message: err.message });
  } else {
    general.push({ path: '', code: 'unexpected', message: String(err) });
  }
  if (general.length > 0) {
    box.replaceChildren(h('ul', {}, general.map((p) => h('li', { dataset: { code: p.code, path: p.path } }, p.message))));
    box.hidden = false;
  }
  form.querySelector('[aria-invalid="true"]')?.focus();
  (box.hidden ? form.querySelector('.field-error') : box)?.scrollIntoView({ block: 'center' });
}

export function clearErrors(form) {
  form.querySelectorAll('.field-error').forEach((e) => e.remove());
  form.querySelectorAll('[aria-invalid]').forEach((e) => e.removeAttribute('aria-invalid'));
  const box = form.querySelector('.form-errors');
  box.replaceChildren();
  box.hidden = true;
}

// formPath is the form's path of a problem's field: the waivers the buyer accepts are sent for
// every guest too.
function formPath(path) {
  return path.replace(/^guestRegistrations\[\d+\]\.waiversAccepted/, 'waiversAccepted');
}

// inputFor finds the element whose data-path is path, else the longest data-path path starts
// with, followed by "." or "[". Of elements sharing a path (a supplement's checkboxes, the
// unanswered form fields), it takes the one whose data-names words the message all mentions.
function inputFor(form, path, message) {
  const exact = [];
  let best = null;
  for (const el of form.querySelectorAll('[data-path]')) {
    const p = el.dataset.path;
    if (!p) continue;
    if (p === path) exact.push(el);
    else if ((path.startsWith(`${p}.`) || path.startsWith(`${p}[`)) && p.length > (best?.dataset.path.length ?? 0)) best = el;
  }
  const named = (el) => (el.dataset.names ?? '').split(' ').every((w) => message.includes(w));
  return exact.find(named) ?? exact[0] ?? best;
}

// place shows a problem under its input, after the notes already there.
function place(input, problem, errorCode) {
  input.setAttribute('aria-invalid', 'true');
  let anchor = input.closest('label') ?? input;
  while (anchor.nextElementSibling?.classList.contains('field-error')) anchor = anchor.nextElementSibling;
  anchor.after(h('p', { class: 'field-error', dataset: { code: problem.code, errorCode, path: problem.path } }, problem.message));
}

// pageError is a whole page's failure to load.
export function pageError(err) {
  const code = err instanceof ApiError ? err.code : err instanceof BlockedError ? 'blocked' : '';
  return h('div', { class: 'page-error', role: 'alert', dataset: { code } }, err.message);
}
