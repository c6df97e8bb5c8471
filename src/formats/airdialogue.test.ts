import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { airDir, skipUnless } from '../../test/shared-data.js';
import { FormatError } from '../core/errors.js';
import { formatAirLines, parseAirData, parseAirKb, parseAirPredictions, pyJson, readAirDialogue } from './airdialogue.js';

const FLIGHT = {
  return_airport: 'ATL', airline: 'AA', departure_day: '11', departure_airport: 'IAD', flight_number: 1000, departure_month: 'Sept',
  departure_time_num: 10, class: 'business', return_time_num: 21, return_month: 'Sept', return_day: '13', num_connections: 1, price: 800,
};
const DATA = {
  action: { status: 'book', name: 'Ann Lee', flight: [1000] },
  intent: { return_month: 'Sept', return_day: '13', max_price: 1000, departure_airport: 'IAD', departure_day: '11', goal: 'book', departure_month: 'Sept', name: 'Ann Lee', return_airport: 'ATL' },
  expected_action: { status: 'book', name: 'Ann Lee', flight: [1000] },
  dialogue: ['customer: Hi.', 'agent: Hello.'],
  timestamps: [1, 2],
  correct_sample: true,
};

function expectFormatError(fn: () => unknown, re: RegExp): void {
  assert.throws(fn, (e: unknown) => e instanceof FormatError && re.test(e.message) && !e.message.includes('\n'));
}

test('the four sample files parse and round-trip byte for byte', { skip: skipUnless(airDir) }, () => {
  for (const f of ['train_data.json', 'train_kb.json', 'dev_data.json', 'dev_kb.json']) {
    const text = readFileSync(join(airDir, f), 'utf8');
    const items = f.includes('_kb') ? parseAirKb(text, f) : parseAirData(text, f);
    assert.equal(items.length, f.startsWith('train') ? 802 : 102);
    assert.ok(formatAirLines(items) === text, `${f} does not round-trip`);
  }
  const ex = readAirDialogue(join(airDir, 'dev_data.json'), join(airDir, 'dev_kb.json'));
  assert.equal(ex.length, 102);
  assert.equal(ex[0]?.kb.kb.length, 30);
  assert.equal(ex[101]?.line, 102);
});

test('pyJson matches Python json.dumps layout and ASCII escapes', () => {
  assert.equal(pyJson({ a: [1, 2], b: 'x"y', c: true, d: null, e: {} }), '{"a": [1, 2], "b": "x\\"y", "c": true, "d": null, "e": {}}');
  assert.equal(pyJson('José\n\u007f'), '"Jos\\u00e9\\n\\u007f"');
  assert.equal(pyJson([]), '[]');
});

test('valid lines parse; bad lines give file:line: reason', () => {
  const good = JSON.stringify(DATA);
  assert.equal(parseAirData(good + '\n' + good + '\n', 'd.json').length, 2);
  expectFormatError(() => parseAirData(good + '\n{oops\n', 'd.json'), /^d\.json:2: invalid JSON/);
  expectFormatError(() => parseAirData(good + '\n\n' + good, 'd.json'), /^d\.json:2: empty line/);
  const noIntent = { ...DATA } as Record<string, unknown>;
  delete noIntent.intent;
  expectFormatError(() => parseAirData(JSON.stringify(noIntent), 'd.json'), /^d\.json:1: missing "intent"$/);
  expectFormatError(() => parseAirData(JSON.stringify({ ...DATA, intent: { ...DATA.intent, departure_month: 'September' } }), 'd.json'), /^d\.json:1: intent: "departure_month" must be one of/);
  expectFormatError(() => parseAirData(JSON.stringify({ ...DATA, intent: { ...DATA.intent, goal: 'fly' } }), 'd.json'), /"goal" must be one of book\/change\/cancel/);
  expectFormatError(() => parseAirData(JSON.stringify({ ...DATA, action: { ...DATA.action, flight: ['1000'] } }), 'd.json'), /^d\.json:1: action: "flight\[0\]" must be an integer, got "1000"$/);
  expectFormatError(() => parseAirData(JSON.stringify({ ...DATA, correct_sample: 'yes' }), 'd.json'), /"correct_sample" must be true or false/);
  expectFormatError(() => parseAirData('[1,2]', 'd.json'), /^d\.json:1: expected a data line \(an object\), got \[1, 2\]$/);

  const kb = { kb: [FLIGHT, { ...FLIGHT, flight_number: 1001 }], reservation: 1001 };
  assert.equal(parseAirKb(JSON.stringify(kb), 'k.json')[0]?.reservation, 1001);
  expectFormatError(() => parseAirKb(JSON.stringify({ ...kb, reservation: 1005 }), 'k.json'), /^k\.json:1: "reservation" 1005 is not a flight of this kb$/);
  expectFormatError(() => parseAirKb(JSON.stringify({ kb: [FLIGHT, FLIGHT], reservation: 0 }), 'k.json'), /kb\[1\]: duplicate flight_number 1000/);
  expectFormatError(() => parseAirKb(JSON.stringify({ kb: [{ ...FLIGHT, price: '800' }], reservation: 0 }), 'k.json'), /kb\[0\]: "price" must be an integer/);
  expectFormatError(() => parseAirKb(JSON.stringify({ kb: [{ ...FLIGHT, departure_time_num: 24 }], reservation: 0 }), 'k.json'), /^k\.json:1: kb\[0\]: "departure_time_num" must be <= 23, got 24$/);
  expectFormatError(() => parseAirKb(JSON.stringify({ kb: [], reservation: 0 }), 'k.json'), /^k\.json:1: "kb" must have at least 1 item, got \[\]$/);
});

test('misaligned data and kb files are reported at the first missing line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'air-'));
  const kb = JSON.stringify({ kb: [FLIGHT], reservation: 0 });
  writeFileSync(join(dir, 'd.json'), JSON.stringify(DATA) + '\n' + JSON.stringify(DATA) + '\n');
  writeFileSync(join(dir, 'k.json'), kb + '\n');
  expectFormatError(() => readAirDialogue(join(dir, 'd.json'), join(dir, 'k.json')), /k\.json:2: missing line: .*d\.json has 2 lines, this file has 1/);
  expectFormatError(() => readAirDialogue(join(dir, 'nope.json'), join(dir, 'k.json')), /nope\.json: no such file/);
});

test('predictions: plain actions or objects holding "action"', () => {
  const p = parseAirPredictions('{"status": "book", "name": "A B", "flight": [1003]}\n{"action": {"status": "cancel", "name": "A B", "flight": []}}\n', 'p.json');
  assert.deepEqual(p.map((a) => a.status), ['book', 'cancel']);
  expectFormatError(() => parseAirPredictions('{"status": "book"}\n', 'p.json'), /^p\.json:1: missing "name"$/);
});
