/** Conversations keep state derived from the turns they have seen; this tells which turns are new. */
import type { Turn } from './dialog.js';

/**
 * The turns of `history` a conversation has not seen yet: `seen` is what it saw last time; the
 * result is the index to apply from, or -1 when `history` does not continue `seen` (start over).
 */
export function continuation(seen: readonly Turn[], history: readonly Turn[]): number {
  if (history.length < seen.length) return -1;
  for (let i = 0; i < seen.length; i++) if (seen[i] !== history[i]) return -1;
  return seen.length;
}
