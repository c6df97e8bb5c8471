// dialogym view: the runs and reports of a folder (`dialogym view [folder]`), over /api/view/….
// Routes live in the address (#run/0, #run/0/episode/12, #compare/0/1, #report/2, #image/3), so a
// view can be bookmarked and the back button works. No framework, no CDN; all text goes through
// textContent (never innerHTML): a transcript or a report is data, never markup.

const $ = (id) => document.getElementById(id);
const nav = $('nav');
const main = $('main');
const jump = $('jump');
const PAGE = 50;

let folder = null; // GET /api/view

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k.startsWith('data-') || k.startsWith('aria-') || k === 'role' || k === 'tabindex' || k === 'for') e.setAttribute(k, String(v));
    else e[k] = v;
  }
  for (const c of children.flat()) if (c !== undefined && c !== null && c !== false) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

/** `1 run`, `2 runs`. */
function count(n, noun) {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

async function api(path) {
  const res = await fetch(path);
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  if (!res.ok) throw new Error(data && data.error ? data.error : `HTTP ${res.status}`);
  return data;
}

const pct = (x) => `${(100 * x).toFixed(1)}%`;
const fixed = (x, n = 2) => (typeof x === 'number' ? x.toFixed(n) : String(x));

function show(...nodes) {
  main.replaceChildren(...nodes);
}

function failed(e) {
  show(el('p', { class: 'error', 'data-testid': 'error' }, e.message || String(e)));
}

// ---- the list of runs and reports --------------------------------------------------------------

function navList() {
  const items = [];
  const section = (title, entries) => {
    if (entries.length === 0) return;
    items.push(el('h2', {}, title), el('ul', {}, entries.map(({ href, label, meta, testid }) => el('li', {}, el('a', { href, 'data-testid': testid }, label, meta ? el('span', { class: 'meta' }, meta) : null)))));
  };
  section('Runs', folder.runs.map((r) => ({ href: `#run/${r.id}`, label: r.path, testid: 'nav-run', meta: r.error ? r.error : `${r.envs.join(', ')} · ${r.episodes} episodes · success ${pct(r.success)}` })));
  section('Reports', folder.reports.map((r) => ({ href: `#report/${r.id}`, label: r.title, testid: 'nav-report', meta: r.path })));
  const attached = new Set(folder.reports.map((r) => r.svg).filter((x) => x !== undefined));
  section('Charts', folder.images.map((p, id) => ({ href: `#image/${id}`, label: p, testid: 'nav-image' })).filter((_, id) => !attached.has(id)));
  if (items.length === 0) items.push(el('p', { class: 'empty' }, 'Nothing to show yet: this folder holds no evaluate transcripts (.jsonl), reports (.md) or charts (.svg).'));
  nav.replaceChildren(...items);
  // The same list as a select, for narrow screens.
  const opts = [el('option', { value: '' }, '— choose —')];
  for (const r of folder.runs) opts.push(el('option', { value: `#run/${r.id}` }, `run: ${r.path}`));
  for (const r of folder.reports) opts.push(el('option', { value: `#report/${r.id}` }, `report: ${r.title}`));
  folder.images.forEach((p, id) => attached.has(id) || opts.push(el('option', { value: `#image/${id}` }, `chart: ${p}`)));
  jump.replaceChildren(...opts);
}

function markCurrent() {
  const h = location.hash.split('/').slice(0, 2).join('/');
  for (const a of nav.querySelectorAll('a')) {
    if (a.getAttribute('href') === h) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  jump.value = [...jump.options].some((o) => o.value === h) ? h : '';
}

jump.addEventListener('change', () => {
  if (jump.value) location.hash = jump.value;
});

// ---- a run -------------------------------------------------------------------------------------

function summaryTable(summaries, testid = 'summary', runs = undefined) {
  const k = Math.max(1, ...summaries.map((s) => s.passK.length));
  const head = el('tr', {}, runs ? el('th', {}, 'run') : null, el('th', {}, 'environment'), el('th', { class: 'num' }, 'tasks'), el('th', { class: 'num' }, 'trials'), el('th', { class: 'num' }, 'success'), ...Array.from({ length: k }, (_, i) => el('th', { class: 'num' }, `pass^${i + 1}`)), el('th', { class: 'num' }, 'avg turns'), el('th', { class: 'num' }, 'avg reward'), el('th', {}, 'failures'));
  const rows = summaries.map((s, j) =>
    el('tr', { 'data-testid': `${testid}-row` },
      runs ? el('td', {}, runs[j]) : null,
      el('td', {}, s.env), el('td', { class: 'num' }, s.episodes), el('td', { class: 'num' }, s.trials),
      el('td', { class: 'num', 'data-testid': `${testid}-success` }, fixed(s.success, 4)),
      ...Array.from({ length: k }, (_, i) => el('td', { class: 'num' }, s.passK[i] === undefined ? '' : fixed(s.passK[i], 4))),
      el('td', { class: 'num' }, fixed(s.avgTurns)), el('td', { class: 'num' }, fixed(s.avgReward, 4)),
      el('td', {}, Object.keys(s.failures).length === 0 ? 'none' : Object.entries(s.failures).map(([r, n]) => `${r} ${n}`).join(', ')),
    ));
  return el('div', { class: 'scroll' }, el('table', { 'data-testid': testid }, el('thead', {}, head), el('tbody', {}, rows)));
}

const runState = { id: null, filters: { env: '', agent: '', outcome: '', failure: '', q: '' }, offset: 0, info: null };

function select(name, label, values, current) {
  const s = el('select', { name, 'data-testid': `filter-${name}` }, el('option', { value: '' }, 'all'), values.map(([v, text]) => el('option', { value: v }, text)));
  s.value = current;
  return el('label', {}, label, s);
}

async function showRun(id, episode) {
  if (runState.id !== id) {
    runState.id = id;
    runState.filters = { env: '', agent: '', outcome: '', failure: '', q: '' };
    runState.offset = 0;
    runState.info = await api(`/api/view/runs/${id}`);
  }
  const info = runState.info;
  const f = runState.filters;
  const others = folder.runs.filter((r) => r.id !== Number(id) && !r.error);
  const filters = el('form', { class: 'filters', 'data-testid': 'filters', role: 'search' },
    info.envs.length > 1 ? select('env', 'environment', info.envs.map((e) => [e, e]), f.env) : null,
    info.agents.length > 1 ? select('agent', 'agent', info.agents.map((a) => [a, a]), f.agent) : null,
    select('outcome', 'outcome', [['success', 'success'], ['failure', 'failure']], f.outcome),
    select('failure', 'failure reason', Object.entries(info.failures).map(([r, n]) => [r, `${r} (${n})`]), f.failure),
    el('label', {}, 'text', el('input', { type: 'search', name: 'q', value: f.q, placeholder: 'search the dialogs', 'data-testid': 'filter-q' })),
    others.length > 0 ? el('label', {}, 'compare with', el('select', { name: 'compare', 'data-testid': 'compare-with' }, el('option', { value: '' }, '—'), others.map((r) => el('option', { value: String(r.id) }, r.path)))) : null,
  );
  const listBox = el('div', { 'data-testid': 'episodes' });
  const detail = el('div', { class: 'episode', 'data-testid': 'episode' });
  show(el('h2', {}, info.path), summaryTable(info.summaries), filters, listBox, detail);
  const apply = () => {
    const data = new FormData(filters);
    runState.filters = { env: String(data.get('env') ?? ''), agent: String(data.get('agent') ?? ''), outcome: String(data.get('outcome') ?? ''), failure: String(data.get('failure') ?? ''), q: String(data.get('q') ?? '') };
    runState.offset = 0;
    void loadEpisodes(id, listBox, detail);
  };
  filters.addEventListener('change', (ev) => {
    if (ev.target.name === 'compare') {
      if (ev.target.value !== '') location.hash = `#compare/${id}/${ev.target.value}`;
      return;
    }
    apply();
  });
  let typing;
  filters.addEventListener('input', (ev) => {
    if (ev.target.name !== 'q') return;
    clearTimeout(typing);
    typing = setTimeout(apply, 200);
  });
  filters.addEventListener('submit', (ev) => {
    ev.preventDefault();
    apply();
  });
  await loadEpisodes(id, listBox, detail);
  if (episode !== undefined) await showEpisode(id, episode, detail);
}

async function loadEpisodes(id, box, detail) {
  const f = runState.filters;
  const qs = new URLSearchParams({ offset: String(runState.offset), limit: String(PAGE) });
  for (const [k, v] of Object.entries(f)) if (v) qs.set(k, v);
  let page;
  try {
    page = await api(`/api/view/runs/${id}/episodes?${qs}`);
  } catch (e) {
    box.replaceChildren(el('p', { class: 'error' }, e.message));
    return;
  }
  if (runState.id !== id) return;
  const rows = page.items.map((it) => {
    const tr = el('tr', { class: 'pick', tabindex: 0, 'data-testid': 'episode-row', 'data-i': it.i, 'aria-selected': location.hash === `#run/${id}/episode/${it.i}` ? 'true' : 'false' },
      el('td', { class: 'num' }, it.i), el('td', {}, it.env), el('td', { class: 'num' }, it.episode), el('td', { class: 'num' }, it.trial), el('td', { class: 'num' }, it.seed),
      el('td', { class: it.success ? 'ok' : 'bad' }, it.success ? 'success' : 'failure'), el('td', { class: 'num' }, it.turns), el('td', {}, it.failure ?? ''));
    const open = () => {
      history.replaceState(null, '', `#run/${id}/episode/${it.i}`);
      for (const r of box.querySelectorAll('tr.pick')) r.setAttribute('aria-selected', r === tr ? 'true' : 'false');
      void showEpisode(id, it.i, detail);
    };
    tr.addEventListener('click', open);
    tr.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        open();
      }
    });
    return tr;
  });
  const head = el('tr', {}, ['#', 'environment', 'task', 'trial', 'seed', 'outcome', 'turns', 'failure'].map((h) => el('th', {}, h)));
  const from = page.matched === 0 ? 0 : page.offset + 1;
  const to = page.offset + page.items.length;
  const prev = el('button', { type: 'button', disabled: page.offset === 0, 'data-testid': 'prev' }, '← previous');
  const next = el('button', { type: 'button', disabled: to >= page.matched, 'data-testid': 'next' }, 'next →');
  prev.addEventListener('click', () => {
    runState.offset = Math.max(0, runState.offset - PAGE);
    void loadEpisodes(id, box, detail);
  });
  next.addEventListener('click', () => {
    runState.offset += PAGE;
    void loadEpisodes(id, box, detail);
  });
  box.replaceChildren(
    el('div', { class: 'pager' }, el('span', { 'data-testid': 'matched' }, `${page.matched} of ${page.total} episodes`), page.matched > PAGE ? [prev, el('span', {}, `${from}–${to}`), next] : null),
    page.items.length ? el('div', { class: 'scroll list' }, el('table', { 'data-testid': 'episode-table' }, el('thead', {}, head), el('tbody', {}, rows))) : el('p', { class: 'empty' }, 'No episode matches these filters.'),
  );
}

