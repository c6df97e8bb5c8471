/**
 * TF-IDF match (Bordes et al. 2017, §4.1): the candidate whose tf-idf vector has the largest cosine
 * with the input's. With match types (§4.5), a candidate and the input share one extra feature per
 * KB type of a candidate word that also occurs in the dialog, so unseen entities still count.
 * Two ways to add that feature, chosen on dev: `feature` — a separate dimension of weight 1 on both
 * sides; `word` — the type's name word (`R_address` → `address`) joins the candidate with its own idf,
 * so it matches an input that asks for it ("do you have its address").
 */
import type { Turn } from '../core/dialog.js';
import { tokenize } from '../core/text.js';
import { ConfigError, ModelFileError } from '../core/errors.js';
import type { Ranker } from './ranker.js';
import { KbTypes, attrType } from './match-type.js';
import { inputText, type InputMode } from './input.js';
import { checkModelMeta } from './model-meta.js';
import type { ModelFileContent } from '../formats/model-file.js';
import { extendsTurns } from './history-prefix.js';

/**
 * Configuration of a {@link Tfidf} ranker: what it reads as the input, and whether (and how) it
 * adds match-type features.
 *
 * @example
 * ```ts
 * import type { TfidfConfig } from 'dialogym/rankers';
 * const config: TfidfConfig = { input: 'last', matchType: true, typeAs: 'word' };
 * ```
 */
export interface TfidfConfig {
  /** `last`: the last user utterance; `history`: every turn so far. */
  readonly input: InputMode;
  /** Add match-type features (needs KB types). */
  readonly matchType: boolean;
  /** How a matched type is added (see above); `feature` when absent (model files of 0.1). */
  readonly typeAs?: TypeAs;
}

export type TypeAs = 'feature' | 'word';

/** What a matched type adds as its name word (`word` mode), fixed per candidate. */
interface TypeWord {
  /** The type's name word (`R_address` → `address`). */
  readonly name: string;
  readonly idf: number;
  /** The candidate's own tf-idf weight of that word (usually 0). */
  readonly own: number;
}

interface PreparedCandidates {
  /** Term ids (into `terms`) and tf-idf weights of all candidates, candidate c's at [start[c], start[c + 1]). */
  readonly start: Int32Array;
  readonly ids: Int32Array;
  readonly weights: Float64Array;
  readonly norms2: Float64Array;
  /** √norms2 (the candidate's norm when no type feature joins it). */
  readonly norms: Float64Array;
  /** Term id → the candidates holding it. */
  readonly holders: Int32Array[];
  /** term → id for the candidates' terms. */
  readonly terms: Map<string, number>;
  /** Typed words of all candidates, candidate c's at [typedStart[c], typedStart[c + 1]): word id, type id, and (`word` mode) what the type's match adds. */
  readonly typedStart: Int32Array;
  readonly typedWord: Int32Array;
  readonly typedType: Int32Array;
  readonly typedAdds: TypeWord[];
  /** Typed word → id. */
  readonly typedWordIds: Map<string, number>;
  /** Typed word id → the candidates holding it (to find the few candidates a dialog's words match). */
  readonly typedIn: Int32Array[];
  /** The most typed words of one candidate. */
  readonly maxTyped: number;
}

/**
 * Word counts of a dialog history in order of first occurrence (the counts of `tokenize` of its
 * joined texts, so also `contextWords`), extended by the turns a longer history adds: evaluation
 * asks for every prefix of a dialog in turn.
 */
class HistoryCounts {
  /** The turns counted so far (a copy: callers may grow their history array in place). */
  private readonly turns: Turn[] = [];
  private counts = new Map<string, number>();

  of(history: readonly Turn[]): Map<string, number> {
    if (!extendsTurns(this.turns, history)) {
      this.turns.length = 0;
      this.counts = new Map();
    }
    for (let i = this.turns.length; i < history.length; i++) {
      const t = history[i] as Turn;
      this.turns.push(t);
      for (const w of tokenize(t.text)) this.counts.set(w, (this.counts.get(w) ?? 0) + 1);
    }
    return this.counts;
  }
}

/**
 * The TF-IDF match ranker (§4.1 of the bAbI dialog paper, ± match types §4.5): a candidate's
 * score is the cosine of its tf-idf vector with the input's. Build it with `Tfidf.fit` on
 * documents (utterances, candidates) or through the registry (`createModel('tfidf', {
 * candidates })`). The constructor throws a ConfigError for `matchType` without KB types; its
 * `name` is `tfidf` or `tfidf+type`.
 *
 * @example
 * ```ts
 * import { Tfidf } from 'dialogym/rankers';
 * const candidates = ['where should it be', 'which price range are looking for'];
 * const tfidf = Tfidf.fit(candidates, { input: 'last', matchType: false });
 * tfidf.rank([{ speaker: 'user', text: 'what price range' }], candidates); // second scores higher
 * ```
 */
