/** The ids of the bAbI online environments (light: the testbed's descriptor reads it without the simulator). */
import type { VocabHalf } from '../kb.js';
import type { TaskId } from '../simulator.js';

/**
 * The id of a bAbI online environment: `restaurant-task<task>-v<version>`, or `-oov-v<version>`
 * for the OOV half (version 1 by default).
 *
 * @example
 * ```ts
 * import { babiEnvId } from 'dialogym/restaurant';
 * babiEnvId(5, 'oov'); // 'restaurant-task5-oov-v1'
 * babiEnvId(5, 'iv', 2); // 'restaurant-task5-v2'
 * ```
 */
export function babiEnvId(task: TaskId, vocab: VocabHalf, version: 1 | 2 = 1): string {
  return `restaurant-task${task}${vocab === 'oov' ? '-oov' : ''}-v${version}`;
}

