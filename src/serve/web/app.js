// dialogym web chat: talks to the JSON API of `dialogym serve`. No framework, no CDN; all text goes
// through textContent (never innerHTML), so nothing a model or a user writes is interpreted as HTML.

const $ = (id) => document.getElementById(id);
const log = $('log');
const form = $('form');
const input = $('text');
const status = $('status');
const panel = $('explanation');

let sessionId = null;
let busy = false;

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-')) e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

function scrollDown() {
  log.scrollTop = log.scrollHeight;
}

async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = res.status === 204 ? null : await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw Object.assign(new Error(data && data.error ? data.error : `HTTP ${res.status}`), { status: res.status });
  return data;
}

async function newSession() {
  if (sessionId) api('DELETE', `/api/sessions/${sessionId}`).catch(() => {});
  sessionId = null;
  log.replaceChildren();
  panel.replaceChildren();
  status.textContent = 'connecting…';
  try {
    const health = await api('GET', '/api/health');
    sessionId = (await api('POST', '/api/sessions')).id;
    status.textContent = `model ${health.model} · ${health.kb.dialect} KB · session ${sessionId.slice(0, 8)}`;
    status.dataset.ready = 'true';
  } catch (e) {
    status.textContent = `cannot start a session: ${e.message}`;
  }
  input.focus();
}

function notice(text) {
  log.append(el('li', { class: 'notice', 'data-testid': 'notice' }, text));
  scrollDown();
}

// ---------------------------------------------------------------------------------------------
// KB results: consecutive `name R_attr value` lines become one table (a row per restaurant).

function kbTable(lines) {
  if (lines.length === 1 && lines[0] === 'api_call no result') return el('p', { 'data-testid': 'kb-empty' }, 'no restaurant matches');
  const rows = new Map();
  const cols = [];
  for (const line of lines) {
    const m = /^(\S+) [rR]_(\w+) (.*)$/.exec(line);
    if (!m) continue;
    const [, name, attr, value] = m;
    if (!cols.includes(attr)) cols.push(attr);
    if (!rows.has(name)) rows.set(name, {});
    rows.get(name)[attr] = value;
  }
  const head = el('tr', {}, el('th', {}, 'restaurant'), ...cols.map((c) => el('th', {}, c)));
  const body = [...rows].map(([name, attrs]) => el('tr', {}, el('td', {}, name), ...cols.map((c) => el('td', {}, attrs[c] ?? ''))));
  return el('table', { 'data-testid': 'kb-table' }, el('thead', {}, head), el('tbody', {}, ...body));
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

function selectTurn(li, e) {
  for (const x of log.querySelectorAll('li.selected')) x.classList.remove('selected');
  li.classList.add('selected');
  renderExplanation(e);
}

// ---------------------------------------------------------------------------------------------
// Conversation.

function addReplies(replies) {
  let kb = [];
  let lastBot = null;
  const flush = () => {
    if (kb.length === 0) return;
    log.append(el('li', { class: 'kb', 'data-testid': 'kb' }, kbTable(kb)));
    kb = [];
  };
  for (const r of replies) {
    if (r.kind === 'kb') {
      kb.push(r.text);
      continue;
    }
    flush();
    const li = el('li', { class: `bot ${r.kind}`, 'data-testid': r.kind === 'api_call' ? 'api-call' : 'bot', title: 'click: why this turn' }, r.text);
    const e = r.explanation;
    li.addEventListener('click', () => selectTurn(li, e));
    log.append(li);
    lastBot = [li, e];
  }
  flush();
  if (lastBot) selectTurn(lastBot[0], lastBot[1]);
  scrollDown();
}

async function send(text) {
  if (!sessionId || busy) return;
  busy = true;
  log.append(el('li', { class: 'user', 'data-testid': 'user' }, text));
  scrollDown();
  try {
    const r = await api('POST', `/api/sessions/${sessionId}/messages`, { text });
    addReplies(r.replies);
  } catch (e) {
    if (e.status === 404) {
      notice('the session expired: starting a new one');
      await newSession();
    } else notice(e.message);
  } finally {
    busy = false;
  }
}

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  const text = input.value.trim();
  if (!text) return;
  input.value = '';
  void send(text);
});
$('new').addEventListener('click', () => void newSession());

void newSession();
