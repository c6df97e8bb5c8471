import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../core/rng.js';
import { MISSING, MovieKb } from './movie-kb.js';
import { entropy, projectedEntropies, projectedSlot, SoftLookup, softPosterior, summaryStatistics, SUMMARY_SIZE, topK, topKRandomTies, type SlotBeliefs } from './soft-kb.js';
import { hardLookup } from './hard-kb.js';
import { M } from './slots.js';

/** A small random KB: n rows, vocabularies of 2–3 values, some missing cells. */
function smallKb(seed: number, n: number): MovieKb {
  const rng = createRng(seed);
  const vocab = Array.from({ length: M }, (_, j) => Array.from({ length: 2 + (j % 2) }, (_, k) => `v${j}_${k}`));
  const cells = new Int32Array(n * M);
  for (let i = 0; i < n; i++) for (let j = 0; j < M; j++) cells[i * M + j] = rng.chance(0.2) ? MISSING : rng.int((vocab[j] as string[]).length);
  // every value present at least once
  for (let j = 0; j < M; j++) for (let k = 0; k < (vocab[j] as string[]).length; k++) cells[k * M + j] = k;
  return new MovieKb(Array.from({ length: n }, (_, i) => `movie ${i}`), vocab, cells);
}

function randomBeliefs(kb: MovieKb, seed: number): SlotBeliefs {
  const rng = createRng(seed);
  const p = kb.vocab.map((v) => {
    const x = Float64Array.from(v, () => 0.05 + rng.next());
    const s = x.reduce((a, b) => a + b, 0);
    return x.map((y) => y / s);
  });
  return { p, q: Float64Array.from({ length: M }, () => rng.next()) };
}

/**
 * Brute force over the generative model: for every slot, the user either does not know it (prob
 * 1 − q_j; the target is then uniform over rows) or knows it and has value v in mind (prob q_j p_j(v)),
 * and a movie with that value is the target with probability (1 − |M_j|/N)/N_j(v), a movie missing the
 * slot with probability 1/N. Enumerates every joint (φ, v) assignment of all slots explicitly.
 */
function bruteForce(kb: MovieKb, b: SlotBeliefs): number[] {
  const n = kb.n;
  const options = kb.vocab.map((v, j) => {
    const list: { w: number; like: (i: number) => number }[] = [{ w: 1 - (b.q[j] as number), like: () => 1 / n }];
    v.forEach((_, val) =>
      list.push({
        w: (b.q[j] as number) * ((b.p[j] as Float64Array)[val] as number),
        like: (i: number) => {
          const x = kb.cell(i, j);
          if (x === MISSING) return 1 / n;
          return x === val ? (1 - (kb.missing[j] as number) / n) / ((kb.counts[j] as Float64Array)[val] as number) : 0;
        },
      }),
    );
    return list;
  });
  const score = new Array<number>(n).fill(0);
  const pick = new Array<number>(M).fill(0);
  const rec = (j: number): void => {
    if (j === M) {
      for (let i = 0; i < n; i++) {
        let s = 1;
        for (let k = 0; k < M; k++) {
          const o = (options[k] as { w: number; like: (i: number) => number }[])[pick[k] as number] as { w: number; like: (i: number) => number };
          s *= o.w * o.like(i);
        }
        score[i] = (score[i] as number) + s;
      }
      return;
    }
    for (let o = 0; o < (options[j] as unknown[]).length; o++) {
      pick[j] = o;
      rec(j + 1);
    }
  };
  rec(0);
  const z = score.reduce((a, c) => a + c, 0);
  return score.map((s) => s / z);
}

