/**
 * A study end to end through the library: configuration errors, the folder and its secrets, the
 * store (blind reads, assignment, abandon, answers), scripted participants on infobot-medium-v1
 * with the paper's four agents (balance, success within the simulated user's interval), the report
 * (JSON, Markdown, LaTeX, SVG, transcripts) and the CLI verbs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '../src/index.js';
import { evaluate } from '../src/evaluation/evaluate.js';
import { llmSystemMessage } from '../src/llm/prompts.js';
import { loadAgent } from '../src/agents/registry.js';
import { wilsonInterval } from '../src/metrics/permutation.js';
import { checkLatex } from '../src/report/testing/latex-check.js';
import { readStudyConfig, studyConfig, studyConfigJson } from '../src/study/config.js';
import { createStudy, StudyStore, STUDY_DB, STUDY_JSON } from '../src/study/store.js';
import { simulateStudy } from '../src/study/simulate.js';
import { studyReport, writeStudyReport, type StudyReport } from '../src/study/report.js';
import { startLlmTestServer } from './llm-server.js';
import { scanViewFolder } from '../src/serve/view.js';
import { cli, oneLineError } from './cli.js';
import { cliPath, repoRoot, skipUnlessSqlite } from './shared-data.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-study-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const noSqlite = skipUnlessSqlite();
const PAPER_AGENTS = ['rl-hard', 'rule-soft', 'rl-soft', 'e2e-soft'];

test('study configuration: defaults, agents of every kind, and one-line errors naming the field', () => {
  const c = studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft', 'policies/rl-hard.json', { label: 'mine', cmd: 'python3 a.py' }, { label: 'web', url: 'http://127.0.0.1:9/act' }, { label: 'gpt', llm: 'm', llmUrl: 'http://127.0.0.1:8/v1' }] });
  assert.deepEqual(
    c.agents.map((a) => [a.kind, a.label]),
    [['builtin', 'rl-soft'], ['builtin', 'rl-hard'], ['cmd', 'mine'], ['url', 'web'], ['llm', 'gpt']],
  );
  assert.equal(c.participants, 8);
  assert.equal(c.sessionsPerParticipant, 20);
  assert.equal(c.role, 'user');
  assert.deepEqual(studyConfig(studyConfigJson(c)), c, 'study.json reads back as the same configuration');
  const bad: Array<[unknown, RegExp]> = [
    [{ agents: ['x'] }, /^s\.json: missing "env" string$/],
    [{ env: 'infobot-medium-v1' }, /^s\.json: missing "agents" list: people play the user/],
    [{ env: 'infobot-medium-v1', agents: [] }, /^s\.json: "agents" must have at least 1 item, got \[\]$/],
    [{ env: 'infobot-medium-v1', agents: ['a', 'a'] }, /^s\.json: agents\[1\]: the label "a" is already agents\[0\]'s; give each agent its own "label"$/],
    [{ env: 'infobot-medium-v1', agents: [{ cmd: 'x' }] }, /^s\.json: agents\[0\]: missing "label"/],
    [{ env: 'infobot-medium-v1', agents: [{ label: 'x', cmd: 'x', url: 'http://a' }] }, /^s\.json: agents\[0\]: give exactly one of agent, cmd, url, llm, got cmd and url$/],
    [{ env: 'infobot-medium-v1', agents: [{ label: 'x', url: 'ftp://a' }] }, /^s\.json: agents\[0\]: "url" must be an http:\/\/ or https:\/\/ URL, got "ftp:\/\/a"$/],
    [{ env: 'infobot-medium-v1', agents: ['a'], sessionsPerParticipant: 0 }, /^s\.json: "sessionsPerParticipant" must be >= 1, got 0$/],
    [{ env: 'infobot-medium-v1', agents: ['a'], role: 'agent' }, /^s\.json: agents: cannot be given when people play the agent/],
    [{ env: 'infobot-medium-v1', agents: ['a'], questions: [{ id: 'q', text: 'How?', min: 5, max: 5 }] }, /^s\.json: questions\[0\]: min must be below max, got 5 and 5$/],
    [{ env: 'infobot-medium-v1', agents: ['a'], colour: 'red' }, /^s\.json: unknown field "colour"$/],
    [{ env: 'infobot-medium-v1', agents: ['a'], title: '   ' }, /^s\.json: "title" must not be empty or blank, got "   "$/],
  ];
  for (const [value, want] of bad) assert.throws(() => studyConfig(value, 's.json'), (e: Error) => want.test(e.message) && !e.message.includes('\n'), JSON.stringify(value));
  const file = join(tmp, 'broken.json');
  writeFileSync(file, '{\n  "env": "infobot-medium-v1",\n  "agents": [\n}\n');
  assert.throws(() => readStudyConfig(file), (e: Error) => e.message.startsWith(`${file}:4: invalid JSON`));
});

test('the configuration shown in docs/human-evaluation.md is a valid one', () => {
  const md = readFileSync(join(repoRoot, 'docs', 'human-evaluation.md'), 'utf8');
  const block = /\n\n((?: {4}.*\n|\n)+)/.exec(md.slice(md.indexOf('`--config` instead of the flags')))?.[1] ?? '';
  const c = studyConfig(JSON.parse(block.replace(/^ {4}/gm, '')), 'docs/human-evaluation.md');
  assert.deepEqual(c.agents.map((a) => a.kind), ['builtin', 'cmd', 'url', 'llm']);
  assert.deepEqual(c.questions.map((q) => [q.id, q.type]), [['satisfied', 'rating'], ['comments', 'text']]);
});

test('study folder: created whole or not at all; codes and token random (≥ 128 bits), never stored in clear', { skip: noSqlite }, () => {
  const dir = join(tmp, 'secrets');
  const made = createStudy(dir, studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft', 'rule-soft'], participants: 5, sessionsPerParticipant: 2 }));
  assert.deepEqual(readdirSync(dir).sort(), [STUDY_JSON, STUDY_DB]);
  assert.deepEqual(readdirSync(tmp).filter((f) => f.startsWith('.')), [], 'no temp folder left');
  assert.equal(made.participants.length, 5);
  for (const p of made.participants) assert.equal(Buffer.from(p.code, 'base64url').length, 16, p.code);
  assert.equal(Buffer.from(made.adminToken, 'base64url').length, 24);
  assert.equal(new Set(made.participants.map((p) => p.code)).size, 5);
  const bytes = readFileSync(join(dir, STUDY_DB)).toString('latin1') + readFileSync(join(dir, STUDY_JSON), 'utf8');
  for (const s of [made.adminToken, ...made.participants.map((p) => p.code)]) assert.ok(!bytes.includes(s), 'a secret is stored in clear');
  const store = StudyStore.open(dir);
  try {
    assert.ok(store.isAdmin(made.adminToken));
    assert.ok(!store.isAdmin(made.adminToken.slice(0, -1) + (made.adminToken.endsWith('A') ? 'B' : 'A')));
    assert.equal(store.participantByCode(made.participants[2]?.code as string)?.label, 'p3');
    assert.equal(store.participantByCode('p3'), undefined);
  } finally {
    store.close();
  }
  // An existing folder with files is refused and left as it was.
  assert.throws(() => createStudy(dir, studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft'] })), new RegExp(`^ConfigError: ${dir}: already exists and is not empty; give a new folder for the study$`));
  assert.deepEqual(readdirSync(dir).sort(), [STUDY_JSON, STUDY_DB]);
  // An empty one is taken.
  mkdirSync(join(tmp, 'empty'));
  createStudy(join(tmp, 'empty'), studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft'], participants: 1 }));
  assert.ok(readdirSync(join(tmp, 'empty')).includes(STUDY_DB));
});

test('study store: blind participant reads, permuted-block assignment, abandon frees the slot, answers checked', { skip: noSqlite }, () => {
  const dir = join(tmp, 'store');
  const made = createStudy(dir, studyConfig({ env: 'infobot-medium-v1', agents: PAPER_AGENTS, participants: 2, sessionsPerParticipant: 6, seed: 3, questions: [{ id: 'ease', text: 'How easy was it?' }] }));
  const store = StudyStore.open(dir);
  try {
    const p1 = store.participantByCode(made.participants[0]?.code as string);
    const p2 = store.participantByCode(made.participants[1]?.code as string);
    assert.ok(p1 && p2);
    const s = store.startSession(p1.id);
    assert.equal(s.number, 1);
    assert.throws(() => store.startSession(p1.id), /^ConfigError: participant p1 has session 1 open: resume it or abandon it$/);
    assert.deepEqual(store.participantByCode(made.participants[0]?.code as string)?.open, s, 'the open session is offered to resume');
    store.addTurn(s.id, 'user', 'i want a movie with brad pitt');
    store.addTurn(s.id, 'agent', { action: 'request actor' });
    // The participant's view never names the agent; another participant cannot read it.
    const view = store.sessionView(p1.id, s.id);
    assert.ok(view);
    const text = JSON.stringify(view);
    for (const a of PAPER_AGENTS) assert.ok(!text.includes(a), `${a} in ${text}`);
    assert.ok(!('agent' in view));
    assert.equal(view.turns.length, 2);
    assert.equal(store.sessionView(p2.id, s.id), undefined);
    // Abandoned: not counted, its slot and number go to the next session (same agent, same goal).
    const slot0 = store.sessions()[0];
    store.abandon(s.id);
    const again = store.startSession(p1.id);
    assert.equal(again.number, 1);
    assert.equal(again.seed, s.seed);
    assert.equal(store.sessions()[1]?.agent, slot0?.agent);
    assert.throws(() => store.addTurn(s.id, 'user', 'late'), /^ConfigError: session 1 is abandoned, not open$/);
    store.finishSession(again.id, { success: true, reward: 2, turns: 3, failure: null }, { env: 'infobot-medium-v1' });
    assert.throws(() => store.finishSession(again.id, { success: false, reward: 0, turns: 1, failure: 'x' }, {}), /is finished, not open/);
    assert.throws(() => store.answer(again.id, 'ease', 6), /^ConfigError: ease: must be an integer from 1 to 5, got 6$/);
    assert.throws(() => store.answer(again.id, 'fun', 3), /no question "fun" in this study \(questions: ease\)/);
    store.answer(again.id, 'ease', 4);
    store.answer(again.id, 'ease', 5);
    assert.deepEqual(store.sessions('finished')[0]?.answers, { ease: 5 });
    assert.deepEqual(store.sessionsOf(p1.id).map((x) => [x.number, x.status, x.outcome?.success]), [[1, 'finished', true]]);
    assert.ok(!JSON.stringify(store.sessionsOf(p1.id)).includes('"agent"'));
    assert.deepEqual(store.sessionsOf(p2.id), []);
    // Every block of 4 slots holds each agent once.
    for (let k = 0; k < 11; k++) {
      const who = k % 2 === 0 ? p2.id : p1.id;
      const t = store.startSession(who);
      store.finishSession(t.id, { success: false, reward: -1, turns: 2, failure: 'x' }, {});
    }
    const agents = store.sessions('finished').map((x) => x.agent);
    assert.equal(agents.length, 12);
    for (let b = 0; b < 3; b++) assert.deepEqual(agents.slice(4 * b, 4 * b + 4).sort(), [...PAPER_AGENTS].sort(), `block ${b}`);
    assert.deepEqual(Object.values(store.counts().perAgent), [3, 3, 3, 3]);
    assert.throws(() => store.startSession(p1.id), /^ConfigError: participant p1 has played all 6 sessions$/);
    store.closeStudy();
    assert.throws(() => store.startSession(p2.id), /^ConfigError: the study is closed$/);
  } finally {
    store.close();
  }
});

test('infobot-medium-v1, 8 scripted participants × 25 sessions, the paper\'s four agents: balanced, success within the simulated user\'s interval, the report', { skip: noSqlite }, async () => {
  const dir = join(tmp, 'paper');
  createStudy(dir, studyConfig({ env: 'infobot-medium-v1', agents: PAPER_AGENTS, participants: 8, sessionsPerParticipant: 25, seed: 1, questions: [{ id: 'satisfied', text: 'How satisfied are you?', min: 1, max: 5 }] }));
  const store = StudyStore.open(dir);
  let report: StudyReport;
  try {
    // A scripted rating: 5 after a success, 2 after a failure.
    const run = await simulateStudy(store, { answer: (_q, rec) => (rec.success ? 5 : 2) });
    assert.deepEqual(run, { finished: 200, abandoned: 0 });
    const counts = store.counts();
    assert.equal(counts.finished, 200);
    for (const a of PAPER_AGENTS) assert.ok(Math.abs((counts.perAgent[a] ?? 0) - 50) <= 2, `${a}: ${counts.perAgent[a]}`);
    for (const p of store.participantLabels()) assert.equal(store.participantByLabel(p)?.finished, 25);
    const out = join(dir, 'report');
    report = writeStudyReport(store, out);
    // The simulated user's own success rate per agent (1,000 other goals) lies in the study's 95 % interval.
    for (const a of report.agents) {
      const { summary } = await evaluate('infobot-medium-v1', loadAgent(a.agent), { episodes: 1000, seed: 100_000 });
      assert.ok(a.interval[0] <= summary.success && summary.success <= a.interval[1], `${a.agent}: simulated user ${summary.success}, study ${a.success} [${a.interval}]`);
      assert.deepEqual(a.interval, wilsonInterval(a.successes, a.dialogues));
      const rating = a.questions['satisfied'];
      assert.equal(rating?.n, a.dialogues);
      assert.ok(Math.abs((rating?.mean ?? 0) - (5 * a.successes + 2 * (a.dialogues - a.successes)) / a.dialogues) < 1e-12);
      assert.equal(Object.values(a.turns).reduce((s, n) => s + n, 0), a.dialogues);
    }
    assert.equal(report.pairs.length, 6);
    for (const p of report.pairs) {
      assert.equal(p.success.method, 'exact');
      assert.ok(p.success.p > 0 && p.success.p <= 1);
    }
    // The files.
    assert.deepEqual(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')), JSON.parse(JSON.stringify(report)));
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    for (const a of report.agents) assert.ok(md.includes(`| ${a.agent} | ${a.dialogues} | ${(100 * a.success).toFixed(1)} |`), a.agent);
    const tex = readFileSync(join(out, 'report.tex'), 'utf8');
    assert.deepEqual(checkLatex(tex).problems, []);
    assert.equal(checkLatex(tex).tabulars.length, 2);
    assert.match(tex, /\$-\d/, 'a negative difference among the pairs, in math mode');
    assert.doesNotMatch(tex, /(^|& )-\d/m, 'a minus sign, never a text hyphen, before a number');
    const svg = readFileSync(join(out, 'turns.svg'), 'utf8');
    assert.equal((svg.match(/<g class="panel"/g) ?? []).length, 4);
    const bars = [...svg.matchAll(/data-count="(\d+)"/g)].reduce((s, m) => s + Number(m[1]), 0);
    assert.equal(bars, 200);
    assert.equal((readFileSync(join(out, 'report.svg'), 'utf8').match(/class="band"/g) ?? []).length, 4);
    const lines = readFileSync(join(out, 'transcripts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.equal(lines.length, 200);
    for (const l of lines) {
      assert.equal(l['env'], 'infobot-medium-v1');
      assert.ok(PAPER_AGENTS.includes(l['agent'] as string));
      assert.equal(typeof l['success'], 'boolean');
      assert.ok(Array.isArray(l['actions']));
    }
    for (const a of report.agents) assert.equal(readFileSync(join(out, 'transcripts', `${a.agent}.jsonl`), 'utf8').trim().split('\n').length, a.dialogues);
    // dialogym view lists the transcripts as runs (all, and one per agent) and the report with its chart.
    const seen = scanViewFolder(out);
    assert.deepEqual(seen.runs.map((r) => r.path).sort(), ['transcripts.jsonl', ...PAPER_AGENTS.map((a) => `transcripts/${a}.jsonl`)].sort());
    assert.deepEqual(seen.reports.map((r) => [r.path, r.svg === undefined ? undefined : seen.images[r.svg]]), [['report.md', 'report.svg']]);
    // Turns were written as they happened: one user and one agent line per agent turn.
    const s0 = store.sessions('finished')[0];
    assert.ok(s0);
    const p = store.participantByLabel(s0.participant);
    assert.equal(store.sessionView(p?.id as number, s0.id)?.turns.length, 2 * (s0.outcome?.turns ?? 0));
  } finally {
    store.close();
  }
  process.stdout.write(`# study figures: ${report.agents.map((a) => `${a.agent} ${a.dialogues} dialogues, success ${a.success.toFixed(2)} [${a.interval.map((x) => x.toFixed(3)).join(', ')}], turns ${a.avgTurns.toFixed(2)}`).join('; ')}\n`);
});

test('agents of every kind in one study: built in, an agent process, an LLM behind a local OpenAI-compatible server', { skip: noSqlite }, async () => {
  const server = await startLlmTestServer();
  const dir = join(tmp, 'kinds');
  try {
    const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} agent --agent rules --stdio`;
    createStudy(dir, studyConfig({ env: 'restaurant-task5-v1', agents: ['rules', { label: 'process', cmd: command }, { label: 'llm', llm: 'test-model', llmUrl: server.url }], participants: 3, sessionsPerParticipant: 2 }));
    const store = StudyStore.open(dir);
    try {
      await assert.rejects(simulateStudy(store, { timeoutMs: 30_000 }), /^ConfigError: agent llm: an LLM agent needs its system message \(the llmSystem option; dialogym's is llmSystemMessage\)$/);
      // The session the LLM agent was drawn for stayed open; the next run abandons it and plays on.
      const before = store.counts().finished;
      assert.deepEqual(await simulateStudy(store, { timeoutMs: 30_000, llmSystem: (req) => llmSystemMessage(req) }), { finished: 6 - before, abandoned: 1 });
      assert.equal(store.counts().abandoned, 1);
      const r = studyReport(store);
      assert.deepEqual(r.agents.map((a) => [a.agent, a.dialogues, a.success]), [['rules', 2, 1], ['process', 2, 1], ['llm', 2, 1]]);
      assert.ok(server.stats.answered > 0);
      assert.deepEqual(server.stats.rejected, []);
    } finally {
      store.close();
    }
  } finally {
    await server.close();
  }
});

test('the same seed gives the same report, byte for byte', { skip: noSqlite }, async () => {
  const files: string[] = [];
  for (const name of ['same-a', 'same-b']) {
    const dir = join(tmp, name);
    createStudy(dir, studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft', 'rule-soft', 'e2e-soft'], participants: 3, sessionsPerParticipant: 4, seed: 9 }));
    const store = StudyStore.open(dir);
    await simulateStudy(store);
    writeStudyReport(store, join(dir, 'report'));
    store.close();
    files.push(['report.json', 'report.md', 'report.tex', 'turns.svg', 'report.svg', 'transcripts.jsonl'].map((f) => readFileSync(join(dir, 'report', f), 'utf8')).join('\0'));
  }
  assert.equal(files[0], files[1]);
});

test('dialogym study create / simulate / report, and their one-line errors', { skip: noSqlite }, () => {
  const dir = join(tmp, 'cli');
  const made = cli('study', 'create', dir, '--env', 'infobot-medium-v1', '--agents', 'rl-soft,rule-soft', '--participants', '2', '--sessions', '3');
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stdout, /^admin token: [A-Za-z0-9_-]{32}$/m);
  assert.equal((made.stdout.match(/^participant p\d: [A-Za-z0-9_-]{22}$/gm) ?? []).length, 2);
  const sim = cli('study', 'simulate', dir);
  assert.equal(sim.code, 0, sim.stderr);
  assert.match(sim.stdout, /^simulated 6 sessions; finished per agent: rl-soft 3, rule-soft 3$/m);
  const rep = cli('study', 'report', dir, '--json');
  assert.equal(rep.code, 0, rep.stderr);
  assert.equal((JSON.parse(rep.stdout) as StudyReport).finished, 6);
  oneLineError(cli('study', 'create', dir, '--env', 'infobot-medium-v1', '--agents', 'rl-soft'), new RegExp(`^error: ${dir}: already exists and is not empty; give a new folder for the study$`), 2);
  oneLineError(cli('study', 'create', join(tmp, 'x1'), '--env', 'infobot-medium-v1', '--agents', 'rl-soft,nobody'), /^error: --agents: nobody: unknown agent \(agents: /, 2);
  oneLineError(cli('study', 'create', join(tmp, 'x6'), '--env', 'restaurant-task5-v2', '--agents', 'rules,rl-soft'), /^error: --agents: rl-soft: not an agent of restaurant-task5-v2 \(its agents: .*rules.*\)$/, 2);
  oneLineError(cli('study', 'create', join(tmp, 'x7'), '--config', join(dir, 'study.json'), '--seed', '3'), /^error: --config: give the study in the file alone \(drop --seed\)$/, 2);
  oneLineError(cli('study', 'create', join(tmp, 'x2'), '--env', 'no-such-env-v1', '--agents', 'rl-soft'), /^error: .*no-such-env-v1/, 2);
  oneLineError(cli('study', 'create', join(tmp, 'x3'), '--env', 'infobot-medium-v1'), /^error: give --agents <a,b,…>/, 2);
  // An agent that cannot be opened stops `study serve` at its start, in its own words (not "cannot listen on …").
  const keyless = join(tmp, 'keyless.json');
  writeFileSync(keyless, JSON.stringify({ env: 'infobot-medium-v1', agents: ['rl-soft', { label: 'keyless', llm: 'm', llmUrl: 'http://127.0.0.1:9/v1', llmKeyEnv: 'DIALOGYM_TEST_NO_SUCH_KEY' }], participants: 1, sessionsPerParticipant: 1 }));
  assert.equal(cli('study', 'create', join(tmp, 'x10'), '--config', keyless).code, 0);
  oneLineError(cli('study', 'serve', join(tmp, 'x10'), '--port', '0'), /^error: agent keyless: llmKeyEnv: the environment variable DIALOGYM_TEST_NO_SUCH_KEY is not set$/, 2);
  // A fault of the flags names the flag (not "the flags: agents[1]…"), with advice that works with flags.
  oneLineError(cli('study', 'create', join(tmp, 'x8'), '--env', 'infobot-medium-v1', '--agents', 'rl-soft,rule-soft,rl-soft'), /^error: --agents: rl-soft is given twice \(to compare an agent with itself, give the study with --config and a "label" for each\)$/, 2);
  oneLineError(cli('study', 'create', join(tmp, 'x9'), '--env', 'infobot-medium-v1', '--agents', 'rl-soft', '--title', ''), /^error: --title: must not be empty or blank, got ""$/, 2);
  const cfg = join(tmp, 'bad-study.json');
  writeFileSync(cfg, JSON.stringify({ env: 'infobot-medium-v1', agents: ['rl-soft'], participants: 'many' }));
  oneLineError(cli('study', 'create', join(tmp, 'x4'), '--config', cfg), new RegExp(`^error: ${cfg}: "participants" must be an integer, got "many"$`));
  oneLineError(cli('study', 'report', join(tmp, 'x5')), new RegExp(`^error: ${join(tmp, 'x5')}: not a study folder \\(no study.sqlite; \`dialogym study create ${join(tmp, 'x5')} --env <id> --agents <a,b>\` makes one\\)$`), 2);
  oneLineError(cli('study', 'create', '/proc/dialogym-no-such-study', '--env', 'infobot-medium-v1', '--agents', 'rl-soft'), /^error: \/proc\/dialogym-no-such-study: cannot create the study folder \(ENOENT\)$/, 2);
  mkdirSync(join(tmp, 'x8'));
  writeFileSync(join(tmp, 'x8', 'study.sqlite'), 'not a database\n'.repeat(100));
  oneLineError(cli('study', 'report', join(tmp, 'x8')), new RegExp(`^error: ${join(tmp, 'x8', 'study.sqlite')}: not a readable study database \\(`), 1);
  for (const x of ['x1', 'x2', 'x3', 'x4', 'x6', 'x7']) assert.throws(() => readdirSync(join(tmp, x)), /ENOENT/, `${x} left behind`);
});

test('the turns chart counts an agent of one dialogue in the singular', async () => {
  const { turnsChartSvg } = await import('../src/study/chart.js');
  const svg = turnsChartSvg([{ label: 'a', counts: new Map([[4, 1]]), mean: 4 }, { label: 'b', counts: new Map([[2, 1], [3, 2]]), mean: 2.7 }], { title: 'Turns per dialogue' });
  assert.ok(svg.includes('(1 dialogue)'), 'a: (1 dialogue)');
  assert.ok(svg.includes('(3 dialogues)'), 'b: (3 dialogues)');
  assert.ok(svg.includes('a: 1 of 1 dialogue took 4 turns') && svg.includes('b: 2 of 3 dialogues took 3 turns'));
  assert.ok(!svg.includes('1 dialogues'));
});
