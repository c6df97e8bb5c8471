/**
 * Validation of parsed JSON against the JSON Schemas published in `schemas/` (draft 2020-12, ajv).
 * ajv is loaded and each schema compiled on first use only (not when this module is imported), so
 * commands that read no JSON file pay nothing. A violation is reported as one line
 * `field: reason, got <value>` (e.g. `expected_action: "status" must be one of book/change/…,
 * got "1"`), which the readers prefix with `file:line: ` or `file: entry N: `.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { InternalError } from '../core/errors.js';

/** The folder of the published schemas (`schemas/` at the package root, beside `dist/`). */
export const SCHEMA_DIR: string = fileURLToPath(new URL('../../../schemas/', import.meta.url));

/** Names of the published schemas (file `schemas/<name>.schema.json`). */
export type SchemaName =
  | 'dstc6-data'
  | 'dstc6-results'
  | 'airdialogue-data'
  | 'airdialogue-kb'
  | 'airdialogue-prediction'
  | 'model-file-header'
  | 'model-meta'
  | 'agent-protocol'
  | 'serve-message-request'
  | 'serve-kb-hint'
  | 'serve-airdialogue-request'
  | 'env-restaurant'
  | 'env-infobot'
  | 'env-airdialogue'
  | 'infobot-dialogs'
  | 'study-config'
  | 'run-eval'
  | 'run-benchmark'
  | 'run-infobot-eval'
  | 'run-airdialogue-generate'
  | 'run-airdialogue-selfplay'
  | 'run-generate-restaurant'
  | 'run-generate-dstc6'
  | 'run-evaluate';

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
  schema?: unknown;
  parentSchema?: Record<string, unknown>;
}
type Validate = ((v: unknown) => boolean) & { errors?: AjvError[] | null };
interface AjvLike {
  addSchema(s: object): unknown;
  getSchema(id: string): Validate | undefined;
}

let ajv: AjvLike | undefined;
const compiled = new Map<string, Validate>();
const SCHEMA_BASE = 'https://dialogym.dev/schemas/';

function instance(): AjvLike {
  if (ajv) return ajv;
  // Loaded on first validation: ajv and the compiled schemas cost ~80 ms that a command reading no JSON should not pay.
  // The schemas are not checked against the draft 2020-12 meta-schema here (validateSchema: false, ~45 ms of every
  // process that reads JSON): they ship with the package and test/schemas-meta.test.ts checks each of them, strictly.
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require('ajv/dist/2020') as { Ajv2020: new (o: object) => AjvLike };
  const a = new Ajv2020({ allErrors: false, verbose: true, strict: true, allowUnionTypes: true, validateSchema: false });
  for (const f of readdirSync(SCHEMA_DIR).filter((x) => x.endsWith('.schema.json')).sort()) {
    a.addSchema(JSON.parse(readFileSync(join(SCHEMA_DIR, f), 'utf8')) as object);
  }
  ajv = a;
  return a;
}

/** The compiled validator of a schema or of one of its `$defs` (`ref` like `#/$defs/action`). */
function validator(name: SchemaName, ref = ''): Validate {
  const id = `${SCHEMA_BASE}${name}.schema.json${ref}`;
  let v = compiled.get(id);
  if (!v) {
    v = instance().getSchema(id);
    if (!v) throw new InternalError(`schema ${id} not found in ${SCHEMA_DIR}`);
    compiled.set(id, v);
  }
  return v;
}

/** A schema violation: where (`path`, e.g. `[12].candidates[0]`; `''` for the value itself) and the one-line reason. */
export interface SchemaIssue {
  /** The JSON path of the offending value (`''` when it is the validated value itself). */
  readonly path: string;
  /** Index of the top-level array item at fault, for schemas of arrays (else undefined). */
  readonly item: number | undefined;
  /** `field: reason, got <value>`, ready to follow `file:line: `. */
  readonly reason: string;
}

/**
 * Validates `value` against a published schema (`ref` selects one of its `$defs`); returns the
 * first violation, or undefined when the value conforms. Nesting depth must already be bounded
 * (`parseJsonText` refuses more than `MAX_JSON_DEPTH` levels). With `root`, the reason names the
 * value by its whole path under that name (`options.restaurants[1]: must be an object, got null`);
 * without, by the object and the key within it (`restaurants: "x" must be …`).
 */
export function checkSchema(name: SchemaName, value: unknown, ref = '', root?: string): SchemaIssue | undefined {
  const v = validator(name, ref);
  if (v(value)) return undefined;
  const e = v.errors?.[0];
  if (!e) throw new InternalError(`schema ${name}: validation failed without an error`);
  return describe(e, value, name, root);
}

function segmentsOf(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function pathOf(segs: readonly string[]): string {
  let out = '';
  for (const s of segs) out += /^\d+$/.test(s) ? `[${s}]` : out === '' ? s : `.${s}`;
  return out;
}

function at(value: unknown, segs: readonly string[]): unknown {
  let v = value;
  for (const s of segs) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[s] : undefined;
  return v;
}

/** A short rendering of a JSON value for an error message (bounded, never recursive beyond 3 levels). */
export function showValue(v: unknown, depth = 0): string {
  if (v === undefined) return 'nothing';
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? v.slice(0, 37) + '...' : v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : `${v} (out of range)`;
  if (typeof v !== 'object' || v === null) return String(v);
  if (depth >= 2) return Array.isArray(v) ? '[…]' : '{…}';
  if (Array.isArray(v)) {
    const items = v.slice(0, 4).map((x) => showValue(x, depth + 1));
    return `[${items.join(', ')}${v.length > 4 ? ', …' : ''}]`;
  }
  const keys = Object.keys(v);
  const shown = keys.slice(0, 3).map((k) => `${JSON.stringify(k)}: ${showValue((v as Record<string, unknown>)[k], depth + 1)}`);
  return `{${shown.join(', ')}${keys.length > 3 ? ', …' : ''}}`;
}

const TYPE_NOUN: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  array: 'a list',
  object: 'an object',
  boolean: 'true or false',
  null: 'null',
};

