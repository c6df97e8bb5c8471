// The admin page of a study (src/serve/study-server.ts): live counts per agent and per
// participant, and closing the study. The token is kept in this tab (sessionStorage) and sent in
// the authorization header, never in a URL.
const $ = (id) => document.getElementById(id);
let token = sessionStorage.getItem('study-admin-token');
let timer = null;

function cell(text, cls) {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function row(...cells) {
  const tr = document.createElement('tr');
  tr.append(...cells);
  return tr;
}

function notice(text) {
  $('notice').textContent = text ?? '';
  $('notice').hidden = !text;
}

async function api(method, path) {
  const res = await fetch(path, { method, headers: { authorization: `Bearer ${token}` } });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw Object.assign(new Error(json.error ?? `error ${res.status}`), { status: res.status });
  return json;
}

function render(a) {
  document.title = `${a.title}: admin`;
  $('title').textContent = `${a.title}: admin`;
  const finished = a.agents.reduce((n, x) => n + x.finished, 0);
  $('progress').textContent = `${a.env}, people play the ${a.role}; ${finished} finished, ${a.live} in progress${a.closed ? '; closed' : ''}`;
  $('agents').replaceChildren(
    ...a.agents.map((x) => {
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = x.agent;
      const rate = x.finished > 0 ? `${((100 * x.successes) / x.finished).toFixed(1)} % (${x.successes})` : '–';
      return row(th, cell(String(x.sessions), 'num'), cell(String(x.open), 'num'), cell(String(x.finished), 'num'), cell(rate, 'num'), cell(String(x.abandoned), 'num'));
    }),
  );
  $('participants').replaceChildren(...a.participants.map((p) => row(cell(p.label), cell(`${p.finished} of ${a.sessionsPerParticipant}`, 'num'), cell(p.open ? 'yes' : ''))));
  $('close').disabled = a.closed;
  $('closed').textContent = a.closed ? 'The study is closed: no new conversation starts.' : '';
}

async function refresh() {
  try {
    render(await api('GET', '/api/admin'));
    notice(null);
    $('login').hidden = true;
    $('board').hidden = false;
  } catch (e) {
    notice(e.message);
    if (e.status === 401 || e.status === 403) {
      sessionStorage.removeItem('study-admin-token');
      token = null;
      clearInterval(timer);
      $('login').hidden = false;
      $('board').hidden = true;
    }
  }
}

$('token-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  token = $('token').value.trim();
  $('token').value = '';
  sessionStorage.setItem('study-admin-token', token);
  void refresh();
  clearInterval(timer);
  timer = setInterval(refresh, 5000);
});

$('close').addEventListener('click', async () => {
  if (!confirm('Close the study? No new conversation can start; the ones in progress may finish.')) return;
  try {
    await api('POST', '/api/admin/close');
  } catch (e) {
    notice(e.message);
  }
  await refresh();
});

if (token) {
  void refresh();
  timer = setInterval(refresh, 5000);
}
