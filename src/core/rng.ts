/**
 * Seeded, forkable pseudo-random number generator.
 *
 * The generator is sfc32 (Chris Doty-Humphrey's Small Fast Counting RNG), driven only by 32-bit
 * integer arithmetic, so the same seed gives the same stream on every machine and Node version.
 * `fork(label)` derives an independent child stream from the parent's *key* and the label, not
 * from the parent's position: a child is the same whatever the parent has drawn before.
 */
import { ConfigError } from './errors.js';

/**
 * A seeded pseudo-random stream (sfc32); make one with `createRng`. All of dialogym's randomness
 * goes through it, so a seed reproduces a run. `fork(label)` gives an independent child stream
 * that does not depend on how much the parent has drawn. `int`, `pick`, `weighted` and `sample`
 * throw a ConfigError on an empty or invalid argument.
 *
 * @example
 * ```ts
 * import { createRng, type Rng } from 'dialogym';
 * const rng: Rng = createRng(42);
 * const die = rng.range(1, 6);
 * const order = rng.shuffle(['a', 'b', 'c']);
 * const userRng = rng.fork('user'); // same stream for seed 42, whatever rng drew before
 * ```
 */
export interface Rng {
  /** The seed given to `createRng` (forks keep their root's seed). */
  readonly seed: number;
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Uniform integer in [lo, hi] (inclusive). */
  range(lo: number, hi: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
  /** A uniformly drawn item of a non-empty array. */
  pick<T>(xs: readonly T[]): T;
  /** Index drawn with probability proportional to weights[i]. */
  weighted(weights: readonly number[]): number;
  /** A new array with the items in random order (Fisher–Yates). */
  shuffle<T>(xs: readonly T[]): T[];
  /** k distinct items, in random order. */
  sample<T>(xs: readonly T[], k: number): T[];
  /** Standard normal draw (Box–Muller). */
  normal(mean?: number, sd?: number): number;
  /** An independent stream named by `label`. */
  fork(label: string): Rng;
}

/**
 * FNV-1a over the UTF-16 code units of a string: an unsigned 32-bit integer, stable across
 * machines and runs (used to derive seeds and fork keys from names).
 *
 * @example
 * ```ts
 * import { hashString, createRng } from 'dialogym';
 * hashString('');                              // 2166136261 (0x811c9dc5)
 * const rng = createRng(hashString('dialog-42'));
 * ```
 */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** splitmix32 finaliser: a well-mixed 32-bit value from any 32-bit input. */
function mix32(x: number): number {
  x = (x + 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  return (x ^ (x >>> 15)) >>> 0;
}

class Sfc32 implements Rng {
  readonly seed: number;
  private readonly key: readonly [number, number];
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, key: readonly [number, number]) {
    this.seed = seed;
    this.key = key;
    this.a = mix32(key[0]);
    this.b = mix32(key[1] ^ 0x5bd1e995);
    this.c = mix32(key[0] ^ key[1] ^ 0x27d4eb2f);
    this.d = 1;
    for (let i = 0; i < 15; i++) this.u32();
  }

  private u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  next(): number {
    return this.u32() / 4294967296;
  }

  int(n: number): number {
    if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`Rng.int: n must be a positive integer, got ${n}`);
    if (n > 0x100000000) throw new ConfigError(`Rng.int: n too large (${n})`);
    // Rejection sampling: unbiased for every n.
    const limit = 0x100000000 - (0x100000000 % n);
    let x = this.u32();
    while (x >= limit) x = this.u32();
    return x % n;
  }

  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new ConfigError('Rng.pick: empty array');
    return xs[this.int(xs.length)] as T;
  }

  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    if (!(total > 0)) throw new ConfigError('Rng.weighted: weights must sum to a positive number');
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] as number;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  shuffle<T>(xs: readonly T[]): T[] {
    const out = xs.slice();
    for (let i = out.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      const t = out[i] as T;
      out[i] = out[j] as T;
      out[j] = t;
    }
    return out;
  }

  sample<T>(xs: readonly T[], k: number): T[] {
    if (k > xs.length) throw new ConfigError(`Rng.sample: k=${k} > ${xs.length}`);
    return this.shuffle(xs).slice(0, k);
  }

  normal(mean = 0, sd = 1): number {
    let u = this.next();
    while (u === 0) u = this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  fork(label: string): Rng {
    const h = hashString(label);
    return new Sfc32(this.seed, [mix32(this.key[0] ^ h), mix32(this.key[1] + Math.imul(h, 0x85ebca6b))]);
  }
}

/**
 * A generator for `seed`: any safe integer (negative ones too); the same seed gives the same
 * stream on every machine and Node version. Throws a ConfigError for a non-integer seed.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * const a = createRng(7), b = createRng(7);
 * a.next() === b.next(); // true
 * a.int(10);             // an integer in [0, 10)
 * ```
 */
export function createRng(seed: number): Rng {
  if (!Number.isSafeInteger(seed)) throw new ConfigError(`seed must be an integer, got ${seed}`);
  const lo = seed >>> 0;
  const hi = Math.floor(seed / 4294967296) >>> 0;
  return new Sfc32(seed, [mix32(lo), mix32(hi ^ 0x6a09e667)]);
}
