/**
 * Generic response rankers (TF-IDF, nearest neighbour, supervised embeddings, MemN2N ± match
 * type), their trainers and the model registry. Importing it adds the rankers (`RANKER_MODELS`) to `models`.
 *
 * @example
 * ```ts
 * import { trainModel, type TrainData } from 'dialogym/rankers';
 * declare const data: TrainData; // train and dev dialogs, candidates
 * const { model, dev } = trainModel('embeddings', data, { epochs: 5 });
 * ```
 * @module
 */
import { RANKER_MODELS } from './builtin.js';
import { registerModels } from './registry.js';
export * from './ranker.js';
export * from './registry.js';
export * from './train-data.js';
export { evaluateDialogs, type Prediction, type EvaluateOptions } from './evaluate-responses.js';
export { Tfidf, type TfidfConfig } from './tfidf.js';
export { NearestNeighbour, type NnConfig } from './nearest-neighbour.js';
export { Embeddings, EMBEDDINGS_DEFAULTS, type EmbeddingsConfig } from './embeddings.js';
export { MemN2N, MEMN2N_DEFAULTS, type MemN2NConfig } from './memn2n.js';
export { RANKER_MODELS } from './builtin.js';
export { KbTypes } from './match-type.js';
export { WordVocab, bigramWord } from './word-vocab.js';

// `dialogym/rankers` offers the generic rankers by name (the restaurant testbed adds them too; once).
registerModels(RANKER_MODELS);
