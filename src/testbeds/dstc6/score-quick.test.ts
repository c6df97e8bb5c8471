import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng, type Rng } from '../../core/rng.js';
import { readDstc6Results } from '../../formats/dstc6.js';
import { MAX_TEXT_FILE_BYTES } from '../../core/files.js';
import { scoreDstc6FilesQuickly } from './score-quick.js';
import { isAscii } from 'node:buffer';
import { SCAN_MAX_BYTES, readForScoring, scanTruth, tableOf, walkResultFile } from './score-scan.cjs';
import { scoreDstc6 } from './score.js';

/** Whether the quick reader takes `text` as exactly a result file; when it does, it hands over what JSON.parse reads. */
function exact(text: string): boolean {
  const seen: unknown[] = [];
  const ok = isAscii(Buffer.from(text)) && walkResultFile(text, (dialog_id, items) => seen.push({ dialog_id, lst_candidate_id: items }) > 0);
  if (ok) assert.deepEqual(seen, JSON.parse(text), text);
  return ok;
}

test('the quick reader takes exactly a result file in ASCII, and hands over what JSON.parse reads', () => {
  assert.equal(exact('[]'), true);
  assert.equal(exact(' \r\n[\t]\n'), true);
  assert.equal(exact('[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1}, {"rank": 2, "candidate_id": "b"}]}]'), true);
  assert.equal(exact('[{"lst_candidate_id": [{"candidate_id": "a", "rank": 1000000}], "dialog_id": "d1"}]'), true);
  assert.equal(exact('[{"dialog_id": "d\\u0031", "lst_candidate_id": [{"candidate_id": "a", "rank": 1.0}]}]'), true); // what JSON.parse reads
  assert.equal(exact('[ {"dialog_id" : "d1" ,\n "lst_candidate_id" : [ ] } ]'), true);
  assert.equal(exact(`[{"dialog_id": "${'x'.repeat(200)}", "lst_candidate_id": []}]`), true);
  for (const text of [
    '',
    '[',
    '[] x',
    '[],',
    '[{"dialog_id": "d1", "lst_candidate_id": []},]',
    '\ufeff[]', // a BOM
    '[{"dialog_id": "dé", "lst_candidate_id": []}]', // non-ASCII: the checking reader decodes it
    '[{"dialog_id": "d:1", "lst_candidate_id": []}]', // a colon inside a string: counted, so not taken as exact
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 01}]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": -1}]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a"}]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1}, ]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1} {"candidate_id": "b", "rank": 2}]}]',
    '[{"dialog_id": "d1" "lst_candidate_id": []}]',
    '[{"dialog_id": null, "lst_candidate_id": []}]',
    '[{"dialog_id": "d1\u0000", "lst_candidate_id": []}]',
    '{}',
    '[[]]',
    '[{"dialog_id": "d1", "lst_candidate_id": [], "system": "tfidf"}]', // another key
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1, "score": 0.5}]}]',
    '[{"dialog_id": "d1", "dialog_id": "d1", "lst_candidate_id": []}]', // a key twice
    '{}',
    '[[]]',
    '[{"dialog_id": "d1", "lst_candidate_id": [], "system": "tfidf"}]', // another key
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1, "score": 0.5}]}]',
    '[{"dialog_id": "d1", "dialog_id": "d1", "lst_candidate_id": []}]', // a key twice
    '[{"dialog_id": "", "lst_candidate_id": []}]',
    '[{"dialog_id": "d1"}]',
    '[{"dialog_id": "d1", "lst_candidate_id": {}}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [["a", 1]]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": "1"}]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1.5}]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 0}]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1000001}]}]',
    `[{"dialog_id": "${'x'.repeat(201)}", "lst_candidate_id": []}]`,
  ]) {
    assert.equal(exact(text), false, text);
  }
  // The answers of a truth file: its rank-1 candidates; none, or a dialog twice, is the checking reader's to name.
  assert.deepEqual([...(scanTruth('[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1}]}]') ?? [])], [['d1', 'a']]);
  assert.equal(scanTruth('[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 2}]}]'), undefined);
  assert.equal(scanTruth('[{"dialog_id": "d1", "lst_candidate_id": []}, {"dialog_id": "d1", "lst_candidate_id": []}]'), undefined);
  // Files too large for the text reader go to it, for its error.
  assert.ok(SCAN_MAX_BYTES <= MAX_TEXT_FILE_BYTES);
});

/** A random result file's text: mostly exact, sometimes with what sends it to the checking reader. */
function randomResultText(rng: Rng, dialogs: number): string {
  const entries: Record<string, unknown>[] = Array.from({ length: dialogs }, (_, d) => ({
    dialog_id: `d${rng.chance(0.1) ? rng.int(dialogs) : d}`, // a dialog listed twice now and then
    lst_candidate_id: Array.from({ length: rng.int(6) }, (_, k) => ({
      candidate_id: `c${rng.int(6)}`,
      rank: rng.chance(0.1) ? rng.int(4) + 1 : k + 1, // a rank given twice now and then
    })),
  }));
  const e = entries[rng.int(dialogs)] as Record<string, unknown>;
  const items = e.lst_candidate_id as Record<string, unknown>[];
  const odd = rng.int(10);
  if (odd === 0) e.note = 'x: y'; // another key
  else if (odd === 1 && items.length > 0) (items[0] as Record<string, unknown>).rank = ` ${String((items[0] as Record<string, unknown>).rank)}`; // a string rank
  else if (odd === 2) e.dialog_id = `${String(e.dialog_id)}:x`;
  return JSON.stringify(entries, null, rng.chance(0.5) ? 1 : undefined);
}

