/**
 * A dialog's input to the supervised-embeddings ranker, kept up to date turn by turn: evaluation
 * and training ask for the history before every bot turn of a dialog (each one the previous plus
 * a few turns), so re-joining, re-tokenising and re-encoding the whole history each time is
 * quadratic in the dialog's length (and the per-turn match-type Maps were most of the garbage
 * collector's work). This state appends only the new turns: the word ids of the joined history
 * (with bigrams: each turn's word ids, then the ids of its bigrams, the first one spanning the
 * join with the previous turn), their embedding sum, and, for match-type features, a presence
 * array over the candidates' typed words (`CandidateIndex.slot`). A history that does not extend
 * the previous one starts over.
 */
import type { Turn } from '../core/dialog.js';
import { tokenize } from '../core/text.js';
import type { CandidateIndex } from './candidates.js';
import { bigramWord, type WordVocab } from './word-vocab.js';
import { extendsTurns } from './history-prefix.js';

/** A growable Int32Array (amortised appends, no per-append allocation). */
class IntList {
  data = new Int32Array(64);
  size = 0;
  push(v: number): void {
    if (this.size === this.data.length) {
      const d = new Int32Array(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.size++] = v;
  }
  clear(): void {
    this.size = 0;
  }
}

/** out += e[ids[k]] for k in from … to − 1, one row after the other (float32 sums in order, as `bagSum`). */
function addRows(e: Float32Array, dim: number, ids: Int32Array, from: number, to: number, out: Float32Array): void {
  for (let k = from; k < to; k++) {
    const o = (ids[k] as number) * dim;
    for (let c = 0; c < dim; c++) out[c] = (out[c] as number) + (e[o + c] as number);
  }
}

export interface HistoryOptions {
  /** Keep the word ids of the whole history (input mode `history`). */
  readonly words: boolean;
  /** Also the ids of its bigrams. */
  readonly bigrams: boolean;
  /** Keep the presence of the candidates' typed words (match-type features). */
  readonly match: boolean;
}

export class HistoryState {
  private readonly turns: Turn[] = [];
  private readonly ids = new IntList();
  /** The last token so far (a bigram spans the join of two turns). */
  private lastToken: string | undefined;
  /** Typed-word slot → 1 when said so far. */
  readonly present: Uint8Array;
  private readonly presentList = new IntList();
  /** Candidate → 1 when one of its typed words was said (it may have matched types). */
  private readonly isActive: Uint8Array;
  private readonly activeList = new IntList();
  /** Σ of the embedding rows of the first `applied` word ids, for weights `uVersion` (float32 sums in id order, as `bagSum`). */
  private u = new Float32Array(0);
  private applied = 0;
  private uVersion = -1;

  constructor(
    private readonly vocab: WordVocab,
    private readonly index: CandidateIndex,
    private readonly o: HistoryOptions,
  ) {
    this.present = new Uint8Array(o.match ? index.slots : 0);
    this.isActive = new Uint8Array(o.match ? index.size : 0);
  }

  /** Brings the state to `history`: appends its new turns, or starts over when it does not extend the last one. */
  sync(history: readonly Turn[]): void {
    if (!extendsTurns(this.turns, history)) this.reset();
    for (let i = this.turns.length; i < history.length; i++) this.add(history[i] as Turn);
  }

  private reset(): void {
    this.turns.length = 0;
    this.ids.clear();
    this.applied = 0;
    this.uVersion = -1;
    this.lastToken = undefined;
    for (let i = 0; i < this.presentList.size; i++) this.present[this.presentList.data[i] as number] = 0;
    this.presentList.clear();
    for (let i = 0; i < this.activeList.size; i++) this.isActive[this.activeList.data[i] as number] = 0;
    this.activeList.clear();
  }

  private add(turn: Turn): void {
    this.turns.push(turn);
    const tokens = tokenize(turn.text);
    if (tokens.length === 0) return;
    const v = this.vocab;
    for (const t of tokens) {
      if (this.o.words) {
        const id = v.id(t);
        if (id >= 0) this.ids.push(id);
      }
      if (this.o.match) {
        const s = this.index.slot(t);
        if (s >= 0 && this.present[s] === 0) {
          this.present[s] = 1;
          this.presentList.push(s);
          for (const c of this.index.candidatesOfSlot(s))
            if (this.isActive[c] === 0) {
              this.isActive[c] = 1;
              this.activeList.push(c);
            }
        }
      }
    }
    if (this.o.words && this.o.bigrams) {
      let prev = this.lastToken;
      for (const t of tokens) {
        if (prev !== undefined) {
          const id = v.id(bigramWord(prev, t));
          if (id >= 0) this.ids.push(id);
        }
        prev = t;
      }
    }
    this.lastToken = tokens[tokens.length - 1];
  }

  /** The history's word ids (and bigram ids, turn by turn): a view, valid until the next `sync`. */
  inputIds(): Int32Array {
    return this.ids.data.subarray(0, this.ids.size);
  }

  /**
   * out = bagSum(e, dim, inputIds()) for the weights `e` of version `version`: the rows of the
   * ids added since the last call are added to a kept sum (float32 sums in the same order, so the
   * same numbers).
   */
  embed(e: Float32Array, dim: number, version: number, out: Float32Array): void {
    if (this.uVersion !== version || this.u.length !== dim) {
      if (this.u.length !== dim) this.u = new Float32Array(dim);
      this.u.fill(0);
      this.applied = 0;
      this.uVersion = version;
    }
    const u = this.u;
    addRows(e, dim, this.ids.data, this.applied, this.ids.size, u);
    this.applied = this.ids.size;
    out.set(u);
  }

  /** The candidates with a typed word said so far (the only ones with matched types): a view, valid until the next `sync`. */
  active(): Int32Array {
    return this.activeList.data.subarray(0, this.activeList.size);
  }

  /** The slots of the typed words said so far (a copy). */
  slots(): Int32Array {
    return this.presentList.data.slice(0, this.presentList.size);
  }
}
