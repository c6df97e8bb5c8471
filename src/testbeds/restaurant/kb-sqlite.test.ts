import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { babiDir, dstc6Dir, skipUnless } from '../../../test/shared-data.js';
import { readBabiDialogs } from '../../formats/babi.js';
import { allApiCalls, MemoryKbStore, type KbStore } from './kb.js';
import { answerApiCall, BABI_KB, DSTC6_KB, NO_RESULT, readKb } from './kb-dialects.js';
import { importKbFile, SqliteKbStore } from './kb-sqlite.js';

const babiKb = join(babiDir, 'dialog-babi-kb-all.txt');
const dstc6Kb = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0', 'extendedkb1.txt');
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-kb-sqlite-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const sha = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');

test('bAbI KB → SQLite: same answers as the in-memory store for all 600 api_calls', { skip: skipUnless(babiDir) }, () => {
  const out = join(tmp, 'babi.sqlite');
  const s = importKbFile(babiKb, out);
  assert.deepEqual(s, { dialect: 'babi', restaurants: 1200, facts: 8400 });
  const store = SqliteKbStore.open(out);
  try {
    assert.equal(store.dialect.name, 'babi');
    assert.equal(store.size, 1200);
    const mem = new MemoryKbStore(readKb(babiKb, BABI_KB).restaurants);
    assert.deepEqual(store.all(), mem.all());
    let withResults = 0;
    for (const call of [...allApiCalls('iv'), ...allApiCalls('oov')]) {
      const a = store.query(call);
      assert.deepEqual(a, mem.query(call));
      if (a.length > 0) withResults++;
    }
    // 1,200 restaurants over 600 calls; each restaurant answers exactly one call.
    assert.ok(withResults > 400 && withResults < 600, `calls with results: ${withResults}`);
  } finally {
    store.close();
  }
});

test('kb lines of an api_call on SQLite equal the lines of the original task 5 dialog', { skip: skipUnless(babiDir) }, () => {
  const out = join(tmp, 'babi2.sqlite');
  importKbFile(babiKb, out);
  const store = SqliteKbStore.open(out);
  try {
    const d = readBabiDialogs(join(babiDir, 'dialog-babi-task5-full-dialogs-tst.txt')).dialogs[0];
    assert.ok(d);
    const turns = d.turns;
    const lastCall = turns.map((t) => t.text).lastIndexOf('api_call french paris six moderate');
    assert.ok(lastCall > 0);
    const kbLines = turns.slice(lastCall + 1).filter((t) => t.speaker === 'kb').map((t) => t.text);
    assert.equal(kbLines.length, 21);
    const ans = answerApiCall(store, BABI_KB, 'api_call french paris six moderate');
    assert.ok(ans.ok);
    // This dialog lists its 3 results by decreasing rating, the engine's order: identical lines.
    assert.deepEqual(ans.lines, kbLines);
    const none = answerApiCall(store, BABI_KB, 'api_call french seoul six moderate');
    assert.ok(none.ok);
    assert.deepEqual(none.lines, [NO_RESULT]);
    const bad = answerApiCall(store, BABI_KB, 'api_call french paris six');
    assert.equal(bad.ok, false);
    assert.match((bad as { reason: string }).reason, /takes 4 arguments .* got 3/);
  } finally {
    store.close();
  }
});

test('DSTC6 KB (9 attributes) → SQLite: 5- and 6-argument calls, lowercase r_ lines in file order', { skip: skipUnless(dstc6Dir) }, () => {
  const out = join(tmp, 'dstc6.sqlite');
  const s = importKbFile(dstc6Kb, out);
  assert.deepEqual(s, { dialect: 'dstc6', restaurants: 5400, facts: 48600 });
  const store: SqliteKbStore = SqliteKbStore.open(out);
  try {
    const five = answerApiCall(store, DSTC6_KB, 'api_call indian paris four cheap casual');
    assert.ok(five.ok);
    assert.equal(five.restaurants.length, 9);
    // The tst1 dialog shows 4 of these results; each of its lines is one of ours.
    const shown = ['fancy_last_bird_game r_location paris', 'fancy_last_bird_game r_rating 20', 'the_purple_high_fact_morning r_restrictions vegetarian', 'clean_wide_morning_name r_address clean_wide_morning_name_address'];
    for (const l of shown) assert.ok(five.lines.includes(l), l);
    assert.deepEqual(five.lines.slice(0, 9), DSTC6_KB.resultAttrs.map((a) => `the_purple_high_fact_morning r_${a} ${a === 'rating' ? '60' : a === 'phone' || a === 'address' ? 'the_purple_high_fact_morning_' + a : { location: 'paris', price: 'cheap', cuisine: 'indian', atmosphere: 'casual', restrictions: 'vegetarian', number: 'four' }[a]}`));
    const six = answerApiCall(store, DSTC6_KB, 'api_call indian paris four cheap casual vegan');
    assert.ok(six.ok);
    assert.deepEqual(six.restaurants.map((r) => r.name).sort(), ['fancy_last_bird_game', 'high_magnificent_dog_sheep', 'jolly_great_point_work']);
    assert.equal(answerApiCall(store, DSTC6_KB, 'api_call indian paris four cheap').ok, false);
  } finally {
    store.close();
  }
});