/** What the byte scanner tables for `text` (written to a file), as entries, or undefined when it leaves the file to the JSON.parse walk. */
function tabled(text: string): unknown[] | undefined {
  const file = join(mkdtempSync(join(tmpdir(), 'dialogym-scan-')), 'r.json');
  writeFileSync(file, text);
  const read = readForScoring(file);
  if (read === undefined || !('scanned' in read)) return undefined;
  const { text: memory, i32, start, entries } = tableOf(read.scanned);
  const s = (q: number): string => memory.slice(i32[q] as number, i32[q + 1] as number);
  const out: unknown[] = [];
  let q = start;
  for (let e = 0; e < entries; e++) {
    const count = i32[q + 2] as number;
    const entry = { dialog_id: s(q), lst_candidate_id: [] as unknown[] };
    q += 3;
    for (let c = 0; c < count; c++, q += 3) entry.lst_candidate_id.push({ candidate_id: s(q), rank: i32[q + 2] });
    out.push(entry);
  }
  return out;
}

test("the byte scanner reads any whitespace between tokens as JSON.parse does, json.dumps' spelling (read by word compares) and near misses of it included", () => {
  const rng = createRng(39);
  const blanks = ['', ' ', '  ', '\n', '\t', ' \r\n '];
  // json.dumps writes '' before and ' ' after ',' and ':'; now and then any other whitespace
  const sp = (usual: string): string => (rng.chance(0.8) ? usual : (blanks[rng.int(blanks.length)] as string));
  for (let t = 0; t < 300; t++) {
    const entries = Array.from({ length: 1 + rng.int(4) }, (_, d) => {
      const candidates = Array.from({ length: rng.int(5) }, (_, c) => {
        const id = `c${rng.int(9)}${'x'.repeat(rng.int(24))}`;
        return `{${sp('')}"candidate_id"${sp('')}:${sp(' ')}"${id}"${sp('')},${sp(' ')}"rank"${sp('')}:${sp(' ')}${c + 1}${sp('')}}`;
      });
      return `{${sp('')}"dialog_id"${sp('')}:${sp(' ')}"d${d}"${sp('')},${sp(' ')}"lst_candidate_id"${sp('')}:${sp(' ')}[${sp('')}${candidates.join(`${sp('')},${sp(' ')}`)}${sp('')}]${sp('')}}`;
    });
    const text = `${sp('')}[${sp('')}${entries.join(`${sp('')},${sp(' ')}`)}${sp('')}]${sp('')}`;
    assert.deepEqual(tabled(text), JSON.parse(text), text);
  }
});

test('the byte scanner tables the plain spelling of a result file as JSON.parse reads it, and nothing else', () => {
  const plain = [
    '[]',
    ' \r\n[\t]\n',
    '[{"dialog_id": "d1", "lst_candidate_id": []}]',
    '[{"dialog_id":"d1","lst_candidate_id":[{"candidate_id":"a","rank":1},{"candidate_id":"b c","rank":1000000}]},{"dialog_id":"d2","lst_candidate_id":[]}]',
    '[ {"dialog_id" : "d:1" ,\n "lst_candidate_id" : [ {"candidate_id" : "x" , "rank" : 20 } ] } ]',
    `[{"dialog_id": "${'x'.repeat(200)}", "lst_candidate_id": [{"candidate_id": "~!#[]", "rank": 9}]}]`,
  ];
  for (const text of plain) assert.deepEqual(tabled(text), JSON.parse(text), text);
  const other = [
    '',
    '[',
    '[] x',
    '[{"lst_candidate_id": [], "dialog_id": "d1"}]', // another key order: the JSON.parse walk
    '[{"dialog_id": "d1", "lst_candidate_id": [{"rank": 1, "candidate_id": "a"}]}]',
    '[{"dialog_id": "d\\u0031", "lst_candidate_id": []}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1.0}]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1e0}]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 01}]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 0}]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1000001}]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": "1"}]}]',
    '[{"dialog_id": "", "lst_candidate_id": []}]',
    `[{"dialog_id": "${'x'.repeat(201)}", "lst_candidate_id": []}]`,
    '[{"dialog_id": "d\u007f", "lst_candidate_id": []}]',
    '[{"dialog_id": "dé", "lst_candidate_id": []}]',
    '[{"dialog_id": "d1", "lst_candidate_id": []},]',
    '[{"dialog_id": "d1", "lst_candidate_id": [], "x": 1}]',
    '[{"dialog_id": "d1", "lst_candidate_id": [{"candidate_id": "a", "rank": 1}, ]}]',
    '[{"dialog_id": "d1", "lst_candidate_id": []}]\u0000',
    '\ufeff[]',
  ];
  for (const text of other) assert.equal(tabled(text), undefined, text);
  // a longer file after a shorter one (the scanner's memory is reused and grows), then the shorter again
  const long = JSON.stringify(Array.from({ length: 3000 }, (_, d) => ({ dialog_id: `d${d}`, lst_candidate_id: Array.from({ length: 10 }, (_, k) => ({ candidate_id: `c${(d * 7 + k) % 13}`, rank: k + 1 })) })));
  assert.deepEqual(tabled(long), JSON.parse(long));
  assert.deepEqual(tabled(plain[3] as string), JSON.parse(plain[3] as string));
});

