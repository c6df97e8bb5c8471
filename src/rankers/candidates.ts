/**
 * A candidate list prepared for a bag-of-words model: word ids per candidate, and (with KB types)
 * an index from typed words to the candidates holding them, for match-type features.
 */
import { tokenize } from '../core/text.js';
import type { KbTypes } from './match-type.js';
import type { WordVocab } from './word-vocab.js';

export class CandidateIndex {
  readonly ids: Int32Array[];
  /** typed word → [candidate index, type] pairs. */
  private readonly byWord = new Map<string, [number, string][]>();
  /** Exact text → first index. */
  private readonly position = new Map<string, number>();

  constructor(
    readonly texts: readonly string[],
    vocab: WordVocab,
    kb?: KbTypes,
    /** Encode with the candidates' bigrams too (`WordVocab.encode(text, true)`). */
    bigrams = false,
  ) {
    this.ids = texts.map((t) => Int32Array.from(vocab.encode(t, bigrams)));
    texts.forEach((t, i) => {
      if (!this.position.has(t)) this.position.set(t, i);
    });
    if (kb) {
      texts.forEach((t, i) => {
        const seen = new Set<string>();
        for (const w of tokenize(t)) {
          const ty = kb.type(w);
          if (ty === undefined || seen.has(w)) continue;
          seen.add(w);
          let l = this.byWord.get(w);
          if (!l) this.byWord.set(w, (l = []));
          l.push([i, ty]);
        }
      });
    }
  }

  get size(): number {
    return this.texts.length;
  }

  indexOf(text: string): number {
    return this.position.get(text) ?? -1;
  }

  /**
   * Match-type features for a dialog context: candidate index → the distinct types of its words
   * that also occur in `context`.
   */
  matches(context: Iterable<string>): Map<number, string[]> {
    const out = new Map<number, string[]>();
    for (const w of context) {
      const l = this.byWord.get(w);
      if (!l) continue;
      for (const [c, ty] of l) {
        let ts = out.get(c);
        if (!ts) out.set(c, (ts = []));
        if (!ts.includes(ty)) ts.push(ty);
      }
    }
    return out;
  }
}
