// dialogym web chat: talks to the JSON API of `dialogym serve`. No framework, no CDN; all text goes
// through textContent (never innerHTML), so nothing a model or a user writes is interpreted as HTML.
//
// While a reply is pending the Send button is disabled and a typing indicator shows; the box stays
// editable so the next message can be written, but Enter keeps it in the box (nothing is lost,
// nothing is sent twice). A message the server refuses stays in the transcript marked "not sent"
// with a Restore button that puts its text back in the box.

import { $, api, el } from './dom.js';

const log = $('log');
const form = $('form');
const input = $('text');
const sendButton = $('send');
const status = $('status');
const panel = $('explanation');
const empty = $('empty');
const pendingNote = $('pending-note');

let sessionId = null;
let modelName = '';
let busy = false;
/** Tables already shown in this conversation: api_call + result lines → the table's element id. */
let shownTables = new Map();
let tableCount = 0;

function scrollDown() {
  log.scrollTop = log.scrollHeight;
}

// ---------------------------------------------------------------------------------------------
// Empty state: what the KB holds (GET /api/kb, schemas/serve-kb-hint.schema.json) and an example.

const isWords = (xs) => Array.isArray(xs) && xs.every((x) => typeof x === 'string' && x.length > 0);

function list(xs) {
  return xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`;
}

async function loadHint() {
  let h;
  try {
    h = await api('GET', '/api/kb');
  } catch {
    return; // the generic hint stays
  }
  if (!h || !Number.isInteger(h.restaurants) || !isWords(h.cities) || !isWords(h.cuisines) || !isWords(h.prices) || !isWords(h.partySizes)) return;
  const parts = [`This KB has ${h.restaurants} restaurants`];
  if (h.cities.length) parts.push(`in ${list(h.cities)}`);
  let text = parts.join(' ') + '.';
  if (h.cuisines.length) text += ` Cuisines: ${list(h.cuisines)}.`;
  if (h.prices.length) text += ` Price ranges: ${list(h.prices)}.`;
  if (h.partySizes.length) text += ` Tables for ${list(h.partySizes)} people.`;
  $('empty-text').textContent = text;
  if (typeof h.example === 'string' && h.example) {
    $('example').textContent = h.example;
    $('empty-try').hidden = false;
  }
}

function updateEmpty() {
  empty.hidden = log.children.length > 0;
}

async function newSession() {
  if (sessionId) api('DELETE', `/api/sessions/${sessionId}`).catch(() => {});
  sessionId = null;
  setBusy(false);
  log.replaceChildren();
  panel.replaceChildren();
  shownTables = new Map();
  updateEmpty();
  status.textContent = 'connecting…';
  delete status.dataset.ready;
  try {
    const health = await api('GET', '/api/health');
    sessionId = (await api('POST', '/api/sessions')).id;
    modelName = health.model;
    // The AirDialogue page, when this server hosts it too (serve --airdialogue).
    if (typeof health.airdialogue === 'string') {
      $('air-link').href = health.airdialogue;
      $('air-link').hidden = false;
    }
    status.textContent = `model ${health.model} · ${health.kb.dialect} KB · session ${sessionId.slice(0, 8)}`;
    status.dataset.ready = 'true';
  } catch (e) {
    status.textContent = `cannot start a session: ${e.message}`;
  }
  input.focus();
}

function notice(text) {
  log.append(el('li', { class: 'notice', 'data-testid': 'notice' }, text));
  updateEmpty();
  scrollDown();
}

// ---------------------------------------------------------------------------------------------
// KB results: the lines of one api_call (`name R_attr value`) become one compact table, a row per
// restaurant. Columns that only repeat what the call asked for (cuisine, city, party size, price)
// are left out; the same call with the same results again points back at its table.

function kbTable(call, lines) {
  if (lines.length === 1 && lines[0] === 'api_call no result') return el('p', { class: 'kb-empty', 'data-testid': 'kb-empty' }, 'no restaurant matches');
  const key = `${call}\n${lines.join('\n')}`;
  const seen = shownTables.get(key);
  if (seen) {
    return el('p', { class: 'kb-same', 'data-testid': 'kb-same' }, 'same results as above: ', el('a', { href: `#${seen.id}` }, `${seen.rows} restaurant${seen.rows === 1 ? '' : 's'}`));
  }
  const asked = new Set(call.split(/\s+/).slice(1));
  const rows = new Map();
  const attrs = [];
  for (const line of lines) {
    const m = /^(\S+) [rR]_(\w+) (.*)$/.exec(line);
    if (!m) continue;
    const [, name, attr, value] = m;
    if (!attrs.includes(attr)) attrs.push(attr);
    if (!rows.has(name)) rows.set(name, {});
    rows.get(name)[attr] = value;
  }
  const all = [...rows.values()];
  const cols = attrs.filter((a) => !all.every((r) => asked.has(r[a] ?? '')));
  // Rating first: results come best rated first.
  if (cols.includes('rating')) cols.splice(0, cols.length, 'rating', ...cols.filter((c) => c !== 'rating'));
  const id = `kb-${++tableCount}`;
  shownTables.set(key, { id, rows: rows.size });
  const head = el('tr', {}, el('th', { scope: 'col' }, 'restaurant'), ...cols.map((c) => el('th', { scope: 'col' }, c)));
  const body = [...rows].map(([name, r]) => el('tr', {}, el('th', { scope: 'row' }, name), ...cols.map((c) => el('td', {}, r[c] ?? ''))));
  return el(
    'figure',
    { class: 'kb-result', id },
    el('figcaption', {}, `${rows.size} restaurant${rows.size === 1 ? '' : 's'} for `, el('code', {}, call.replace(/^api_call /, ''))),
    // A wide table scrolls inside its frame (focusable, so arrows scroll it), never the page.
    el('div', { class: 'table-wrap', tabIndex: 0, role: 'region', 'aria-label': `results of ${call}` }, el('table', { 'data-testid': 'kb-table' }, el('thead', {}, head), el('tbody', {}, ...body))),
  );
}

