/**
 * `dialogym export`: played sessions become their testbed's dataset, and the existing readers,
 * checkers, scorers and trainers take it — restaurant (bAbI text → `train --model memn2n`), DSTC6
 * (JSON → `dstc6 check`, `dstc6 rank`, `dstc6 score`), AirDialogue (JSON lines → the official
 * scorer, the logic check, `airdialogue train`), KB-InfoBot (dialog records, replayed, read back); each bad input a one-line error naming the file and line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, oneLineError } from './cli.js';
import { formatBabiDialogs, readBabiCandidates, readBabiDialogs } from '../src/formats/babi.js';
import { dstc6History, readDstc6Data, readDstc6Results } from '../src/formats/dstc6.js';
import { readAirDialogue } from '../src/formats/airdialogue.js';
import { scoreHuman } from '../src/testbeds/airdialogue/scorer.js';
import { createAgent } from '../src/agents/registry.js';
import { evaluate, type EpisodeRecord } from '../src/evaluation/evaluate.js';
import { exportDataset, MixedEnvsError } from '../src/evaluation/export-dataset.js';
import type { Turn } from '../src/core/dialog.js';
import { envs, make } from '../src/env/env.js';
import { readInfoBotDialogs } from '../src/testbeds/infobot/export.js';
import { playedTurns } from '../src/testbeds/restaurant/export.js';
import { studyConfig } from '../src/study/config.js';
import { createStudy, StudyStore } from '../src/study/store.js';
import { simulateStudy } from '../src/study/simulate.js';
import { writeStudyReport } from '../src/study/report.js';
import { skipUnlessSqlite } from './shared-data.js';
import '../src/index.js';

const tmp = (): string => mkdtempSync(join(tmpdir(), 'dialogym-export-'));
const records = (file: string): EpisodeRecord[] => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as EpisodeRecord);
const history = (r: EpisodeRecord): Turn[] => (r.observation as { history: Turn[] }).history;

function play(dir: string, env: string, episodes: number, seed: number): string {
  const file = join(dir, `${env}-${seed}.jsonl`);
  const r = cli('evaluate', '--env', env, '--agent', 'rules', '--episodes', String(episodes), '--seed', String(seed), '--transcripts', file);
  assert.equal(r.code, 0, r.stderr);
  return file;
}

test('restaurant-task5-v2: 20 played dialogs → bAbI text read back dialog for dialog as played, and memn2n trains one epoch on them', () => {
  const dir = tmp();
  const played = play(dir, 'restaurant-task5-v2', 20, 1);
  const r = cli('export', played, '--out', join(dir, 'trn'), '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { env: string; format: string; dialogs: number; files: string[]; skipped: string[] };
  assert.deepEqual([out.env, out.format, out.dialogs, out.skipped], ['restaurant-task5-v2', 'bAbI dialog text', 20, []]);
  const dialogFile = join(dir, 'trn', 'dialog-babi-task5-collected.txt');
  const candidatesFile = join(dir, 'trn', 'dialog-babi-candidates.txt');
  assert.deepEqual(out.files, [dialogFile, candidatesFile]);
  const { dialogs } = readBabiDialogs(dialogFile);
  const recs = records(played);
  assert.equal(dialogs.length, 20);
  recs.forEach((rec, i) => assert.deepEqual(dialogs[i]!.turns, history(rec), `dialog ${i}`));
  assert.equal(formatBabiDialogs(dialogs), readFileSync(dialogFile, 'utf8'), 'the file is the reader and writer fixed point');
  // Every bot utterance is a candidate, once.
  const bots = new Set(recs.flatMap((rec) => history(rec).filter((t) => t.speaker === 'bot').map((t) => t.text)));
  assert.deepEqual(new Set(readBabiCandidates(candidatesFile).candidates), bots);
  assert.equal(readBabiCandidates(candidatesFile).candidates.length, bots.size);

  const dev = play(dir, 'restaurant-task5-v2', 5, 500);
  assert.equal(cli('export', dev, '--out', join(dir, 'dev')).code, 0);
  const model = join(dir, 'm.dgm');
  const t = cli('train', '--model', 'memn2n', '--train', dialogFile, '--dev', join(dir, 'dev', 'dialog-babi-task5-collected.txt'), '--candidates', candidatesFile, '--epochs', '1', '--out', model, '--json');
  assert.equal(t.code, 0, t.stderr);
  const trained = JSON.parse(t.stdout) as { dev: number; missing: number; candidates: number };
  assert.ok(trained.dev > 0 && trained.dev <= 1, `dev accuracy ${trained.dev}`);
  assert.equal(trained.candidates, bots.size);
  assert.ok(existsSync(model));

  // The same records export to the same bytes.
  assert.equal(cli('export', played, '--out', join(dir, 'again')).code, 0);
  assert.equal(readFileSync(join(dir, 'again', 'dialog-babi-task5-collected.txt'), 'utf8'), readFileSync(dialogFile, 'utf8'));
});

test('dstc6-task5-tst1-v2: an entry per bot turn, the dialogs rebuilt from the entries as played; dstc6 check, rank and score take the files', () => {
  const dir = tmp();
  const played = play(dir, 'dstc6-task5-tst1-v2', 20, 1);
  const r = cli('export', played, '--out', join(dir, 'd6'), '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { format: string; dialogs: number; files: string[] };
  const recs = records(played);
  const botTurns = recs.reduce((n, rec) => n + history(rec).filter((t) => t.speaker === 'bot').length, 0);
  assert.equal(out.format, 'DSTC6 JSON');
  assert.equal(out.dialogs, 20);
  const [dataFile, answersFile] = out.files as [string, string];
  assert.equal(dataFile, join(dir, 'd6', `dialog-task5FULL-kb1_atmosphere-distr0.5-collected${botTurns}.json`));
  const entries = readDstc6Data(dataFile);
  assert.equal(entries.length, botTurns);
  // Entries of a dialog follow each other with growing contexts; the last one and its answer are the whole dialog.
  const rebuilt: Turn[][] = [];
  entries.forEach((e, i) => {
    assert.ok(e.answer && e.candidates.some((c) => c.candidate_id === e.answer!.candidate_id), `entry ${i}: its answer is a candidate`);
    const next = entries[i + 1];
    if (next === undefined || next.utterances.length <= e.utterances.length) rebuilt.push([...dstc6History(e.utterances), { speaker: 'bot', text: e.answer!.utterance }]);
  });
  assert.equal(rebuilt.length, 20);
  recs.forEach((rec, i) => assert.deepEqual(rebuilt[i], history(rec), `dialog ${i}`));
  assert.equal(readDstc6Results(answersFile).length, botTurns);

  const check = cli('dstc6', 'check', answersFile, '--data', dataFile, '--json');
  assert.equal(check.code, 0, check.stderr);
  assert.equal((JSON.parse(check.stdout) as { valid: boolean; dialogs: number }).valid, true);
  const res = join(dir, 'tfidf.json');
  assert.equal(cli('dstc6', 'rank', '--model', 'tfidf', '--data', dataFile, '--out', res).code, 0);
  const score = cli('dstc6', 'score', '--result', res, '--answers', answersFile);
  assert.equal(score.code, 0, score.stderr);
  assert.match(score.stdout, /^Precision @1: 0\.\d+$/m);
  assert.match(score.stdout, new RegExp(`^dialogs: ${botTurns} \\(missing from the result: 0\\)$`, 'm'));
});

test('airdialogue-v2: played dialogs → data + kb JSON lines; the official scorer gives the mean reward the environment gave', async () => {
  const dir = tmp();
  // The rules agent, with a wrong flight or name on every third final action: scores below 1 too.
  const rules = createAgent('rules');
  const agent = {
    act: async (req: Parameters<typeof rules.act>[0]) => {
      const a = (await rules.act(req)) as { utterance: string; action?: { status: string; name: string; flight: number[] } };
      if (a.action === undefined || req.episode % 3 !== 0) return a;
      return { ...a, action: req.episode % 2 === 0 ? { ...a.action, name: 'Nobody Here' } : { ...a.action, status: 'cancel', flight: [] } };
    },
  };
  const { records: recs } = await evaluate('airdialogue-v2', agent, { episodes: 20, seed: 3 });
  const played = join(dir, 'air.jsonl');
  writeFileSync(played, recs.map((x) => JSON.stringify(x) + '\n').join(''));
  const r = cli('export', played, '--out', join(dir, 'air'), '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { dialogs: number; files: string[]; skipped: string[] };
  assert.deepEqual(out.files, [join(dir, 'air', 'collected_data.json'), join(dir, 'air', 'collected_kb.json')]);
  const examples = readAirDialogue(out.files[0]!, out.files[1]!);
  const ended = recs.filter((x) => x.failure !== 'max turns');
  assert.equal(examples.length, ended.length);
  assert.equal(out.dialogs + out.skipped.length, 20);
  examples.forEach((ex, i) => {
    const rec = ended[i]!;
    assert.deepEqual(ex.data.intent, rec.goal);
    assert.deepEqual(ex.data.dialogue, history(rec).filter((t) => t.text !== '').map((t) => `${t.speaker === 'user' ? 'customer' : 'agent'}: ${t.text}`));
  });
  const mean = ended.reduce((s, x) => s + x.reward, 0) / ended.length;
  assert.ok(mean < 1, `some actions are wrong (mean reward ${mean})`);
  assert.ok(Math.abs(scoreHuman(examples).total - mean) < 1e-12, `scorer ${scoreHuman(examples).total} vs reward ${mean}`);
  const score = cli('airdialogue', 'score', '--data', out.files[0]!, '--kb', out.files[1]!, '--json');
  assert.equal(score.code, 0, score.stderr);
  assert.ok(Math.abs((JSON.parse(score.stdout) as { total: number }).total - mean) < 1e-12);
  const logic = cli('airdialogue', 'logic', '--data', out.files[0]!, '--kb', out.files[1]!, '--json');
  assert.equal((JSON.parse(logic.stdout) as { agreement: number }).agreement, 1);
  // The learned models train on them (one small epoch).
  const model = join(dir, 'air.dgm');
  const t = cli('airdialogue', 'train', '--data', out.files[0]!, '--kb', out.files[1]!, '--epochs', '1', '--dim', '8', '--hidden', '8', '--out', model);
  assert.equal(t.code, 0, t.stderr);
  assert.match(t.stdout + t.stderr, /best dev epoch 1/);
  assert.ok(existsSync(model));
});

test('airdialogue-v2: a final action naming a flight not in the table (a person\'s typo, judged a failure) is left out with the reason: the files export scores, the scorer refusing no line', async () => {
  const dir = tmp();
  const rules = createAgent('rules');
  // Every other episode, a human-like agent books a flight number the table does not have.
  const agent = { act: async (req: Parameters<typeof rules.act>[0]) => (req.episode % 2 === 1 ? { tool: 'book', arguments: { name: 'Someone Else', flight: 99999 } } : rules.act(req)) };
  const { records: recs } = await evaluate('airdialogue-v2', agent, { episodes: 6, seed: 5 });
  assert.deepEqual(recs.map((x) => x.success === false && x.episode % 2 === 1), [false, true, false, true, false, true], 'the environment judged the typos as failures');
  const played = join(dir, 'air.jsonl');
  writeFileSync(played, recs.map((x) => JSON.stringify(x) + '\n').join(''));
  const r = cli('export', played, '--out', join(dir, 'air'), '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { dialogs: number; files: string[]; skipped: string[] };
  assert.deepEqual(out.skipped, [2, 4, 6].map((line) => `${played}:${line}: the final action names flight 99999, which is not in the flight table (AirDialogue's data files name flights of their KB line only)`));
  assert.equal(out.dialogs, 3);
  const score = cli('airdialogue', 'score', '--data', out.files[0]!, '--kb', out.files[1]!, '--json');
  assert.equal(score.code, 0, score.stderr);
});

test('bad transcripts: one line naming file:line — several environments (the advice works), no exporter, bad JSON, a missing field, an unknown environment', () => {
  const dir = tmp();
  const restaurant = play(dir, 'restaurant-task1-v2', 2, 1);
  const air = play(dir, 'airdialogue-v2', 1, 1);
  const mixed = join(dir, 'mixed.jsonl');
  writeFileSync(mixed, readFileSync(restaurant, 'utf8') + readFileSync(air, 'utf8'));
  const m = cli('export', mixed, '--out', join(dir, 'x'));
  oneLineError(m, new RegExp(`^error: ${mixed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: a record of airdialogue-v2 after records of restaurant-task1-v2 \\(line 1\\).* \\(--env restaurant-task1-v2\\)$`));
  const ok = cli('export', mixed, '--out', join(dir, 'x'), '--env', 'restaurant-task1-v2', '--json');
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal((JSON.parse(ok.stdout) as { dialogs: number }).dialogs, 2);
  assert.throws(() => exportDataset(mixed, join(dir, 'y')), MixedEnvsError);

  // An environment whose family declares no dataset (one of your own).
  envs.register('toy-export-v0', 'a toy without a dataset format', () => make('restaurant-task1-v2'));
  assert.throws(() => exportDataset([{ ...records(restaurant)[0]!, env: 'toy-export-v0' }], join(dir, 'z')), { message: '<records>:1: toy-export-v0 has no dataset format (its testbed declares no exporter)' });

  const lines = readFileSync(restaurant, 'utf8').split('\n');
  const bad = join(dir, 'bad.jsonl');
  writeFileSync(bad, `${lines[0]}\n{"env": "restaurant-task1-v2",\n`);
  oneLineError(cli('export', bad, '--out', join(dir, 'z')), /bad\.jsonl:2: invalid JSON/);
  const rec = JSON.parse(lines[0]!) as Record<string, unknown>;
  delete rec['actions'];
  writeFileSync(bad, JSON.stringify(rec) + '\n');
  oneLineError(cli('export', bad, '--out', join(dir, 'z')), /bad\.jsonl:1: "actions": expected an array$/);
  writeFileSync(bad, JSON.stringify({ ...rec, actions: [], env: 'restaurant-task9-v2' }) + '\n');
  oneLineError(cli('export', bad, '--out', join(dir, 'z')), /bad\.jsonl:1: unknown environment restaurant-task9-v2$/);
  writeFileSync(bad, JSON.stringify({ ...rec, actions: [], observation: { utterance: '' } }) + '\n');
  oneLineError(cli('export', bad, '--out', join(dir, 'z')), /bad\.jsonl:1: the record has no dialog: its "observation" has no "history" array/);
  writeFileSync(bad, '');
  oneLineError(cli('export', bad, '--out', join(dir, 'z')), /bad\.jsonl: no records/);
  assert.ok(!existsSync(join(dir, 'z')) || readdirSync(join(dir, 'z')).length === 0, 'nothing written on an error');
});

test('infobot-medium-v1: the episodes replayed into KB-InfoBot dialog records, read back with their schema; a record that does not replay is refused', () => {
  const dir = tmp();
  const played = join(dir, 'ib.jsonl');
  assert.equal(cli('evaluate', '--env', 'infobot-medium-v1', '--agent', 'rule-soft', '--episodes', '20', '--transcripts', played).code, 0);
  const r = cli('export', played, '--out', join(dir, 'ib'), '--json');
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { format: string; dialogs: number; files: string[] };
  assert.deepEqual([out.format, out.dialogs, out.files], ['KB-InfoBot dialog records (JSON lines)', 20, [join(dir, 'ib', 'infobot-dialogs.jsonl')]]);
  const dialogs = readInfoBotDialogs(out.files[0]!);
  const recs = records(played);
  assert.equal(dialogs.length, 20);
  dialogs.forEach((d, i) => {
    const rec = recs[i]!;
    assert.deepEqual([d.env, d.seed, d.success, d.reward, d.goal], [rec.env, rec.seed, rec.success, rec.reward, rec.goal]);
    const agent = d.turns.filter((t) => t.speaker === 'agent').map((t) => t.act);
    assert.deepEqual(agent, rec.actions.map((a) => { const c = a as { tool: string; arguments: Record<string, unknown> }; return { act: c.tool, ...c.arguments }; }));
    const lastUser = d.turns[d.turns.length - 1]!;
    assert.equal(lastUser.speaker === 'user' ? lastUser.text : undefined, (rec.observation as { utterance: string }).utterance);
  });
  assert.ok(recs.some((x) => !x.success), 'a failed episode is exported too');
  // A record whose words are not the simulated user's (a person typed them) does not replay.
  const bad = join(dir, 'person.jsonl');
  writeFileSync(bad, JSON.stringify({ ...recs[0]!, observation: { utterance: 'yes that one', turn: recs[0]!.turns } }) + '\n');
  oneLineError(cli('export', bad, '--out', join(dir, 'z')), /person\.jsonl:1: the episode does not replay as recorded .*a person or an LLM voice played the user/);
  writeFileSync(bad, readFileSync(out.files[0]!, 'utf8').split('\n')[0]!.replace('"kbSeed":1', '"kbSeed":-1') + '\n');
  assert.throws(() => readInfoBotDialogs(bad), (e: Error) => /person\.jsonl:1: .*kbSeed.*/.test(e.message));
});

