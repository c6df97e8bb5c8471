/**
 * Generic response rankers (TF-IDF, nearest neighbour, supervised embeddings, MemN2N ± match
 * type), their trainers and the model registry, which lists the rankers (`RANKER_MODELS`) from the start.
 *
 * @example
 * ```ts
 * import { trainModel, type TrainData } from 'dialogym/rankers';
 * declare const data: TrainData; // train and dev dialogs, candidates
 * const { model, dev } = trainModel('embeddings', data, { epochs: 5 });
 * ```
 * @module
 */
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
