/**
 * The entity-centric movie KB: one row per movie (the head entity), one column per slot. Cells hold a
 * value index into the slot's vocabulary, or MISSING. Derived counts (N_j(v), |M_j|, priors) are
 * computed once, since the soft lookup uses them every turn.
 */
import type { Rng } from '../../core/rng.js';
import { M, SLOTS, type Slot } from './slots.js';
import { ConfigError } from '../../core/errors.js';

/** A missing cell (`UNK` in the TSV files).
 *
 * @example
 * ```ts
 * import { MISSING, splitKbs } from 'dialogym/infobot';
 * const { incomplete } = splitKbs('small', 1);
 * const hidden = incomplete.cell(0, 0) === MISSING;
 * ```
 */
export const MISSING = -1;

/**
 * The entity-centric movie KB (module description above): N movies × the six slots, cells as
 * value indices into per-slot vocabularies or `MISSING`. Build one with `splitKbs`,
 * `generateMovieKb` or `parseMovieKbTsv`; the constructor throws a ConfigError for inconsistent
 * shapes or out-of-range cells.
 *
 * @example
 * ```ts
 * import { splitKbs, SLOTS } from 'dialogym/infobot';
 * const { full } = splitKbs('medium', 1);
 * full.n;                        // 428
 * full.value(0, SLOTS.indexOf('genre'));
 * full.rowsMatching([[2, 0]]);   // rows whose genre is the slot's first value
 * ```
 */
export class MovieKb {
  /** Number of movies N. */
  readonly n: number;
  /** value counts N_j(v) per slot (over the non-missing cells). */
  readonly counts: readonly Float64Array[];
  /** |M_j|: missing cells per slot. */
  readonly missing: readonly number[];
  /** Prior p_j^0(v) = N_j(v) / (N − |M_j|): the value frequencies among known cells. */
  readonly priors: readonly Float64Array[];

  /**
   * @param titles movie names (row heads), distinct
   * @param vocab per slot, the value strings (the agent knows the whole vocabulary even if some
   *   values are hidden in its copy)
   * @param cells row-major N×M value indices, MISSING for unknown
   */
  constructor(
    readonly titles: readonly string[],
    readonly vocab: readonly (readonly string[])[],
    readonly cells: Int32Array,
  ) {
    if (vocab.length !== M) throw new ConfigError(`vocab must have ${M} slots`);
    this.n = titles.length;
    if (cells.length !== this.n * M) throw new ConfigError('cells must be N×M');
    const counts: Float64Array[] = [];
    const missing: number[] = [];
    const priors: Float64Array[] = [];
    for (let j = 0; j < M; j++) {
      const v = vocab[j] as readonly string[];
      const c = new Float64Array(v.length);
      let miss = 0;
      for (let i = 0; i < this.n; i++) {
        const x = cells[i * M + j] as number;
        if (x === MISSING) miss++;
        else if (x < 0 || x >= v.length) throw new ConfigError(`cell (${i}, ${j}) out of range`);
        else (c[x] as number)++;
      }
      const known = this.n - miss;
      const p = new Float64Array(v.length);
      for (let k = 0; k < v.length; k++) p[k] = known > 0 ? (c[k] as number) / known : 1 / v.length;
      counts.push(c);
      missing.push(miss);
      priors.push(p);
    }
    this.counts = counts;
    this.missing = missing;
    this.priors = priors;
  }

  private postings: Int32Array[][] | null = null;

  /** The rows holding value v in slot j, ascending (built on first use). */
  rowsWith(j: number, v: number): Int32Array {
    if (!this.postings) {
      const lists: Int32Array[][] = this.counts.map((c) => Array.from(c, (x) => new Int32Array(x)));
      const fill = this.counts.map((c) => new Int32Array(c.length));
      for (let i = 0; i < this.n; i++)
        for (let j2 = 0; j2 < M; j2++) {
          const x = this.cells[i * M + j2] as number;
          if (x === MISSING) continue;
          const f = fill[j2] as Int32Array;
          ((lists[j2] as Int32Array[])[x] as Int32Array)[f[x] as number] = i;
          f[x] = (f[x] as number) + 1;
        }
      this.postings = lists;
    }
    return (this.postings[j] as Int32Array[])[v] ?? new Int32Array(0);
  }