test("a study's transcripts (restaurant-task5-v2, 2 scripted participants × 3 sessions) export as bAbI dialogs, all and per agent", { skip: skipUnlessSqlite() }, async () => {
  const dir = tmp();
  const study = join(dir, 'study');
  createStudy(study, studyConfig({ env: 'restaurant-task5-v2', agents: ['rules', { label: 'rules-b', agent: 'rules' }], participants: 2, sessionsPerParticipant: 3 }));
  const store = StudyStore.open(study);
  try {
    assert.deepEqual(await simulateStudy(store), { finished: 6, abandoned: 0 });
    writeStudyReport(store, join(study, 'report'));
  } finally {
    store.close();
  }
  const transcripts = join(study, 'report', 'transcripts.jsonl');
  const r = exportDataset(transcripts, join(dir, 'all'));
  assert.deepEqual([r.env, r.dialogs, r.skipped], ['restaurant-task5-v2', 6, []]);
  const { dialogs } = readBabiDialogs(r.files[0]!);
  records(transcripts).forEach((rec, i) => assert.deepEqual(dialogs[i]!.turns, history(rec), `session ${i}`));
  const rules = exportDataset(join(study, 'report', 'transcripts', 'rules.jsonl'), join(dir, 'rules'), { successOnly: true });
  assert.equal(rules.dialogs + rules.skipped.length, 3);
  assert.equal(rules.dialogs, 3, 'the rules agent succeeds in every session');
});