test('scoreDstc6FilesQuickly scores as scoreDstc6 on the checked readers, or leaves the file to them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-quick-'));
  const truth = join(dir, 't.answers.json');
  writeFileSync(truth, JSON.stringify(Array.from({ length: 12 }, (_, d) => ({ dialog_id: `d${d}`, lst_candidate_id: [{ candidate_id: `c${d % 6}`, rank: 1 }] }))));
  const rng = createRng(17);
  let quick = 0;
  for (let i = 0; i < 200; i++) {
    const file = join(dir, `r${i}.json`);
    writeFileSync(file, randomResultText(rng, 12));
    const nbCandidates = 1 + rng.int(6);
    const expected = scoreDstc6(readDstc6Results(file), readDstc6Results(truth), { nbCandidates });
    const got = scoreDstc6FilesQuickly(file, truth, { nbCandidates });
    if (got === undefined) continue;
    quick++;
    assert.deepEqual(got, expected, `r${i}.json`);
  }
  // Most files are exact (scored quickly), some are not (left to the checking readers).
  assert.ok(quick > 100 && quick < 200, `${quick} of 200 scored quickly`);
});

test("the scanner's truth and match score as scoreDstc6: dialogs in any order, listed twice or not at all, ranks repeated or beyond nbCandidates; a truth with a problem is left to the checking reader", () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-match-'));
  const rng = createRng(29);
  const ids = Array.from({ length: 40 }, (_, d) => `dialog-${d}-${'x'.repeat(rng.int(30))}`);
  const cand = (): string => `c${rng.int(5)}${rng.chance(0.2) ? 'y' : ''}`;
  const write = (name: string, entries: unknown): string => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(entries, null, rng.chance(0.5) ? 1 : undefined));
    return file;
  };
  const truths = [0, 1, 2].map((t) => write(`t${t}.answers.json`, ids.map((id) => ({ dialog_id: id, lst_candidate_id: [{ candidate_id: cand(), rank: 1 }, ...(rng.chance(0.2) ? [{ candidate_id: cand(), rank: 1 + rng.int(2) }] : [])] }))));
  const cache = new Map<string, ReadonlyMap<string, string> | undefined>();
  let quick = 0;
  for (let i = 0; i < 120; i++) {
    const listed = Array.from({ length: rng.int(50) }, () => ids[rng.int(ids.length)] as string); // any order, repeats, some dialogs missing
    if (rng.chance(0.1)) listed.push('not-in-the-truth');
    const result = write(`r${i}.json`, listed.map((id) => ({ dialog_id: id, lst_candidate_id: Array.from({ length: rng.int(14) }, (_, k) => ({ candidate_id: cand(), rank: rng.chance(0.2) ? 1 + rng.int(12) : k + 1 })) })));
    const truth = truths[rng.int(2)] as string; // two truths in turn through one cache, and a fresh cache
    const nbCandidates = 1 + rng.int(12);
    const expected = scoreDstc6(readDstc6Results(result), readDstc6Results(truth), { nbCandidates });
    const got = scoreDstc6FilesQuickly(result, truth, { nbCandidates }, rng.chance(0.5) ? cache : new Map());
    assert.deepEqual(got, expected, `r${i}.json against ${truth}`);
    quick += got === undefined ? 0 : 1;
  }
  assert.equal(quick, 120);
  // a truth without a rank-1 candidate, or with a dialog twice: undefined (the checking reader names it)
  const result = write('r.json', [{ dialog_id: 'a', lst_candidate_id: [{ candidate_id: 'c', rank: 1 }] }]);
  const noAnswer = write('n.answers.json', [{ dialog_id: 'a', lst_candidate_id: [{ candidate_id: 'c', rank: 1 }] }, { dialog_id: 'b', lst_candidate_id: [{ candidate_id: 'c', rank: 2 }] }]);
  const twice = write('d.answers.json', [{ dialog_id: 'a', lst_candidate_id: [{ candidate_id: 'c', rank: 1 }] }, { dialog_id: 'a', lst_candidate_id: [{ candidate_id: 'd', rank: 1 }] }]);
  for (const truth of [noAnswer, twice]) {
    assert.equal(scoreDstc6FilesQuickly(result, truth, {}, cache), undefined);
    assert.equal(scoreDstc6FilesQuickly(result, truth, {}, cache), undefined); // cached
  }
  assert.equal(scoreDstc6FilesQuickly(result, truths[2] as string, {}, cache)?.dialogs, 40);
});
