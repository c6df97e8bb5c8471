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
  | 'serve-message-request';

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
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require('ajv/dist/2020') as { Ajv2020: new (o: object) => AjvLike };
  const a = new Ajv2020({ allErrors: false, verbose: true, strict: true, allowUnionTypes: true });
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
 * (`parseJsonText` refuses more than `MAX_JSON_DEPTH` levels).
 */
export function checkSchema(name: SchemaName, value: unknown, ref = ''): SchemaIssue | undefined {
  const v = validator(name, ref);
  if (v(value)) return undefined;
  const e = v.errors?.[0];
  if (!e) throw new InternalError(`schema ${name}: validation failed without an error`);
  return describe(e, value, name);
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

function describe(e: AjvError, root: unknown, name: SchemaName): SchemaIssue {
  const segs = segmentsOf(e.instancePath);
  const item = /^\d+$/.test(segs[0] ?? '') && Array.isArray(root) ? Number(segs[0]) : undefined;
  const inner = item === undefined ? segs : segs.slice(1);
  const got = at(root, segs);
  const parentSchema = e.parentSchema ?? {};
  let field: string;
  let where: string;
  if (e.keyword === 'required' || e.keyword === 'additionalProperties') {
    where = pathOf(inner);
    field = '';
  } else {
    const last = inner[inner.length - 1];
    if (last === undefined) {
      where = '';
      field = '';
    } else {
      // `a.b[3]` → where `a`, field `"b[3]"`: the message names the object and the key within it.
      let k = inner.length - 1;
      while (k > 0 && /^\d+$/.test(inner[k] as string)) k--;
      where = pathOf(inner.slice(0, k));
      field = `"${inner[k]}${pathOf(inner.slice(k + 1))}"`;
    }
  }
  const noun = typeof parentSchema.title === 'string' ? parentSchema.title : name;
  let reason: string;
  switch (e.keyword) {
    case 'required': {
      const missing = String(e.params.missingProperty);
      const props = parentSchema.properties as Record<string, { type?: string }> | undefined;
      const t = props?.[missing]?.type;
      reason = `missing "${missing}"${t === 'array' ? ' array' : t === 'string' ? ' string' : ''}`;
      break;
    }
    case 'additionalProperties':
      reason = `unknown field "${String(e.params.additionalProperty)}"`;
      break;
    case 'type': {
      const want = Array.isArray(e.params.type) ? (e.params.type as string[]) : String(e.params.type).split(',');
      const what = want.map((t) => TYPE_NOUN[t] ?? t).join(' or ');
      reason = field === '' ? `expected ${noun} (${what}), got ${showValue(got)}` : `${field} must be ${what}, got ${showValue(got)}`;
      break;
    }
    case 'enum': {
      const allowed = (e.params.allowedValues as unknown[]).map(String).join('/');
      reason = `${field || 'value'} must be one of ${allowed}, got ${showValue(got)}`;
      break;
    }
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      reason = `${field || 'value'} must be ${String(e.params.comparison)} ${String(e.params.limit)}, got ${showValue(got)}`;
      break;
    case 'multipleOf':
      reason = `${field || 'value'} must be a multiple of ${String(e.params.multipleOf)}, got ${showValue(got)}`;
      break;
    case 'minLength':
      reason = `${field || 'value'} must not be empty or blank, got ${showValue(got)}`;
      break;
    case 'pattern':
      reason =
        String(e.params.pattern) === '\\S' ? `${field || 'value'} must not be empty or blank, got ${showValue(got)}` : `${field || 'value'} has a bad form, got ${showValue(got)}`;
      break;
    case 'maxLength':
    case 'maxItems':
    case 'maxProperties':
      reason = `${field || 'value'} is too long (at most ${String(e.params.limit)}${e.keyword === 'maxLength' ? ' characters' : ' items'})`;
      break;
    case 'minItems':
      reason = `${field || 'value'} must have at least ${String(e.params.limit)} item${e.params.limit === 1 ? '' : 's'}, got ${showValue(got)}`;
      break;
    case 'anyOf':
    case 'oneOf':
      reason = `${field || 'value'} must be ${typeof parentSchema.title === 'string' ? parentSchema.title : 'a valid value'}, got ${showValue(got)}`;
      break;
    default:
      reason = `${field || 'value'} ${e.message ?? 'is invalid'}`;
  }
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
