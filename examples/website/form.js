import { h } from './dom.js';

// Builders of the registration form's inputs. Every input carries data-path, the API's path of
// the field it fills, so that the API's problems can be shown next to it (errors.js).

export function field(label, input, hint) {
  return h('label', { class: input.type === 'checkbox' ? 'field check' : 'field' }, h('span', {}, label), input, hint && h('small', { class: 'muted' }, hint));
}

export function text(path, attrs = {}) {
  return h('input', { type: 'text', ...attrs, dataset: { path, ...attrs.dataset } });
}

export function checkbox(path, attrs = {}) {
  return h('input', { type: 'checkbox', ...attrs, dataset: { path, ...attrs.dataset } });
}

export function select(path, options, attrs = {}) {
  return h('select', { ...attrs, dataset: { path, ...attrs.dataset } }, options.map(([value, label]) => h('option', { value }, label)));
}

// A registration: team name, club, its athletes and the form fields that apply to its
// category. prefix is the path of the registration in the body ('' or
// 'guestRegistrations[0].'). collect() returns the registration's part of the body.
export function registrationBlock(ev, category, prefix) {
  const fields = ev.formFields.filter((f) => f.categoryIds.length === 0 || f.categoryIds.includes(category.id));
  const teamFields = fields.filter((f) => f.appliesTo === 'TEAM').map((f) => ({ f, input: customInput(f) }));
  const teamName = text(`${prefix}teamName`, { name: 'teamName', maxLength: 200 });
  const club = text(`${prefix}club`, { name: 'club', maxLength: 200 });
  const athletesBox = h('div', { class: 'athletes', dataset: { path: `${prefix}athletes` } });
  const athletes = [];
  const setCount = (n) => {
    while (athletes.length < n) {
      const a = athleteFieldset(fields, prefix, athletes.length);
      athletes.push(a);
      athletesBox.append(a.el);
    }
    while (athletes.length > n) athletes.pop().el.remove();
  };
  const { min, max } = category.teamSize;
  setCount(min);
  const count = min === max ? null : h('input', { type: 'number', min, max, value: String(min), onchange: (e) => setCount(Math.min(max, Math.max(min, Number(e.target.value) || min))) });

  const el = h('div', { class: 'registration' },
    field(category.teamSize.max > 1 ? 'Team name' : 'Name shown in the results', teamName),
    field('Club, gym or affiliation (optional)', club),
    teamFields.map(({ f, input }) => field(f.label + (f.required ? '' : ' (optional)'), input)),
    count && field(`Athletes (${min} to ${max})`, count),
    athletesBox,
  );
  const collect = () => {
    // An answer's problems name it by its index in customFields; an unanswered field's, as
    // customFields with the field's id and the athlete.
    const customFields = [];
    const answer = (f, input, athleteIndex) => {
      const value = customValue(f, input);
      input.dataset.names = athleteIndex === undefined ? f.id : `${f.id} athletes[${athleteIndex}]`;
      if (value === undefined) {
        input.dataset.path = `${prefix}customFields`;
        return;
      }
      input.dataset.path = `${prefix}customFields[${customFields.length}]`;
      customFields.push(athleteIndex === undefined ? { fieldId: f.id, value } : { fieldId: f.id, value, athleteIndex });
    };
    teamFields.forEach(({ f, input }) => answer(f, input));
    athletes.forEach((a, i) => a.custom.forEach(({ f, input }) => answer(f, input, i)));
    const out = { teamName: teamName.value.trim(), athletes: athletes.map((a) => a.collect()), customFields };
    if (club.value.trim()) out.club = club.value.trim();
    return out;
  };
  return { el, collect };
}

function athleteFieldset(fields, prefix, i) {
  const path = (name) => `${prefix}athletes[${i}].${name}`;
  const inputs = {
    fullname: text(path('fullname'), { autocomplete: 'name', maxLength: 200 }),
    email: h('input', { type: 'email', dataset: { path: path('email') }, autocomplete: 'email' }),
    phone: h('input', { type: 'tel', dataset: { path: path('phone') }, placeholder: '+34600111222', autocomplete: 'tel' }),
    gender: select(path('gender'), [['', 'Choose…'], ['FEMALE', 'Female'], ['MALE', 'Male']]),
    birthDate: h('input', { type: 'date', dataset: { path: path('birthDate') } }),
    idNumber: text(path('idNumber'), { maxLength: 80 }),
  };
  const custom = fields.filter((f) => f.appliesTo === 'ATHLETE').map((f) => ({ f, input: customInput(f) }));
  const el = h('fieldset', { class: 'athlete' }, h('legend', {}, `Athlete ${i + 1}`),
    field('Full name', inputs.fullname), field('E-mail', inputs.email), field('Phone', inputs.phone, 'International form: +, country code, number'),
    field('Gender', inputs.gender), field('Date of birth', inputs.birthDate), field('ID document number', inputs.idNumber),
    custom.map(({ f, input }) => field(f.label + (f.required ? '' : ' (optional)'), input)));
  const collect = () => Object.fromEntries(Object.entries(inputs).map(([k, input]) => [k, input.value.trim()]));
  return { el, collect, custom };
}

// customInput is the input of a form field of the event.
function customInput(f) {
  switch (f.type) {
    case 'boolean': return h('input', { type: 'checkbox' });
    case 'number': return h('input', { type: 'number', step: 'any' });
    case 'date': return h('input', { type: 'date' });
    case 'select': return select('', [['', 'Choose…'], ...f.options.map((o) => [o, o])]);
    case 'multiselect': return select('', f.options.map((o) => [o, o]), { multiple: true });
    default: return h('input', { type: 'text', maxLength: 1000 });
  }
}

// customValue is the answer an input holds, undefined when it holds none.
function customValue(f, input) {
  switch (f.type) {
    case 'boolean': return input.checked;
    case 'number': return input.value === '' ? undefined : Number(input.value);
    case 'multiselect': {
      const chosen = [...input.selectedOptions].map((o) => o.value);
      return chosen.length > 0 ? chosen : undefined;
    }
    default: return input.value.trim() === '' ? undefined : input.value.trim();
  }
}
