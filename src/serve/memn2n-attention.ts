/**
 * The attention of an end-to-end memory network over the dialog history, per hop (the bAbI paper's
 * Tables 3–7), read from the same forward pass that scores the candidates: the memories are the
 * history turns in its window (the last user turn is the query, not a memory), each hop's weights
 * the softmax over them.
 */
import type { Turn } from '../core/dialog.js';
import { MemN2N } from '../models/memn2n.js';
import type { Ranker } from '../models/ranker.js';
import type { AttentionSource } from './explanation.js';

/** Scores and attention of one turn. */
export interface RankedWithAttention {
  readonly scores: Float32Array;
  /** The memories attended over, as `speaker: text`, oldest first. */
  readonly memories: string[];
  /** Per hop, one weight per memory. */
  readonly hops: number[][];
}

/** A ranker that gives its attention with its scores. */
export interface RankAttention {
  rankWithAttention(history: readonly Turn[], candidates: readonly string[]): RankedWithAttention;
}

/** The memories `MemN2N.encode` keeps, oldest first (same window). */
export function memoryTurns(model: MemN2N, history: readonly Turn[]): Turn[] {
  let end = history.length;
  if (history[end - 1]?.speaker === 'user') end--;
  const start = Math.max(0, end - model.config.memorySize);
  return history.slice(start, end);
}

/** MemN2N: one forward pass (`rank` is `forward` with the cache dropped; here the cache's attention is kept). */
export function memn2nAttention(model: MemN2N): RankAttention {
  return {
    rankWithAttention(history, candidates) {
      const x = model.encode(history);
      const scores = new Float32Array(candidates.length);
      const cache = model.forward(x, model.candidates(candidates), scores);
      const turns = memoryTurns(model, history);
      if (turns.length !== x.mems.length) throw new Error(`memn2n attention: ${turns.length} memories vs ${x.mems.length} encoded`);
      return { scores, memories: turns.map((t) => `${t.speaker}: ${t.text}`), hops: cache.ps.map((p) => Array.from(p)) };
    },
  };
}

/** The attention of a ranker, when it has one (MemN2N, or any ranker with an `attention` method). */
export function attentionOf(r: Ranker): RankAttention | undefined {
  if (r instanceof MemN2N) return memn2nAttention(r);
  const src = r as Ranker & Partial<AttentionSource>;
  if (typeof src.attention === 'function') {
    const attention = src.attention.bind(src);
    return {
      rankWithAttention(history, candidates) {
        const a = attention(history, candidates);
        return { scores: r.rank(history, candidates), memories: a.memories, hops: a.hops };
      },
    };
  }
  return undefined;
}