// ---------------------------------------------------------------------------------------------
// Explanations.

function pct(x) {
  return `${(100 * x).toFixed(0)}%`;
}

function topList(top) {
  const max = Math.max(1e-9, ...top.map((c) => Math.abs(c.score)));
  return el(
    'ol',
    { 'data-testid': 'ranking' },
    ...top.map((c) => {
      const bar = el('span', { class: 'bar' });
      bar.style.setProperty('width', `${Math.round((60 * Math.abs(c.score)) / max)}px`);
      return el('li', {}, bar, `${c.score.toFixed(3)} `, el('code', {}, c.text));
    }),
  );
}

function heatMap(e) {
  const head = el('tr', {}, ...e.hops.map((_, h) => el('th', {}, `hop ${h + 1}`)), el('th', {}, 'memory'));
  const rows = e.memories.map((m, i) =>
    el(
      'tr',
      {},
      ...e.hops.map((h) => {
        const w = h.weights[i] ?? 0;
        const td = el('td', { class: 'w' }, pct(w));
        td.style.setProperty('background-color', `rgba(211, 47, 47, ${Math.min(1, w).toFixed(3)})`);
        td.dataset.weight = String(w);
        return td;
      }),
      el('td', { class: 'mem' }, m),
    ),
  );
  return el('table', { class: 'heat', 'data-testid': 'attention' }, el('thead', {}, head), el('tbody', {}, ...rows));
}

// A template model (HCN): the chosen template, the entities it was filled from, the action mask
// (which templates were available this turn) and the most probable alternatives.
function renderTemplate(e) {
  const on = e.mask.filter((m) => m === 1).length;
  const entities = Object.entries(e.entities);
  panel.append(
    el(
      'dl',
      { 'data-testid': 'template' },
      el('dt', {}, 'template'), el('dd', { 'data-testid': 'template-name' }, el('code', {}, e.template || '(every template masked)')),
      ...(e.probability === undefined ? [] : [el('dt', {}, 'probability'), el('dd', {}, e.probability.toFixed(3))]),
      el('dt', {}, 'action mask'), el('dd', { 'data-testid': 'mask-count' }, `${on} of ${e.mask.length} templates available`),
    ),
    el('h3', {}, 'entities'),
    entities.length
      ? el('dl', { 'data-testid': 'entities' }, ...entities.flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, v)]))
      : el('p', { 'data-testid': 'entities' }, 'none yet'),
  );
  if (e.alternatives && e.alternatives.length) {
    panel.append(
      el('h3', {}, 'most probable templates'),
      el(
        'ol',
        { 'data-testid': 'alternatives' },
        ...e.alternatives.map((a) => {
          const bar = el('span', { class: 'bar' });
          bar.style.setProperty('width', `${Math.round(60 * a.probability)}px`);
          return el('li', {}, bar, `${a.probability.toFixed(3)} `, el('code', {}, a.template));
        }),
      ),
    );
  }
  if (e.templates) {
    // The mask over every template: available ones plain, masked ones struck through.
    panel.append(
      el('h3', {}, 'action mask'),
      el('ul', { class: 'mask', 'data-testid': 'mask' }, ...e.templates.map((t, i) => el('li', { class: e.mask[i] === 1 ? 'on' : 'off', 'data-mask': String(e.mask[i] ?? 0) }, el('code', {}, t)))),
      el('p', { class: 'hint' }, `${e.mask.length - on} template(s) masked: a placeholder cannot be filled yet`),
    );
  }
  if (e.features && e.features.length) panel.append(el('h3', {}, 'active features'), el('p', { class: 'features', 'data-testid': 'features' }, e.features.join(' ')));
}

