// The participant's page of a study (src/serve/study-server.ts): their sessions, the dialog of the
// one in progress (the goal card, or the agent's view and tools when people play the agent), the
// outcome and the questions after it. Every text from the server is set with textContent. The
// session itself (goal card, turns, tool calls, the agent's view) is rendered by session-view.js,
// as on `serve --env`'s page.
import { $ } from './dom.js';
import { outcomeClass, renderGoal, turnItems, typedValue, viewSections } from './session-view.js';

const code = location.pathname.startsWith('/p/') ? decodeURIComponent(location.pathname.slice(3)) : null;
let me = null;
let current = null;

function el(tag, props = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') e.textContent = v;
    else if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

function notice(text) {
  $('notice').textContent = text ?? '';
  $('notice').hidden = !text;
}

async function api(method, path, body) {
  const init = { method, headers: { 'x-study-code': code } };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch {
    throw new Error('The server cannot be reached: check your connection and try again.');
  }
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(json.error ?? `error ${res.status}`), { status: res.status });
  return json;
}

function show(section) {
  for (const s of ['enter', 'home', 'dialog']) $(s).hidden = s !== section;
}

async function loadHome() {
  current = null;
  me = await api('GET', '/api/me');
  document.title = me.title;
  $('title').textContent = me.title;
  $('progress').textContent = `${me.done} of ${me.total} conversations done`;
  const list = $('sessions');
  list.replaceChildren(...me.sessions.map((s) => el('li', { class: s.status === 'finished' ? 'done' : '', text: `Conversation ${s.number}: ${s.status === 'finished' ? 'done' : 'in progress'}` })));
  const left = me.total - me.done;
  const start = $('start');
  start.textContent = me.open !== undefined ? 'Resume your conversation' : 'Start the next conversation';
  // Nothing left to start (all played, or the study closed): no button, the text says why.
  start.hidden = (left <= 0 || me.closed) && me.open === undefined;
  start.disabled = start.hidden;
  // Their last conversation was set aside (the server restarted, it sat idle, or failed on our side).
  const interrupted = me.interrupted === true && me.open === undefined && left > 0 && !me.closed;
  $('home-note').textContent = interrupted ? 'Your last conversation was interrupted and set aside (it does not count): start the next one when you are ready.' : '';
  $('home-note').hidden = !interrupted;
  $('home-text').textContent =
    left <= 0 ? 'You have played all your conversations. Thank you!' : me.closed && me.open === undefined ? 'The study is closed. Thank you for taking part!' : me.role === 'user' ? `Each conversation gives you a task: talk with the assistant to get it done. ${left} to go.` : `In each conversation you play the assistant: help the user with what they ask, using the tools. ${left} to go.`;
  show('home');
}

function renderTurns(turns, role) {
  $('log').replaceChildren(...turnItems(turns, role, { names: { user: 'user', agent: 'assistant' } }));
  $('log').scrollTop = $('log').scrollHeight;
}

function renderView(sections) {
  $('view').replaceChildren(...viewSections(sections));
  $('view').hidden = !sections || sections.length === 0;
}

function renderTools(tools, enabled) {
  const box = $('tools');
  box.replaceChildren(
    ...(tools ?? []).map((t) => {
      const f = t.function;
      const props = f.parameters?.properties ?? {};
      const required = new Set(f.parameters?.required ?? []);
      const form = el('form', { class: 'tool-form', 'data-testid': `tool-${f.name}` }, el('h3', { text: f.name, title: f.description }));
      for (const [name, p] of Object.entries(props)) {
        const id = `arg-${f.name}-${name}`;
        let input;
        if (Array.isArray(p.enum)) {
          input = el('select', { id, name });
          // Nothing chosen until the person chooses (a required one blocks the call until then).
          const none = el('option', { value: '', text: required.has(name) ? 'choose…' : '(none)' });
          if (required.has(name)) none.disabled = true;
          none.selected = true;
          input.append(none);
          for (const v of p.enum) input.append(el('option', { value: String(v), text: String(v) }));
        } else input = el('input', { id, name, type: p.type === 'integer' || p.type === 'number' ? 'number' : 'text', maxlength: '200' });
        if (required.has(name)) input.required = true;
        form.append(el('div', { class: 'field' }, el('label', { for: id, text: name }), input));
      }
      const go = el('button', { type: 'submit', 'data-testid': `call-${f.name}`, text: `Call ${f.name}` });
      go.disabled = !enabled;
      form.append(go);
      form.addEventListener('submit', (ev) => {
        ev.preventDefault();
        const args = {};
        for (const input of form.querySelectorAll('select, input')) {
          const v = typedValue(props[input.name] ?? {}, input.value);
          if (v !== undefined) args[input.name] = v;
        }
        void send({ tool: f.name, arguments: args });
      });
      return form;
    }),
  );
  box.hidden = !tools || tools.length === 0;
}

