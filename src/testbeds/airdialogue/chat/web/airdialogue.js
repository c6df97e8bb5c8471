// dialogym AirDialogue chat: talks to /api/airdialogue/… of `dialogym serve --airdialogue model.dgm`.
// You play the customer (a generated goal is shown; the learned agent answers and ends the dialogue
// with an action) or the agent (the flight table and reservation are shown; the learned customer
// talks; you end the dialogue with an action button). The score is the official scorer's.
// No framework, no CDN; all text goes through textContent (never innerHTML).

import { $, api, el } from './dom.js';

const log = $('log');
const form = $('form');
const input = $('text');
const status = $('status');
const contextBox = $('context');
const result = $('result');
const actions = $('actions');
const nameInput = $('name');
const flightInput = $('flight');
const finishButton = $('finish');

let session = null; // {id, role, seed, context, turns, end}
let busy = false;
// Each start() takes a new generation; a start or a step that finishes after a newer start (the role
// changed, then "New dialogue" at once) drops its result, so no line of a discarded dialogue shows.
let generation = 0;

function notice(text) {
  log.append(el('li', { class: 'notice', 'data-testid': 'notice' }, text));
  log.scrollTop = log.scrollHeight;
}

function addTurn(t) {
  const mine = session && t.speaker === session.role;
  const li = el('li', { class: mine ? 'me' : 'model', 'data-testid': mine ? 'my-turn' : 'model-turn' }, el('span', { class: 'who' }, mine ? `you (${t.speaker})` : `learned ${t.speaker}`), t.text === '' ? '(says nothing)' : t.text);
  if (t.heard !== undefined) li.append(el('span', { class: 'heard' }, `read as: ${t.heard}`));
  log.append(li);
  log.scrollTop = log.scrollHeight;
}

const any = (v, what) => (v === undefined || v === null ? `any ${what}`.trim() : v);

function renderIntent(intent) {
  const goal = { book: 'book a new round trip', change: 'change your reservation to this trip', cancel: 'cancel your reservation' }[intent.goal] || intent.goal;
  const rows = [
    ['Name', intent.name],
    ['Goal', goal],
    ['From', intent.departure_airport],
    ['To', intent.return_airport],
    ['Departure', `${intent.departure_month} ${intent.departure_day}, ${any(intent.departure_time, 'time')}`],
    ['Return', `${intent.return_month} ${intent.return_day}, ${any(intent.return_time, 'time')}`],
    ['Class', any(intent.class, '')],
    ['Max price', intent.max_price >= 5000 ? 'any' : `$${intent.max_price}`],
    ['Max connections', any(intent.max_connections, '')],
    ['Airline', intent.airline_preference === 'normal-cost' ? 'standard fare only' : 'any'],
  ];
  const dl = el('dl', { 'data-testid': 'intent' });
  for (const [k, v] of rows) dl.append(el('dt', {}, k), el('dd', { 'data-testid': `intent-${k.toLowerCase().replace(/ /g, '-')}` }, String(v)));
  return dl;
}

function renderKb(kb) {
  const box = el('div');
  box.append(el('p', { 'data-testid': 'reservation' }, kb.reservation === 0 ? 'Reservation: none' : `Reservation: flight ${kb.reservation}`));
  const head = el('tr', {}, ...['Flight', 'Airline', 'Route', 'Out', 'Back', 'Class', 'Price', 'Stops'].map((h) => el('th', {}, h)));
  const table = el('table', { 'data-testid': 'flights' }, el('thead', {}, head));
  const body = el('tbody');
  for (const f of kb.kb) {
    const tr = el(
      'tr',
      { class: `flight${f.flight_number === kb.reservation ? ' reserved' : ''}`, 'data-testid': 'flight-row', 'data-flight': String(f.flight_number) },
      ...[f.flight_number, f.airline, `${f.departure_airport}→${f.return_airport}`, `${f.departure_month} ${f.departure_day} ${f.departure_time_num}h`, `${f.return_month} ${f.return_day} ${f.return_time_num}h`, f.class, `$${f.price}`, f.num_connections].map((v) => el('td', {}, String(v))),
    );
    tr.addEventListener('click', () => {
      for (const r of body.querySelectorAll('tr.chosen')) r.classList.remove('chosen');
      tr.classList.add('chosen');
      flightInput.value = String(f.flight_number);
    });
    body.append(tr);
  }
  table.append(body);
  box.append(table);
  return box;
}

function actionText(a) {
  if (!a) return 'none (cut at the turn limit)';
  return `${a.status}${a.flight.length ? ` flight ${a.flight.join(', ')}` : ''} for ${a.name || 'no name'}`;
}