function renderExplanation(e) {
  panel.replaceChildren();
  if (!e) return;
  panel.dataset.type = e.type;
  panel.append(el('p', {}, 'model ', el('b', {}, e.model)));
  switch (e.type) {
    case 'rules': {
      const s = e.state;
      const slots = Object.entries(s.slots).map(([k, v]) => `${k}=${v}`).join(' ') || '—';
      panel.append(
        el('p', { class: 'rule', 'data-testid': 'rule' }, e.rule),
        el(
          'dl',
          { 'data-testid': 'state' },
          el('dt', {}, 'understood'), el('dd', {}, e.userAct),
          el('dt', {}, 'answer act'), el('dd', {}, e.botAct),
          el('dt', {}, 'goal'), el('dd', {}, slots),
          el('dt', {}, 'asked'), el('dd', {}, s.asked ?? '—'),
          el('dt', {}, 'api_calls'), el('dd', {}, String(s.apiCalls)),
          el('dt', {}, 'results'), el('dd', {}, s.results.join(', ') || '—'),
          el('dt', {}, 'proposed'), el('dd', {}, s.proposed.join(', ') || '—'),
          el('dt', {}, 'booked'), el('dd', {}, s.booked ?? '—'),
        ),
      );
      break;
    }
    case 'attention':
      panel.append(el('h3', {}, `attention over ${e.memories.length} memories`), heatMap(e), el('h3', {}, `top of ${e.candidates} candidates`), topList(e.top));
      break;
    case 'ranking':
      panel.append(el('h3', {}, `top of ${e.candidates} candidates`), topList(e.top));
      break;
    case 'template':
      renderTemplate(e);
      break;
    default:
      panel.append(el('p', {}, e.note ?? ''));
  }
}

function selectTurn(button, e) {
  for (const x of log.querySelectorAll('li.selected')) x.classList.remove('selected');
  for (const x of log.querySelectorAll('button.turn[aria-expanded=true]')) x.setAttribute('aria-expanded', 'false');
  button.closest('li').classList.add('selected');
  button.setAttribute('aria-expanded', 'true');
  renderExplanation(e);
}

// ---------------------------------------------------------------------------------------------
// Conversation.

/** A bot turn: a button (focusable; Enter or Space shows its explanation in the side panel). */
function botTurn(r) {
  const button = el('button', { type: 'button', class: 'turn', 'aria-expanded': 'false', 'aria-controls': 'explanation', title: 'why this turn' }, r.text);
  const e = r.explanation;
  button.addEventListener('click', () => selectTurn(button, e));
  const li = el('li', { class: `bot ${r.kind}`, 'data-testid': r.kind === 'api_call' ? 'api-call' : 'bot' }, button);
  return { li, button, e };
}

function addReplies(replies) {
  let kb = [];
  let call = '';
  let lastBot = null;
  const flush = () => {
    if (kb.length === 0) return;
    log.append(el('li', { class: 'kb', 'data-testid': 'kb' }, kbTable(call, kb)));
    kb = [];
  };
  for (const r of replies) {
    if (r.kind === 'kb') {
      kb.push(r.text);
      continue;
    }
    flush();
    if (r.kind === 'api_call') call = r.text;
    const t = botTurn(r);
    log.append(t.li);
    lastBot = t;
  }
  flush();
  if (lastBot) selectTurn(lastBot.button, lastBot.e);
  scrollDown();
}

