import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FormatError } from '../../core/errors.js';
import { createRng } from '../../core/rng.js';
import { generateMovieKb, splitKbs, SPLIT_GEN } from './generate.js';
import { MISSING, type MovieKb } from './movie-kb.js';
import { UserSimulator } from './user.js';
import { M, SPLITS, SPLIT_SPECS } from './slots.js';
import { formatKbTsv, parseKbTsv, readKbPair, writeKbTsv } from './movie-kb-tsv.js';

test('generated splits have the N and the largest vocabulary of the paper, 20% hidden in the agent copy (beyond the missing cells of the full KB)', () => {
  for (const split of SPLITS) {
    const { full, incomplete } = splitKbs(split, 1);
    const spec = SPLIT_SPECS[split];
    assert.equal(full.n, spec.movies, split);
    assert.equal(full.maxVocabulary(), spec.maxVocab, split);
    assert.equal(new Set(full.titles).size, full.n, `${split}: titles distinct`);
    const fm = SPLIT_GEN[split].fullMissing ?? 0;
    assert.ok(Math.abs(full.missingFraction() - fm) < 0.02, `${split}: ${full.missingFraction()}`);
    const expected = 1 - (1 - fm) * 0.8;
    assert.ok(Math.abs(incomplete.missingFraction() - expected) < 0.02, `${split}: ${incomplete.missingFraction()}`);
    for (let i = 0; i < full.n; i++)
      for (let j = 0; j < M; j++) {
        const v = incomplete.cell(i, j);
        assert.ok(v === MISSING || v === full.cell(i, j));
      }
  }
});

test('generation is deterministic per seed', () => {
  const a = splitKbs('medium', 5);
  const b = splitKbs('medium', 5);
  const c = splitKbs('medium', 6);
  assert.equal(formatKbTsv(a.full), formatKbTsv(b.full));
  assert.equal(formatKbTsv(a.incomplete), formatKbTsv(b.incomplete));
  assert.notEqual(formatKbTsv(a.full), formatKbTsv(c.full));
});

test('TSV round trip (official db.txt layout), re-mapped columns, pair reading', () => {
  const { full, incomplete } = splitKbs('small', 2);
  const text = formatKbTsv(incomplete);
  assert.match(text.split('\n')[0] as string, /^movie\tactor\tcritic_rating\tgenre\tmpaa_rating\tdirector\trelease_year$/);
  assert.ok(text.includes('\tUNK'));
  const back = parseKbTsv(text, 'x.txt', full.vocab);
  assert.equal(formatKbTsv(back), text);
  assert.deepEqual([...back.cells], [...incomplete.cells]);
  // columns in another order, CRLF line ends
  const swapped = 'movie\tgenre\tactor\tcritic_rating\tmpaa_rating\tdirector\trelease_year\textra\r\nm1\tdrama\tjo smith\t7.1\tr\tal bo\t1999\tz\r\n';
  const kb = parseKbTsv(swapped, 's.txt');
  assert.deepEqual(kb.row(0), { actor: 'jo smith', critic_rating: '7.1', genre: 'drama', mpaa_rating: 'r', director: 'al bo', release_year: '1999' });
  const dir = mkdtempSync(join(tmpdir(), 'infobot-kb-'));
  writeKbTsv(join(dir, 'db.txt'), full);
  writeKbTsv(join(dir, 'inc.txt'), incomplete);
  const pair = readKbPair(join(dir, 'db.txt'), join(dir, 'inc.txt'));
  assert.equal(formatKbTsv(pair.incomplete), formatKbTsv(incomplete));
  assert.equal(pair.incomplete.maxVocabulary() <= pair.full.maxVocabulary(), true);
  // an incomplete copy that disagrees with the full KB
  const lines = formatKbTsv(incomplete).split('\n');
  const f = (lines[3] as string).split('\t');
  f[1] = 'nobody atall';
  lines[3] = f.join('\t');
  writeFileSync(join(dir, 'bad.txt'), lines.join('\n'));
  assert.throws(() => readKbPair(join(dir, 'db.txt'), join(dir, 'bad.txt')), /bad\.txt:4: slot 'actor' is 'nobody atall' but .*db\.txt has/);
});

