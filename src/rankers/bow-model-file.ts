/**
 * Model-file (de)serialisation shared by the bag-of-words models (embeddings, memn2n): their
 * metadata is the config, the vocabulary and the KB types; their weights are their `params`.
 */
import { ModelFileError } from '../core/errors.js';
import { checkModelMeta } from './model-meta.js';
import { WordVocab } from './word-vocab.js';
import { KbTypes } from './match-type.js';
import type { Param } from '../nn/params.js';
import { tensorOf, type ModelFileContent } from '../formats/model-file.js';

export interface BowModel<C> {
  readonly config: C;
  readonly vocab: WordVocab;
  readonly params: Param[];
  kb: KbTypes | undefined;
  useKb(kb: KbTypes): void;
  /** Invalidates caches after the weights changed. */
  touch(): void;
}

export function bowModelToFile<C>(kind: string, m: BowModel<C>): ModelFileContent {
  return {
    model: kind,
    meta: { config: m.config, vocab: m.vocab.words, kb: m.kb?.entries() ?? null },
    tensors: m.params.map((p) => ({ name: p.name, shape: p.shape, data: p.data })),
  };
}

/** Rebuilds a model with `make` from a model file's metadata, then loads its weights; `kb` replaces the stored KB types. */
export function bowModelFromFile<C, M extends BowModel<C>>(
  kind: string,
  c: ModelFileContent,
  file: string,
  make: (config: C, vocab: WordVocab, kb: KbTypes | undefined) => M,
  kb?: KbTypes,
): M {
  if (kind === 'embeddings' || kind === 'memn2n') checkModelMeta(kind, c.meta, file);
  const meta = c.meta as { config?: C; vocab?: string[]; kb?: [string, string][] | null };
  if (!meta || !meta.config || !Array.isArray(meta.vocab)) throw new ModelFileError(`${file}: corrupt model file (${kind} metadata incomplete)`);
  const model = make(meta.config, new WordVocab(meta.vocab), meta.kb ? new KbTypes(meta.kb) : undefined);
  if (model.vocab.size !== meta.vocab.length) throw new ModelFileError(`${file}: corrupt model file (vocabulary does not match)`);
  for (const p of model.params) p.data.set(tensorOf(c, p.name, p.shape, file));
  if (kb) model.useKb(kb);
  model.touch();
  return model;
}