function injectionChecks(store: KbStore & { close(): void }, file: string): void {
  const before = sha(file);
  const evil = "'; DROP TABLE restaurants; --";
  assert.deepEqual(store.query({ cuisine: evil, location: 'paris', number: 'six', price: 'moderate' }), []);
  assert.deepEqual(store.query({ cuisine: 'french', location: "paris' OR '1'='1", number: 'six', price: 'moderate' }), []);
  assert.deepEqual(store.query({ cuisine: 'french', location: 'paris', number: 'six', price: 'moderate', atmosphere: "x') OR 1=1 --" }), []);
  // As one api_call word (no spaces), the value is just an unknown cuisine.
  const ans = answerApiCall(store, BABI_KB, "api_call ';DROP/**/TABLE/**/restaurants;-- paris six moderate");
  assert.ok(ans.ok);
  assert.deepEqual(ans.lines, [NO_RESULT]);
  assert.equal(answerApiCall(store, BABI_KB, `api_call ${evil} paris six moderate`).ok, false);
  assert.equal(store.all().length, 1200);
  store.close();
  assert.equal(sha(file), before, 'the KB file changed');
  const db = new Database(file, { readonly: true });
  assert.equal((db.prepare('SELECT count(*) AS n FROM restaurants').get() as { n: number }).n, 1200);
  db.close();
}

test('SQL-looking values are plain values: no match, KB unchanged', { skip: skipUnless(babiDir) }, () => {
  const out = join(tmp, 'inject.sqlite');
  importKbFile(babiKb, out);
  injectionChecks(SqliteKbStore.open(out), out);
});

test('the store is read-only even through its own connection', { skip: skipUnless(babiDir) }, () => {
  const out = join(tmp, 'ro.sqlite');
  importKbFile(babiKb, out);
  const store = SqliteKbStore.open(out);
  const db = (store as unknown as { db: Database.Database }).db;
  assert.throws(() => db.exec('DELETE FROM restaurants'), /readonly|query_only|read-only/i);
  store.close();
});

test('bad KB files: one-line errors, nothing written', () => {
  const dir = mkdtempSync(join(tmp, 'bad-'));
  const out = join(dir, 'out.sqlite');
  const unknownAttr = join(dir, 'unknown.txt');
  writeFileSync(unknownAttr, '1 a R_cuisine\tx\n1 a R_colour\tred\n');
  assert.throws(() => importKbFile(unknownAttr, out), { message: /unknown\.txt:2: unknown attribute R_colour/ });
  const task6 = join(dir, 'task6.txt');
  writeFileSync(task6, '1 frankie R_post_code frankie_post_code\n1 frankie R_cuisine italian\n');
  assert.throws(() => importKbFile(task6, out), { message: /task6\.txt:1: unknown attribute R_post_code \(a task 6 \/ DSTC2 KB: not supported\)/ });
  const missing = join(dir, 'missing.txt');
  writeFileSync(missing, '1 a R_cuisine\tx\n1 a R_location\ty\n');
  assert.throws(() => importKbFile(missing, out), { message: /missing\.txt:1: restaurant a lacks R_price, R_rating, R_phone, R_address, R_number/ });
  const badRating = join(dir, 'rating.txt');
  writeFileSync(badRating, ['cuisine\tx', 'location\ty', 'price\tcheap', 'rating\tfive', 'phone\tp', 'address\tq', 'number\ttwo'].map((l) => `1 a R_${l}\n`).join(''));
  assert.throws(() => importKbFile(badRating, out), { message: /rating\.txt:1: restaurant a: R_rating is not an integer \(five\)/ });
  assert.throws(() => importKbFile(join(dir, 'nope.txt'), out), { message: /nope\.txt: no such file/ });
  assert.deepEqual(readdirSync(dir).filter((f) => f.includes('sqlite')), []);

  assert.throws(() => SqliteKbStore.open(join(dir, 'nope.sqlite')), { message: /nope\.sqlite: no such file$/ });
  assert.throws(() => SqliteKbStore.open(unknownAttr), { message: /unknown\.txt: not a SQLite database$/ });
  const other = join(dir, 'other.sqlite');
  const db = new Database(other);
  db.exec('CREATE TABLE t (x)');
  db.close();
  assert.throws(() => SqliteKbStore.open(other), { message: /other\.sqlite: not a dialogym KB/ });
});

test('in-memory store honours the DSTC6 call slots too', { skip: skipUnless(dstc6Dir) }, () => {
  const out = join(tmp, 'dstc6b.sqlite');
  importKbFile(dstc6Kb, out);
  const sql = SqliteKbStore.open(out);
  const mem = new MemoryKbStore(sql.all());
  for (const text of ['api_call indian paris four cheap casual', 'api_call indian paris four cheap casual vegan', 'api_call british rome two cheap business vegetarian']) {
    const a = answerApiCall(sql, DSTC6_KB, text);
    const b = answerApiCall(mem, DSTC6_KB, text);
    assert.deepEqual(a, b);
    assert.ok(a.ok && a.restaurants.length > 0, text);
  }
  sql.close();
});
