import type { Turn } from '../core/dialog.js';

/**
 * Whether `history` extends the turns a ranker's incremental state was built from (`seen`, its own
 * copy): the same turn objects first, then possibly more. Rankers that keep a dialog's input up to
 * date turn by turn (tf-idf word counts, the embeddings' history state) append only the new turns
 * when it does, and start over when it does not. `seen` must be a copy, not the caller's array:
 * a chat session grows one array in place, so a reference would always look extended by nothing.
 */
export function extendsTurns(seen: readonly Turn[], history: readonly Turn[]): boolean {
  if (history.length < seen.length) return false;
  for (let i = 0; i < seen.length; i++) if (history[i] !== seen[i]) return false;
  return true;
}
