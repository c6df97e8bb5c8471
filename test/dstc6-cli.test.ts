/** The `dialogym dstc6` verbs through the real CLI: official figures on the real files, one-line errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dstc6Dir, skipUnless } from './shared-data.js';
import { cli, oneLineError } from './cli.js';
import { dstc6TestFiles } from './dstc6-files.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-dstc6-'));

const tiny = [
  {
    dialog_id: 'd1',
    candidates: [
      { utterance: 'where should it be', candidate_id: 'c1' },
      { utterance: 'api_call italian rome six cheap', candidate_id: 'c2' },
    ],
    utterances: ['hi', 'hello what can i help you with today', 'italian food in rome'],
  },
  {
    dialog_id: 'd2',
    candidates: [
      { utterance: 'ok', candidate_id: 'c3' },
      { utterance: 'you are welcome', candidate_id: 'c4' },
      { utterance: 'is there anything i can help you with', candidate_id: 'c5' },
    ],
    utterances: ['hi', 'hello what can i help you with today', 'thanks'],
  },
];
const tinyFile = join(tmp, 'tiny.json');
writeFileSync(tinyFile, JSON.stringify(tiny));

test('baseline tfidf + score reproduce the official figures (two real files)', { skip: skipUnless(dstc6Dir) }, () => {
  const all = dstc6TestFiles();
  const files = [0, 12].map((i) => all[i]!); // tst1 task1, tst3 task3 (all 20: tfidf-baseline.test.ts)
  assert.equal(files.length, 2);
  for (const f of files) {
    const out = join(tmp, `${f.set}-tfidf.json`);
    const b = cli('dstc6', 'baseline', 'tfidf', '--data', f.data, '--out', out);
    assert.equal(b.code, 0, b.stderr);
    assert.match(b.stdout, /^wrote 1000 rankings to /);
    const s = cli('dstc6', 'score', '--result', out, '--truth', f.answers, '--json');
    assert.equal(s.code, 0, s.stderr);
    const got = JSON.parse(s.stdout) as { p1: number; p2: number; p5: number; dialogs: number };
    assert.deepEqual(Object.keys(got), ['p1', 'p2', 'p5', 'mrr', 'dialogs', 'missing']);
    assert.equal(got.dialogs, 1000);
    assert.ok(Math.abs(got.p1 - f.tfidf[0]) <= 0.005 && Math.abs(got.p2 - f.tfidf[1]) <= 0.005 && Math.abs(got.p5 - f.tfidf[2]) <= 0.005, `${f.name}: ${s.stdout}`);
    assert.equal(cli('dstc6', 'check', out, '--data', f.data).code, 0);
  }
  const f = files[0]!;
  const text = cli('dstc6', 'score', '--result', join(tmp, `${f.set}-tfidf.json`), '--truth', f.answers);
  assert.equal(text.stdout.split('\n').slice(0, 3).join('\n'), `Precision @1: 0.003\nPrecision @2: 0.023\nPrecision @5: 0.427`);
});

test('check accepts the real answers files and rejects broken results with the reason', { skip: skipUnless(dstc6Dir) }, () => {
  // (all 20 are checked through the library in check.test.ts; here one per task)
  for (const f of dstc6TestFiles().filter((_, i) => i % 6 === 4 || i === 0)) {
    const r = cli('dstc6', 'check', f.answers, '--data', f.data);
    assert.equal(r.code, 0, `${f.name}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /^valid: 1000 dialogs ranked/);
  }
  const f = dstc6TestFiles()[0]!;
  const answers = JSON.parse(readFileSync(f.answers, 'utf8')) as { dialog_id: string; lst_candidate_id: { candidate_id: string; rank: number }[] }[];
  const write = (name: string, v: unknown): string => {
    const p = join(tmp, name);
    writeFileSync(p, JSON.stringify(v));
    return p;
  };
  const missing = cli('dstc6', 'check', write('missing.json', answers.slice(1)), '--data', f.data);
  assert.equal(missing.code, 1);
  assert.match(missing.stdout, new RegExp(`dialog_id ${answers[0]!.dialog_id}: missing from the result`));
  assert.match(missing.stdout, /invalid: 1 problem$/m);
  const dup = structuredClone(answers);
  dup[4]!.lst_candidate_id.push({ ...dup[4]!.lst_candidate_id[0]!, candidate_id: 'other' });
  dup[4]!.lst_candidate_id[1]!.candidate_id = answers[4]!.lst_candidate_id[0]!.candidate_id === 'x' ? 'y' : 'x';
  const d = cli('dstc6', 'check', write('duprank.json', dup), '--data', f.data);
  assert.equal(d.code, 1);
  assert.match(d.stdout, /entry 5 \(dialog_id [-0-9a-f]+\): duplicate rank 1 \(candidates [-0-9a-f]+, x\)/);
  const unknown = structuredClone(answers);
  unknown[9]!.lst_candidate_id[0]!.candidate_id = 'no-such-candidate';
  const u = cli('dstc6', 'check', write('unknown.json', unknown), '--data', f.data);
  assert.equal(u.code, 1);
  assert.match(u.stdout, /entry 10 \(dialog_id [-0-9a-f]+\): unknown candidate_id no-such-candidate \(not a candidate of this dialog\)/);
});

test('rank --model rules makes the rules bot measurable on a real file', { skip: skipUnless(dstc6Dir) }, () => {
  const f = dstc6TestFiles()[5]!; // tst2 task1 (OOV)
  const out = join(tmp, 'rules.json');
  const r = cli('dstc6', 'rank', '--model', 'rules', '--data', f.data, '--out', out);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(cli('dstc6', 'check', out, '--data', f.data).code, 0);
  const s = JSON.parse(cli('dstc6', 'score', '--result', out, '--truth', f.answers, '--json').stdout) as { p1: number };
  assert.ok(s.p1 > f.tfidf[0] + 0.5, `rules P@1 ${s.p1}`);
});

test('walk: readable dialogs with the answer marked, --stats figures', () => {
  const ans = join(tmp, 'tiny.answers.json');
  writeFileSync(ans, JSON.stringify([{ dialog_id: 'd2', lst_candidate_id: [{ candidate_id: 'c4', rank: 1 }] }]));
  const w = cli('dstc6', 'walk', tinyFile, '--answers', ans);
  assert.equal(w.code, 0, w.stderr);
  assert.match(w.stdout, /^dialog_id: d1\nUtterances:\n \* hi\n/);
  assert.match(w.stdout, / \* c4 - you are welcome {2}<= answer\n/);
  assert.match(w.stdout, /Answer:\nNone\n\ndialog_id: d2/);
  const s = cli('dstc6', 'walk', tinyFile, '--stats');
  assert.equal(s.code, 0, s.stderr);
  assert.match(s.stdout, /^entries: 2 {2}\[nb_dialog\]\nutterances total: 6 {2}\[nb_utterance_total\]\nutterances per entry: 3 /);
  assert.match(s.stdout, /distinct utterances: 4 /);
  assert.equal(cli('dstc6', 'walk', tinyFile, '--limit', '1').stdout.split('dialog_id:').length, 2);
});

test('baseline random: seeded, byte-identical for the same seed; rank/score on a tiny file', () => {
  const a = join(tmp, 'ra.json');
  const b = join(tmp, 'rb.json');
  assert.equal(cli('dstc6', 'baseline', 'random', '--data', tinyFile, '--seed', '7', '--out', a).code, 0);
  assert.equal(cli('dstc6', 'baseline', 'random', '--data', tinyFile, '--seed', '7', '--out', b).code, 0);
  assert.equal(readFileSync(a, 'utf8'), readFileSync(b, 'utf8'));
  assert.match(readFileSync(a, 'utf8'), /^\[\{"dialog_id": "d1", "lst_candidate_id": \[\{"candidate_id": "c[12]", "rank": 1\}, /);
  assert.equal(cli('dstc6', 'check', a, '--data', tinyFile).code, 0);
  const truth = join(tmp, 'truth.json');
  writeFileSync(truth, JSON.stringify([{ dialog_id: 'd1', lst_candidate_id: [{ candidate_id: 'c2', rank: 1 }] }, { dialog_id: 'd3', lst_candidate_id: [{ candidate_id: 'z', rank: 1 }] }]));
  const t = join(tmp, 'tt.json');
  assert.equal(cli('dstc6', 'baseline', 'tfidf', '--data', tinyFile, '--out', t).code, 0);
  const s = cli('dstc6', 'score', '--result', t, '--truth', truth);
  assert.equal(s.code, 0, s.stderr);
  // d1: "api_call italian rome six cheap" shares italian/rome with the dialog → rank 1; d3 missing → miss.
  assert.match(s.stdout, /^Precision @1: 0\.5\nPrecision @2: 0\.5\nPrecision @5: 0\.5\nMRR: 0\.5000\ndialogs: 2 \(missing from the result: 1\)\n$/);
});

test('bad input: one-line errors, non-zero exit, no half-written output', () => {
  const w = (name: string, text: string): string => {
    const p = join(tmp, name);
    writeFileSync(p, text);
    return p;
  };
  const badJson = w('bad.json', '[{"dialog_id": "d1",\n  "utterances": ["a", ]}]');
  const out = join(tmp, 'never.json');
  oneLineError(cli('dstc6', 'baseline', 'tfidf', '--data', badJson, '--out', out), /^error: .*bad\.json:2: invalid JSON: unexpected '\]' \(column 23\)$/, 1);
  assert.ok(!existsSync(out));
  const badEntry = w('badentry.json', JSON.stringify([tiny[0], { ...tiny[1], candidates: [{ utterance: 'x' }] }]));
  oneLineError(cli('dstc6', 'walk', badEntry), /^error: .*badentry\.json: entry 2 \(dialog_id d2\): candidates\[0\]: missing "candidate_id"$/, 1);
  // A dataset file where a result goes: it says what the file looks like.
  oneLineError(cli('dstc6', 'check', badEntry, '--data', tinyFile), /^error: .*badentry\.json looks like a DSTC6 dataset file \(JSON\), not a DSTC6 result or answers file \(JSON\)$/, 1);
  oneLineError(cli('dstc6', 'walk', join(tmp, 'nope.json')), /^error: .*nope\.json: no such file$/, 1);
  oneLineError(cli('dstc6', 'baseline', 'random', '--data', tinyFile, '--seed', 'abc', '--out', out), /^error: --seed: expected an integer, got 'abc'$/, 2);
  oneLineError(cli('dstc6', 'score', '--result', tinyFile), /required option '--answers <file>' not specified/, 2);
  oneLineError(cli('dstc6', 'score', '--result', tinyFile, '--truth', tinyFile), /^error: .*tiny\.json looks like a DSTC6 dataset file \(JSON\)[,;] .*a DSTC6 result or answers file \(JSON\)$/, 1);
  oneLineError(cli('dstc6', 'rank', '--model', 'nosuchmodel', '--data', tinyFile, '--out', out), /^error: unknown model 'nosuchmodel' \(known: .*rules/, 2);
  assert.ok(!existsSync(out));
});
