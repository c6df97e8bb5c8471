import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { cliPath, babiDir, dstc6Dir, skipUnless } from '../../../test/shared-data.js';
import { FormatError } from '../../core/errors.js';
import { openSqlite, sqliteDrivers, sqliteMissingMessage, type SqliteDb, type SqliteDriverName } from '../../core/sqlite.js';
import { readBabiDialogs } from '../../formats/babi.js';
import { allApiCalls, MemoryKbStore, type KbStore, type Restaurant } from './kb.js';
import { answerApiCall, BABI_KB, DSTC6_KB, NO_RESULT, readKb } from './kb-dialects.js';
import { importKbFile, SqliteKbStore, writeSqliteKb } from './kb-sqlite.js';
import { forgeSqliteKb } from './testing/forge-kb.js';

const babiKb = join(babiDir, 'dialog-babi-kb-all.txt');
const dstc6Kb = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0', 'extendedkb1.txt');
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-kb-sqlite-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

const sha = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');

// Every test runs against each SQLite driver this Node has (node:sqlite on Node ≥ 22.13,
// better-sqlite3 when installed, node-sqlite3-wasm always); none at all is a failure saying how to get one.
const drivers = sqliteDrivers();
test('a SQLite driver is there (node-sqlite3-wasm at least, a dependency)', () => assert.ok(drivers.includes('node-sqlite3-wasm'), sqliteMissingMessage()));

