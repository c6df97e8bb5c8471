/**
 * Nearest neighbour (Bordes et al. 2017, §4.2): the response of the training (utterance, response)
 * pairs whose utterance matches the input; several responses of one utterance are ordered by how
 * often they co-occurred with it in training.
 *
 * Two ways to match (`NnConfig.match`):
 * - `words` (the paper's figures): a training utterance is a neighbour when it has the input's
 *   words, no more and no fewer; an input no training utterance matches gets no answer (every
 *   candidate scores 0). On the original bAbI files this gives the paper's Table 2 to ±0.1 point
 *   on 9 of its 11 cells (T1 55.1, T1-OOV 44.2, T2 68.3, T3 58.8, T4 28.6, T4-OOV 28.5, T5 57.1,
 *   T5-OOV 48.4, T6 21.9; the paper: 55.1, 44.1, 68.3, 58.8, 28.6, 28.6, 57.1, 48.4, 21.9).
 * - `overlap`: the training utterances sharing the most words with the input (a partial match
 *   counts): §4.2 read literally, stronger than the paper's figures (T4 57.2: a reservation
 *   request naming an unseen restaurant still finds the training requests) — dialogym's variant.
 */
import type { Dialog, Turn } from '../core/dialog.js';
import { tokenize } from '../core/text.js';
import { ModelFileError } from '../core/errors.js';
import { checkModelMeta } from './model-meta.js';
import type { Ranker } from './ranker.js';
import type { ModelFileContent } from '../formats/model-file.js';

/** `last`: the last user utterance; `pair`: it plus the bot utterance before it (bot words marked). */
export type NnInput = 'last' | 'pair';

/** `words`: a neighbour has exactly the input's words; `overlap`: the most words in common. */
export type NnMatch = 'words' | 'overlap';

/**
 * Configuration of a {@link NearestNeighbour} ranker: the key it matches training pairs on.
 *
 * @example
 * ```ts
 * import type { NnConfig } from 'dialogym/rankers';
 * const config: NnConfig = { input: 'pair' };
 * ```
 */
export interface NnConfig {
  /** `last`: the last user utterance; `pair`: it plus the bot utterance before it. */
  readonly input: NnInput;
  /** How a training utterance matches the input; `overlap` when absent (model files of 0.1). */
  readonly match?: NnMatch;
}

export interface NnPair {
  readonly words: readonly string[];
  readonly response: string;
  readonly count: number;
}

/** The words a NN model matches on, for the history before a bot turn. */
export function nnKey(history: readonly Turn[], input: NnInput): string[] {
  let u = -1;
  for (let i = history.length - 1; i >= 0; i--) {
    if ((history[i] as Turn).speaker === 'user') {
      u = i;
      break;
    }
  }
  const words = new Set(u >= 0 ? tokenize((history[u] as Turn).text) : []);
  if (input === 'pair') {
    for (let i = u - 1; i >= 0; i--) {
      const t = history[i] as Turn;
      if (t.speaker === 'bot') {
        for (const w of tokenize(t.text)) words.add(`bot:${w}`);
        break;
      }
    }
  }
  return [...words].sort();
}

/**
 * The nearest-neighbour ranker (§4.2 of the bAbI dialog paper). With `match: 'overlap'` a
 * candidate scores the largest word overlap between the input and the training utterances it
 * answered, plus a tie-breaker in [0, 1) from how often; with `match: 'words'` a candidate that
 * answered a training utterance with exactly the input's words scores 1 plus that tie-breaker, any
 * other 0. A candidate never seen as a training response scores −1. Build it with
 * `NearestNeighbour.fit(dialogs, config)`, `trainModel('nn', data)` (the paper's: last user
 * utterance, `words`) or `trainModel('nn+prev', data)` (`overlap`, the input chosen on dev).
 *
 * @example
 * ```ts
 * import { NearestNeighbour } from 'dialogym/rankers';
 * import { readBabiDialogs } from 'dialogym';
 * const { dialogs } = readBabiDialogs('data/dialog-bAbI-tasks/dialog-babi-task1-API-calls-trn.txt');
 * const nn = NearestNeighbour.fit(dialogs, { input: 'last' });
 * nn.rank([{ speaker: 'user', text: 'hello' }], ['hello what can i help you with today', "i'm on it"]);
 * ```
 */
export class NearestNeighbour implements Ranker {
  readonly name = 'nn';
  private readonly index = new Map<string, number[]>();
  /** `words` matching: the pairs of each key (its words joined by spaces). */
  private readonly byKey = new Map<string, number[]>();
  private readonly responses: string[];
  private readonly responseOf: Int32Array;
  private readonly total: number;
  /** Per response: the summed count of all its pairs (its tie-breaker when no pair overlaps the input). */
  private readonly countOf: Float64Array;
  /** Per candidate list: each candidate's response id (−1: never a training response). */
  private readonly candidateIds = new WeakMap<readonly string[], Int32Array>();