/** Marks a user turn the server did not take, with a control that puts its text back in the box. */
function markFailed(li, text, reason) {
  li.classList.add('failed');
  li.dataset.state = 'failed';
  const restore = el('button', { type: 'button', class: 'restore', 'data-testid': 'restore', 'aria-label': `restore "${text}" to the message box` }, 'Restore');
  restore.addEventListener('click', () => {
    // Whatever is already in the box stays, after the restored text.
    const rest = input.value.trim();
    input.value = rest ? `${text} ${rest}` : text;
    li.remove();
    updateEmpty();
    input.focus();
  });
  li.append(el('span', { class: 'failure', 'data-testid': 'failure' }, `not sent: ${reason}`), restore);
}

function setBusy(on) {
  busy = on;
  sendButton.disabled = on;
  form.setAttribute('aria-busy', String(on));
  if (!on) pendingNote.hidden = true;
}

async function send(text) {
  setBusy(true);
  const li = el('li', { class: 'user', 'data-testid': 'user', 'data-state': 'pending' }, el('span', { class: 'text' }, text));
  const typing = el('li', { class: 'typing', 'data-testid': 'typing', role: 'status', 'aria-label': 'the bot is typing' }, el('span', {}), el('span', {}), el('span', {}));
  log.append(li, typing);
  updateEmpty();
  scrollDown();
  let expired = false;
  const sid = sessionId;
  try {
    const r = await api('POST', `/api/sessions/${sid}/messages`, { text });
    // A new conversation was started meanwhile: this reply belongs to the old one.
    if (sid !== sessionId) return;
    li.dataset.state = 'sent';
    typing.remove();
    addReplies(r.replies);
  } catch (e) {
    typing.remove();
    if (sid !== sessionId) return;
    if (e.status === 404) expired = true;
    else markFailed(li, text, e.message);
  } finally {
    if (sid === sessionId) setBusy(false);
  }
  if (expired) {
    await newSession();
    notice('the session expired: a new one started, and your message is back in the box');
    if (!input.value.trim()) input.value = text;
  }
  input.focus();
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const text = input.value.trim();
  if (!text || !sessionId) return;
  if (busy) {
    // Not sent and not cleared: it goes when the reply has arrived and the person presses Enter.
    pendingNote.hidden = false;
    return;
  }
  input.value = '';
  void send(text);
});
// With Send disabled the browser does not submit on Enter: say why nothing happened.
input.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && busy && input.value.trim()) pendingNote.hidden = false;
});
$('new').addEventListener('click', () => void newSession());
$('example').addEventListener('click', () => {
  input.value = $('example').textContent;
  input.focus();
});

// ---------------------------------------------------------------------------------------------
// Export: the server's transcript (what it took, as the person wrote it, with the KB lines and the
// explanations) as JSON, or as text (one `speaker: text` line per turn, without the silences).

function download(name, type, body) {
  const url = URL.createObjectURL(new Blob([body], { type }));
  const a = el('a', { href: url, download: name });
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function transcriptText(t) {
  const lines = [`# dialogym transcript · model ${modelName} · session ${t.id} · ${t.createdAt}`];
  for (const turn of t.turns) {
    if (turn.speaker === 'user' && /^<silence>$/i.test(turn.text)) continue;
    lines.push(`${turn.speaker}: ${turn.text}`);
  }
  return lines.join('\n') + '\n';
}

async function exportTranscript(kind) {
  if (!sessionId) return;
  let t;
  try {
    t = await api('GET', `/api/sessions/${sessionId}`);
  } catch (e) {
    notice(`cannot export: ${e.message}`);
    return;
  }
  const base = `dialogym-${t.id.slice(0, 8)}`;
  if (kind === 'json') download(`${base}.json`, 'application/json', JSON.stringify({ model: modelName, ...t }, null, 2) + '\n');
  else download(`${base}.txt`, 'text/plain', transcriptText(t));
}

$('export-json').addEventListener('click', (ev) => {
  ev.preventDefault();
  void exportTranscript('json');
});
$('export-text').addEventListener('click', (ev) => {
  ev.preventDefault();
  void exportTranscript('text');
});

updateEmpty();
void loadHint();
void newSession();