test('soft posterior sums to 1 and equals a brute-force enumeration of the generative model', () => {
  for (let seed = 1; seed <= 5; seed++) {
    const kb = smallKb(seed, 9);
    const b = randomBeliefs(kb, 100 + seed);
    const post = softPosterior(kb, b);
    const sum = post.reduce((a, c) => a + c, 0);
    assert.ok(Math.abs(sum - 1) < 1e-12, `sum ${sum}`);
    const brute = bruteForce(kb, b);
    for (let i = 0; i < kb.n; i++) assert.ok(Math.abs((post[i] as number) - (brute[i] as number)) < 1e-12, `row ${i}: ${post[i]} vs ${brute[i]}`);
  }
});

test('soft posterior: q = 0 everywhere is uniform; a certain value concentrates mass on its rows', () => {
  const kb = smallKb(7, 12);
  const uniform = softPosterior(kb, { p: kb.priors, q: new Float64Array(M) });
  for (const x of uniform) assert.ok(Math.abs(x - 1 / kb.n) < 1e-12);
  // With q = 1 and the priors as beliefs, the posterior is also uniform (eq. 3 reduces to 1/N).
  const prior = softPosterior(kb, { p: kb.priors, q: new Float64Array(M).fill(1) });
  for (const x of prior) assert.ok(Math.abs(x - 1 / kb.n) < 1e-12);
  const p = kb.priors.map((x) => new Float64Array(x));
  (p[0] as Float64Array).fill(0);
  (p[0] as Float64Array)[1] = 1;
  const q = new Float64Array(M);
  q[0] = 1;
  const post = softPosterior(kb, { p, q });
  let onValue = 0;
  let onMissing = 0;
  for (let i = 0; i < kb.n; i++) {
    if (kb.cell(i, 0) === 1) onValue += post[i] as number;
    else if (kb.cell(i, 0) === MISSING) onMissing += post[i] as number;
    else assert.ok((post[i] as number) < 1e-200, `row ${i} has another value but mass ${post[i]}`);
  }
  assert.ok(Math.abs(onValue - (1 - (kb.missing[0] as number) / kb.n)) < 1e-12);
  assert.ok(Math.abs(onMissing - (kb.missing[0] as number) / kb.n) < 1e-12);
});

test('projected slot distribution, entropies and summary statistics', () => {
  const kb = smallKb(3, 10);
  const b = randomBeliefs(kb, 9);
  const post = softPosterior(kb, b);
  for (let j = 0; j < M; j++) {
    const pt = projectedSlot(kb, post, j);
    assert.ok(Math.abs(pt.reduce((a, c) => a + c, 0) - 1) < 1e-12);
  }
  assert.equal(entropy([0.5, 0.5]), 1);
  assert.equal(entropy([1, 0, 0]), 0);
  assert.equal(entropy([0.25, 0.25, 0.25, 0.25]), 2);
  const s = summaryStatistics(kb, b, post, 2);
  assert.equal(s.length, SUMMARY_SIZE);
  assert.equal(SUMMARY_SIZE, 3 * M + 1);
  for (let j = 0; j < M; j++) assert.ok(Math.abs((s[M + j] as number) - (b.q[j] as number)) < 1e-6);
  assert.deepEqual([...s.slice(2 * M, 3 * M)], [0, 0, 1, 0, 0, 0]);
  assert.ok(Math.abs((s[3 * M] as number) - entropy(post)) < 1e-5);
  assert.ok((s[3 * M] as number) <= Math.log2(kb.n) + 1e-9);
});

test('topK ranks by score with tie-breaking, hard lookup matches missing cells', () => {
  assert.deepEqual(topK([0.1, 0.5, 0.2, 0.5, 0.0], 3), [1, 3, 2]);
  assert.deepEqual(topK([0.1, 0.5, 0.2, 0.5, 0.0], 3, [0, 0.1, 0, 0.9, 0]), [3, 1, 2]);
  assert.deepEqual(topK([3, 1], 5), [0, 1]);
  const kb = new MovieKb(['a', 'b', 'c'], Array.from({ length: M }, () => ['x', 'y']), Int32Array.from([0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, MISSING, 1, 0, 0, 0, 0]));
  assert.deepEqual(hardLookup(kb, [0, null, null, null, null, null]), [0, 2]);
  assert.deepEqual(hardLookup(kb, [0, null, null, null, null, null], false), [0]);
  assert.deepEqual(hardLookup(kb, [null, 1, null, null, null, null]), [2]);
  assert.deepEqual(hardLookup(kb, [1, 1, null, null, null, null]), [2]);
  assert.deepEqual(hardLookup(kb, [1, 0, null, null, null, null]), [1]);
  assert.deepEqual(hardLookup(kb, [1, 1, 1, null, null, null]), []);
});

