/**
 * The library runs (src/runs/): `evalRun` and `benchmarkRun` give what `dialogym eval` / `benchmark`
 * compute without the CLI; their parts on shards put together by `finish` are the whole run (same
 * figures, same predictions file bytes); options are checked against their schema in one line
 * naming the option; `loadRun` finds a run by the id a shard file stores.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, renderErrorText, type ErrorText } from '../core/errors.js';
import { generateRestaurantDataset } from '../testbeds/restaurant/dataset.js';
import { readBabiCandidates, readBabiDialogs } from '../formats/babi.js';
import { createModel } from '../rankers/registry.js';
import { evaluateDialogs } from '../rankers/evaluate-responses.js';
import { accuracy } from '../metrics/ranking.js';
import { evalRun } from '../testbeds/restaurant/runs/eval.js';
import { benchmarkRun } from '../testbeds/restaurant/runs/benchmark.js';
import { infobotEvalRun } from '../testbeds/infobot/runs/eval.js';
import { evaluateAgent } from '../testbeds/infobot/index.js';
import { airGenerateRun } from '../testbeds/airdialogue/runs/generate.js';
import { airSelfplayRun } from '../testbeds/airdialogue/runs/selfplay.js';
import { selfPlay } from '../testbeds/airdialogue/index.js';
import { generateRestaurantRun } from '../testbeds/restaurant/runs/generate.js';
import { generateDstc6Run } from '../testbeds/dstc6/runs/generate.js';
import { declareRuns, loadRun, runIds } from './index.js';
import type { RunPart, RunParts } from './run.js';
import { declareTestbeds, loadTestbeds } from '../testbeds/index.js';
import { loadModels } from '../rankers/registry.js';
import { evaluateRun } from './evaluate.js';
import { evaluate } from '../evaluation/evaluate.js';
import { loadBuiltinAgent } from '../evaluation/open.js';

// The testbeds' models (the rule bot) are declared and loaded as `import 'dialogym'` does.
declareTestbeds();
await loadModels();

const dir = mkdtempSync(join(tmpdir(), 'dialogym-runs-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
for (const f of generateRestaurantDataset({ seed: 3, tasks: [1, 5], dialogs: 30 })) writeFileSync(join(dir, f.name), f.text);
const T5 = join(dir, 'dialog-babi-task5-full-dialogs-tst.txt');
const CANDS = join(dir, 'dialog-babi-candidates.txt');
const KB = join(dir, 'dialog-babi-kb-all.txt');

/** The parts of shards 0…n−1 put together as merge does. */
function combined<O>(parts: readonly RunPart<O>[]): RunParts<O> {
  const items = parts.flatMap((p) => p.items).sort((a, b) => a.k - b.k);
  const first = parts[0] as RunPart<O>;
  return { options: first.options, meta: first.meta, items, infos: parts.map((p) => p.info) };
}

test('evalRun: the accuracies evaluateDialogs gives; shards put together by finish give the same result and predictions bytes', async () => {
  const options = { model: 'tfidf', data: T5, candidates: CANDS, predictions: join(dir, 'whole.jsonl') };
  const whole = await evalRun.run(options);
  const dialogs = readBabiDialogs(T5).dialogs;
  const candidates = readBabiCandidates(CANDS).candidates;
  const s = evaluateDialogs(createModel('tfidf', { candidates }), dialogs, { candidates });
  assert.deepEqual(whole, { data: T5, perResponse: accuracy.perResponse(s), perDialog: accuracy.perDialog(s), turns: s.turns, correctTurns: s.correctTurns, dialogs: 30, correctDialogs: s.correctDialogs });
  assert.ok(whole.perResponse > 0.02 && whole.perResponse < 0.9, `tfidf makes mistakes here (${whole.perResponse})`);
  const lines = readFileSync(options.predictions, 'utf8').trim().split('\n');
  assert.equal(lines.length, s.turns);
  const sharded = { ...options, predictions: join(dir, 'merged.jsonl') };
  const parts = [];
  for (let i = 0; i < 3; i++) parts.push(await evalRun.part(sharded, { index: i, count: 3 }));
  assert.deepEqual(parts.map((p) => p.items.length), [10, 10, 10]);
  assert.deepEqual(await evalRun.finish(combined(parts)), whole);
  assert.equal(readFileSync(sharded.predictions, 'utf8'), readFileSync(options.predictions, 'utf8'));
});