  private missingRows: Int32Array[] | null = null;

  /** The rows missing slot j, ascending. */
  rowsMissing(j: number): Int32Array {
    if (!this.missingRows) {
      this.missingRows = Array.from({ length: M }, (_, j2) => {
        const out: number[] = [];
        for (let i = 0; i < this.n; i++) if (this.cells[i * M + j2] === MISSING) out.push(i);
        return Int32Array.from(out);
      });
    }
    return this.missingRows[j] as Int32Array;
  }

  /** The rows whose cells equal every (slot, value) pair (missing cells do not match). */
  rowsMatching(pairs: Iterable<readonly [number, number]>): number[] {
    const want = [...pairs];
    if (want.length === 0) return Array.from({ length: this.n }, (_, i) => i);
    let best = want[0] as readonly [number, number];
    for (const p of want) if (this.rowsWith(p[0], p[1]).length < this.rowsWith(best[0], best[1]).length) best = p;
    const out: number[] = [];
    for (const i of this.rowsWith(best[0], best[1])) {
      let ok = true;
      for (const [j, v] of want) if (this.cells[i * M + j] !== v) ok = false;
      if (ok) out.push(i);
    }
    return out;
  }

  /** Value index of row i, slot j (MISSING if unknown). */
  cell(i: number, j: number): number {
    return this.cells[i * M + j] as number;
  }

  /** Value string of row i, slot j, or undefined if missing. */
  value(i: number, j: number): string | undefined {
    const x = this.cell(i, j);
    return x === MISSING ? undefined : this.vocab[j]?.[x];
  }

  /** The largest slot vocabulary (counting only values that occur). */
  maxVocabulary(): number {
    let best = 0;
    for (const c of this.counts) {
      let k = 0;
      for (const x of c) if (x > 0) k++;
      best = Math.max(best, k);
    }
    return best;
  }

  /** Fraction of missing cells. */
  missingFraction(): number {
    let s = 0;
    for (const m of this.missing) s += m;
    return s / (this.n * M);
  }

  /** A copy with each known cell hidden independently with probability `fraction` (the agent's incomplete KB). */
  withHidden(fraction: number, rng: Rng): MovieKb {
    const cells = new Int32Array(this.cells);
    for (let i = 0; i < cells.length; i++) if (cells[i] !== MISSING && rng.chance(fraction)) cells[i] = MISSING;
    return new MovieKb(this.titles, this.vocab, cells);
  }

  /**
   * The same KB with every slot vocabulary in sorted order (cells remapped), so that a KB generated in
   * memory and the same KB read back from its TSV file index values identically.
   */
  canonical(): MovieKb {
    const maps = this.vocab.map((v) => {
      const sorted = [...v].sort();
      const pos = new Map(sorted.map((x, k) => [x, k]));
      return { sorted, remap: v.map((x) => pos.get(x) as number) };
    });
    const cells = new Int32Array(this.cells.length);
    for (let i = 0; i < cells.length; i++) {
      const x = this.cells[i] as number;
      cells[i] = x === MISSING ? MISSING : ((maps[i % M] as { remap: number[] }).remap[x] as number);
    }
    return new MovieKb(this.titles, maps.map((m) => m.sorted), cells);
  }

  /** Row i as {slot: value | undefined}. */
  row(i: number): Record<Slot, string | undefined> {
    const out = {} as Record<Slot, string | undefined>;
    SLOTS.forEach((s, j) => (out[s] = this.value(i, j)));
    return out;
  }
}
