import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dstc6Dir, skipUnless } from '../../test/shared-data.js';
import { FormatError } from '../core/errors.js';
import {
  dstc6History,
  formatDstc6Data,
  formatDstc6Results,
  isDstc6KbLine,
  parseDstc6Data,
  parseDstc6Results,
  readDstc6Data,
  writeDstc6Data,
  writeDstc6Results,
  type Dstc6Entry,
} from './dstc6.js';

const testDir = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0');

function errorMessage(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof FormatError, `expected a FormatError, got ${String(e)}`);
    assert.ok(!e.message.includes('\n'));
    return e.message;
  }
  assert.fail('no error thrown');
}

test('history: KB lines are kb turns, the rest alternate user/bot', () => {
  assert.ok(isDstc6KbLine('resto_1 r_phone resto_1_phone'));
  assert.ok(!isDstc6KbLine('api_call italian rome six cheap'));
  const h = dstc6History(['hi', 'hello', 'r1 r_rating 5', 'book it']);
  assert.deepEqual(
    h.map((t) => t.speaker),
    ['user', 'bot', 'kb', 'user'],
  );
});

test('real test and answer files parse and round-trip byte-identical', { skip: skipUnless(dstc6Dir) }, () => {
  let files = 0;
  for (const set of ['tst1', 'tst2', 'tst3', 'tst4']) {
    for (const f of readdirSync(join(testDir, set))) {
      const text = readFileSync(join(testDir, set, f), 'utf8');
      const out = f.endsWith('.answers.json') ? formatDstc6Results(parseDstc6Results(text, f)) : formatDstc6Data(parseDstc6Data(text, f));
      assert.ok(out === text, `${set}/${f} does not round-trip`);
      files++;
    }
  }
  assert.equal(files, 40);
  const d = readDstc6Data(join(testDir, 'tst1', 'dialog-task4INFOS-kb1_atmosphere-distr0.5-tst1000.json'));
  assert.equal(d.length, 1000);
  // PROVENANCE: utterances per entry 10/13.22/20 (min/mean/max) for this file.
  const lens = d.map((e) => e.utterances.length);
  assert.deepEqual([Math.min(...lens), Math.round(lens.reduce((a, b) => a + b, 0) / 10) / 100, Math.max(...lens)], [10, 13.22, 20]);
});

test('training truth files (result format) parse: 10000 entries, one rank-1 candidate each', { skip: skipUnless(dstc6Dir) }, () => {
  const f = join(dstc6Dir, 'derived', 'train-statistics-jasonwu0731', 'dialog-task1API-truth.json');
  const text = readFileSync(f, 'utf8');
  const r = parseDstc6Results(text, f);
  assert.equal(r.length, 10000);
  assert.ok(r.every((x) => x.lst_candidate_id.length === 1 && x.lst_candidate_id[0]?.rank === 1));
  assert.equal(formatDstc6Results(r), text);
});

const entry = (id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  dialog_id: id,
  candidates: [
    { utterance: 'hello', candidate_id: `${id}-a` },
    { utterance: 'bye', candidate_id: `${id}-b` },
  ],
  utterances: ['hi'],
  ...extra,
});

