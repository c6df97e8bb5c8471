/**
 * The attention of an end-to-end memory network over the dialog history, per hop (the bAbI paper's
 * Tables 3–7), read from the same forward pass that scores the candidates: the memories are the
 * history turns in its window (the last user turn is the query, not a memory), each hop's weights
 * the softmax over them.
 */
import type { Turn } from '../core/dialog.js';
import { continuation } from '../core/continuation.js';
import { MemN2N } from './memn2n.js';
import type { Ranker } from './ranker.js';
import { InternalError } from '../core/errors.js';

/** A ranker that exposes its memory attention (MemN2N): per hop, one weight per memory. */
export interface AttentionSource {
  attention(history: readonly Turn[], candidates: readonly string[]): { memories: string[]; hops: number[][] };
}

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

/**
 * MemN2N over one conversation: each history turn is embedded once as a memory (`memoryBase`) and
 * its words added once to the match-type context; a turn then costs one inference pass
 * (`MemN2N.infer`, the numbers of `rank`) that gives the scores and the attention together. A
 * history that does not continue the one seen (turns compared by identity) starts over. The
 * returned `scores` are valid until the conversation's next call (the buffer is reused).
 */
export function memn2nConversation(model: MemN2N): RankAttention {
  let seen: Turn[] = [];
  let bases: Float32Array[] = [];
  let labels: string[] = [];
  let context = new Set<string>();
  // Match types of the candidates for `context`, kept up to date with its new words (for `matchesOf`'s list).
  let matches = new Map<number, string[]>();
  let matchesOf: unknown;
  let matched = 0;
  let scores = new Float32Array(0);
  return {
    rankWithAttention(history, candidates) {
      let from = continuation(seen, history);
      if (from < 0) {
        bases = [];
        labels = [];
        context = new Set();
        matches = new Map();
        matched = 0;
        from = 0;
      }
      for (let i = from; i < history.length; i++) {
        const t = history[i] as Turn;
        bases.push(model.memoryBase(t));
        labels.push(`${t.speaker}: ${t.text}`);
        if (model.config.matchType) for (const w of t.text.split(/\s+/)) if (w) context.add(w);
      }
      seen = history.slice();
      const cand = model.candidates(candidates);
      if (model.config.matchType) {
        if (matchesOf !== cand.index) {
          matches = new Map();
          matched = 0;
          matchesOf = cand.index;
        }
        // The new words, in context order: each adds its candidates' types after those already there.
        if (matched < context.size) {
          const fresh = [...context].slice(matched);
          for (const [c, types] of cand.index.matches(fresh)) {
            const l = matches.get(c);
            if (!l) matches.set(c, types);
            else for (const ty of types) if (!l.includes(ty)) l.push(ty);
          }
          matched = context.size;
        }
      }
      // The window: the turns before the query (the last user turn), at most memorySize of them.
      const last = history[history.length - 1];
      const end = last?.speaker === 'user' ? history.length - 1 : history.length;
      const start = Math.max(0, end - model.config.memorySize);
      const query = last?.speaker === 'user' ? model.queryIds(last.text) : new Int32Array(0);
      // One scores buffer per conversation (a 4,212-candidate array per turn was most of the garbage).
      if (scores.length !== candidates.length) scores = new Float32Array(candidates.length);
      const ps = model.infer(bases.slice(start, end), query, context, cand, scores, model.config.matchType ? matches : undefined);
      return { scores, memories: labels.slice(start, end), hops: ps.map((p) => Array.from(p)) };
    },
  };
}

/** MemN2N without a conversation: one `forward` pass gives the scores and the attention. */
export function memn2nAttention(model: MemN2N): RankAttention {
  return {
    rankWithAttention(history, candidates) {
      const x = model.encode(history);
      const scores = new Float32Array(candidates.length);
      const cache = model.forward(x, model.candidates(candidates), scores);
      const turns = memoryTurns(model, history);
      if (turns.length !== x.mems.length) throw new InternalError(`memn2n attention: ${turns.length} memories vs ${x.mems.length} encoded`);
      return { scores, memories: turns.map((t) => `${t.speaker}: ${t.text}`), hops: cache.ps.map((p) => Array.from(p)) };
    },
  };
}

/**
 * The attention of a ranker, when it has one (MemN2N, or any ranker with an `attention` method);
 * `conversation` asks for an answerer of one conversation (it may cache per turn).
 */
export function attentionOf(r: Ranker, conversation = false): RankAttention | undefined {
  if (r instanceof MemN2N) return conversation ? memn2nConversation(r) : memn2nAttention(r);
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
