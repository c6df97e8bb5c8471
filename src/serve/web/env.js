// dialogym: a person in an environment's dialog (`dialogym serve --env <id>`), over /api/env/….
// As the user: the goal card and, each turn, what the simulated user does now (the hint); you
// write the user's words, the agent answers; on a turn where the simulated user says nothing new
// (after an agent that waits) you may say something anyway, or let it pass ("Say nothing"). As the agent: what an agent sees (KB results, tables)
// and the environment's tools as forms; the simulated user talks. At the end: the outcome in words.
// No framework, no CDN; every string goes through textContent (never innerHTML).

import { $, api, el } from './dom.js';
import { outcomeClass, renderGoal, turnItems, typedValue, viewSections } from './session-view.js';

const log = $('log');
const form = $('form');
const input = $('text');
const sendButton = $('send');
const status = $('status');
const hint = $('hint');
const wordless = $('wordless');
const passButton = $('pass');
const tools = $('tools');
const toolSelect = $('tool');
const toolDescription = $('tool-description');
const fields = $('fields');
const callButton = $('call');
const outcome = $('outcome');
const endButton = $('end');

let info = null; // {env, role, free, maxText}
let id = null; // the session
let state = null;
let busy = false;
// A start or a send that finishes after a newer "New dialog" is dropped.
let generation = 0;
let shownTools = '';

function notice(text) {
  log.append(el('li', { class: 'notice', 'data-testid': 'notice' }, text));
  log.scrollTop = log.scrollHeight;
}

function renderView(sections) {
  const view = $('view');
  view.hidden = info.role !== 'agent';
  if (view.hidden) return;
  if (!sections || sections.length === 0) {
    view.replaceChildren(el('p', { class: 'empty', 'data-testid': 'view-empty' }, 'What the environment shows the agent (search results, tables) appears here.'));
    return;
  }
  view.replaceChildren(...viewSections(sections));
}

// One form control per argument of the tool's JSON schema: enum → select, integer/number → number,
// boolean → checkbox, array → comma-separated text, anything else → text.
function field(name, schema, required) {
  const label = `${name}${required ? '' : ' (optional)'}`;
  let control;
  if (Array.isArray(schema.enum)) {
    control = el('select', { name }, ...(required ? [] : [el('option', { value: '' }, '—')]), ...schema.enum.map((v) => el('option', { value: String(v) }, String(v))));
  } else if (schema.type === 'integer' || schema.type === 'number') {
    control = el('input', { name, type: 'number', step: schema.type === 'integer' ? '1' : 'any' });
  } else if (schema.type === 'boolean') {
    control = el('input', { name, type: 'checkbox' });
  } else if (schema.type === 'array') {
    control = el('input', { name, type: 'text', placeholder: 'values, separated by commas' });
  } else control = el('input', { name, type: 'text', maxLength: info.maxText });
  control.setAttribute('data-testid', `arg-${name}`);
  if (schema.description) control.title = schema.description;
  return el('label', {}, label, control);
}

function renderToolForm() {
  const tool = (state.tools || []).find((t) => t.function.name === toolSelect.value);
  if (!tool) return fields.replaceChildren();
  toolDescription.textContent = tool.function.description;
  const p = tool.function.parameters || {};
  const required = new Set(p.required || []);
  fields.replaceChildren(...Object.entries(p.properties || {}).map(([k, s]) => field(k, s, required.has(k))));
}

function renderTools(list) {
  tools.hidden = !list || list.length === 0;
  if (tools.hidden) return;
  const names = list.map((t) => t.function.name).join(',');
  if (names === shownTools) return; // keep what the person has filled in
  shownTools = names;
  toolSelect.replaceChildren(...list.map((t) => el('option', { value: t.function.name }, t.function.name)));
  renderToolForm();
}

// The arguments of the form, typed by the schema; an empty optional field is left out.
function toolArguments() {
  const tool = state.tools.find((t) => t.function.name === toolSelect.value);
  const props = (tool.function.parameters || {}).properties || {};
  const args = {};
  for (const [name, s] of Object.entries(props)) {
    const c = fields.querySelector(`[name="${CSS.escape(name)}"]`);
    if (!c) continue;
    const v = typedValue(s, s.type === 'boolean' ? c.checked : c.value);
    if (v !== undefined) args[name] = v;
  }
  return { tool: tool.function.name, arguments: args };
}