function keyValues(obj, testid) {
  if (obj === null || typeof obj !== 'object') return el('pre', { 'data-testid': testid }, JSON.stringify(obj, null, 2));
  const dl = el('dl', { class: 'kv', 'data-testid': testid });
  for (const [k, v] of Object.entries(obj)) dl.append(el('dt', {}, k), el('dd', {}, typeof v === 'string' ? v : JSON.stringify(v)));
  return dl;
}

function turnList(ep) {
  const wrongAt = typeof ep.failureTurn === 'number' ? ep.failureTurn : undefined;
  return el('ol', { class: 'turns', 'data-testid': 'turns' }, ep.turns.map((t) => {
    const speaker = t.speaker === 'agent' || t.speaker === 'bot' ? 'agent' : t.speaker === 'kb' ? 'kb' : 'user';
    const wrong = speaker === 'agent' && t.agentTurn === wrongAt;
    return el('li', { class: `${speaker}${wrong ? ' wrong' : ''}`, 'data-testid': `turn-${speaker}`, 'data-wrong': wrong ? 'true' : null },
      speaker === 'kb' ? null : el('span', { class: 'who' }, speaker === 'agent' ? `agent · turn ${t.agentTurn}${wrong ? ' · went wrong here' : ''}` : t.speaker),
      t.text,
      t.read !== undefined ? el('span', { class: `read${t.read === 'not understood' ? ' not' : ''}`, 'data-testid': 'read' }, `user read: ${t.read}`) : null);
  }));
}

