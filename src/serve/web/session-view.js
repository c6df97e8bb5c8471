// dialogym: the session state of a person in an environment's dialog, rendered the one way the
// pages that show it share (`serve --env`'s page, env.js, and the study participant's page,
// study.js; served at /session-view.js): the goal card, the dialog's turns with the agent's tool
// calls, what an agent sees (tables, lists), a tool form's values typed by its schema, and the
// outcome's look. Every string goes through textContent (dom.js's `el`), never innerHTML.

import { $, el } from './dom.js';

const argText = (v) => (typeof v === 'string' ? v : JSON.stringify(v));

/** A tool call in words: `name(arg=value, …)`. */
export const callText = (call) => `${call.tool}(${Object.entries(call.arguments ?? {}).map(([k, v]) => `${k}=${argText(v)}`).join(', ')})`;

/** The goal card in #goal (#goal-title, #goal-lines), hidden without one. */
export function renderGoal(card) {
  $('goal').hidden = !card;
  if (!card) return;
  $('goal-title').textContent = card.title;
  $('goal-lines').replaceChildren(...card.lines.map((l) => el('li', {}, l)));
}

/**
 * The dialog's turns as list items: consecutive KB lines (one search's results) as one block; each
 * other turn a `who` label and its text (a tool call in words when the text is only the call's
 * JSON), and on the agent side the call under the agent's words. `names`: how the other sides are
 * called ({user, agent}); `pending`: the last turn is the person's, not answered yet.
 */
export function turnItems(turns, role, { names = { user: 'user', agent: 'agent' }, pending = false } = {}) {
  const items = [];
  turns.forEach((t, i) => {
    const prev = items[items.length - 1];
    if (t.speaker === 'kb') {
      if (prev && prev.classList.contains('kb')) prev.textContent += `\n${t.text}`;
      else items.push(el('li', { class: 'kb', 'data-speaker': 'kb', 'data-testid': 'kb-lines', 'aria-label': 'results' }, t.text));
      return;
    }
    const mine = t.speaker === role;
    const waiting = pending && mine && i === turns.length - 1;
    const who = mine ? 'you' : names[t.speaker] ?? t.speaker;
    const text = t.tool && (t.text === '' || /^[[{]/.test(t.text.trim())) ? callText(t.tool) : t.text;
    const li = el('li', { class: `${mine ? 'me' : 'other'}${t.tool ? ' tool' : ''}${waiting ? ' pending' : ''}`, 'data-speaker': t.speaker, 'data-testid': mine ? 'my-turn' : 'other-turn' }, el('span', { class: 'who' }, waiting ? `${who} (sending…)` : who), el('span', { class: 'text' }, text));
    if (t.tool && role === 'agent' && !text.includes(t.tool.tool)) li.append(el('span', { class: 'call', 'data-testid': 'tool-call' }, callText(t.tool)));
    items.push(li);
  });
  return items;
}

/** What an agent sees, one block per section: its title, then a table (scrolling in its frame) or a list. */
export function viewSections(sections) {
  return (sections ?? []).map((s) => {
    const box = el('div', { 'data-testid': 'view-section' }, el('h3', {}, s.title));
    if (s.kind === 'table') {
      const head = el('tr', {}, ...s.columns.map((c) => el('th', { scope: 'col' }, c)));
      const rows = s.rows.map((r) => el('tr', {}, ...r.map((c) => el('td', {}, c))));
      box.append(el('div', { class: 'table-wrap' }, el('table', {}, el('thead', {}, head), el('tbody', {}, ...rows))));
    } else box.append(el('ul', {}, ...s.lines.map((l) => el('li', {}, l))));
    return box;
  });
}

/** A tool form's raw value as its schema types it (numbers, a comma-separated list); undefined for an empty one. */
export function typedValue(schema, raw) {
  if (schema.type === 'boolean') return raw === true || raw === 'true';
  const v = String(raw).trim();
  if (v === '') return undefined;
  if (Array.isArray(schema.enum)) return schema.enum.find((x) => String(x) === v) ?? v;
  if (schema.type === 'integer' || schema.type === 'number') return Number(v);
  if (schema.type === 'array') {
    const items = v.split(',').map((x) => x.trim()).filter((x) => x !== '');
    const t = schema.items && schema.items.type;
    return t === 'integer' || t === 'number' ? items.map(Number) : items;
  }
  return v;
}

/** The look of an ended dialog: success, failure, or over without a judgement (a free chat). */
export const outcomeClass = (outcome) => (outcome ? (outcome.success ? 'success' : 'failure') : 'over');