/** `root` followed by a path from `pathOf` (`options` + `restaurants[1]` → `options.restaurants[1]`). */
function under(root: string, path: string): string {
  return path === '' ? root : path.startsWith('[') ? `${root}${path}` : `${root}.${path}`;
}

function describe(e: AjvError, value: unknown, name: SchemaName, root?: string): SchemaIssue {
  const segs = segmentsOf(e.instancePath);
  const item = root === undefined && /^\d+$/.test(segs[0] ?? '') && Array.isArray(value) ? Number(segs[0]) : undefined;
  const inner = item === undefined ? segs : segs.slice(1);
  const got = showValue(at(value, segs));
  const parentSchema = e.parentSchema ?? {};
  const title = typeof parentSchema.title === 'string' ? parentSchema.title : undefined;
  // What is wrong, without naming the value: `must be an integer, got "x"`.
  let predicate: string;
  let what = '';
  switch (e.keyword) {
    case 'required': {
      const missing = String(e.params.missingProperty);
      const props = parentSchema.properties as Record<string, { type?: string }> | undefined;
      const t = props?.[missing]?.type;
      predicate = `missing "${missing}"${t === 'array' ? ' array' : t === 'string' ? ' string' : ''}`;
      break;
    }
    case 'additionalProperties':
      predicate = `unknown field "${String(e.params.additionalProperty)}"`;
      break;
    case 'type': {
      const want = Array.isArray(e.params.type) ? (e.params.type as string[]) : String(e.params.type).split(',');
      what = want.map((t) => TYPE_NOUN[t] ?? t).join(' or ');
      predicate = `must be ${what}, got ${got}`;
      break;
    }
    case 'enum':
      predicate = `must be one of ${(e.params.allowedValues as unknown[]).map(String).join('/')}, got ${got}`;
      break;
    case 'const':
      predicate = `must be ${JSON.stringify(e.params.allowedValue)}, got ${got}`;
      break;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      predicate = `must be ${String(e.params.comparison)} ${String(e.params.limit)}, got ${got}`;
      break;
    case 'multipleOf':
      predicate = `must be a multiple of ${String(e.params.multipleOf)}, got ${got}`;
      break;
    case 'minLength':
      predicate = `must not be empty or blank, got ${got}`;
      break;
    case 'pattern':
      predicate = String(e.params.pattern) === '\\S' ? `must not be empty or blank, got ${got}` : title ? `must be ${title}, got ${got}` : `has a bad form, got ${got}`;
      break;
    case 'maxLength':
    case 'maxItems':
    case 'maxProperties':
      predicate = `is too long (at most ${String(e.params.limit)}${e.keyword === 'maxLength' ? ' characters' : ' items'})`;
      break;
    case 'minItems':
      predicate = `must have at least ${String(e.params.limit)} item${e.params.limit === 1 ? '' : 's'}, got ${got}`;
      break;
    case 'anyOf':
    case 'oneOf':
      predicate = `must be ${title ?? 'a valid value'}, got ${got}`;
      break;
    case 'not':
    case 'false schema':
      predicate = `cannot be given${title ? ` (${title})` : ''}`;
      break;
    default:
      predicate = e.message ?? 'is invalid';
  }
  // Rooted: the whole path names the value (`options.restaurants[1]: must be an object, got null`).
  if (root !== undefined) return { path: pathOf(segs), item, reason: `${under(root, pathOf(segs))}: ${predicate}` };
  // Else `a.b[3]` → where `a`, field `"b[3]"`: the message names the object and the key within it.
  let where: string;
  let field = '';
  if (e.keyword === 'required' || e.keyword === 'additionalProperties') where = pathOf(inner);
  else {
    const last = inner[inner.length - 1];
    if (last === undefined) where = '';
    else {
      let k = inner.length - 1;
      while (k > 0 && /^\d+$/.test(inner[k] as string)) k--;
      where = pathOf(inner.slice(0, k));
      field = `"${inner[k]}${pathOf(inner.slice(k + 1))}"`;
    }
  }
  let reason: string;
  if (e.keyword === 'required' || e.keyword === 'additionalProperties') reason = predicate;
  else if (e.keyword === 'type' && field === '') reason = `expected ${title ?? name} (${what}), got ${got}`;
  else reason = `${field || 'value'} ${predicate}`;
  return { path: pathOf(segs), item, reason: where === '' ? reason : `${where}: ${reason}` };
}

/** Deepest nesting of arrays and objects accepted in a JSON input (the originals use at most 5). */
export const MAX_JSON_DEPTH = 64;

/**
 * The offset at which `text` (JSON) nests arrays/objects deeper than `max`, or -1. A linear scan
 * that skips strings: run before `JSON.parse` so that a value nested 20,000 levels deep is refused
 * with a one-line error instead of overflowing the stack of whatever walks it afterwards.
 */
export function tooDeepAt(text: string, max = MAX_JSON_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}