function episodeCard(ep, title) {
  const r = ep.record;
  return el('div', { class: 'card', 'data-testid': 'episode-card' },
    el('h3', {}, title ?? `Episode ${ep.i}: ${r.env}, task ${r.episode}, trial ${r.trial}, seed ${r.seed}`),
    el('p', {}, el('span', { class: r.success ? 'ok' : 'bad', 'data-testid': 'outcome' }, r.success ? 'success' : `failure: ${r.failure}`), ` · reward ${fixed(r.reward)} · ${r.turns} agent turns`, r.message ? ` · ${r.message}` : ''),
    ep.goal !== undefined ? [el('h3', {}, 'Goal'), keyValues(ep.goal, 'goal')] : null,
    ep.detail !== undefined ? [el('h3', {}, 'What failed'), keyValues(ep.detail, 'detail')] : null,
    el('h3', {}, 'Dialog'), turnList(ep));
}

async function showEpisode(id, i, box) {
  box.replaceChildren(el('p', { class: 'empty' }, 'Loading…'));
  try {
    const ep = await api(`/api/view/runs/${id}/episodes/${i}`);
    box.replaceChildren(episodeCard(ep));
    box.scrollIntoView({ block: 'nearest' });
  } catch (e) {
    box.replaceChildren(el('p', { class: 'error' }, e.message));
  }
}

