/**
 * The concrete bad inputs of issue 19's "Why", each refused with a one-line typed error naming the
 * file and the place (line, entry or field) — through the library and, for a few, the CLI.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DialogymError, FormatError, ModelFileError } from '../../src/core/errors.js';
import { readBabiDialogs, readBabiKb } from '../../src/formats/babi.js';
import { readDstc6Data, readDstc6Results } from '../../src/formats/dstc6.js';
import { readAirData, readAirDialogue, readAirKb } from '../../src/formats/airdialogue.js';
import { encodeModelFile, readModelFile } from '../../src/formats/model-file.js';
import { forgeModelFile, type ModelFileParts } from '../../src/formats/testing/forge-model-file.js';
import { openSqlite, sqliteDriver, sqliteMissingMessage } from '../../src/core/sqlite.js';
import { SqliteKbStore, importKbFile } from '../../src/testbeds/restaurant/kb-sqlite.js';
import { babiDir, cliPath, skipUnless } from '../shared-data.js';

const dir = mkdtempSync(join(tmpdir(), 'dialogym-why-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function put(name: string, content: string | Uint8Array): string {
  const f = join(dir, name);
  writeFileSync(f, content);
  return f;
}

/** The reader's error: typed, one line, and matching `re` (which names the file and place). */
function refused(fn: () => unknown, re: RegExp, type: new (...a: never[]) => DialogymError = FormatError): string {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof type, `expected a ${type.name}, got ${String(e)}`);
    assert.ok(!e.message.includes('\n'), `multi-line message: ${e.message}`);
    assert.match(e.message, re);
    return e.message;
  }
  assert.fail(`accepted, expected an error matching ${re}`);
}

function cli(...args: string[]): { code: number | null; stderr: string; stdout: string } {
  const r = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr, stdout: r.stdout };
}

const DEEP = '['.repeat(20000) + ']'.repeat(20000);
const INTENT = { departure_airport: 'DFW', return_airport: 'IAD', departure_month: 'June', departure_day: '12', return_month: 'June', return_day: '14', name: 'Al Wu', goal: 'book', max_price: 500 };
const ACTION = { status: 'book', name: 'Al Wu', flight: [1000] };
const DATA = { intent: INTENT, action: ACTION, expected_action: ACTION };
const FLIGHT = { airline: 'Spirit', class: 'economy', departure_airport: 'DFW', departure_day: '12', departure_month: 'June', departure_time_num: 7, flight_number: 1000, num_connections: 0, price: 300, return_airport: 'IAD', return_day: '14', return_month: 'June', return_time_num: 9 };

test('a value nested 20,000 arrays deep: one line naming file and line, no stack overflow', () => {
  const answers = put('deep.answers.json', `[{"dialog_id": "d1",\n "lst_candidate_id": [{"candidate_id": "c1", "rank": ${DEEP}}]}]`);
  refused(() => readDstc6Results(answers), /deep\.answers\.json:2: nesting deeper than 64 levels \(column \d+\)$/);
  const data = put('deep_data.json', JSON.stringify(DATA) + '\n' + JSON.stringify(DATA).replace('"Al Wu"', DEEP) + '\n');
  refused(() => readAirData(data), /deep_data\.json:2: nesting deeper than 64 levels/);
  const r = cli('dstc6', 'score', '--result', answers, '--truth', answers);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /^error: .*deep\.answers\.json:2: nesting deeper than 64 levels \(column \d+\)\n$/);
});

test('a TAB inside a bAbI KB-result line, and attribute names like R_r;ting', () => {
  const f = put('tab.txt', '1 hello\thi\n2 resto_x R_phone\tresto_x_phone\n3 thanks\tyou are welcome\n\n');
  refused(() => readBabiDialogs(f), /tab\.txt:2: a KB-result line must not hold a TAB/);
  const r = cli('stats', f);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /^error: .*tab\.txt:2: a KB-result line must not hold a TAB.*\n$/);
  const g = put('attr.txt', '1 hello\thi\n2 resto_x R_r;ting 5\n\n');
  refused(() => readBabiDialogs(g), /attr\.txt:2: bad attribute name "R_r;ting"/);
  const kb = put('kb.txt', '1 resto_x R_cuisine\tthai\n1 resto_x R_r;ting\t5\n');
  refused(() => readBabiKb(kb), /kb\.txt:2: bad attribute name "R_r;ting"/);
});

