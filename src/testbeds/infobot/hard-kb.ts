/**
 * Hard-KB lookup: the rows consistent with a symbolic query (a value per constrained slot). A missing
 * cell is consistent with any value, as in the official lookup (`match_unk`).
 */
import { MISSING, type MovieKb } from './movie-kb.js';
import { M } from './slots.js';

/** A query: per slot, the required value index, or null for no constraint.
 *
 * @example
 * ```ts
 * import type { HardQuery } from 'dialogym/infobot';
 * const genreOnly: HardQuery = [null, null, 3, null, null, null];
 * ```
 */
export type HardQuery = readonly (number | null)[];

/**
 * The rows consistent with a symbolic query, ascending; a missing cell matches any value unless
 * `matchMissing` is false. An empty query returns every row.
 *
 * @example
 * ```ts
 * import { splitKbs, hardLookup } from 'dialogym/infobot';
 * const { incomplete: kb } = splitKbs('small', 1);
 * hardLookup(kb, [null, null, 0, null, null, null]);        // rows with the first genre, or no genre
 * hardLookup(kb, [null, null, 0, null, null, null], false); // rows with the first genre only
 * ```
 */
export function hardLookup(kb: MovieKb, query: HardQuery, matchMissing = true): number[] {
  const constrained: number[] = [];
  for (let j = 0; j < M; j++) if (query[j] !== null && query[j] !== undefined) constrained.push(j);
  const out: number[] = [];
  if (constrained.length === 0) {
    for (let i = 0; i < kb.n; i++) out.push(i);
    return out;
  }
  // Candidates: the rows of the most selective constraint (its value's rows, plus its missing cells).
  const size = (j: number): number => kb.rowsWith(j, query[j] as number).length + (matchMissing ? (kb.missing[j] as number) : 0);
  let lead = constrained[0] as number;
  for (const j of constrained) if (size(j) < size(lead)) lead = j;
  const check = (list: Int32Array): void => {
    for (const i of list) {
      let ok = true;
      for (const j of constrained) {
        const x = kb.cells[i * M + j] as number;
        if (x === MISSING ? !matchMissing : x !== query[j]) {
          ok = false;
          break;
        }
      }
      if (ok) out.push(i);
    }
  };
  check(kb.rowsWith(lead, query[lead] as number));
  if (matchMissing && (kb.missing[lead] as number) > 0) {
    const k = out.length;
    check(kb.rowsMissing(lead));
    if (out.length > k) out.sort((a, b) => a - b);
  }
  return out;
}
