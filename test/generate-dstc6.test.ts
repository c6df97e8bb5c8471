/**
 * `dialogym generate dstc6`: generated DSTC6 Track 1 files compared with the real test sets
 * (utterances per entry, candidate counts, delexicalised user utterances), the rules bot on
 * generated sets (P@1 = 1.0 through `dstc6 rank` / `dstc6 score`), training sets against the
 * official training statistics, determinism and CLI errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dstc6Dir, skipUnless } from './shared-data.js';
import { createRng } from '../src/core/rng.js';
import { readDstc6Data, type Dstc6Entry } from '../src/formats/dstc6.js';
import { generateExtendedKbs } from '../src/testbeds/dstc6/extended-kb.js';
import { DSTC6_KB, readKb } from '../src/testbeds/restaurant/kb-dialects.js';
import { compareFigures, fileFigures, formatHistogram } from '../src/testbeds/dstc6/sim-compare.js';
import { SET_SPECS, dstc6FileName, generateSet, type Dstc6Set } from '../src/testbeds/dstc6/sim-dataset.js';
import type { Dstc6Task } from '../src/testbeds/dstc6/sim-dialog.js';
import { distinctCandidates, rankDstc6 } from '../src/testbeds/dstc6/rank.js';
import { scoreDstc6 } from '../src/testbeds/dstc6/score.js';
import { precisionAtK } from '../src/metrics/ranking.js';
import { createModel } from '../src/rankers/registry.js';
import '../src/index.js'; // every testbed, loaded
import { isResponder, responderAsRanker } from '../src/rankers/ranker.js';
import { readDstc6Results } from '../src/formats/dstc6.js';
import { runCli as run } from './cli.js';

const testDir = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0');
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-dstc6gen-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const realKb = (kb: 1 | 2) => readKb(join(testDir, `extendedkb${kb}.txt`), DSTC6_KB).restaurants;

// One or two tasks per test set, 1000 entries each (the real files' size), on the real KBs.
const PAIRS: Array<[Dstc6Set, Dstc6Task]> = [
  ['tst1', 1],
  ['tst1', 4],
  ['tst2', 3],
  ['tst3', 2],
  ['tst4', 5],
];

test('generated test sets match the real ones: utterances, candidates, user utterances', { skip: skipUnless(dstc6Dir) }, () => {
  const kbs = { 1: realKb(1), 2: realKb(2) };
  for (const [set, task] of PAIRS) {
    const real = readDstc6Data(join(testDir, set, dstc6FileName(task, set)));
    const gen = generateSet({ task, set, restaurants: kbs[SET_SPECS[set].kb], rng: createRng(2024).fork(`task${task}`).fork(set) });
    assert.equal(gen.entries.length, 1000);
    const c = compareFigures(fileFigures(real), fileFigures(gen.entries));
    const what = `${set} task ${task}: utterances ${c.real.meanUtterances.toFixed(2)} vs ${c.generated.meanUtterances.toFixed(2)}, candidates ${formatHistogram(c.real.candidateHistogram)} vs ${formatHistogram(c.generated.candidateHistogram)}, units coverage ${c.unitCoverage.toFixed(3)} precision ${c.unitPrecision.toFixed(4)}`;
    assert.ok(c.utteranceRelDiff <= 0.1, what);
    assert.ok(c.candidateMaxDiff <= 0.05, what);
    // Requests compose 0–6 slot phrases in any order, so whole requests rarely repeat between two
    // samples (even between two real test sets); per unit (opener, slot phrase, other utterances):
    assert.ok(c.unitCoverage >= 0.9, what);
    assert.ok(c.unitPrecision >= 0.98, what);
    // Whole utterances: within 8 points of what a second real sample of the same kind achieves
    // (tst1 vs tst2 task 1: 46.7%, task 4: 100%; tst3 vs tst4 task 2: 16.2%; task 5: 48.4%; task 3: 39.7% tst1/tst2).
    const ceiling: Record<string, number> = { 'tst1 1': 0.467, 'tst1 4': 1, 'tst2 3': 0.397, 'tst3 2': 0.162, 'tst4 5': 0.484 };
    assert.ok(c.userCoverage >= (ceiling[`${set} ${task}`] as number) - 0.08, `${what}, whole coverage ${c.userCoverage.toFixed(3)}`);
    // Every entry: the answer is a candidate exactly once, 7–10 candidates, unique ids.
    for (const e of gen.entries) {
      const ans = gen.answers.find((a) => a.dialog_id === e.dialog_id);
      const id = ans?.lst_candidate_id[0]?.candidate_id;
      const text = e.candidates.find((x) => x.candidate_id === id)?.utterance;
      assert.ok(text !== undefined, `${e.dialog_id}: answer not among candidates`);
      assert.equal(e.candidates.filter((x) => x.utterance === text).length, 1);
      assert.ok(e.candidates.length >= 7 && e.candidates.length <= 10);
      assert.equal(new Set(e.candidates.map((x) => x.candidate_id)).size, e.candidates.length);
    }
  }
});

function scoreWithRules(data: string): string {
  const result = join(tmp, 'rules-result.json');
  const r = run(['dstc6', 'rank', '--model', 'rules', '--data', data, '--out', result]);
  assert.equal(r.code, 0, r.stderr);
  const s = run(['dstc6', 'score', '--result', result, '--truth', data.replace(/\.json$/, '.answers.json')]);
  assert.equal(s.code, 0, s.stderr);
  return s.stdout;
}

/** P@1 of the rules bot, ranked in-process exactly as `dstc6 rank --model rules` does. */
function rulesP1(data: string): number {
  const entries = readDstc6Data(data);
  const model = createModel('rules', { candidates: distinctCandidates(entries) });
  const ranker = isResponder(model) ? responderAsRanker(model) : model;
  const result = rankDstc6(entries, (h, c) => ranker.rank(h, c));
  const s = scoreDstc6(result, readDstc6Results(data.replace(/\.json$/, '.answers.json')));
  assert.equal(s.missing, 0);
  return precisionAtK.value(s.precision, 1);
}

