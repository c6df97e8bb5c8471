/**
 * The official DSTC6 random baseline (`baseline_random.py`): each entry's candidate ids in a random
 * order, ranked 1..n. Seeded: the same seed gives the same file.
 */
import { createRng } from '../../core/rng.js';
import type { Dstc6Entry, Dstc6Result } from '../../formats/dstc6.js';
import { rankingResult } from '../../formats/dstc6.js';

/**
 * The official random baseline: each entry's candidates in a random order drawn from `seed`,
 * ranked 1..n. The same seed and entries give the same result. Never throws.
 *
 * @example
 * ```ts
 * import { readDstc6Data, readDstc6Results, precisionAtK } from 'dialogym';
 * import { randomBaseline, scoreDstc6 } from 'dialogym/dstc6';
 * const file = 'data/dstc6-track1/dataset-E2E-goal-oriented-test-v1.0/tst1/dialog-task1API-kb1_atmosphere-distr0.5-tst1000';
 * const s = scoreDstc6(randomBaseline(readDstc6Data(file + '.json'), 1), readDstc6Results(file + '.answers.json'));
 * precisionAtK.value(s.precision, 1); // about 0.12-0.14 on this file (7-10 candidates per entry)
 * ```
 */
export function randomBaseline(entries: readonly Dstc6Entry[], seed: number): Dstc6Result[] {
  const rng = createRng(seed).fork('dstc6-random-baseline');
  return entries.map((e) => rankingResult(e.dialog_id, rng.shuffle(e.candidates.map((c) => c.candidate_id))));
}
