/**
 * TF-IDF match (Bordes et al. 2017, §4.1): the candidate whose tf-idf vector has the largest cosine
 * with the input's. With match types (§4.5), a candidate and the input share one extra feature per
 * KB type of a candidate word that also occurs in the dialog, so unseen entities still count.
 */
import type { Turn } from '../core/dialog.js';
import { tokenize } from '../core/text.js';
import { ModelFileError } from '../core/errors.js';
import type { Ranker } from './ranker.js';
import { KbTypes, contextWords } from './match-type.js';
import { inputText, type InputMode } from './input.js';
import type { ModelFileContent } from './model-file.js';

export interface TfidfConfig {
  readonly input: InputMode;
  readonly matchType: boolean;
}

interface PreparedCandidates {
  readonly vecs: Map<string, number>[];
  readonly norms2: Float64Array;
  readonly typed: (readonly (readonly [string, string])[])[];
}

export class Tfidf implements Ranker {
  readonly name: string;
  private readonly prepared = new WeakMap<readonly string[], PreparedCandidates>();
  private readonly unseenIdf: number;

  constructor(
    readonly config: TfidfConfig,
    /** word → inverse document frequency. */
    readonly idf: ReadonlyMap<string, number>,
    /** Number of documents idf was computed on. */
    readonly documents: number,
    readonly kb?: KbTypes,
  ) {
    if (config.matchType && !kb) throw new Error('tfidf: match-type features need KB types');
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
    for (const [w, tf] of v) v.set(w, tf * (this.idf.get(w) ?? this.unseenIdf));
    return v;
  }

  private prepare(candidates: readonly string[]): PreparedCandidates {
    let p = this.prepared.get(candidates);
    if (!p) {
      const vecs = candidates.map((c) => this.vector(c));
      const norms2 = Float64Array.from(vecs.map((v) => [...v.values()].reduce((a, x) => a + x * x, 0)));
      const typed = this.config.matchType && this.kb ? this.kb.typedWords(candidates) : candidates.map(() => []);
      p = { vecs, norms2, typed };
      this.prepared.set(candidates, p);
    }
    return p;
  }

  rank(history: readonly Turn[], candidates: readonly string[]): Float32Array {
    const p = this.prepare(candidates);
    const q = this.vector(inputText(history, this.config.input));
    let qn2 = 0;
    for (const x of q.values()) qn2 += x * x;
    const ctx = this.config.matchType ? contextWords(history) : undefined;
    const scores = new Float32Array(candidates.length);
    for (let c = 0; c < candidates.length; c++) {
      const v = p.vecs[c] as Map<string, number>;
      let s = 0;
      const [small, big] = q.size < v.size ? [q, v] : [v, q];
      for (const [w, x] of small) {
        const y = big.get(w);
        if (y !== undefined) s += x * y;
      }
      let types = 0;
      if (ctx) {
        const seen = new Set<string>();
        for (const [w, t] of p.typed[c] as readonly (readonly [string, string])[]) if (ctx.has(w)) seen.add(t);
        types = seen.size;
      }
      const den = Math.sqrt(qn2 + types) * Math.sqrt((p.norms2[c] as number) + types);
      scores[c] = den > 0 ? (s + types) / den : 0;
    }
    return scores;
  }

  toModelFile(): ModelFileContent {
    return { model: 'tfidf', meta: { config: this.config, documents: this.documents, idf: [...this.idf], kb: this.kb?.entries() ?? null }, tensors: [] };
  }

  static fromModelFile(c: ModelFileContent, file: string, kb?: KbTypes): Tfidf {
    const m = c.meta as { config?: TfidfConfig; documents?: number; idf?: [string, number][]; kb?: [string, string][] | null };
    if (!m || !m.config || typeof m.documents !== 'number' || !Array.isArray(m.idf)) throw new ModelFileError(`${file}: corrupt model file (tfidf metadata incomplete)`);
    return new Tfidf(m.config, new Map(m.idf), m.documents, m.config.matchType && kb ? kb : m.kb ? new KbTypes(m.kb) : undefined);
  }
}