test('evalRun: the rule bot is right on every turn; inputs that disagree are refused naming the option, or with force a warning', async () => {
  const r = await evalRun.run({ model: 'rules', data: join(dir, 'dialog-babi-task1-API-calls-tst.txt') });
  assert.equal(r.perResponse, 1);
  assert.equal(r.dialogs, 30);
  // Candidates holding none of the answers.
  const bad = join(dir, 'bad-candidates.txt');
  writeFileSync(bad, '1 hello there\n');
  await assert.rejects(evalRun.run({ model: 'tfidf', data: T5, candidates: bad }), (e: unknown) => e instanceof ConfigError && /^candidates holds 0 of the [\d,]+ answers in the data dialogs \(not .*\); give the candidates of this data, or add force to go on anyway$/.test(e.message));
  const warnings: ErrorText[] = [];
  const forced = await evalRun.run({ model: 'tfidf', data: T5, candidates: bad, force: true }, { onWarning: (t) => warnings.push(t) });
  assert.equal(forced.perResponse, 0);
  assert.equal(warnings.length, 1);
  assert.match(renderErrorText(warnings[0] as ErrorText, (o) => `--${o}`), /^--candidates holds 0 of the [\d,]+ answers in the --data dialogs \(not .*\) \(going on: --force\)$/);
  // A context option the model does not read.
  await assert.rejects(evalRun.run({ model: 'rules', data: T5, kb: KB }), (e: unknown) => e instanceof ConfigError && e.message === 'kb does not apply to rules (its options: none)');
});

test('run options are checked against their schema in one line; the CLI-parsed ones in their own words', () => {
  assert.throws(() => evalRun.checkOptions({ model: 3, data: T5 }), (e: unknown) => e instanceof ConfigError && e.message === 'eval: options.model: must be a string, got 3');
  assert.throws(() => evalRun.checkOptions({ model: 'rules', data: T5, modle: 'x' }), (e: unknown) => e instanceof ConfigError && e.message === 'eval: options: unknown field "modle"');
  assert.throws(() => evalRun.checkOptions({ model: 'rules' }), (e: unknown) => e instanceof ConfigError && /^eval: options: missing "data"/.test(e.message));
  assert.throws(() => benchmarkRun.checkOptions({ tasks: [7] }), (e: unknown) => e instanceof ConfigError && e.message === 'benchmark: options.tasks[0]: must be <= 6, got 7');
  assert.throws(() => benchmarkRun.checkOptions({ trainFrom: 'x' }), (e: unknown) => e instanceof ConfigError && e.message === "trainFrom: expected files or generate, got 'x'");
  assert.deepEqual(evalRun.checkOptions({ model: 'rules', data: T5, train: [T5] }), { model: 'rules', data: T5, train: [T5] });
});

test('benchmarkRun: the rows of Table 2 without the CLI; the cells of 2 shards put together are the whole run', async () => {
  const options = { profile: 'quick', models: ['tfidf', 'nn'], tasks: [1], dialogs: 20, seed: 1 };
  const notes: string[] = [];
  const whole = await benchmarkRun.run(options, { onNote: (n) => notes.push(n) });
  assert.deepEqual(whole.files, []); // no out: the result only
  assert.deepEqual(whole.result.rows.map((r) => `${r.test} ${r.model}`), ['T1 tfidf', 'T1 nn', 'T1-OOV tfidf', 'T1-OOV nn']);
  assert.equal(whole.info.data, 'generated by the simulator (seed 1, 20 dialogs per split)');
  assert.match(whole.markdown, /\| T1 \|/);
  const parts = [await benchmarkRun.part(options, { index: 0, count: 2 }), await benchmarkRun.part(options, { index: 1, count: 2 })];
  assert.deepEqual(parts.map((p) => p.total), [2, 2]);
  const merged = await benchmarkRun.finish(combined(parts));
  const acc = (r: typeof whole): string[] => r.result.rows.map((x) => `${x.test} ${x.model} ${x.perResponse} ${x.perDialog}`);
  assert.deepEqual(acc(merged), acc(whole));
  // With out, the four report files.
  const out = join(dir, 'bench');
  const written = await benchmarkRun.run({ ...options, out });
  assert.deepEqual(written.files, ['benchmark.json', 'benchmark.md', 'benchmark.tex', 'benchmark.svg'].map((f) => join(out, f)));
  assert.equal(readFileSync(join(out, 'benchmark.md'), 'utf8'), written.markdown);
});

