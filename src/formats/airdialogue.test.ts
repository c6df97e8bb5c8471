import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { airDir, skipUnless } from '../../test/shared-data.js';
import { FormatError } from '../core/errors.js';
import { readTextFile } from '../core/files.js';
import { createRng } from '../core/rng.js';
import {
  airDataLines, airExamples, airKbLines, airPredictedExamples, airPredictionLines, formatAirLines, parseAirData, parseAirKb, parseAirPredictions, pyJson,
  readAirData, readAirDialogue, readAirKb, readAirPredictions, writeAirLines, type DataLine, type KbLine,
} from './airdialogue.js';

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

// ---------------------------------------------------------------------------------------------
// streaming readers against the whole-file ones

/** `n` generated line pairs: KBs of 1-30 flights, names and prices drawn by a seeded Rng, actions among the KB's flights. */
function generated(n: number, seed: number): { data: DataLine[]; kb: KbLine[] } {
  const rng = createRng(seed);
  const data: DataLine[] = [];
  const kb: KbLine[] = [];
  for (let i = 0; i < n; i++) {
    const flights = Array.from({ length: 1 + rng.int(30) }, (_, k) => ({ ...FLIGHT, flight_number: 1000 + k, price: 100 + rng.int(900), airline: rng.pick(['AA', 'Delta', 'Spirit']) }));
    const name = `${rng.pick(['Ann', 'Émile', 'Jo'])} ${rng.pick(['Lee', 'Wu', 'Smith'])}`;
    const booked = rng.pick(flights).flight_number;
    kb.push({ kb: flights as KbLine['kb'], reservation: rng.int(4) === 0 ? booked : 0 });
    data.push({ ...DATA, intent: { ...DATA.intent, name, max_price: 100 * (1 + rng.int(10)) }, action: { status: 'book', name, flight: [booked] }, expected_action: { status: 'book', name, flight: [booked] }, dialogue: [`customer: I am ${name}.`, `agent: Line ${i}.`] } as DataLine);
  }
  return { data, kb };
}