test('the rules bot scores P@1 = 1.0 on generated sets (real KB 2 with restrictions, generated KB 1)', { skip: skipUnless(dstc6Dir) }, () => {
  const dir4 = join(tmp, 'tst4');
  const g = run(['generate', 'dstc6', '--task', 'all', '--set', 'tst4', '--seed', '11', '--examples', '300', '--out', dir4, '--kb', join(testDir, 'extendedkb2.txt')]);
  assert.equal(g.code, 0, g.stderr);
  assert.match(g.stdout, /^wrote 10 files \(1500 entries\)/);
  const dir1 = join(tmp, 'tst1-genkb');
  const g1 = run(['generate', 'dstc6', '--task', '5', '--set', 'tst1', '--seed', '11', '--examples', '300', '--out', dir1]);
  assert.equal(g1.code, 0, g1.stderr);
  assert.deepEqual(readdirSync(dir1).sort(), ['dialog-task5FULL-kb1_atmosphere-distr0.5-tst300.answers.json', 'dialog-task5FULL-kb1_atmosphere-distr0.5-tst300.json', 'extendedkb1.txt']);
  // Through the CLI verbs for the full-dialog task, in-process for the others.
  for (const f of [join(dir4, dstc6FileName(5, 'tst4', 300)), join(dir1, dstc6FileName(5, 'tst1', 300))]) assert.match(scoreWithRules(f), /^Precision @1: 1\.0\n/, f);
  for (const t of [1, 2, 3, 4] as const) assert.equal(rulesP1(join(dir4, dstc6FileName(t, 'tst4', 300))), 1, `task ${t}`);
});