test('a dialog as a person may leave it becomes valid bAbI turns: SILENCE where the bot speaks first or twice, typed TABs and line breaks as spaces, two user turns joined, an unanswered last turn dropped', () => {
  const u = (text: string): Turn => ({ speaker: 'user', text });
  const b = (text: string): Turn => ({ speaker: 'bot', text });
  const history = [b('hello what can i help you with today'), u('a table\tfor two\nplease'), u(''), u('in rome'), b("i'm on it"), b('any preference on a type of cuisine'), u('  '), b('ok'), { speaker: 'kb', text: 'resto_1 R_cuisine thai' }, b('what do you think of this option: resto_1'), u('bye')];
  assert.deepEqual(playedTurns('t.jsonl:1', { observation: { history } }, '<SILENCE>'), [
    u('<SILENCE>'), b('hello what can i help you with today'),
    u('a table for two please in rome'), b("i'm on it"),
    u('<SILENCE>'), b('any preference on a type of cuisine'),
    u('<SILENCE>'), b('ok'),
    { speaker: 'kb', text: 'resto_1 R_cuisine thai' },
    u('<SILENCE>'), b('what do you think of this option: resto_1'),
  ]);
  assert.throws(() => playedTurns('t.jsonl:4', { observation: { history: [{ speaker: 'agent', text: 'x' }] } }, '<SILENCE>'), { message: 't.jsonl:4: observation.history[0]: expected {"speaker": "user"|"bot"|"kb", "text": string}' });
});