test('infobotEvalRun: the figures of evaluateAgent; 3 shards (one on 2 worker threads) put together give the same report', async () => {
  const options = { agent: 'rule-soft', split: 'small', episodes: 90, seed: 2, workers: 1 };
  const whole = await infobotEvalRun.run(options);
  assert.deepEqual(whole, evaluateAgent({ agent: 'rule-soft', split: 'small', episodes: 90, seed: 2 }));
  assert.equal(whole.episodes, 90);
  const parts = [await infobotEvalRun.part(options, { index: 0, count: 3 }), await infobotEvalRun.part({ ...options, workers: 2 }, { index: 1, count: 3 }), await infobotEvalRun.part(options, { index: 2, count: 3 })];
  assert.deepEqual(await infobotEvalRun.finish(combined(parts)), whole);
  assert.throws(() => infobotEvalRun.checkOptions({ agent: 'rule-soft', episodes: 0 }), (e: unknown) => e instanceof ConfigError && e.message === 'infobot eval: options.episodes: must be >= 1, got 0');
});

test('airSelfplayRun: the scores of selfPlay; shards with transcripts put together give the same scores and file; airGenerateRun writes the data and KB files', async () => {
  const whole = await airSelfplayRun.run({ episodes: 30, seed: 3, ood: 2 });
  assert.deepEqual(whole, selfPlay({ n: 30, seed: 3, ood: true }));
  const options = { episodes: 20, seed: 1, ood: 1 as const, transcripts: join(dir, 'air-whole.jsonl') };
  const r = await airSelfplayRun.run(options);
  const sharded = { ...options, transcripts: join(dir, 'air-merged.jsonl') };
  const parts = [await airSelfplayRun.part(sharded, { index: 0, count: 2 }), await airSelfplayRun.part(sharded, { index: 1, count: 2 })];
  assert.deepEqual(await airSelfplayRun.finish(combined(parts)), r);
  assert.equal(readFileSync(sharded.transcripts, 'utf8'), readFileSync(options.transcripts, 'utf8'));
  assert.equal(readFileSync(options.transcripts, 'utf8').trim().split('\n').length, 20);
  const g = await airGenerateRun.run({ dialogs: 12, seed: 5, out: join(dir, 'air') });
  assert.equal(g.dialogs, 12);
  assert.equal(readFileSync(g.data, 'utf8').trim().split('\n').length, 12);
  assert.equal(Object.values(g.statuses).reduce((a, b) => a + b, 0), 12);
});

test('generateRestaurantRun and generateDstc6Run: the files of generateRestaurantDataset; shards put together write the same bytes', async () => {
  const whole = await generateRestaurantRun.run({ tasks: [1, 3], seed: 2, dialogs: 8, out: join(dir, 'gen-whole') });
  assert.equal(whole.files.length, 10);
  assert.equal(whole.dialogs, 64);
  for (const f of generateRestaurantDataset({ seed: 2, tasks: [1, 3], dialogs: 8 })) assert.equal(readFileSync(join(dir, 'gen-whole', f.name), 'utf8'), f.text, f.name);
  const options = { tasks: [1, 3], seed: 2, dialogs: 8, out: join(dir, 'gen-merged') };
  const parts = [await generateRestaurantRun.part(options, { index: 0, count: 3 }), await generateRestaurantRun.part(options, { index: 1, count: 3 }), await generateRestaurantRun.part(options, { index: 2, count: 3 })];
  assert.deepEqual(await generateRestaurantRun.finish(combined(parts)), { ...whole, out: options.out });
  for (const f of whole.files) assert.equal(readFileSync(join(options.out, f), 'utf8'), readFileSync(join(dir, 'gen-whole', f), 'utf8'), f);
  const d = await generateDstc6Run.run({ tasks: [2], set: 'tst1', seed: 1, dialogs: 6, out: join(dir, 'd6') });
  assert.equal(d.dialogs, 6);
  const dparts = [await generateDstc6Run.part({ tasks: [2], set: 'tst1', seed: 1, dialogs: 6, out: join(dir, 'd6m') }, { index: 0, count: 2 }), await generateDstc6Run.part({ tasks: [2], set: 'tst1', seed: 1, dialogs: 6, out: join(dir, 'd6m') }, { index: 1, count: 2 })];
  const dm = await generateDstc6Run.finish(combined(dparts));
  for (const f of d.files) assert.equal(readFileSync(join(dir, 'd6m', f), 'utf8'), readFileSync(join(dir, 'd6', f), 'utf8'), f);
  assert.deepEqual(dm.files, d.files);
});

