/**
 * A candidate list prepared for a bag-of-words model: word ids per candidate, and (with KB types)
 * an index from typed words to the candidates holding them, for match-type features. The same
 * features are also kept flat (typed arrays, built once per candidate list): each typed word of
 * the candidates has a slot, each candidate its (slot, type) pairs, so that a dialog context is a
 * presence array over slots and a candidate's matched types are read without allocating
 * (`matchedTypes`).
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
  /** typed word → its slot (0 … slots − 1). */
  private readonly slotOf = new Map<string, number>();
  /** The distinct types of the candidates' typed words, sorted (a type's index is its position). */
  readonly typeNames: readonly string[];
  /** Candidate c's typed words are entries typedStart[c] … typedStart[c + 1] − 1 of typedSlot / typedType. */
  private readonly typedStart: Int32Array;
  private readonly typedSlot: Int32Array;
  private readonly typedType: Int32Array;
  /** The candidates holding the typed word of slot s are slotCands[slotStart[s] … slotStart[s + 1] − 1]. */
  private readonly slotStart: Int32Array;
  private readonly slotCands: Int32Array;

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
    const pairs: [number, number, string][] = [];
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
          let slot = this.slotOf.get(w);
          if (slot === undefined) this.slotOf.set(w, (slot = this.slotOf.size));
          pairs.push([i, slot, ty]);
        }
      });
    }
    this.typeNames = [...new Set(pairs.map((p) => p[2]))].sort();
    this.typedStart = new Int32Array(texts.length + 1);
    this.typedSlot = new Int32Array(pairs.length);
    this.typedType = new Int32Array(pairs.length);
    // pairs are in candidate order: a prefix count gives each candidate's range.
    pairs.forEach(([c, slot, ty], k) => {
      this.typedStart[c + 1] = k + 1;
      this.typedSlot[k] = slot;
      this.typedType[k] = this.typeNames.indexOf(ty);
    });
    for (let c = 1; c <= texts.length; c++) this.typedStart[c] = Math.max(this.typedStart[c] as number, this.typedStart[c - 1] as number);
    this.slotStart = new Int32Array(this.slotOf.size + 1);
    for (const [, slot] of pairs) this.slotStart[slot + 1] = (this.slotStart[slot + 1] as number) + 1;
    for (let q = 0; q < this.slotOf.size; q++) this.slotStart[q + 1] = (this.slotStart[q + 1] as number) + (this.slotStart[q] as number);
    this.slotCands = new Int32Array(pairs.length);
    const fill = this.slotStart.slice(0, this.slotOf.size);
    for (const [c, slot] of pairs) {
      this.slotCands[fill[slot] as number] = c;
      fill[slot] = (fill[slot] as number) + 1;
    }
  }

  /** The candidates holding the typed word of a slot (a view, in candidate order). */
  candidatesOfSlot(slot: number): Int32Array {
    return this.slotCands.subarray(this.slotStart[slot], this.slotStart[slot + 1]);
  }

  /** Number of distinct typed words among the candidates (the size of a presence array for `matchedTypes`). */
  get slots(): number {
    return this.slotOf.size;
  }

  /** The slot of a typed word of the candidates, or −1 (an untyped word, or one no candidate holds). */
  slot(word: string): number {
    return this.slotOf.get(word) ?? -1;
  }

  /**
   * The distinct types (indexes into `typeNames`) of candidate c's typed words whose slot is
   * present (`present[slot] !== 0`), written to `out` in the order of the candidate's words;
   * returns how many. `out` needs room for `typeNames.length` entries. The types `matches` gives
   * for c, without allocating.
   */
  matchedTypes(c: number, present: Uint8Array, out: Int32Array): number {
    let m = 0;
    for (let k = this.typedStart[c] as number, end = this.typedStart[c + 1] as number; k < end; k++) {
      if (present[this.typedSlot[k] as number] === 0) continue;
      const t = this.typedType[k] as number;
      let dup = false;
      for (let i = 0; i < m && !dup; i++) dup = out[i] === t;
      if (!dup) out[m++] = t;
    }
    return m;
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