test('malformed KB files: one-line file:line errors', () => {
  const head = 'movie\tactor\tcritic_rating\tgenre\tmpaa_rating\tdirector\trelease_year\n';
  const cases: [string, RegExp][] = [
    ['', /^k\.txt: empty file/],
    ['movie actor genre\n', /^k\.txt:1: header has 1 column/],
    ['movie\tactor\tgenre\n', /^k\.txt:1: header lacks slot column 'critic_rating'/],
    [head.replace('\tgenre', '\tactor'), /^k\.txt:1: header repeats slot column 'actor'|header lacks slot column 'genre'/],
    [head, /^k\.txt: no movies after the header/],
    [head + 'm1\ta b\t7.0\tdrama\tr\tc d\n', /^k\.txt:2: 6 TAB-separated fields, expected 7/],
    [head + 'm1\ta b\t7.0\tdrama\tr\tc d\t1999\nm1\ta b\t7.0\tdrama\tr\tc d\t1999\n', /^k\.txt:3: movie 'm1' already listed on line 2/],
    [head + 'm1\ta b\t\tdrama\tr\tc d\t1999\n', /^k\.txt:2: empty value for slot 'critic_rating' \(write UNK/],
    [head + '\ta b\t7.0\tdrama\tr\tc d\t1999\n', /^k\.txt:2: empty movie name/],
    [head + 'm1\ta b\t7.0\tdrama\tr\tc d\t1999\n\nm2\ta b\t7.0\tdrama\tr\tc d\t1999\n', /^k\.txt:3: empty line inside the table/],
  ];
  for (const [text, re] of cases) {
    assert.throws(
      () => parseKbTsv(text, 'k.txt'),
      (e: unknown) => e instanceof FormatError && re.test(e.message) && !e.message.includes('\n'),
      JSON.stringify(text),
    );
  }
});

test('larger splits keep name tokens no more ambiguous than Medium (name pools grow with the people vocabulary)', () => {
  const perToken = (split: string): { first: number; last: number } => {
    const { full } = splitKbs(split, 1);
    const people = [...(full.vocab[0] as string[]), ...(full.vocab[4] as string[])];
    const firsts = new Set(people.map((p) => p.split(' ')[0]));
    const lasts = new Set(people.map((p) => p.split(' ')[1]));
    return { first: people.length / firsts.size, last: people.length / lasts.size };
  };
  const medium = perToken('medium');
  for (const split of ['large', 'xlarge']) {
    const r = perToken(split);
    assert.ok(r.first < 1.5 * medium.first && r.last < 1.5 * medium.last, `${split}: ${JSON.stringify(r)} vs medium ${JSON.stringify(medium)}`);
  }
  const xl = splitKbs('xlarge', 1).full;
  assert.deepEqual(
    xl.vocab.map((v) => v.length),
    [251, 71, 23, 6, 251, 251],
  );
});

test("Medium and Large: the one word a corrupted name keeps seldom fits two people (Rule-Hard's gap, docs/notes/infobot-hard-kb.md)", () => {
  // Share of the people (actors and directors) whose first / last name another person also has.
  const shared = (split: string): [number, number] => {
    const { full } = splitKbs(split, 1);
    const people = [...(full.vocab[0] as string[]), ...(full.vocab[4] as string[])].map((p) => p.split(' '));
    const share = (k: number): number => {
      const count = new Map<string, number>();
      for (const p of people) count.set(p[k] as string, (count.get(p[k] as string) ?? 0) + 1);
      return people.filter((p) => (count.get(p[k] as string) as number) > 1).length / people.length;
    };
    return [share(0), share(1)];
  };
  // The pools of 120 x 180 and 260 x 370 names gave 0.63 / 0.43 and 0.54 / 0.43.
  const [mf, ml] = shared('medium');
  assert.ok(mf < 0.5 && ml < 0.35, `medium ${mf} ${ml}`);
  const [lf, ll] = shared('large');
  assert.ok(lf < 0.35 && ll < 0.3, `large ${lf} ${ll}`);
});

test('duplicates: repeated movies (every value still occurring) make X-Large goals tie as the paper\'s Max suggests', () => {
  const rows = (kb: MovieKb): Map<string, number> => {
    const m = new Map<string, number>();
    for (let i = 0; i < kb.n; i++) {
      const k = Array.from({ length: M }, (_, j) => kb.cell(i, j)).join(',');
      m.set(k, (m.get(k) ?? 0) + 1);
    }
    return m;
  };
  const opts = { movies: 400, maxVocab: 40 };
  const plain = generateMovieKb(createRng(3), opts);
  const dup = generateMovieKb(createRng(3), { ...opts, duplicates: 0.5 });
  assert.equal(rows(plain).size, 400, 'no repeated rows without the option');
  const distinct = rows(dup).size;
  // ≈ half of the rows copy another (a little fewer: a copy may not remove a value's last occurrence; chains share rows).
  assert.ok(distinct > 400 * 0.45 && distinct < 400 * 0.75, `distinct rows ${distinct}`);
  assert.deepEqual(dup.vocab.map((v) => v.length), plain.vocab.map((v) => v.length));
  for (let j = 0; j < M; j++) {
    const used = new Set(Array.from({ length: dup.n }, (_, i) => dup.cell(i, j)));
    assert.equal(used.size, (dup.vocab[j] as string[]).length, `slot ${j}: every value occurs`);
  }
  assert.throws(() => generateMovieKb(createRng(3), { ...opts, duplicates: 1 }), /duplicates must be in \[0, 1\), got 1/);
  // X-Large goals: 2–3 movies share the user's values on average (Max R ≈ 1.4 as the paper's 1.37); Large: almost none.
  const meanMatches = (split: string): number => {
    const sim = new UserSimulator(splitKbs(split, 1).full);
    const rng = createRng(11);
    let s = 0;
    for (let i = 0; i < 500; i++) s += sim.goalMatches(sim.sampleGoal(rng).known);
    return s / 500;
  };
  const xl = meanMatches('xlarge');
  assert.ok(xl > 2.2 && xl < 3, `xlarge ${xl}`);
  assert.ok(meanMatches('large') < 1.4);
});