function scratch(): { dir: string; put: (name: string, text: string | Buffer) => string; done: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'air-stream-'));
  return {
    dir,
    put: (name, text) => {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

test('streaming readers give what the whole-file readers give: the sample files, and 400 generated lines read in chunks of 97 bytes', { skip: skipUnless(airDir) }, () => {
  const s = scratch();
  try {
    for (const f of ['train_data.json', 'train_kb.json', 'dev_data.json', 'dev_kb.json']) {
      const file = join(airDir, f);
      const whole = f.includes('_kb') ? parseAirKb(readTextFile(file), file) : parseAirData(readTextFile(file), file);
      const streamed = f.includes('_kb') ? [...airKbLines(file, { chunkBytes: 4099 })] : [...airDataLines(file, { chunkBytes: 4099 })];
      assert.deepEqual(streamed, whole, f);
    }
    const dev = readAirDialogue(join(airDir, 'dev_data.json'), join(airDir, 'dev_kb.json'));
    assert.deepEqual([...airExamples(join(airDir, 'dev_data.json'), join(airDir, 'dev_kb.json'))], dev);
    // From line 60: the same examples as the array's from index 59, found without parsing lines 1-59.
    assert.deepEqual([...airExamples(join(airDir, 'dev_data.json'), join(airDir, 'dev_kb.json'), { fromLine: 60 })], dev.slice(59));
    assert.deepEqual([...airExamples(join(airDir, 'dev_data.json'), join(airDir, 'dev_kb.json'), { fromLine: 103 })], [], 'past the end of both: nothing');

    const g = generated(400, 3);
    const dataFile = s.put('g_data.json', formatAirLines(g.data));
    const kbFile = s.put('g_kb.json', formatAirLines(g.kb));
    const predFile = s.put('g_pred.json', formatAirLines(g.data.map((d) => ({ action: d.expected_action }))));
    const chunk = { chunkBytes: 97 };
    assert.deepEqual([...airDataLines(dataFile, chunk)], parseAirData(readTextFile(dataFile), dataFile));
    assert.deepEqual([...airKbLines(kbFile, chunk)], parseAirKb(readTextFile(kbFile), kbFile));
    assert.deepEqual([...airPredictionLines(predFile, chunk)], parseAirPredictions(readTextFile(predFile), predFile));
    assert.deepEqual([...airKbLines(kbFile, chunk)], g.kb);
    const examples = [...airExamples(dataFile, kbFile, chunk)];
    assert.deepEqual(examples, g.data.map((data, i) => ({ line: i + 1, data, kb: g.kb[i] })));
    assert.deepEqual(examples, readAirDialogue(dataFile, kbFile));
    const bytes: number[] = [];
    const predicted = [...airPredictedExamples(dataFile, kbFile, predFile, { onBytes: (b) => bytes.push(b) })];
    assert.deepEqual(predicted.map((p) => p.pred), g.data.map((d) => d.expected_action));
    assert.equal(bytes.length, 400);
    assert.equal(bytes.at(-1), statSync(dataFile).size, 'progress ends at the size of the data file');
    assert.deepEqual(readAirPredictions(predFile), g.data.map((d) => d.expected_action));
  } finally {
    s.done();
  }
});

test('streaming and whole-file readers refuse the same bad files with the same one-line error', () => {
  const s = scratch();
  try {
    const good = JSON.stringify(DATA);
    const kbLine = JSON.stringify({ kb: [FLIGHT, { ...FLIGHT, flight_number: 1001 }], reservation: 0 });
    const noIntent = { ...DATA } as Record<string, unknown>;
    delete noIntent.intent;
    const dataCases: Array<[string, string | Buffer, RegExp]> = [
      ['json', good + '\n{oops\n', /:2: invalid JSON/],
      ['empty', good + '\n\n' + good, /:2: empty line/],
      ['blank-first', '\n' + good, /:1: empty line/],
      ['intent', good + '\n' + JSON.stringify(noIntent) + '\n', /:2: missing "intent"$/],
      ['month', JSON.stringify({ ...DATA, intent: { ...DATA.intent, departure_month: 'September' } }), /:1: intent: "departure_month" must be one of/],
      ['flight', JSON.stringify({ ...DATA, action: { ...DATA.action, flight: ['1000'] } }), /:1: action: "flight\[0\]" must be an integer, got "1000"$/],
      ['array', '[1,2]', /:1: expected a data line \(an object\), got \[1, 2\]$/],
      ['deep', good + '\n' + '['.repeat(100) + ']'.repeat(100) + '\n', /:2: nesting deeper than 64 levels/],
      ['huge-number', good.replace('"max_price":1000', '"max_price":1e400'), /:1: number 1e400 out of range/],
      // The first bad line is reported, whatever comes after it.
      ['first-bad', good + '\n' + JSON.stringify(noIntent) + '\n{oops\n', /:2: missing "intent"$/],
      ['nul', Buffer.from(good + '\n' + good.replace('Hi.', 'H\u0000') + '\n'), /:2: binary data \(NUL byte\), not a text file$/],
      ['utf8', Buffer.concat([Buffer.from(good + '\n' + good.slice(0, 40)), Buffer.from([0xff]), Buffer.from(good.slice(40) + '\n')]), /:2: binary data \(invalid UTF-8\), not a text file$/],
      ['kb-as-data', kbLine + '\n', /looks like an AirDialogue KB file \(JSON Lines\), not an AirDialogue data file/],
    ];
    for (const [name, text, re] of dataCases) {
      const file = s.put(`${name}_data.json`, text);
      const whole = (() => {
        try {
          return parseAirData(readTextFile(file), file);
        } catch (e) {
          return e;
        }
      })();
      assert.ok(whole instanceof FormatError && re.test(whole.message), `${name}: whole-file reader: ${String(whole)}`);
      expectFormatError(() => [...airDataLines(file, { chunkBytes: 13 })], new RegExp(`^${whole.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
      expectFormatError(() => readAirData(file), new RegExp(`^${whole.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    }
    const kbCases: Array<[string, string, RegExp]> = [
      ['reservation', JSON.stringify({ kb: [FLIGHT], reservation: 1005 }), /:1: "reservation" 1005 is not a flight of this kb$/],
      ['duplicate', kbLine + '\n' + JSON.stringify({ kb: [FLIGHT, FLIGHT], reservation: 0 }), /:2: kb\[1\]: duplicate flight_number 1000/],
      ['hour', JSON.stringify({ kb: [{ ...FLIGHT, departure_time_num: 24 }], reservation: 0 }), /:1: kb\[0\]: "departure_time_num" must be <= 23, got 24$/],
      ['no-flights', JSON.stringify({ kb: [], reservation: 0 }), /:1: "kb" must have at least 1 item, got \[\]$/],
      ['data-as-kb', good + '\n', /looks like an AirDialogue data file \(JSON Lines\), not an AirDialogue KB file/],
    ];
    for (const [name, text, re] of kbCases) {
      const file = s.put(`${name}_kb.json`, text);
      expectFormatError(() => parseAirKb(readTextFile(file), file), re);
      const message = (() => {
        try {
          parseAirKb(readTextFile(file), file);
        } catch (e) {
          return (e as Error).message;
        }
        return '';
      })();
      for (const read of [() => [...airKbLines(file, { chunkBytes: 5 })], () => readAirKb(file)]) {
        assert.throws(read, (e: unknown) => e instanceof FormatError && e.message === message, name);
      }
    }
    // A line over the bound: one line, naming file and line, before the rest of it is read.
    const long = s.put('long_kb.json', kbLine + '\n' + kbLine + '\n');
    expectFormatError(() => [...airKbLines(long, { maxLineBytes: kbLine.length - 1 })], /long_kb\.json:1: line longer than \d+ bytes$/);
    expectFormatError(() => readAirKb(long, { maxLineBytes: kbLine.length - 1 }), /long_kb\.json:1: line longer than \d+ bytes$/);
    assert.equal([...airKbLines(long, { maxLineBytes: kbLine.length })].length, 2);
    expectFormatError(() => [...airDataLines(join(s.dir, 'nope.json'))], /nope\.json: no such file$/);
  } finally {
    s.done();
  }
});

test('aligned streams: a file that ends early is refused at its first missing line, as the whole-file reader does; a flight outside its KB line at its line', () => {
  const s = scratch();
  try {
    const g = generated(5, 9);
    const d5 = s.put('d5.json', formatAirLines(g.data));
    const d3 = s.put('d3.json', formatAirLines(g.data.slice(0, 3)));
    const k5 = s.put('k5.json', formatAirLines(g.kb));
    const k4 = s.put('k4.json', formatAirLines(g.kb.slice(0, 4)));
    const p5 = s.put('p5.json', formatAirLines(g.data.map((d) => d.action)));
    const p2 = s.put('p2.json', formatAirLines(g.data.slice(0, 2).map((d) => d.action)));
    const d6 = s.put('d6.json', formatAirLines([...g.data, g.data[0]!]));
    const k6 = s.put('k6.json', formatAirLines([...g.kb, g.kb[0]!]));
    const cases: Array<[() => unknown, string]> = [
      [() => [...airExamples(d5, k4)], `${k4}:5: missing line: ${d5} has 5 lines, this file has 4 (files must be aligned line by line)`],
      [() => [...airExamples(d3, k5)], `${d3}:4: missing line: ${k5} has 5 lines, this file has 3 (files must be aligned line by line)`],
      [() => [...airExamples(d3, k5, { fromLine: 5 })], `${d3}:4: missing line: ${k5} has 5 lines, this file has 3 (files must be aligned line by line)`],
      [() => [...airExamples(d5, k4, { fromLine: 3 })], `${k4}:5: missing line: ${d5} has 5 lines, this file has 4 (files must be aligned line by line)`],
      [() => [...airPredictedExamples(d5, k5, p2)], `${p2}:3: missing line: ${d5} has 5 lines, this file has 2 (files must be aligned line by line)`],
      [() => [...airPredictedExamples(d5, k4, p5)], `${k4}:5: missing line: ${d5} has 5 lines, this file has 4 (files must be aligned line by line)`],
      [() => [...airPredictedExamples(d6, k6, p5)], `${p5}:6: missing line: ${d6} has 6 lines, this file has 5 (files must be aligned line by line)`],
    ];
    for (const [read, message] of cases) assert.throws(read, (e: unknown) => e instanceof FormatError && e.message === message, message);
    // maxLines: the first lines only; what follows them is not read.
    assert.deepEqual([...airExamples(d5, k4, { maxLines: 3 })].map((e) => e.line), [1, 2, 3]);
    assert.deepEqual([...airExamples(d5, k4, { fromLine: 2, maxLines: 3 })].map((e) => e.line), [2, 3, 4]);
    assert.deepEqual([...airKbLines(k4, { maxLines: 2 })], g.kb.slice(0, 2));
    // The same messages as the whole-file reader's.
    assert.throws(() => readAirDialogue(d5, k4), (e: unknown) => (e as Error).message === cases[0]![1]);
    // An action naming a flight its KB line lacks, at its line.
    const shifted = s.put('shift_kb.json', formatAirLines([g.kb[0]!, { kb: [{ ...FLIGHT, flight_number: 1099 }], reservation: 0 }, ...g.kb.slice(2)]));
    assert.throws(() => [...airExamples(d5, shifted)], (e: unknown) => e instanceof FormatError && e.message === `${d5}:2: action: flight ${g.data[1]!.action.flight[0]} is not a flight of line 2 of ${shifted}`);
  } finally {
    s.done();
  }
});

test('array readers stop at a size bound, naming the streaming readers; the streams read the same file; a loop left early closes the files', () => {
  const s = scratch();
  try {
    const g = generated(50, 4);
    const kbFile = s.put('big_kb.json', formatAirLines(g.kb));
    const dataFile = s.put('big_data.json', formatAirLines(g.data));
    const size = statSync(kbFile).size;
    expectFormatError(() => readAirKb(kbFile, { maxBytes: size - 1 }), new RegExp(`big_kb\\.json: file too large to read whole \\(${size} bytes; at most ${size - 1}\\): read it line by line \\(airKbLines, airExamples\\)$`));
    assert.equal(readAirKb(kbFile, { maxBytes: size }).length, 50);
    assert.equal([...airKbLines(kbFile)].length, 50);
    const fds = () => readdirSync('/proc/self/fd').length;
    const before = fds();
    for (let k = 0; k < 20; k++) {
      for (const ex of airExamples(dataFile, kbFile)) if (ex.line === 2) break;
    }
    assert.equal(fds(), before, 'no file left open');
  } finally {
    s.done();
  }
});

test('writeAirLines writes what formatAirLines gives, a line at a time; an iteration that throws leaves no file', () => {
  const s = scratch();
  try {
    const g = generated(30, 5);
    const file = join(s.dir, 'out', 'kb.json');
    assert.equal(writeAirLines(file, g.kb), 30);
    assert.equal(readFileSync(file, 'utf8'), formatAirLines(g.kb));
    const failing = join(s.dir, 'failing.json');
    function* items() {
      yield g.kb[0];
      throw new Error('stop');
    }
    assert.throws(() => writeAirLines(failing, items()), /stop/);
    assert.deepEqual(readdirSync(s.dir).sort(), ['out'], 'no file, no temp file');
  } finally {
    s.done();
  }
});