export class Tfidf implements Ranker {
  readonly name: string;
  private readonly prepared = new WeakMap<readonly string[], PreparedCandidates>();
  private readonly unseenIdf: number;
  private readonly history = new HistoryCounts();

  constructor(
    readonly config: TfidfConfig,
    /** word → inverse document frequency. */
    readonly idf: ReadonlyMap<string, number>,
    /** Number of documents idf was computed on. */
    readonly documents: number,
    readonly kb?: KbTypes,
  ) {
    if (config.matchType && !kb) throw new ConfigError('tfidf: match-type features need KB types');
    this.name = config.matchType ? 'tfidf+type' : 'tfidf';
    this.unseenIdf = Math.log((1 + documents) / 1) + 1;
  }

  /** Fits idf (smoothed: ln((1+N)/(1+df)) + 1) on documents (utterances and candidates). */
  static fit(documents: Iterable<string>, config: TfidfConfig, kb?: KbTypes): Tfidf {
    const df = new Map<string, number>();
    let n = 0;
    for (const d of documents) {
      n++;
      for (const w of new Set(tokenize(d))) df.set(w, (df.get(w) ?? 0) + 1);
    }
    const idf = new Map<string, number>();
    for (const [w, f] of df) idf.set(w, Math.log((1 + n) / (1 + f)) + 1);
    return new Tfidf(config, idf, n, kb);
  }

  private vector(text: string): Map<string, number> {
    const v = new Map<string, number>();
    for (const w of tokenize(text)) v.set(w, (v.get(w) ?? 0) + 1);
    return this.weigh(v, v);
  }

  /** tf-idf weights of term counts (into `out`, a new Map when omitted), in the counts' order. */
  private weigh(counts: ReadonlyMap<string, number>, out = new Map<string, number>()): Map<string, number> {
    for (const [w, tf] of counts) out.set(w, tf * (this.idf.get(w) ?? this.unseenIdf));
    return out;
  }

  private prepare(candidates: readonly string[]): PreparedCandidates {
    let p = this.prepared.get(candidates);
    if (!p) {
      const terms = new Map<string, number>();
      const idLists: number[] = [];
      const weightLists: number[] = [];
      const start = new Int32Array(candidates.length + 1);
      const norms2 = new Float64Array(candidates.length);
      const holderLists: number[][] = [];
      const typed = this.config.matchType && this.kb ? this.kb.typedWords(candidates) : candidates.map(() => []);
      const asWord = this.config.typeAs === 'word';
      const typedWordIds = new Map<string, number>();
      const typeIds = new Map<string, number>();
      const typedStart = new Int32Array(candidates.length + 1);
      const typedWord: number[] = [];
      const typedType: number[] = [];
      const typedAdds: TypeWord[] = [];
      const typedInLists: number[][] = [];
      let maxTyped = 0;
      candidates.forEach((c, i) => {
        const v = this.vector(c);
        const ts = typed[i] as readonly (readonly [string, string])[];
        for (const [w, t] of ts) {
          let wid = typedWordIds.get(w);
          if (wid === undefined) {
            typedWordIds.set(w, (wid = typedWordIds.size));
            typedInLists.push([]);
          }
          const list = typedInLists[wid] as number[];
          if (list.at(-1) !== i) list.push(i);
          let tid = typeIds.get(t);
          if (tid === undefined) typeIds.set(t, (tid = typeIds.size));
          typedWord.push(wid);
          typedType.push(tid);
          const name = attrType(t);
          typedAdds.push({ name, idf: this.idf.get(name) ?? this.unseenIdf, own: asWord ? v.get(name) ?? 0 : 0 });
        }
        typedStart[i + 1] = typedWord.length;
        maxTyped = Math.max(maxTyped, ts.length);
        let n2 = 0;
        for (const [t, x] of v) {
          let tid = terms.get(t);
          if (tid === undefined) {
            terms.set(t, (tid = terms.size));
            holderLists.push([]);
          }
          idLists.push(tid);
          weightLists.push(x);
          (holderLists[tid] as number[]).push(i);
          n2 += x * x;
        }
        start[i + 1] = idLists.length;
        norms2[i] = n2;
      });
      const norms = norms2.map(Math.sqrt);
      p = {
        start, ids: Int32Array.from(idLists), weights: Float64Array.from(weightLists), norms2, norms, holders: holderLists.map((l) => Int32Array.from(l)), terms,
        typedStart, typedWord: Int32Array.from(typedWord), typedType: Int32Array.from(typedType), typedAdds, typedWordIds, typedIn: typedInLists.map((l) => Int32Array.from(l)), maxTyped,
      };
      this.prepared.set(candidates, p);
    }
    return p;
  }