test('dataset reader: one-line errors naming entry and dialog_id', () => {
  const bad = (entries: unknown): string => errorMessage(() => parseDstc6Data(JSON.stringify(entries), 'd.json'));
  assert.equal(bad({}), 'd.json: expected a JSON array of dialog entries, got an object');
  assert.equal(bad([entry('x'), 3]), 'd.json: entry 2: expected a dialog entry (an object), got 3');
  assert.equal(bad([entry('x'), entry('x')]), 'd.json: entry 2 (dialog_id x): duplicate dialog_id (first at entry 1)');
  assert.equal(bad([{ ...entry('x'), dialog_id: 5 }]), 'd.json: entry 1: "dialog_id" must be a string, got 5');
  assert.equal(bad([entry('x', { utterances: 'hi' })]), 'd.json: entry 1 (dialog_id x): "utterances" must be a list, got "hi"');
  assert.equal(bad([entry('x', { utterances: ['a', 2] })]), 'd.json: entry 1 (dialog_id x): "utterances[1]" must be a string, got 2');
  assert.equal(bad([entry('x', { candidates: [] })]), 'd.json: entry 1 (dialog_id x): "candidates" must have at least 1 item, got []');
  assert.equal(bad([entry('x', { candidates: [{ utterance: 'a' }] })]), 'd.json: entry 1 (dialog_id x): candidates[0]: missing "candidate_id"');
  assert.equal(
    bad([entry('x', { candidates: [{ utterance: 'a', candidate_id: 'c' }, { utterance: 'b', candidate_id: 'c' }] })]),
    'd.json: entry 1 (dialog_id x): candidates[1]: duplicate candidate_id c',
  );
  assert.equal(bad([entry('x', { answer: { candidate_id: 'x-a' } })]), 'd.json: entry 1 (dialog_id x): answer: missing "utterance"');
  assert.equal(bad([entry('x', { utterances: ['hi', ''] })]), 'd.json: entry 1 (dialog_id x): "utterances[1]" must not be empty or blank, got ""');
  assert.equal(bad([entry('x', { candidates: [{ utterance: ' ', candidate_id: 'c' }] })]), 'd.json: entry 1 (dialog_id x): candidates[0]: "utterance" must not be empty or blank, got " "');
  assert.match(errorMessage(() => parseDstc6Data('[{"dialog_id": "x",\n "utterances": [}]', 'd.json')), /^d\.json:2: invalid JSON: .*\(column 17\)$/);
  assert.equal(errorMessage(() => readDstc6Data('/nonexistent/d.json')), '/nonexistent/d.json: no such file');
});

test('result reader: structure errors; string ranks accepted like score.py\'s int(rank)', () => {
  const bad = (entries: unknown): string => errorMessage(() => parseDstc6Results(JSON.stringify(entries), 'r.json'));
  assert.equal(bad([{ dialog_id: 'x' }]), 'r.json: entry 1 (dialog_id x): missing "lst_candidate_id" array');
  assert.equal(bad([{ dialog_id: 'x', lst_candidate_id: [{ rank: 1 }] }]), 'r.json: entry 1 (dialog_id x): lst_candidate_id[0]: missing "candidate_id"');
  assert.equal(bad([{ dialog_id: 'x', lst_candidate_id: [{ candidate_id: 'a' }] }]), 'r.json: entry 1 (dialog_id x): lst_candidate_id[0]: missing "rank"');
  assert.equal(bad([{ dialog_id: 'x', lst_candidate_id: [{ candidate_id: 'a', rank: 1.5 }] }]), 'r.json: entry 1 (dialog_id x): lst_candidate_id[0]: "rank" must be an integer, got 1.5');
  assert.equal(bad([{ dialog_id: 'x', lst_candidate_id: [{ candidate_id: 'a', rank: 0 }] }]), 'r.json: entry 1 (dialog_id x): lst_candidate_id[0]: "rank" must be >= 1, got 0');
  const r = parseDstc6Results('[{"dialog_id": "x", "lst_candidate_id": [{"candidate_id": "a", "rank": "2"}]}]', 'r.json');
  assert.equal(r[0]?.lst_candidate_id[0]?.rank, 2);
});

test('writers: same layout as the originals, atomic (no file on failure)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dstc6-fmt-'));
  const entries = parseDstc6Data(JSON.stringify([entry('x', { answer: { candidate_id: 'x-a', utterance: 'hello' } })]), 'd.json') as Dstc6Entry[];
  const f = join(dir, 'd.json');
  writeDstc6Data(f, entries);
  assert.equal(
    readFileSync(f, 'utf8'),
    '[{"dialog_id": "x", "candidates": [{"utterance": "hello", "candidate_id": "x-a"}, {"utterance": "bye", "candidate_id": "x-b"}], "utterances": ["hi"], "answer": {"utterance": "hello", "candidate_id": "x-a"}}]',
  );
  assert.deepEqual(readDstc6Data(f), entries);
  const r = join(dir, 'r.json');
  writeDstc6Results(r, [{ dialog_id: 'x', lst_candidate_id: [{ candidate_id: 'x-b', rank: 1 }] }]);
  assert.equal(readFileSync(r, 'utf8'), '[{"dialog_id": "x", "lst_candidate_id": [{"candidate_id": "x-b", "rank": 1}]}]');
  // A failing write (target is a directory) leaves no temp file behind.
  writeFileSync(join(dir, 'keep'), '');
  assert.throws(() => writeDstc6Results(dir, []));
  assert.deepEqual(readdirSync(dir).sort(), ['d.json', 'keep', 'r.json']);
  assert.ok(existsSync(r));
});
