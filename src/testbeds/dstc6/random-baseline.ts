/**
 * The official DSTC6 random baseline (`baseline_random.py`): each entry's candidate ids in a random
 * order, ranked 1..n. Seeded: the same seed gives the same file.
 */
import { createRng } from '../../core/rng.js';
import type { Dstc6Entry, Dstc6Result } from '../../formats/dstc6.js';
import { rankingResult } from '../../formats/dstc6.js';

export function randomBaseline(entries: readonly Dstc6Entry[], seed: number): Dstc6Result[] {
  const rng = createRng(seed).fork('dstc6-random-baseline');
  return entries.map((e) => rankingResult(e.dialog_id, rng.shuffle(e.candidates.map((c) => c.candidate_id))));
}
