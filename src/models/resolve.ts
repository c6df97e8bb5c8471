/**
 * `--model` as the CLI takes it: a registry name (`rules`, `tfidf`, …) or a model file written by
 * `dialogym train` (`*.dgm`, or any existing file that is not a registry name).
 */
import { existsSync } from 'node:fs';
import { models } from './index.js';
import type { ModelContext, ResponseModel } from './ranker.js';
import { loadRanker } from './saved.js';
import { KbTypes } from './match-type.js';

export function isModelFile(nameOrFile: string): boolean {
  return !models.has(nameOrFile) && (nameOrFile.endsWith('.dgm') || existsSync(nameOrFile));
}

/** The model named `nameOrFile`; for a model file, `ctx.kb` replaces its stored KB types. */
export function resolveModel(nameOrFile: string, ctx: ModelContext = {}): ResponseModel {
  if (isModelFile(nameOrFile)) return loadRanker(nameOrFile, ctx.kb ? KbTypes.fromFacts(ctx.kb) : undefined);
  return models.get(nameOrFile)(ctx);
}
