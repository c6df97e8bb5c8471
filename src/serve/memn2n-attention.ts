/**
 * The attention of an end-to-end memory network over the dialog history, per hop (the bAbI paper's
 * Tables 3–7), read from its forward pass: the memories are the history turns in its window (the
 * last user turn is the query, not a memory), each hop's weights the softmax over them.
 */
import type { Turn } from '../core/dialog.js';
import { MemN2N } from '../models/memn2n.js';
import type { AttentionSource } from './explanation.js';

/** The memories `MemN2N.encode` keeps, oldest first (same window). */
export function memoryTurns(model: MemN2N, history: readonly Turn[]): Turn[] {
  let end = history.length;
  if (history[end - 1]?.speaker === 'user') end--;
  const start = Math.max(0, end - model.config.memorySize);
  return history.slice(start, end);
}

export function memn2nAttention(model: MemN2N): AttentionSource {
  return {
    attention(history, candidates) {
      const x = model.encode(history);
      const scores = new Float32Array(candidates.length);
      const cache = model.forward(x, model.candidates(candidates), scores);
      const turns = memoryTurns(model, history);
      if (turns.length !== x.mems.length) throw new Error(`memn2n attention: ${turns.length} memories vs ${x.mems.length} encoded`);
      return { memories: turns.map((t) => `${t.speaker}: ${t.text}`), hops: cache.ps.map((p) => Array.from(p)) };
    },
  };
}

/** The attention source of a ranker, when it has one. */
export function attentionOf(r: unknown): AttentionSource | undefined {
  if (r instanceof MemN2N) return memn2nAttention(r);
  if (typeof (r as Partial<AttentionSource>).attention === 'function') return r as AttentionSource;
  return undefined;
}