test('AirDialogue: status "1", flight [1e308], prices 1.2e22 or Infinity, a flight not in the KB', () => {
  const line = (d: unknown): string => JSON.stringify(d) + '\n';
  refused(() => readAirData(put('s_data.json', line({ ...DATA, expected_action: { ...ACTION, status: '1' } }))), /s_data\.json:1: expected_action: "status" must be one of book\/change\/cancel\/no_flight\/no_reservation, got "1"$/);
  refused(() => readAirData(put('f_data.json', line(DATA).replace('"flight":[1000]', '"flight":[1e308]'))), /f_data\.json:1: action: "flight\[0\]" must be <= 1000000, got 1e\+308$/);
  refused(() => readAirKb(put('p_kb.json', line({ kb: [{ ...FLIGHT, price: 1.2e22 }], reservation: 0 }))), /p_kb\.json:1: kb\[0\]: "price" must be <= 100000, got 1\.2e\+22$/);
  refused(() => readAirKb(put('i_kb.json', line({ kb: [FLIGHT], reservation: 0 }).replace('"price":300', '"price":1e400'))), /i_kb\.json:1: number 1e400 out of range \(not a finite double\)/);
  refused(() => readAirKb(put('n_kb.json', line({ kb: [FLIGHT], reservation: 0 }).replace('"price":300', '"price":Infinity'))), /n_kb\.json:1: invalid JSON/);
  const kb = put('ok_kb.json', line({ kb: [FLIGHT], reservation: 0 }));
  const data = put('x_data.json', line({ ...DATA, expected_action: { ...ACTION, flight: [1007] } }));
  refused(() => readAirDialogue(data, kb), /x_data\.json:1: expected_action: flight 1007 is not a flight of line 1 of .*ok_kb\.json$/);
  const r = cli('airdialogue', 'score', '--data', put('s2_data.json', line({ ...DATA, expected_action: { ...ACTION, status: '1' } })), '--kb', kb);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /^error: .*s2_data\.json:1: expected_action: "status" must be one of .*, got "1"\n$/);
});

test('DSTC6: an empty utterance or candidate', () => {
  const e = { dialog_id: 'd1', utterances: ['hello', ''], candidates: [{ candidate_id: 'c1', utterance: 'hi' }] };
  refused(() => readDstc6Data(put('empty.json', JSON.stringify([e]))), /empty\.json: entry 1 \(dialog_id d1\): "utterances\[1\]" must not be empty or blank, got ""$/);
  const c = { ...e, utterances: ['hello'], candidates: [{ candidate_id: 'c1', utterance: '  ' }] };
  refused(() => readDstc6Data(put('emptyc.json', JSON.stringify([c]))), /emptyc\.json: entry 1 \(dialog_id d1\): candidates\[0\]: "utterance" must not be empty or blank/);
});

/** A model file whose header is rewritten (with a valid checksum): a forged file. */
function forged(edit: (h: ModelFileParts['header']) => void): Buffer {
  return forgeModelFile(encodeModelFile({ model: 'tfidf', meta: {}, tensors: [{ name: 'W', shape: [2, 3], data: new Float32Array(6).fill(0.5) }] }), (p) => edit(p.header));
}

test('forged model files: "length":"abc", "offset":null, length -5, a length that does not match the shape', () => {
  const t = (h: { tensors: Record<string, unknown>[] }): Record<string, unknown> => h.tensors[0] as Record<string, unknown>;
  refused(() => readModelFile(put('abc.dgm', forged((h) => (t(h).length = 'abc')))), /abc\.dgm: corrupt model file \(header: tensors\[0\]: "length" must be an integer, got "abc"\)$/, ModelFileError);
  refused(() => readModelFile(put('null.dgm', forged((h) => (t(h).offset = null)))), /null\.dgm: corrupt model file \(header: tensors\[0\]: "offset" must be an integer, got null\)$/, ModelFileError);
  refused(() => readModelFile(put('neg.dgm', forged((h) => (t(h).length = -5)))), /neg\.dgm: corrupt model file \(header: tensors\[0\]: "length" must be >= 0, got -5\)$/, ModelFileError);
  refused(() => readModelFile(put('shape.dgm', forged((h) => (t(h).shape = [2, 2])))), /shape\.dgm: tensor "W" \(index 0\): length 6 does not match shape 2×2 = 4$/, ModelFileError);
  refused(() => readModelFile(put('big.dgm', forged((h) => (t(h).length = 2 ** 30)))), /big\.dgm: tensor "W" \(index 0\): length 1073741824 does not match shape/, ModelFileError);
  refused(() => readModelFile(put('extra.dgm', forged((h) => (h.weights = 1)))), /extra\.dgm: corrupt model file \(header: unknown field "weights"\)$/, ModelFileError);
  const r = cli('eval', '--model', join(dir, 'abc.dgm'), '--data', put('d.txt', '1 hi\thello\n\n'));
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /^error: .*abc\.dgm: corrupt model file \(header: tensors\[0\]: "length" must be an integer, got "abc"\)\n$/);
});

test('a SQLite KB whose bytes changed: refused at open, naming the file', { skip: skipUnless(babiDir) || (sqliteDriver() === undefined && `no SQLite driver: ${sqliteMissingMessage()}`) }, () => {
  const f = join(dir, 'kb.sqlite');
  importKbFile(join(babiDir, 'dialog-babi-kb-all.txt'), f);
  SqliteKbStore.open(f).close();
  // A changed value (the page structure stays valid): the content checksum catches it.
  const db = openSqlite(f);
  db.prepare("UPDATE restaurants SET price = 'cheep' WHERE id = 3").run();
  db.close();
  refused(() => SqliteKbStore.open(f), /kb\.sqlite: corrupt SQLite KB \(content checksum mismatch/);
  // Damaged pages: the integrity check.
  importKbFile(join(babiDir, 'dialog-babi-kb-all.txt'), f);
  const b = readFileSync(f);
  b.fill(0x41, 4 * 4096 - 1000, 4 * 4096 - 8);
  writeFileSync(f, b);
  refused(() => SqliteKbStore.open(f), /kb\.sqlite: (corrupt SQLite KB|not a SQLite database|restaurants row)/);
  const r = cli('kb', 'query', f, 'api_call italian rome six cheap');
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /^error: .*kb\.sqlite: .*\n$/);
});