  rank(history: readonly Turn[], candidates: readonly string[]): Float32Array {
    const p = this.prepare(candidates);
    const said = this.config.input === 'history' || this.config.matchType ? this.history.of(history) : undefined;
    const q = this.config.input === 'history' ? this.weigh(said as Map<string, number>) : this.vector(inputText(history, this.config.input));
    let qn2 = 0;
    // Dense query over the candidates' terms (terms absent from every candidate only add to the
    // norm); the candidates holding a query term are marked: the others score 0 unless a type matches.
    const dense = new Float64Array(p.terms.size);
    const visit = new Uint8Array(candidates.length);
    for (const [w, x] of q) {
      qn2 += x * x;
      const id = p.terms.get(w);
      if (id === undefined) continue;
      dense[id] = x;
      for (const c of p.holders[id] as Int32Array) visit[c] = 1;
    }
    // The words said so far (contextWords of the history).
    const ctx = this.config.matchType ? said : undefined;
    // Candidates with a typed word said in the dialog (the others get no type feature): found
    // through the typed-word index rather than by testing every candidate's typed words.
    const hit = new Uint8Array(candidates.length);
    const saidTyped = new Uint8Array(p.typedIn.length);
    if (ctx)
      for (const w of ctx.keys()) {
        const wid = p.typedWordIds.get(w);
        if (wid === undefined) continue;
        saidTyped[wid] = 1;
        for (const c of p.typedIn[wid] as Int32Array) hit[c] = visit[c] = 1;
      }
    const seenType = new Int32Array(p.maxTyped);
    const seenAt = new Int32Array(p.maxTyped);
    const asWord = this.config.typeAs === 'word';
    const qn = Math.sqrt(qn2);
    const scores = new Float32Array(candidates.length);
    const { start, ids, weights } = p;
    for (let c = 0; c < candidates.length; c++) {
      if (visit[c] === 0) continue;
      let s = 0;
      for (let k = start[c] as number, end = start[c + 1] as number; k < end; k++) s += (dense[ids[k] as number] as number) * (weights[k] as number);
      let types = 0;
      let n2 = p.norms2[c] as number;
      let typeWordAdded = false;
      if (hit[c] === 1) {
        // The distinct types matched, in order of first match (a candidate has one to three typed words).
        let seen = 0;
        for (let k = p.typedStart[c] as number, end = p.typedStart[c + 1] as number; k < end; k++) {
          if (saidTyped[p.typedWord[k] as number] === 0) continue;
          const t = p.typedType[k] as number;
          let j = 0;
          while (j < seen && seenType[j] !== t) j++;
          if (j < seen) continue;
          seenType[seen] = t;
          seenAt[seen++] = k;
        }
        if (!asWord) types = seen;
        else {
          // The type's name word joins the candidate: its weight grows by that word's idf.
          for (let j = 0; j < seen; j++) {
            const { name, idf, own } = p.typedAdds[seenAt[j] as number] as TypeWord;
            s += (q.get(name) ?? 0) * idf;
            n2 += 2 * own * idf + idf * idf;
            typeWordAdded = true;
          }
        }
      }
      const den = types === 0 && !typeWordAdded ? qn * (p.norms[c] as number) : Math.sqrt(qn2 + types) * Math.sqrt(n2 + types);
      scores[c] = den > 0 ? (s + types) / den : 0;
    }
    return scores;
  }

  toModelFile(): ModelFileContent {
    return { model: 'tfidf', meta: { config: this.config, documents: this.documents, idf: [...this.idf], kb: this.kb?.entries() ?? null }, tensors: [] };
  }

  static fromModelFile(c: ModelFileContent, file: string, kb?: KbTypes): Tfidf {
    checkModelMeta('tfidf', c.meta, file);
    const m = c.meta as { config?: TfidfConfig; documents?: number; idf?: [string, number][]; kb?: [string, string][] | null };
    if (!m || !m.config || typeof m.documents !== 'number' || !Array.isArray(m.idf)) throw new ModelFileError(`${file}: corrupt model file (tfidf metadata incomplete)`);
    return new Tfidf(m.config, new Map(m.idf), m.documents, m.config.matchType && kb ? kb : m.kb ? new KbTypes(m.kb) : undefined);
  }
}