function showEnd(end) {
  if (!end) return;
  const f = (x) => x.toFixed(3);
  const s = end.score;
  result.replaceChildren(
    el('div', { class: 'total', 'data-testid': 'score' }, `Score ${f(s.total)}`),
    el('dl', {},
      el('dt', {}, 'Action'), el('dd', { 'data-testid': 'result-action' }, actionText(end.action)),
      el('dt', {}, 'Expected'), el('dd', { 'data-testid': 'result-expected' }, actionText(end.expected)),
      el('dt', {}, 'Name score'), el('dd', {}, f(s.name)),
      el('dt', {}, 'Flight score'), el('dd', {}, f(s.flight)),
      el('dt', {}, 'Action score'), el('dd', {}, f(s.action)),
      el('dt', {}, 'Exact total'), el('dd', { 'data-testid': 'score-exact' }, f(s.exact.total)),
    ),
  );
  result.hidden = false;
  input.disabled = true;
  for (const b of actions.querySelectorAll('button')) b.disabled = true;
  finishButton.disabled = true;
  status.textContent = `dialogue over · score ${f(s.total)}`;
  status.dataset.over = 'true';
}

async function start() {
  const mine = ++generation;
  if (session) api('DELETE', `/api/airdialogue/sessions/${session.id}`).catch(() => {});
  session = null;
  busy = false;
  log.replaceChildren();
  contextBox.replaceChildren();
  result.hidden = true;
  result.replaceChildren();
  status.textContent = 'connecting…';
  delete status.dataset.ready;
  delete status.dataset.over;
  const role = $('role').value;
  const seedText = $('seed').value.trim();
  const body = { role };
  if (seedText !== '') body.seed = Number(seedText);
  try {
    const info = await api('GET', '/api/airdialogue');
    if (mine !== generation) return;
    // The restaurant chat, when this server hosts it too (serve --model).
    if (typeof info.restaurant === 'string') {
      $('restaurant-link').href = info.restaurant;
      $('restaurant-link').hidden = false;
    }
    const created = await api('POST', '/api/airdialogue/sessions', body);
    if (mine !== generation) {
      api('DELETE', `/api/airdialogue/sessions/${created.id}`).catch(() => {});
      return;
    }
    session = created;
    $('context-title').textContent = role === 'customer' ? 'Your goal (the customer)' : 'Your flight table (the agent)';
    contextBox.append(role === 'customer' ? renderIntent(session.context.intent) : renderKb(session.context.kb));
    for (const t of session.turns) addTurn(t);
    actions.hidden = role !== 'agent';
    finishButton.hidden = role !== 'customer';
    finishButton.disabled = false;
    input.disabled = false;
    nameInput.value = '';
    flightInput.value = '';
    for (const b of actions.querySelectorAll('button')) b.disabled = false;
    status.textContent = `model ${info.model} · you play the ${role} · context seed ${session.seed}`;
    status.dataset.ready = 'true';
  } catch (e) {
    if (mine !== generation) return;
    status.textContent = `cannot start a dialogue: ${e.message}`;
  }
  input.focus();
}

async function step(call) {
  if (!session || busy) return;
  const mine = generation;
  busy = true;
  try {
    const r = await call();
    if (mine !== generation) return; // a new dialogue started meanwhile
    for (const t of r.turns) addTurn(t);
    showEnd(r.end);
  } catch (e) {
    if (mine === generation) notice(e.message);
  } finally {
    if (mine === generation) busy = false;
  }
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const text = input.value.trim();
  if (text === '') return;
  input.value = '';
  void step(() => api('POST', `/api/airdialogue/sessions/${session.id}/messages`, { text }));
});

for (const b of actions.querySelectorAll('button')) {
  b.addEventListener('click', () => {
    const body = { status: b.dataset.status, name: nameInput.value.trim() };
    // Every AirDialogue action names the customer (the name score): an empty name is a slip, not a choice.
    if (body.name === '') {
      notice("type the customer's name: every action names them (it is scored)");
      nameInput.focus();
      return;
    }
    if (b.dataset.status === 'book' || b.dataset.status === 'change') {
      const n = Number(flightInput.value);
      if (flightInput.value.trim() === '' || !Number.isInteger(n)) {
        notice('choose a flight: click a row of the table');
        return;
      }
      body.flight = n;
    }
    void step(() => api('POST', `/api/airdialogue/sessions/${session.id}/action`, body));
  });
}

// Playing the customer: ask the learned agent to act now (POST …/finish).
finishButton.addEventListener('click', () => void step(() => api('POST', `/api/airdialogue/sessions/${session.id}/finish`)));

$('new').addEventListener('click', () => void start());
$('role').addEventListener('change', () => void start());
void start();