test('evaluateRun: the summary and records of evaluate, the transcripts file; 2 shards put together give the same; resume, a KB and the turn limit in the options\' words', async () => {
  await loadTestbeds(); // the environments and the agent families, as `import 'dialogym'` loads them
  const agent = { kind: 'builtin', name: 'rules' } as const;
  const options = { env: 'restaurant-task3-v1', agent, episodes: 6, trials: 2, maxTurns: 8, transcripts: join(dir, 'ev-whole.jsonl') };
  const whole = await evaluateRun.run(options);
  const direct = await evaluate('restaurant-task3-v1', await loadBuiltinAgent('rules'), { episodes: 6, trials: 2, seed: 1, envOptions: { maxTurns: 8 } });
  assert.deepEqual(whole.summary, direct.summary);
  assert.deepEqual(whole.records, direct.records);
  assert.ok(whole.summary.success > 0 && whole.summary.success < 1, `some fail at 8 turns (${whole.summary.success})`);
  assert.equal(readFileSync(options.transcripts, 'utf8'), direct.records.map((r) => JSON.stringify(r) + '\n').join(''));
  const sharded = { ...options, transcripts: join(dir, 'ev-merged.jsonl') };
  const parts = [await evaluateRun.part(sharded, { index: 0, count: 2 }), await evaluateRun.part(sharded, { index: 1, count: 2 })];
  assert.deepEqual(parts.map((p) => p.items.map((it) => it.k)), [[0, 2, 4], [1, 3, 5]]);
  assert.deepEqual(await evaluateRun.finish(combined(parts)), whole);
  assert.equal(readFileSync(sharded.transcripts, 'utf8'), readFileSync(options.transcripts, 'utf8'));
  // Resuming a cut file plays the rest and leaves the same bytes.
  const cut = join(dir, 'ev-cut.jsonl');
  writeFileSync(cut, readFileSync(options.transcripts, 'utf8').slice(0, 3000));
  const resumed = await evaluateRun.run({ ...options, transcripts: undefined, resume: cut });
  assert.deepEqual(resumed.summary, whole.summary);
  assert.equal(readFileSync(cut, 'utf8'), readFileSync(options.transcripts, 'utf8'));
  const said = (e: unknown): string => renderErrorText((e as ConfigError).text, (o) => `<${o}>`);
  await assert.rejects(evaluateRun.part({ ...options, resume: cut }, { index: 0, count: 2 }), (e: unknown) => said(e) === '<resume> continues a whole run; a shard is re-run with its own <shard> (merge reads the shards)');
  await assert.rejects(evaluateRun.run({ env: 'airdialogue-v1', agent, kb: KB }), (e: unknown) => said(e) === '<kb>: airdialogue-v1 reads no restaurant KB (only the restaurant-* and dstc6-* environments do)');
  await assert.rejects(evaluateRun.run({ ...options, envOptions: { maxTurns: 5 } }), (e: unknown) => said(e) === '<envOptions>: maxTurns is set by <maxTurns> too; give it once');
  assert.throws(() => evaluateRun.checkOptions({ env: 'restaurant-task1-v1', agent: 'rules' }), (e: unknown) => e instanceof ConfigError && /^evaluate: options\.agent: /.test(e.message));
  // The KB file reaches the environment through its testbed's option: its restaurants (renamed here) are the ones the API calls find.
  const renamed = join(dir, 'kb-renamed.txt');
  writeFileSync(renamed, readFileSync(KB, 'utf8').replaceAll('resto_', 'place_'));
  const withKb = await evaluateRun.run({ env: 'restaurant-task3-v1', agent, kb: renamed, episodes: 3 });
  assert.equal(withKb.summary.success, 1);
  assert.match(JSON.stringify(withKb.records[0]?.observation), /place_[a-z]+_[a-z]+_[a-z]+_[1-8]stars/);
  assert.doesNotMatch(JSON.stringify(withKb.records.map((r) => r.observation)), /resto_/);
});

test('loadRun finds a run by the id its shard files store (the generic evaluate, then the runs each testbed declares); an unknown id is refused listing the runs', async () => {
  const ids = ['evaluate', 'eval', 'benchmark', 'generate restaurant', 'generate dstc6', 'infobot eval', 'airdialogue generate', 'airdialogue selfplay'];
  declareTestbeds(); // the list declares the testbeds' runs (import 'dialogym' and the CLI do it)
  assert.deepEqual(runIds(), ids);
  assert.equal((await loadRun('eval')).id, 'eval');
  assert.equal(await loadRun('benchmark'), benchmarkRun);
  assert.equal(await loadRun('infobot eval'), infobotEvalRun);
  assert.equal(await loadRun('airdialogue selfplay'), airSelfplayRun);
  assert.equal((await loadRun('evaluate')).id, 'evaluate');
  await assert.rejects(loadRun('evl'), (e: unknown) => e instanceof ConfigError && e.message === `no run 'evl' (the runs: ${ids.join(', ')})`);
  assert.throws(() => declareRuns({ eval: async () => benchmarkRun }), (e: unknown) => e instanceof ConfigError && e.message === "run 'eval' is declared twice");
});
