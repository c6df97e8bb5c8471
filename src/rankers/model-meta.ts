/**
 * Types and bounds of the built-in rankers' model-file metadata (`schemas/model-meta.schema.json`),
 * checked before a model is rebuilt from a file: a forged `config.input: 0` or `dim: "abc"` is a
 * one-line ModelFileError naming the file, not a model that silently scores wrong.
 */
import { ModelFileError } from '../core/errors.js';
import { checkSchema } from '../formats/schema.js';

/** The model kinds whose metadata has a schema definition (the built-in rankers and the restaurant testbed's hcn). */
export type MetaKind = 'tfidf' | 'nn' | 'embeddings' | 'memn2n' | 'hcn';

/** Throws `<file>: corrupt model file (<kind> meta: <field>: <reason>)` when `meta` breaks its kind's schema. */
export function checkModelMeta(kind: MetaKind, meta: unknown, file: string): void {
  const issue = checkSchema('model-meta', meta, `#/$defs/${kind}`);
  if (issue) throw new ModelFileError(`${file}: corrupt model file (${kind} meta: ${issue.reason})`);
}
