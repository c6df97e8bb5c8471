/**
 * Mutations of real inputs for the reader fuzzing (fast-check arbitraries): character and byte
 * edits, tokens known to have broken readers (a value nested 20,000 arrays deep, a TAB, `1e308`,
 * `"1"`, `R_r;ting`, `Infinity`…), numbers replaced by extreme ones, lines dropped, repeated or
 * swapped. Each mutation is a short list of operations applied in order.
 */
import fc from 'fast-check';

/** Tokens inserted or substituted by the text mutations. */
export const NASTY_TOKENS: readonly string[] = [
  '\t', '\n', '\r\n', '\n\n', ' ', '', '"', '\\', ',', ':', '[', ']', '{', '}', ';', '=', '\u0000', '\ufffd', 'é', '😀',
  '['.repeat(20000) + ']'.repeat(20000), '{"a":'.repeat(5000) + '1' + '}'.repeat(5000),
  '1e308', '1e400', '-1e400', '1.2e22', 'Infinity', 'NaN', '-5', '-1', '0', '1.5', '4294967296', '"1"', '"abc"', 'null', 'true', '[]', '{}',
  'R_r;ting', 'R_phone', ' R_rating ', 'api_call no result', '<SILENCE>', 'UNK', '\tUNK', 'x'.repeat(300),
];

const EXTREME_NUMBERS: readonly string[] = ['1e308', '1e400', '-1', '-5', '0', '1.5', '1.2e22', '9007199254740993', '"7"', 'null', '1e-7', '4294967295'];

/** One edit of a text: where (a fraction of the length), what, and how much. */
export type TextOp =
  | { readonly kind: 'insert' | 'replace'; readonly at: number; readonly token: string; readonly len: number }
  | { readonly kind: 'delete' | 'duplicate'; readonly at: number; readonly len: number }
  | { readonly kind: 'char'; readonly at: number; readonly code: number }
  | { readonly kind: 'number'; readonly at: number; readonly token: string }
  | { readonly kind: 'line'; readonly at: number; readonly to: number; readonly how: 'drop' | 'repeat' | 'swap' };

const at = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

export const textOp: fc.Arbitrary<TextOp> = fc.oneof(
  fc.record({ kind: fc.constantFrom('insert' as const, 'replace' as const), at, token: fc.constantFrom(...NASTY_TOKENS), len: fc.integer({ min: 0, max: 8 }) }),
  fc.record({ kind: fc.constantFrom('delete' as const, 'duplicate' as const), at, len: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('char' as const), at, code: fc.integer({ min: 0, max: 0x2ff }) }),
  fc.record({ kind: fc.constant('number' as const), at, token: fc.constantFrom(...EXTREME_NUMBERS) }),
  fc.record({ kind: fc.constant('line' as const), at, to: at, how: fc.constantFrom('drop' as const, 'repeat' as const, 'swap' as const) }),
);

/** Applies the operations in order. */
export function applyTextOps(text: string, ops: readonly TextOp[]): string {
  let s = text;
  for (const op of ops) {
    const i = Math.floor(op.at * (s.length + 1));
    switch (op.kind) {
      case 'insert':
        s = s.slice(0, i) + op.token + s.slice(i);
        break;
      case 'replace':
        s = s.slice(0, i) + op.token + s.slice(i + op.len);
        break;
      case 'delete':
        s = s.slice(0, i) + s.slice(i + op.len);
        break;
      case 'duplicate':
        s = s.slice(0, i + op.len) + s.slice(i, i + op.len) + s.slice(i + op.len);
        break;
      case 'char':
        s = s.slice(0, i) + String.fromCharCode(op.code) + s.slice(i + 1);
        break;
      case 'number': {
        const re = /-?\d+(\.\d+)?([eE][+-]?\d+)?/g;
        re.lastIndex = i;
        const m = re.exec(s) ?? /-?\d+/.exec(s);
        if (m) s = s.slice(0, m.index) + op.token + s.slice(m.index + m[0].length);
        break;
      }
      case 'line': {
        const lines = s.split('\n');
        const a = Math.floor(op.at * lines.length);
        const b = Math.floor(op.to * lines.length);
        if (op.how === 'drop') lines.splice(a, 1);
        else if (op.how === 'repeat') lines.splice(a, 0, lines[a] ?? '');
        else [lines[a], lines[b]] = [lines[b] ?? '', lines[a] ?? ''];
        s = lines.join('\n');
        break;
      }
    }
  }
  return s;
}

/** A mutated copy of one of `seeds`: 1–4 operations. */
export function mutatedText(seeds: readonly string[]): fc.Arbitrary<{ seed: number; ops: TextOp[]; text: string }> {
  return fc.record({ seed: fc.integer({ min: 0, max: seeds.length - 1 }), ops: fc.array(textOp, { minLength: 1, maxLength: 4 }) }).map(({ seed, ops }) => ({
    seed,
    ops,
    text: applyTextOps(seeds[seed] as string, ops),
  }));
}

/** A byte-level mutation: up to 8 bit flips, or a truncation, or bytes overwritten at a random place. */
export type ByteOp = { readonly kind: 'flip'; readonly at: number; readonly bit: number } | { readonly kind: 'truncate'; readonly at: number } | { readonly kind: 'overwrite'; readonly at: number; readonly bytes: number[] };

export const byteOp: fc.Arbitrary<ByteOp> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('flip' as const), at, bit: fc.integer({ min: 0, max: 7 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('overwrite' as const), at, bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 16 }) }) },
);

export function applyByteOps(buf: Buffer, ops: readonly ByteOp[]): Buffer {
  let b = Buffer.from(buf);
  for (const op of ops) {
    const i = Math.floor(op.at * b.length);
    if (op.kind === 'flip') b[i] = (b[i] as number) ^ (1 << op.bit);
    else if (op.kind === 'truncate') b = b.subarray(0, i);
    else for (let k = 0; k < op.bytes.length && i + k < b.length; k++) b[i + k] = op.bytes[k] as number;
  }
  return b;
}

/** Nasty JSON values put into a model-file header by the forged-header mutation. */
export const NASTY_JSON: readonly unknown[] = ['abc', null, -5, -1, 0, 1.5, 1e308, 2 ** 31, 2 ** 32 + 4, [], {}, true, '', [1, 2], [-1], [2 ** 20, 2 ** 20], 'W'];