  constructor(
    readonly config: NnConfig,
    readonly pairs: readonly NnPair[],
  ) {
    const rid = new Map<string, number>();
    this.responseOf = new Int32Array(pairs.length);
    let total = 0;
    pairs.forEach((p, i) => {
      for (const w of p.words) {
        let l = this.index.get(w);
        if (!l) this.index.set(w, (l = []));
        l.push(i);
      }
      const key = p.words.join(' ');
      let k = this.byKey.get(key);
      if (!k) this.byKey.set(key, (k = []));
      k.push(i);
      let r = rid.get(p.response);
      if (r === undefined) rid.set(p.response, (r = rid.size));
      this.responseOf[i] = r;
      total += p.count;
    });
    this.responses = [...rid.keys()];
    this.total = total;
    this.countOf = new Float64Array(this.responses.length);
    pairs.forEach((p, i) => {
      const r = this.responseOf[i] as number;
      this.countOf[r] = (this.countOf[r] as number) + p.count;
    });
  }

  static fit(dialogs: readonly Dialog[], config: NnConfig): NearestNeighbour {
    const counts = new Map<string, { words: string[]; response: string; count: number }>();
    for (const d of dialogs) {
      d.turns.forEach((t, i) => {
        if (t.speaker !== 'bot') return;
        const words = nnKey(d.turns.slice(0, i), config.input);
        const key = words.join(' ') + '\u0000' + t.text;
        const e = counts.get(key);
        if (e) e.count++;
        else counts.set(key, { words, response: t.text, count: 1 });
      });
    }
    return new NearestNeighbour(config, [...counts.values()]);
  }

  /**
   * Score of a response = the largest word overlap of its training pairs with the input, plus
   * (in [0, 1)) the share of training co-occurrences among its pairs reaching that overlap.
   */
  rank(history: readonly Turn[], candidates: readonly string[]): Float32Array {
    if (this.config.match === 'words') return this.rankWords(history, candidates);
    // Only the pairs sharing a word with the input are visited: a response none of whose pairs
    // overlaps it scores 0 + (all its pairs' counts) / (total + 1).
    const overlap = new Int32Array(this.pairs.length);
    const touched: number[] = [];
    for (const w of nnKey(history, this.config.input))
      for (const i of this.index.get(w) ?? []) {
        if (overlap[i] === 0) touched.push(i);
        overlap[i] = (overlap[i] as number) + 1;
      }
    const bestO = new Int32Array(this.responses.length);
    const bestC = Float64Array.from(this.countOf);
    for (const i of touched) {
      const r = this.responseOf[i] as number;
      const o = overlap[i] as number;
      const count = (this.pairs[i] as NnPair).count;
      if (o > (bestO[r] as number)) {
        bestO[r] = o;
        bestC[r] = count;
      } else if (o === bestO[r]) bestC[r] = (bestC[r] as number) + count;
    }
    const ids = this.responseIds(candidates);
    const scores = new Float32Array(candidates.length);
    for (let i = 0; i < candidates.length; i++) {
      const r = ids[i] as number;
      scores[i] = r < 0 ? -1 : (bestO[r] as number) + (bestC[r] as number) / (this.total + 1);
    }
    return scores;
  }

  /**
   * `words` matching: a response of the training utterances with exactly the input's words scores
   * 1 + its share of their co-occurrences (in [0, 1)); any other training response 0.
   */
  private rankWords(history: readonly Turn[], candidates: readonly string[]): Float32Array {
    const count = new Float64Array(this.responses.length);
    for (const i of this.byKey.get(nnKey(history, this.config.input).join(' ')) ?? []) {
      const r = this.responseOf[i] as number;
      count[r] = (count[r] as number) + (this.pairs[i] as NnPair).count;
    }
    const ids = this.responseIds(candidates);
    const scores = new Float32Array(candidates.length);
    for (let i = 0; i < candidates.length; i++) {
      const r = ids[i] as number;
      scores[i] = r < 0 ? -1 : (count[r] as number) > 0 ? 1 + (count[r] as number) / (this.total + 1) : 0;
    }
    return scores;
  }

  /** The response id of each candidate (−1: not a training response), computed once per list. */
  private responseIds(candidates: readonly string[]): Int32Array {
    let ids = this.candidateIds.get(candidates);
    if (!ids) {
      const rid = new Map(this.responses.map((r, i) => [r, i]));
      ids = Int32Array.from(candidates, (c) => rid.get(c) ?? -1);
      this.candidateIds.set(candidates, ids);
    }
    return ids;
  }

  toModelFile(): ModelFileContent {
    return { model: 'nn', meta: { config: this.config, pairs: this.pairs.map((p) => [p.words, p.response, p.count]) }, tensors: [] };
  }

  static fromModelFile(c: ModelFileContent, file: string): NearestNeighbour {
    checkModelMeta('nn', c.meta, file);
    const m = c.meta as { config?: NnConfig; pairs?: [string[], string, number][] };
    if (!m || !m.config || !Array.isArray(m.pairs)) throw new ModelFileError(`${file}: corrupt model file (nn metadata incomplete)`);
    return new NearestNeighbour(m.config, m.pairs.map(([words, response, count]) => ({ words, response, count })));
  }
}
