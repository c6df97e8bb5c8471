/**
 * Hard-KB lookup: the rows consistent with a symbolic query (a value per constrained slot). A missing
 * cell is consistent with any value, as in the official lookup (`match_unk`).
 */
import { MISSING, type MovieKb } from './kb.js';
import { M } from './slots.js';

/** A query: per slot, the required value index, or null for no constraint. */
export type HardQuery = readonly (number | null)[];

export function hardLookup(kb: MovieKb, query: HardQuery, matchMissing = true): number[] {
  const out: number[] = [];
  for (let i = 0; i < kb.n; i++) {
    let ok = true;
    for (let j = 0; j < M && ok; j++) {
      const want = query[j];
      if (want === null || want === undefined) continue;
      const x = kb.cells[i * M + j] as number;
      if (x === MISSING ? !matchMissing : x !== want) ok = false;
    }
    if (ok) out.push(i);
  }
  return out;
}