function renderQuestions(answers) {
  const form = $('questions');
  const qs = me?.questions ?? [];
  const open = qs.filter((q) => answers[q.id] === undefined);
  form.replaceChildren(
    ...open.map((q) => {
      const set = el('fieldset', { 'data-question': q.id }, el('legend', { text: q.text }));
      if (q.type === 'rating') {
        const scale = el('div', { class: 'scale' });
        for (let v = q.min; v <= q.max; v++) {
          const id = `q-${q.id}-${v}`;
          scale.append(el('label', { for: id }, el('input', { type: 'radio', id, name: q.id, value: String(v), 'data-testid': `rate-${q.id}-${v}` }), ` ${v}`));
        }
        set.append(scale);
      } else set.append(el('textarea', { name: q.id, maxlength: '2000', 'data-testid': `answer-${q.id}` }));
      return set;
    }),
  );
  form.hidden = open.length === 0;
  $('next').textContent = open.length > 0 ? 'Send my answers and continue' : 'Continue';
}

function showSession(s) {
  current = s;
  show('dialog');
  const st = s.state;
  const role = st?.role ?? me?.role ?? 'user';
  $('progress').textContent = `Conversation ${s.number} of ${me?.total ?? '?'}`;
  renderGoal(st?.goalCard ?? s.goalCard);
  renderView(st?.agentView);
  $('side').hidden = $('goal').hidden && $('view').hidden;
  renderTurns(st ? st.turns : (s.turns ?? []), role);
  const yours = s.status === 'open' && st?.waiting === 'person';
  $('hint').hidden = !(yours && st?.hint);
  $('hint').textContent = st?.hint ? `Suggestion: ${st.hint}` : '';
  $('form').hidden = s.status !== 'open';
  $('text').disabled = !yours;
  $('send').disabled = !yours;
  // A turn where the simulated user says nothing new: say something anyway, or let it pass (empty text).
  $('wordless').hidden = !(yours && st?.wordless);
  $('pass').disabled = !yours;
  renderTools(s.status === 'open' ? st?.tools : undefined, yours);
  const outcome = st?.outcome ?? s.outcome;
  const ended = s.status !== 'open';
  $('end').hidden = !ended;
  if (ended) {
    $('end').className = outcomeClass(outcome ?? { success: false });
    $('end-title').textContent = s.status === 'abandoned' ? 'This conversation was set aside.' : outcome?.success ? 'Task completed' : 'Task not completed';
    $('end-lines').replaceChildren(...(outcome?.lines ?? []).map((l) => el('li', { text: l })));
    renderQuestions(s.status === 'finished' ? s.answers ?? {} : Object.fromEntries((me?.questions ?? []).map((q) => [q.id, 0])));
  }
  if (yours) $('text').focus();
}

async function send(input) {
  if (!current) return;
  notice(null);
  $('text').disabled = true;
  $('send').disabled = true;
  $('pass').disabled = true;
  for (const b of $('tools').querySelectorAll('button')) b.disabled = true;
  $('log').append(el('li', { class: 'waiting', text: '…' }));
  try {
    showSession(await api('POST', `/api/sessions/${current.id}/messages`, input));
    if (typeof input === 'string' || input.text !== undefined) $('text').value = '';
  } catch (e) {
    notice(e.message);
    if (e.status === 409 || e.status === 502) {
      await loadHome().catch(() => {});
      // The home page says it in its own line (no second notice of the same).
      if (!$('home-note').hidden) notice(null);
    }
    else if (current) showSession(current);
  }
}

$('code-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const c = $('code').value.trim();
  if (c) location.assign(`/p/${encodeURIComponent(c)}`);
});

$('start').addEventListener('click', async () => {
  notice(null);
  $('start').disabled = true;
  try {
    showSession(await api('POST', '/api/sessions', {}));
  } catch (e) {
    notice(e.message);
    await loadHome().catch(() => {});
  }
});

$('form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const text = $('text').value.trim();
  if (text) void send({ text });
  else if (current?.state?.wordless) void send({ text: '' }); // Enter on an empty line lets a silent turn pass
});
$('pass').addEventListener('click', () => void send({ text: '' }));

$('next').addEventListener('click', async () => {
  notice(null);
  const form = $('questions');
  if (current && current.status === 'finished' && !form.hidden) {
    const answers = {};
    for (const set of form.querySelectorAll('fieldset')) {
      const id = set.dataset.question;
      const q = me.questions.find((x) => x.id === id);
      if (q.type === 'rating') {
        const picked = set.querySelector('input:checked');
        if (!picked) return notice(`Please answer: ${q.text}`);
        answers[id] = Number(picked.value);
      } else {
        const t = set.querySelector('textarea').value.trim();
        if (t) answers[id] = t;
      }
    }
    try {
      await api('POST', `/api/sessions/${current.id}/answers`, { answers });
    } catch (e) {
      return notice(e.message);
    }
  }
  await loadHome().catch((e) => notice(e.message));
});

if (code === null) show('enter');
else
  loadHome().catch((e) => {
    notice(e.status === 403 ? 'This code is not one of this study: check the code (or the link) you were given and try again.' : e.message);
    show('enter');
  });
