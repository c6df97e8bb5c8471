/**
 * Validity check of a DSTC6 result file against its dataset (a stricter `check_validity.py`):
 * every dialog of the data present exactly once, no unknown dialog, every candidate id valid for
 * its dialog and listed once, ranks 1..n (n = candidates listed) without gaps or repeats.
 * A partial ranking (e.g. an answers file ranking only the true candidate) is valid.
 */
import type { Dstc6Entry, Dstc6Result } from '../../formats/dstc6.js';

/**
 * One problem `checkDstc6Result` found; `formatProblem` prints it.
 *
 * @example
 * ```ts
 * import type { CheckProblem } from 'dialogym/dstc6';
 * const p: CheckProblem = { entry: 3, dialogId: 'd1', reason: 'duplicate rank 1 (candidates c1, c2)' };
 * ```
 */
export interface CheckProblem {
  /** 1-based index of the result entry concerned (absent for a dialog missing from the result). */
  readonly entry?: number;
  /** The dialog concerned. */
  readonly dialogId: string;
  /** What is wrong. */
  readonly reason: string;
}

/**
 * One line for a problem: `entry N (dialog_id …): reason`, or `dialog_id …: reason` for a dialog
 * missing from the result.
 *
 * @example
 * ```ts
 * import { formatProblem } from 'dialogym/dstc6';
 * formatProblem({ entry: 3, dialogId: 'd1', reason: 'unknown dialog_id (not in the data file)' });
 * // 'entry 3 (dialog_id d1): unknown dialog_id (not in the data file)'
 * ```
 */
export function formatProblem(p: CheckProblem): string {
  return p.entry === undefined ? `dialog_id ${p.dialogId}: ${p.reason}` : `entry ${p.entry} (dialog_id ${p.dialogId}): ${p.reason}`;
}

/**
 * Checks a result against its dataset (rules in this module's description) and returns every
 * problem found, in result order then missing dialogs; an empty list means valid. Never throws.
 *
 * @example
 * ```ts
 * import { readDstc6Data, readDstc6Results } from 'dialogym';
 * import { checkDstc6Result, formatProblem } from 'dialogym/dstc6';
 * const file = 'data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000';
 * const problems = checkDstc6Result(readDstc6Results(file + '.answers.json'), readDstc6Data(file + '.json'));
 * for (const p of problems) console.log(formatProblem(p)); // none: an answers file is a valid partial ranking
 * ```
 */
export function checkDstc6Result(result: readonly Dstc6Result[], data: readonly Dstc6Entry[]): CheckProblem[] {
  const problems: CheckProblem[] = [];
  const byId = new Map<string, Dstc6Entry>();
  for (const e of data) byId.set(e.dialog_id, e);
  const firstEntry = new Map<string, number>();
  result.forEach((r, i) => {
    const entry = i + 1;
    const add = (reason: string): void => {
      problems.push({ entry, dialogId: r.dialog_id, reason });
    };
    const prev = firstEntry.get(r.dialog_id);
    if (prev !== undefined) add(`dialog listed again (first at entry ${prev})`);
    else firstEntry.set(r.dialog_id, entry);
    const d = byId.get(r.dialog_id);
    if (d === undefined) add('unknown dialog_id (not in the data file)');
    if (r.lst_candidate_id.length === 0) {
      add('empty lst_candidate_id (no candidate ranked)');
      return;
    }
    const valid = d === undefined ? undefined : new Set(d.candidates.map((c) => c.candidate_id));
    const seenIds = new Map<string, number>();
    const byRank = new Map<number, string[]>();
    for (const c of r.lst_candidate_id) {
      if (valid !== undefined && !valid.has(c.candidate_id)) add(`unknown candidate_id ${c.candidate_id} (not a candidate of this dialog)`);
      const r0 = seenIds.get(c.candidate_id);
      if (r0 !== undefined) add(`candidate_id ${c.candidate_id} ranked twice (ranks ${r0} and ${c.rank})`);
      else seenIds.set(c.candidate_id, c.rank);
      const ids = byRank.get(c.rank);
      if (ids) ids.push(c.candidate_id);
      else byRank.set(c.rank, [c.candidate_id]);
    }
    const n = r.lst_candidate_id.length;
    if (d !== undefined && n > d.candidates.length) add(`${n} ranked items but the dialog has ${d.candidates.length} candidates`);
    for (const [rank, ids] of [...byRank].sort((a, b) => a[0] - b[0])) {
      if (ids.length > 1) add(`duplicate rank ${rank} (candidates ${ids.join(', ')})`);
      if (rank > n) add(`rank ${rank} out of range 1..${n} (ranks must be 1..n for n ranked items)`);
    }
    const gaps: number[] = [];
    for (let k = 1; k <= n; k++) if (!byRank.has(k)) gaps.push(k);
    if (gaps.length > 0) add(`missing rank${gaps.length > 1 ? 's' : ''} ${gaps.join(', ')} (ranks must be 1..${n} without gaps)`);
  });
  for (const e of data) if (!firstEntry.has(e.dialog_id)) problems.push({ dialogId: e.dialog_id, reason: 'missing from the result' });
  return problems;
}