test('training sets: 10,000 entries with answers, utterances within 10% of the official statistics, goals disjoint from tst1', () => {
  const official: Record<Dstc6Task, number> = { 1: 9.91, 2: 11.59, 3: 41.82, 4: 13.26, 5: 41.21 };
  const kb1 = generateExtendedKbs(createRng(8).fork('kb'))[1];
  const answerCalls = (entries: readonly Dstc6Entry[]): Set<string> => new Set(entries.map((e) => e.answer?.utterance ?? '').filter((u) => u.startsWith('api_call')));
  for (const task of [1, 2, 3, 4, 5] as const) {
    // Task 1 at the full default size; the others on 2,000 entries to keep the suite fast.
    const trn = generateSet({ task, set: 'trn', restaurants: kb1, rng: createRng(8).fork(`task${task}`).fork('trn'), ...(task === 1 ? {} : { examples: 2000 }) });
    assert.equal(trn.entries.length, task === 1 ? 10_000 : 2000);
    const mean = trn.entries.reduce((a, e) => a + e.utterances.length, 0) / trn.entries.length;
    assert.ok(Math.abs(mean - official[task]) / official[task] <= 0.1, `task ${task}: ${mean.toFixed(2)} utterances per entry vs ${official[task]}`);
    for (const e of trn.entries) assert.ok(e.answer && e.candidates.some((c) => c.candidate_id === e.answer?.candidate_id && c.utterance === e.answer.utterance));
    if (task === 1) {
      const tst = generateSet({ task, set: 'tst1', restaurants: kb1, rng: createRng(8).fork('task1').fork('tst1') });
      const trnCalls = answerCalls(trn.entries);
      const shared = [...answerCalls(tst.entries.map((e, i) => ({ ...e, answer: { candidate_id: '', utterance: e.candidates.find((c) => c.candidate_id === tst.answers[i]?.lst_candidate_id[0]?.candidate_id)?.utterance ?? '' } })))].filter((c) => trnCalls.has(c));
      assert.ok(trnCalls.size > 300);
      assert.deepEqual(shared, []);
    }
  }
});

test('same seed → byte-identical files; another seed → different files', () => {
  const gen = (dir: string, seed: string): Map<string, string> => {
    const r = run(['generate', 'dstc6', '--task', '2', '--set', 'tst3', '--seed', seed, '--examples', '200', '--out', dir]);
    assert.equal(r.code, 0, r.stderr);
    return new Map(readdirSync(dir).sort().map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  };
  const a = gen(join(tmp, 'a'), '5');
  const b = gen(join(tmp, 'b'), '5');
  const c = gen(join(tmp, 'c'), '6');
  assert.deepEqual([...a.keys()], ['dialog-task2REFINE-kb1_atmosphere_restrictions-distr0.5-tst200.answers.json', 'dialog-task2REFINE-kb1_atmosphere_restrictions-distr0.5-tst200.json', 'extendedkb1.txt']);
  assert.deepEqual(a, b);
  for (const k of a.keys()) assert.notEqual(a.get(k), c.get(k), k);
  const entries = JSON.parse(a.get('dialog-task2REFINE-kb1_atmosphere_restrictions-distr0.5-tst200.json') as string) as Dstc6Entry[];
  assert.equal(entries.length, 200);
  assert.ok(entries.every((e) => e.answer === undefined));
});

test('bad flags and KBs: one-line errors, non-zero exit, nothing written', { skip: skipUnless(dstc6Dir) }, () => {
  const dir = join(tmp, 'bad');
  const cases: Array<[string[], RegExp]> = [
    [['--task', '1', '--seed', '1', '--out', dir], /^error: --set is required/],
    [['--task', '1', '--set', 'tst5', '--seed', '1', '--out', dir], /^error: --set: expected one of trn, tst1, tst2, tst3, tst4, got 'tst5'/],
    [['--task', '6', '--set', 'tst1', '--seed', '1', '--out', dir], /^error: --task: expected 1, 2, 3, 4, 5 or all, got '6'/],
    [['--task', '1', '--set', 'tst1', '--seed', '1', '--out', dir, '--examples', '0'], /^error: .*--examples/],
    [['--task', '1', '--set', 'tst1', '--seed', '1', '--out', dir, '--kb', join(testDir, 'extendedkb2.txt')], /^error: tst1 needs a KB 1 \(in-vocabulary cuisines\/locations\), got KB 2/],
    [['--task', '1', '--set', 'tst1', '--seed', '1', '--out', dir, '--kb', join(testDir, 'tst1', dstc6FileName(1, 'tst1'))], /^error: .*dialog-task1API-kb1_atmosphere-distr0\.5-tst1000\.json looks like a DSTC6 dataset file \(JSON\); --kb takes a bAbI or DSTC6 KB file\n/],
  ];
  for (const [args, re] of cases) {
    const r = run(['generate', 'dstc6', ...args]);
    assert.notEqual(r.code, 0, args.join(' '));
    assert.match(r.stderr, re);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.ok(!existsSync(dir), `${dir} was created by ${args.join(' ')}`);
  }
});
