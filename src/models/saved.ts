/** Saving any trained ranker to a model file, and loading one back as a Ranker. */
import { ModelFileError } from '../core/errors.js';
import type { Ranker } from './ranker.js';
import { readModelFile, writeModelFile, type ModelFileContent } from './model-file.js';
import type { KbTypes } from './match-type.js';
import { Tfidf } from './tfidf.js';
import { NearestNeighbour } from './nn.js';
import { Embeddings } from './embeddings.js';
import { MemN2N } from './memn2n.js';
import { Hcn } from './hcn.js';

export interface SavableRanker extends Ranker {
  toModelFile(): ModelFileContent;
}

const loaders: Record<string, (c: ModelFileContent, file: string, kb?: KbTypes) => Ranker> = {
  tfidf: (c, f, kb) => Tfidf.fromModelFile(c, f, kb),
  nn: (c, f) => NearestNeighbour.fromModelFile(c, f),
  embeddings: (c, f, kb) => Embeddings.fromModelFile(c, f, kb),
  memn2n: (c, f, kb) => MemN2N.fromModelFile(c, f, kb),
  hcn: (c, f, kb) => Hcn.fromModelFile(c, f, kb),
};

export function saveRanker(file: string, r: SavableRanker): void {
  writeModelFile(file, r.toModelFile());
}

export function rankerFromContent(c: ModelFileContent, file: string, kb?: KbTypes): Ranker {
  const load = loaders[c.model];
  if (!load) throw new ModelFileError(`${file}: unknown model kind '${c.model}' (known: ${Object.keys(loaders).join(', ')})`);
  try {
    return load(c, file, kb);
  } catch (e) {
    if (e instanceof ModelFileError) throw e;
    throw new ModelFileError(`${file}: corrupt model file (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
}

/** Loads a model file; `kb` replaces the KB types used for match features. */
export function loadRanker(file: string, kb?: KbTypes): Ranker {
  return rankerFromContent(readModelFile(file), file, kb);
}