for (const driver of drivers) {
  const opts = { driver };
  const t = (name: string): string => `[${driver}] ${name}`;

  test(t('bAbI KB → SQLite: same answers as the in-memory store for all 600 api_calls'), { skip: skipUnless(babiDir) }, () => {
    const out = join(tmp, 'babi.sqlite');
    const s = importKbFile(babiKb, out, opts);
    assert.deepEqual(s, { dialect: 'babi', restaurants: 1200, facts: 8400 });
    const store = SqliteKbStore.open(out, opts);
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

  test(t('kb lines of an api_call on SQLite equal the lines of the original task 5 dialog'), { skip: skipUnless(babiDir) }, () => {
    const out = join(tmp, 'babi2.sqlite');
    importKbFile(babiKb, out, opts);
    const store = SqliteKbStore.open(out, opts);
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

  test(t('DSTC6 KB (9 attributes) → SQLite: 5- and 6-argument calls, lowercase r_ lines in file order'), { skip: skipUnless(dstc6Dir) }, () => {
    const out = join(tmp, 'dstc6.sqlite');
    const s = importKbFile(dstc6Kb, out, opts);
    assert.deepEqual(s, { dialect: 'dstc6', restaurants: 5400, facts: 48600 });
    const store: SqliteKbStore = SqliteKbStore.open(out, opts);
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

  function injectionChecks(store: KbStore & { close(): void; readonly driver: SqliteDriverName }, file: string): void {
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
    const db = openSqlite(file, { readonly: true, driver: store.driver });
    assert.equal((db.prepare('SELECT count(*) AS n FROM restaurants').get() as { n: number }).n, 1200);
    db.close();
  }

  test(t('SQL-looking values are plain values: no match, KB unchanged'), { skip: skipUnless(babiDir) }, () => {
    const out = join(tmp, 'inject.sqlite');
    importKbFile(babiKb, out, opts);
    injectionChecks(SqliteKbStore.open(out, opts), out);
  });

  test(t('the store is read-only even through its own connection'), { skip: skipUnless(babiDir) }, () => {
    const out = join(tmp, 'ro.sqlite');
    importKbFile(babiKb, out, opts);
    const store = SqliteKbStore.open(out, opts);
    const db = (store as unknown as { db: SqliteDb }).db;
    assert.equal(db.driver, driver);
    assert.throws(() => db.exec('DELETE FROM restaurants'), /readonly|query_only|read-only/i);
    store.close();
  });

  test(t('bad KB files: one-line errors, nothing written'), () => {
    const dir = mkdtempSync(join(tmp, 'bad-'));
    const out = join(dir, 'out.sqlite');
    const unknownAttr = join(dir, 'unknown.txt');
    writeFileSync(unknownAttr, '1 a R_cuisine\tx\n1 a R_colour\tred\n');
    assert.throws(() => importKbFile(unknownAttr, out, opts), { message: /unknown\.txt:2: unknown attribute R_colour/ });
    const task6 = join(dir, 'task6.txt');
    writeFileSync(task6, '1 frankie R_post_code frankie_post_code\n1 frankie R_cuisine italian\n');
    assert.throws(() => importKbFile(task6, out, opts), { message: /task6\.txt:1: unknown attribute R_post_code \(a task 6 \/ DSTC2 KB: not supported\)/ });
    const missing = join(dir, 'missing.txt');
    writeFileSync(missing, '1 a R_cuisine\tx\n1 a R_location\ty\n');
    assert.throws(() => importKbFile(missing, out, opts), { message: /missing\.txt:1: restaurant a lacks R_price, R_rating, R_phone, R_address, R_number/ });
    const badRating = join(dir, 'rating.txt');
    writeFileSync(badRating, ['cuisine\tx', 'location\ty', 'price\tcheap', 'rating\tfive', 'phone\tp', 'address\tq', 'number\ttwo'].map((l) => `1 a R_${l}\n`).join(''));
    assert.throws(() => importKbFile(badRating, out, opts), { message: /rating\.txt:1: restaurant a: R_rating must be an integer from 1 to 8 \(babi KB ratings\), got five$/ });
    assert.throws(() => importKbFile(join(dir, 'nope.txt'), out, opts), { message: /nope\.txt: no such file/ });
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('sqlite')), []);

    assert.throws(() => SqliteKbStore.open(join(dir, 'nope.sqlite'), opts), { message: /nope\.sqlite: no such file$/ });
    assert.throws(() => SqliteKbStore.open(unknownAttr, opts), { message: /unknown\.txt: not a SQLite database$/ });
    const other = join(dir, 'other.sqlite');
    const db = openSqlite(other, opts);
    db.exec('CREATE TABLE t (x)');
    db.close();
    assert.throws(() => SqliteKbStore.open(other, opts), { message: /other\.sqlite: not a dialogym KB/ });
  });

  test(t('in-memory store honours the DSTC6 call slots too'), { skip: skipUnless(dstc6Dir) }, () => {
    const out = join(tmp, 'dstc6b.sqlite');
    importKbFile(dstc6Kb, out, opts);
    const sql = SqliteKbStore.open(out, opts);
    const mem = new MemoryKbStore(sql.all());
    for (const text of ['api_call indian paris four cheap casual', 'api_call indian paris four cheap casual vegan', 'api_call british rome two cheap business vegetarian']) {
      const a = answerApiCall(sql, DSTC6_KB, text);
      const b = answerApiCall(mem, DSTC6_KB, text);
      assert.deepEqual(a, b);
      assert.ok(a.ok && a.restaurants.length > 0, text);
    }
    sql.close();
  });

  test(t('forged KBs (content checksum recomputed) are refused at open, one line naming the row'), { skip: skipUnless(babiDir) }, () => {
    const dir = mkdtempSync(join(tmp, 'forged-'));
    const file = join(dir, 'kb.sqlite');
    // What issue 32 found served into dialogs as KB lines, then the other shapes.
    const cases: [string, string, (string | number | bigint)[], RegExp][] = [
      ['a phone holding a newline and a forged KB line', 'UPDATE restaurants SET phone = ? WHERE id = 17', ['resto_x_phone\nresto_y R_phone forged'], /^kb\.sqlite: row 17 \(resto_\w+, phone\): holds a newline$/],
      ['an address shaped like a KB fact', 'UPDATE restaurants SET address = ? WHERE id = 3', ['resto_y R_phone 555'], /^kb\.sqlite: row 3 \(resto_\w+, address\): is shaped like a KB fact \(`<name> R_<attr> <value>`\)$/],
      ['a rating of 2^63 − 1', 'UPDATE restaurants SET rating = ? WHERE id = 5', [2n ** 63n - 1n], /^kb\.sqlite: row 5 \(resto_\w+, rating\): must be an integer from 1 to 8 \(babi KB ratings\), got 9223372036854775807$/],
      ['a rating of 0', 'UPDATE restaurants SET rating = 0 WHERE id = 6', [], /^kb\.sqlite: row 6 \(resto_\w+, rating\): must be an integer from 1 to 8 \(babi KB ratings\), got 0$/],
      ['a rating of 9', 'UPDATE restaurants SET rating = 9 WHERE id = 6', [], /got 9$/],
      ['a TAB in a cuisine', 'UPDATE restaurants SET cuisine = ? WHERE id = 8', ['thai\tx'], /^kb\.sqlite: row 8 \(resto_\w+, cuisine\): holds a TAB$/],
      ['a name shaped like an api_call', 'UPDATE restaurants SET name = ? WHERE id = 9', ['api_call thai hanoi four cheap'], /^kb\.sqlite: row 9 \("api_call thai hanoi four cheap", name\): is shaped like an api_call$/],
      ['an escape sequence in a price', 'UPDATE restaurants SET price = ? WHERE id = 10', ['cheap\u001b[2J'], /^kb\.sqlite: row 10 \(resto_\w+, price\): holds a control character \(U\+001B\)$/],
      ['a space in a location', 'UPDATE restaurants SET location = ? WHERE id = 11', ['new york'], /row 11 \(resto_\w+, location\): holds a space \(a KB value is one word\)$/],
    ];
    for (const [what, sql, params, re] of cases) {
      importKbFile(babiKb, file, opts);
      forgeSqliteKb(file, sql, params, driver);
      assert.throws(() => SqliteKbStore.open(file, opts), (e: unknown) => e instanceof FormatError && !e.message.includes('\n') && re.test(e.message.replace(dir + '/', '')), what);
    }
    // The unforged file opens; a forgery that keeps values fit is only a KB with other values.
    importKbFile(babiKb, file, opts);
    forgeSqliteKb(file, 'UPDATE restaurants SET phone = ? WHERE id = 17', ['resto_z_phone'], driver);
    const store = SqliteKbStore.open(file, opts);
    assert.equal(store.all()[16]?.phone, 'resto_z_phone');
    store.close();
    // The CLI: one line, non-zero exit, nothing on stdout.
    forgeSqliteKb(file, 'UPDATE restaurants SET phone = ? WHERE id = 17', ['x\nresto_y R_phone forged'], driver);
    const r = spawnSync(process.execPath, [cliPath, 'kb', 'query', file, 'api_call italian rome six cheap'], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^error: .*kb\.sqlite: row 17 \(resto_\w+, phone\): holds a newline\n$/);
  });

  test(t('unfit values are refused at import and by writeSqliteKb, naming the line or the restaurant; nothing written'), () => {
    const dir = mkdtempSync(join(tmp, 'unfit-'));
    const out = join(dir, 'out.sqlite');
    const kb = (over: Record<string, string>): string => {
      const attrs: Record<string, string> = { cuisine: 'thai', location: 'hanoi', price: 'cheap', rating: '3', phone: 'a_phone', address: 'a_address', number: 'four', ...over };
      return Object.entries(attrs).map(([k, v]) => `1 a R_${k}\t${v}\n`).join('');
    };
    const cases: [Record<string, string>, RegExp][] = [
      [{ phone: 'api_call' }, /k\.txt:5: a R_phone: value is shaped like an api_call$/],
      [{ address: 'R_phone' }, /k\.txt:6: a R_address: value is shaped like a KB attribute \(`R_<attr>`\)$/],
      [{ cuisine: 'thai\u001b[31m' }, /k\.txt:1: a R_cuisine: value holds a control character \(U\+001B\)$/],
      [{ rating: '9' }, /k\.txt:1: restaurant a: R_rating must be an integer from 1 to 8 \(babi KB ratings\), got 9$/],
      [{ rating: '0' }, /got 0$/],
      [{ rating: '9223372036854775807' }, /got 9223372036854775807$/],
    ];
    for (const [over, re] of cases) {
      const f = join(dir, 'k.txt');
      writeFileSync(f, kb(over));
      assert.throws(() => importKbFile(f, out, opts), (e: unknown) => e instanceof FormatError && re.test(e.message), JSON.stringify(over));
    }
    const r: Restaurant = { name: 'a', cuisine: 'thai', location: 'hanoi', price: 'cheap', rating: 3, phone: 'a_phone', address: 'a_address', number: 'four' };
    assert.throws(() => writeSqliteKb(out, [r, { ...r, name: 'b', phone: 'b\nb R_phone x' }], BABI_KB, '', opts), /out\.sqlite: restaurant 2 \(b, phone\): holds a newline$/);
    assert.throws(() => writeSqliteKb(out, [{ ...r, rating: 2 ** 63 }], BABI_KB, '', opts), /out\.sqlite: restaurant 1 \(a, rating\): must be an integer from 1 to 8 \(babi KB ratings\), got 9223372036854776000$/);
    assert.throws(() => writeSqliteKb(out, [r], DSTC6_KB, '', opts), /out\.sqlite: restaurant 1 \(a, atmosphere\): is missing$/);
    assert.deepEqual(readdirSync(dir).filter((f) => f.includes('sqlite')), []);
    writeSqliteKb(out, [r], BABI_KB, '', opts);
    const store = SqliteKbStore.open(out, opts);
    assert.deepEqual(store.all(), [r]);
    store.close();
  });

}
