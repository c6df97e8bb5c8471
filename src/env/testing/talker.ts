/** A test environment of no testbed (so no declared turn limit): it ends when the agent says `bye`, never by itself. */
import type { Env } from '../env.js';

/** The environment `id` (see the module description): each step answers `go on` and tells what it heard. */
export function talker(id = 'talker-v0'): Env<string, string> {
  return {
    id,
    reset: () => ({ obs: 'hi', info: {} }),
    step: (a) => ({ obs: 'go on', reward: a === 'bye' ? 1 : 0, terminated: a === 'bye', truncated: false, info: { heard: a } }),
    sampleAction: () => 'hm',
  };
}