// ---- two runs side by side ---------------------------------------------------------------------

async function showCompare(a, b, pick) {
  const c = await api(`/api/view/compare?a=${a}&b=${b}`);
  const detail = el('div', { class: 'side-by-side episode', 'data-testid': 'compare-episodes' });
  const rows = c.differing.map((d, j) => {
    const tr = el('tr', { class: 'pick', tabindex: 0, 'data-testid': 'differing-row' },
      el('td', {}, d.env), el('td', { class: 'num' }, d.episode), el('td', { class: 'num' }, d.trial),
      el('td', { class: d.a.success ? 'ok' : 'bad' }, d.a.success ? 'success' : d.a.failure), el('td', { class: d.b.success ? 'ok' : 'bad' }, d.b.success ? 'success' : d.b.failure));
    const open = async () => {
      history.replaceState(null, '', `#compare/${a}/${b}/${j}`);
      for (const r of tr.parentElement.children) r.setAttribute('aria-selected', r === tr ? 'true' : 'false');
      try {
        const [ea, eb] = await Promise.all([api(`/api/view/runs/${a}/episodes/${d.a.i}`), api(`/api/view/runs/${b}/episodes/${d.b.i}`)]);
        detail.replaceChildren(episodeCard(ea, `A: ${c.a.path}`), episodeCard(eb, `B: ${c.b.path}`));
      } catch (e) {
        detail.replaceChildren(el('p', { class: 'error' }, e.message));
      }
    };
    tr.addEventListener('click', open);
    tr.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter' || ev.key === ' ') {
        ev.preventDefault();
        void open();
      }
    });
    return tr;
  });
  show(
    el('h2', {}, 'Two runs side by side'),
    summaryTable([...c.a.summaries, ...c.b.summaries], 'compare-summary', [...c.a.summaries.map(() => `A: ${c.a.path}`), ...c.b.summaries.map(() => `B: ${c.b.path}`)]),
    el('p', { 'data-testid': 'compare-counts' }, `same task and trial in both: both succeed ${c.counts.both}, only A ${c.counts.onlyA}, only B ${c.counts.onlyB}, neither ${c.counts.neither}`, c.counts.unmatched ? `; ${c.counts.unmatched} of A's episodes are not in B` : ''),
    c.differing.length
      ? el('div', { class: 'scroll list' }, el('table', { 'data-testid': 'differing' }, el('thead', {}, el('tr', {}, ['environment', 'task', 'trial', 'A', 'B'].map((h) => el('th', {}, h)))), el('tbody', {}, rows)),
        c.differingTotal > c.differing.length ? el('p', { class: 'empty' }, `the first ${c.differing.length} of ${c.differingTotal} differing episodes`) : null)
      : el('p', { class: 'empty' }, 'The two runs agree on every shared episode.'),
    detail,
  );
  if (pick !== undefined && rows[pick]) rows[pick].click();
}

// ---- reports -----------------------------------------------------------------------------------

