/**
 * The published schemas are valid draft 2020-12 schemas under ajv's strict mode. The validator of
 * `src/formats/schema.ts` adds them without this check (it costs ~45 ms of every process that reads
 * JSON), so it is made here, once, for each file of `schemas/`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_DIR } from '../src/formats/schema.js';

interface MetaAjv {
  addSchema(schema: object): unknown;
  validateSchema(schema: object): boolean;
  errorsText(errors?: unknown): string;
  errors?: unknown;
  getSchema(id: string): unknown;
}

test('every schema of schemas/ conforms to the draft 2020-12 meta-schema and compiles in strict mode', () => {
  const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020') as { Ajv2020: new (o: object) => MetaAjv };
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
  const files = readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.schema.json')).sort();
  assert.ok(files.length >= 20, `${files.length} schemas`);
  const bad: string[] = [];
  const schemas = files.map((f) => JSON.parse(readFileSync(join(SCHEMA_DIR, f), 'utf8')) as { $id: string });
  for (const [i, s] of schemas.entries()) if (!ajv.validateSchema(s)) bad.push(`${files[i]}: ${ajv.errorsText(ajv.errors)}`);
  assert.deepEqual(bad, []);
  // adding them all (each checked again on the way in) and compiling each in strict mode throws on any strict-mode fault
  for (const s of schemas) ajv.addSchema(s);
  for (const s of schemas) assert.ok(ajv.getSchema(s.$id), s.$id);
});

test('the meta-schema check can fail: a schema with a wrong keyword type is refused', () => {
  const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020') as { Ajv2020: new (o: object) => MetaAjv };
  const ajv = new Ajv2020({ strict: true });
  assert.equal(ajv.validateSchema({ type: 'object', required: 'name' }), false);
});