function render() {
  const s = state;
  log.replaceChildren(...turnItems(s.turns, info.role, { pending: s.waiting === 'other' }));
  log.scrollTop = log.scrollHeight;
  renderGoal(s.goalCard);
  renderView(s.agentView);
  const mine = s.waiting === 'person' && !busy;
  hint.hidden = !(s.hint && s.waiting === 'person');
  hint.textContent = s.hint || '';
  wordless.hidden = !(s.wordless && s.waiting === 'person');
  renderTools(s.waiting === 'ended' ? [] : s.tools);
  input.disabled = sendButton.disabled = callButton.disabled = passButton.disabled = !mine;
  endButton.disabled = s.waiting === 'ended';
  outcome.hidden = s.waiting !== 'ended';
  if (s.waiting === 'ended') {
    const lines = s.outcome ? s.outcome.lines : ['The dialog is over.'];
    outcome.className = outcomeClass(s.outcome);
    outcome.replaceChildren(...lines.map((l) => el('p', {}, l)));
    status.textContent = 'the dialog is over: start a new one when you like';
  } else status.textContent = s.waiting === 'person' ? 'your turn' : `the ${info.role === 'user' ? 'agent' : 'user'} is answering…`;
  if (mine) input.focus();
}

// After a send that came back while the other side was still answering: ask again until it has.
async function follow(gen) {
  while (gen === generation && state && state.waiting === 'other') {
    const r = await api('GET', `/api/env/sessions/${encodeURIComponent(id)}?wait=1`);
    if (gen !== generation) return;
    state = r.state;
    render();
  }
}

// This tab's dialog, kept across a reload (sessionStorage is per tab): a reload resumes it, its turns
// and the person's turn where they were (an accidental reload no longer abandons a dialog); "New
// dialog" starts another. A dialog the server no longer has (expired, a restart) starts afresh.
const KEPT = 'dialogym-env-session';
function kept(value) {
  try {
    if (value === undefined) return sessionStorage.getItem(KEPT);
    if (value === null) sessionStorage.removeItem(KEPT);
    else sessionStorage.setItem(KEPT, value);
  } catch {
    // storage off (a private mode): a reload starts a new dialog
  }
  return null;
}

async function start(resume = false) {
  const gen = ++generation;
  busy = true;
  shownTools = '';
  log.replaceChildren();
  status.textContent = 'starting a new dialog…';
  try {
    if (!info) {
      info = await api('GET', '/api/env');
      document.title = `dialogym · ${info.env}`;
      $('title').textContent = `${info.env} · you are the ${info.role}${info.free ? ' (free chat)' : ''}`;
    }
    const before = resume ? kept() : null;
    const r = (before ? await api('GET', `/api/env/sessions/${encodeURIComponent(before)}`).catch(() => null) : null) ?? (await api('POST', '/api/env/sessions', {}));
    if (gen !== generation) return;
    id = r.id;
    state = r.state;
    kept(id);
  } catch (e) {
    if (gen === generation) notice(`could not start: ${e.message}`);
    return;
  } finally {
    if (gen === generation) busy = false;
  }
  render();
  await follow(gen);
}

async function send(body) {
  if (busy || !state || state.waiting !== 'person') return false;
  const gen = generation;
  busy = true;
  render();
  try {
    const r = await api('POST', `/api/env/sessions/${encodeURIComponent(id)}/send`, body);
    if (gen !== generation) return true;
    state = r.state;
  } catch (e) {
    if (gen === generation) notice(`not sent: ${e.message}`);
    return false;
  } finally {
    if (gen === generation) busy = false;
  }
  render();
  await follow(gen);
  return true;
}

form.addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const text = input.value;
  // Empty: nothing to send, except on a turn where the simulated user says nothing (Enter lets it pass, as "Say nothing").
  if (text.trim() === '') {
    if (state && state.wordless) await send({ text: '' });
    return;
  }
  input.value = '';
  if (!(await send({ text }))) input.value = text;
});
// A wordless turn: empty text lets it pass (the simulated user's silence goes to the agent).
passButton.addEventListener('click', () => send({ text: '' }));
toolSelect.addEventListener('change', renderToolForm);
callButton.addEventListener('click', async () => {
  if (await send(toolArguments())) shownTools = '';
});
endButton.addEventListener('click', async () => {
  if (!id) return;
  const gen = generation;
  try {
    const r = await api('POST', `/api/env/sessions/${encodeURIComponent(id)}/end`);
    if (gen === generation) {
      state = r.state;
      render();
    }
  } catch (e) {
    notice(`could not end: ${e.message}`);
  }
});
$('new').addEventListener('click', () => {
  if (id && state && state.waiting !== 'ended') api('DELETE', `/api/env/sessions/${encodeURIComponent(id)}`).catch(() => {});
  kept(null);
  start();
});
start(true);