/** Inline Markdown: `code`, **bold**, [text](link) shown as its text. */
function inline(text) {
  const out = [];
  const re = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\([^)]*\)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1] !== undefined) out.push(el('code', {}, m[1]));
    else if (m[2] !== undefined) out.push(el('strong', {}, m[2]));
    else out.push(m[3]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** The Markdown of a report as DOM nodes: headings, paragraphs, lists, tables, code blocks. */
function markdown(md) {
  const nodes = [];
  const lines = md.replace(/\r\n/g, '\n').split('\n');
  const cells = (l) => l.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
  for (let i = 0; i < lines.length; ) {
    const l = lines[i];
    if (/^```/.test(l)) {
      const body = [];
      for (i++; i < lines.length && !/^```/.test(lines[i]); i++) body.push(lines[i]);
      i++;
      nodes.push(el('pre', {}, body.join('\n')));
    } else if (/^#{1,6}\s/.test(l)) {
      const level = Math.min(6, Math.max(3, /^#+/.exec(l)[0].length + 1));
      nodes.push(el(`h${level}`, {}, inline(l.replace(/^#+\s*/, ''))));
      i++;
    } else if (/^\s*\|/.test(l) && i + 1 < lines.length && /^\s*\|?\s*:?-{2,}/.test(lines[i + 1])) {
      const head = cells(l);
      const align = cells(lines[i + 1]).map((c) => (c.endsWith(':') ? 'num' : undefined));
      const body = [];
      for (i += 2; i < lines.length && /^\s*\|/.test(lines[i]); i++) body.push(cells(lines[i]));
      nodes.push(el('div', { class: 'scroll' }, el('table', { 'data-testid': 'report-table' },
        el('thead', {}, el('tr', {}, head.map((h, j) => el('th', { class: align[j] }, inline(h))))),
        el('tbody', {}, body.map((r) => el('tr', {}, r.map((c, j) => el('td', { class: align[j] }, inline(c)))))))));
    } else if (/^\s*[-*]\s/.test(l)) {
      const items = [];
      for (; i < lines.length && /^\s*[-*]\s/.test(lines[i]); i++) items.push(el('li', {}, inline(lines[i].replace(/^\s*[-*]\s/, ''))));
      nodes.push(el('ul', {}, items));
    } else if (l.trim() === '') i++;
    else {
      const para = [];
      for (; i < lines.length && lines[i].trim() !== '' && !/^(#|```|\s*\||\s*[-*]\s)/.test(lines[i]); i++) para.push(lines[i]);
      nodes.push(el('p', {}, inline(para.join(' '))));
    }
  }
  return nodes;
}

async function showReport(id) {
  const r = await api(`/api/view/reports/${id}`);
  show(el('div', { class: 'report', 'data-testid': 'report' },
    el('h2', {}, r.title), el('p', { class: 'empty' }, r.path),
    // The chart links to itself: on a phone a wide chart is shrunk to the screen, its file can be zoomed.
    r.svg !== undefined ? el('a', { href: `/view/files/${r.svg}`, target: '_blank', title: 'open the chart full size', 'data-testid': 'report-chart-link' },
      el('img', { src: `/view/files/${r.svg}`, alt: `chart of ${r.title}`, 'data-testid': 'report-chart' })) : null,
    markdown(r.markdown)));
}

function showImage(id) {
  const p = folder.images[Number(id)];
  if (p === undefined) throw new Error(`no chart ${id}`);
  show(el('div', { class: 'report', 'data-testid': 'chart' }, el('h2', {}, p), el('img', { src: `/view/files/${id}`, alt: p })));
}

// ---- routing -----------------------------------------------------------------------------------

async function route() {
  markCurrent();
  const [kind, a, b, c] = location.hash.replace(/^#/, '').split('/');
  try {
    if (kind === 'run' && a !== undefined) await showRun(a, b === 'episode' && c !== undefined ? Number(c) : undefined);
    else if (kind === 'compare' && a !== undefined && b !== undefined) await showCompare(a, b, c === undefined ? undefined : Number(c));
    else if (kind === 'report' && a !== undefined) await showReport(a);
    else if (kind === 'image' && a !== undefined) showImage(a);
    else {
      runState.id = null;
      // A folder with a report opens on it (a study's or a benchmark's report says what its runs are); else on its first run.
      const first = folder.runs.find((r) => !r.error);
      if (folder.reports.length) location.replace(`#report/${folder.reports[0].id}`);
      else if (first) location.replace(`#run/${first.id}`);
      else show(el('p', { class: 'empty', 'data-testid': 'nothing' }, `Nothing to show in ${folder.folder} yet. Write a run there (dialogym evaluate … --transcripts ${folder.folder}/run.jsonl) or a report (dialogym benchmark --out ${folder.folder}).`));
    }
  } catch (e) {
    failed(e);
  }
  document.body.dataset.ready = 'true';
}

async function start() {
  try {
    folder = await api('/api/view');
  } catch (e) {
    failed(e);
    return;
  }
  $('folder').textContent = `${folder.folder} · ${count(folder.runs.length, 'run')} · ${count(folder.reports.length, 'report')}`;
  navList();
  window.addEventListener('hashchange', () => {
    document.body.dataset.ready = 'false';
    void route();
  });
  await route();
}

void start();