test('SoftLookup (one pass, linear space) equals the log-space posterior, its entropy and the projected entropies', () => {
  for (let seed = 1; seed <= 4; seed++) {
    const kb = smallKb(seed, 40);
    const look = new SoftLookup(kb);
    const cases: SlotBeliefs[] = [randomBeliefs(kb, seed), { p: kb.priors, q: new Float64Array(M).fill(1) }];
    // Extreme beliefs: one value certain in every slot (products underflow: the log-space fallback).
    const p = kb.vocab.map((v) => new Float64Array(v.length).fill(1e-300));
    for (const x of p) x[0] = 1;
    cases.push({ p, q: new Float64Array(M).fill(1) });
    for (const b of cases) {
      look.update(b);
      const ref = softPosterior(kb, b);
      assert.ok(Math.abs(look.posterior.reduce((a, c) => a + c, 0) - 1) < 1e-12);
      for (let i = 0; i < kb.n; i++) assert.ok(Math.abs((look.posterior[i] as number) - (ref[i] as number)) < 1e-12, `row ${i}`);
      assert.ok(Math.abs(look.posteriorEntropy - entropy(ref)) < 1e-9, `${look.posteriorEntropy} vs ${entropy(ref)}`);
      const h = projectedEntropies(kb, ref);
      for (let j = 0; j < M; j++) assert.ok(Math.abs((look.slotEntropies[j] as number) - (h[j] as number)) < 1e-9, `slot ${j}`);
    }
  }
});

test('topKRandomTies: best first, ties in random order, only tied rows compete for the last places', () => {
  const rng = createRng(4);
  assert.deepEqual(topKRandomTies([0.1, 0.5, 0.2, 0.7, 0.0], 3, rng), [3, 1, 2]);
  const seen = new Set<string>();
  for (let k = 0; k < 50; k++) {
    const r = topKRandomTies([0.1, 0.5, 0.5, 0.9, 0.5, 0.5, 0.0], 3, rng);
    assert.equal(r[0], 3);
    assert.equal(r.length, 3);
    for (const i of r.slice(1)) assert.ok([1, 2, 4, 5].includes(i));
    seen.add(r.join(','));
  }
  assert.ok(seen.size > 4, `ties must be broken at random (${seen.size} orders)`);
  assert.deepEqual(topKRandomTies([2, 1], 5, rng), [0, 1]);
  assert.deepEqual(topKRandomTies([], 5, rng), []);
});

test('hard lookup through posting lists equals a scan of every row, with and without matching missing cells', () => {
  const rng = createRng(12);
  const kb = smallKb(11, 60);
  for (let k = 0; k < 200; k++) {
    const query = kb.vocab.map((v) => (rng.chance(0.5) ? rng.int(v.length) : null));
    for (const matchMissing of [true, false]) {
      const scan: number[] = [];
      for (let i = 0; i < kb.n; i++) {
        let ok = true;
        for (let j = 0; j < M; j++) {
          const q = query[j];
          if (q === null || q === undefined) continue;
          const x = kb.cell(i, j);
          if (x === MISSING ? !matchMissing : x !== q) ok = false;
        }
        if (ok) scan.push(i);
      }
      assert.deepEqual(hardLookup(kb, query, matchMissing), scan);
      if (!matchMissing) assert.deepEqual(kb.rowsMatching(query.flatMap((q, j) => (q === null ? [] : [[j, q] as const]))), scan);
    }
  }
});
