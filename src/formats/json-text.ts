/**
 * JSON text helpers shared by the JSON-based formats: parsing with a `file:line:column: reason`
 * error, and writing in Python's `json.dump` style (`", "` / `": "` separators, non-ASCII escaped),
 * which is how the original DSTC6 files were written, so that a read + write round trip is exact.
 */
import { DialogymError, FormatError } from '../core/errors.js';
import { MAX_JSON_DEPTH, tooDeepAt } from './schema.js';

/**
 * Parses JSON text. Invalid JSON throws a one-line FormatError `file:line: reason (column C)`,
 * located by a small validating scanner (V8's messages do not always carry a position); so do
 * nesting deeper than `MAX_JSON_DEPTH` (64) levels and numbers beyond a double (`1e400`). `line`
 * (default 1) is the line of the file where `text` starts (JSON Lines).
 */
export function parseJsonText(text: string, file: string, line = 1): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    const { offset, reason } = locateJsonError(text);
    const at = lineColumn(text, offset);
    throw new FormatError(file, line + at.line - 1, `invalid JSON: ${reason} (column ${at.column})`);
  }
  // JSON.parse itself copes with deep nesting, but whatever walks the value after it (validators,
  // error formatters) would overflow the stack; JSON.parse also turns 1e400 into Infinity, which
  // no format holds. One iterative walk checks both; the text is scanned only to locate a fault.
  const fault = depthOrNonFinite(value);
  if (fault === 'deep') {
    const at = lineColumn(text, Math.max(0, tooDeepAt(text)));
    throw new FormatError(file, line + at.line - 1, `nesting deeper than ${MAX_JSON_DEPTH} levels (column ${at.column})`);
  }
  if (fault === 'non-finite') {
    const re = /-?\d+(\.\d+)?([eE][+-]?\d+)?/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null && Number.isFinite(Number(m[0])));
    const at = lineColumn(text, m?.index ?? 0);
    throw new FormatError(file, line + at.line - 1, `number ${m ? m[0].slice(0, 30) : ''} out of range (not a finite double) (column ${at.column})`);
  }
  return value;
}

/** Whether a parsed JSON value nests deeper than MAX_JSON_DEPTH or holds a non-finite number (iterative: no recursion). */
function depthOrNonFinite(root: unknown): 'deep' | 'non-finite' | undefined {
  if (root === null || typeof root !== 'object') return typeof root === 'number' && !Number.isFinite(root) ? 'non-finite' : undefined;
  const stack: object[] = [root];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as object;
    const d = depths.pop() as number;
    if (d > MAX_JSON_DEPTH) return 'deep';
    const items: unknown[] = Array.isArray(v) ? v : Object.values(v);
    for (const x of items) {
      if (typeof x === 'number') {
        if (!Number.isFinite(x)) return 'non-finite';
      } else if (x !== null && typeof x === 'object') {
        stack.push(x);
        depths.push(d + 1);
      }
    }
  }
  return undefined;
}

/** 1-based line and column (in UTF-16 code units) of a string offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** The offset of the first syntax error in `text` (assumed invalid JSON) and why. */
export function locateJsonError(text: string): { offset: number; reason: string } {
  let i = 0;
  const n = text.length;
  class Stop {
    constructor(readonly offset: number, readonly reason: string) {}
  }
  const describe = (at: number): string => (at >= n ? 'end of input' : `'${text[at]}'`);
  const ws = (): void => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const literal = (word: string): void => {
    for (let k = 0; k < word.length; k++) {
      if (text[i + k] !== word[k]) throw new Stop(i + k, `unexpected ${describe(i + k)} (expected '${word}')`);
    }
    i += word.length;
  };
  const str = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= n) throw new Stop(i, 'unterminated string');
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 32) throw new Stop(i, 'control character inside a string');
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) throw new Stop(i, 'bad \\u escape');
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else throw new Stop(i, 'bad escape in a string');
      } else i++;
    }
  };
  const num = (): void => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-' || m[0].length === 0) throw new Stop(i, `unexpected ${describe(i)}`);
    i += m[0].length;
  };
  const value = (depth: number): void => {
    if (depth > MAX_JSON_DEPTH) throw new Stop(i, `nesting deeper than ${MAX_JSON_DEPTH} levels`);
    ws();
    if (i >= n) throw new Stop(i, 'unexpected end of input');
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') throw new Stop(i, `unexpected ${describe(i)} (expected a property name)`);
        str();
        ws();
        if (text[i] !== ':') throw new Stop(i, `unexpected ${describe(i)} (expected ':')`);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        throw new Stop(i, `unexpected ${describe(i)} (expected ',' or '}')`);
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        throw new Stop(i, `unexpected ${describe(i)} (expected ',' or ']')`);
      }
    }
    if (c === '"') return str();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    return num();
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value(0);
    ws();
    if (i < n) return { offset: i, reason: `unexpected ${describe(i)} after the JSON value` };
    return { offset: n, reason: 'cannot parse' };
  } catch (e) {
    if (e instanceof Stop) return { offset: e.offset, reason: e.reason };
    throw e;
  }
}

/** A JSON string literal as Python's json.dumps writes it (ensure_ascii: non-ASCII as \uXXXX). */
export function pyJsonString(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i);
    start = i + 1;
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      default:
        out += '\\u' + c.toString(16).padStart(4, '0');
    }
  }
  return out + s.slice(start) + '"';
}

/**
 * Any JSON value as Python's `json.dumps(v)` writes it (default separators, keys in insertion
 * order, integers without a fraction). Non-finite numbers are rejected.
 */
export function pyJson(v: unknown): string {
  const parts: string[] = [];
  const emit = (x: unknown): void => {
    if (x === null) parts.push('null');
    else if (typeof x === 'string') parts.push(pyJsonString(x));
    else if (typeof x === 'number') {
      if (!Number.isFinite(x)) throw new DialogymError(`pyJson: non-finite number ${x}`);
      parts.push(Number.isInteger(x) ? String(x) : pyFloat(x));
    } else if (typeof x === 'boolean') parts.push(x ? 'true' : 'false');
    else if (Array.isArray(x)) {
      parts.push('[');
      x.forEach((y, k) => {
        if (k > 0) parts.push(', ');
        emit(y);
      });
      parts.push(']');
    } else if (typeof x === 'object') {
      parts.push('{');
      let first = true;
      for (const [k, y] of Object.entries(x as Record<string, unknown>)) {
        if (y === undefined) continue;
        if (!first) parts.push(', ');
        first = false;
        parts.push(pyJsonString(k), ': ');
        emit(y);
      }
      parts.push('}');
    } else throw new DialogymError(`pyJson: cannot write a ${typeof x}`);
  };
  emit(v);
  return parts.join('');
}

/** Python's repr of a float (shortest round-trip digits; exponent form like 1e-05). */
function pyFloat(x: number): string {
  const s = String(x);
  const m = /^(-?[\d.]+)e([+-])(\d+)$/.exec(s);
  if (!m) return s;
  return `${m[1]}e${m[2]}${(m[3] as string).padStart(2, '0')}`;
}
