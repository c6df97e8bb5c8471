/**
 * The WebAssembly module of src/testbeds/dstc6/score-scan.cts (its SCANNER_WASM, which
 * score-quick.test.ts checks against `scannerBytes()`): the byte scanner of a DSTC6 result file
 * in the plain spelling, written out here. Grammar (JSON whitespace between tokens):
 *   file  = '[' (entry (',' entry)*)? ']'
 *   entry = '{' '"dialog_id"' ':' id ',' '"lst_candidate_id"' ':' '[' (cand (',' cand)*)? ']' '}'
 *   cand  = '{' '"candidate_id"' ':' id ',' '"rank"' ':' rank '}'
 *   id    = '"' 1–200 bytes of printable ASCII but '"' and '\\' '"';  rank = [1-9][0-9]* ≤ 1,000,000, not followed by '.', 'e' or 'E'
 * at most 100,000 candidates an entry. Functions: str(p), scan(n, out); whitespace skips and key
 * matches are written inline in scan (Liftoff, the baseline compiler the CLI's fast path keeps
 * WebAssembly on, does not inline calls: a call per token cost a third of the scan).
 */
import { get, leb, section, set, sleb, vec } from '../src/nn/wasm.js';
import { INPUT } from '../src/testbeds/dstc6/score-scan.cjs';

const k = (n: number): number[] => [0x41, ...sleb(n)];
const call = (f: number): number[] => [0x10, f];
const LOAD8 = [0x2d, 0, 0];
const store = (offset: number): number[] => [0x36, 2, ...leb(offset)];
const [EQ, NE, LT_U, GT_U, ADD, SUB, MUL, OR] = [0x46, 0x47, 0x49, 0x4b, 0x6a, 0x6b, 0x6c, 0x72];
const [BLOCK, LOOP, IF, END, BR, BR_IF, RETURN, VOID] = [0x02, 0x03, 0x04, 0x0b, 0x0c, 0x0d, 0x0f, 0x40];
/** `if (cond) return -1`. */
const failIf = (cond: number[]): number[] => [...cond, IF, VOID, ...k(-1), RETURN, END];
const [STR, SCAN] = [0, 1];
/** The keys, quotes included, at the start of memory (the file follows at INPUT). */
const KEY_TEXT = '"dialog_id""lst_candidate_id""candidate_id""rank"';
const [DIALOG_ID, LST, CANDIDATE_ID, RANK] = [0, 11, 29, 43];

/** `p = skip(p)`: p moves past JSON whitespace (c: a scratch local). */
function wsInline(p: number, c: number): number[] {
  const isWs = [...get(c), ...k(32), EQ, ...get(c), ...k(9), EQ, OR, ...get(c), ...k(10), EQ, OR, ...get(c), ...k(13), EQ, OR];
  return [LOOP, VOID, ...get(p), ...LOAD8, ...set(c), ...isWs, IF, VOID, ...get(p), ...k(1), ADD, ...set(p), BR, 1, END, END];
}

/**
 * `if the n bytes at p are not those at a: return -1; p += n`, n ≥ 4: compared a word at a time
 * (i64 for n ≥ 8, else i32; the last word ends at n, overlapping the one before); the bytes read
 * stay inside the memory, which holds the table after the file.
 */
function litInline(p: number, a: number, n: number): number[] {
  const [load, ne, w] = n >= 8 ? [0x29, 0x52, 8] : [0x28, 0x47, 4];
  const word = (base: number[], offset: number): number[] => [...base, load, 0, ...leb(offset)];
  const offsets = [...Array.from({ length: Math.ceil(n / w) - 1 }, (_, i) => i * w), n - w];
  const differs = offsets.flatMap((o, i) => [...word(get(p), o), ...word(k(a), o), ne, ...(i > 0 ? [OR] : [])]);
  return [
    ...failIf(differs),
    ...get(p), ...k(n), ADD, ...set(p),
  ];
}

/** str(p): the offset after the closing quote of a string of 1–200 printable ASCII bytes without `\` at p, else -1. */
function strBody(): number[] {
  const [P, Q, C] = [0, 1, 2];
  return [
    ...vec([[2, 0x7f]]),
    ...failIf([...get(P), ...LOAD8, ...k(34), NE]),
    ...get(P), ...k(1), ADD, ...set(Q),
    BLOCK, VOID, LOOP, VOID,
    ...get(Q), ...LOAD8, 0x22, ...leb(C), ...k(34), EQ, BR_IF, 1,
    ...failIf([...get(C), ...k(32), LT_U, ...get(C), ...k(126), GT_U, OR, ...get(C), ...k(92), EQ, OR]),
    ...get(Q), ...k(1), ADD, ...set(Q), BR, 0,
    END, END,
    ...failIf([...get(Q), ...get(P), SUB, ...k(2), LT_U, ...get(Q), ...get(P), SUB, ...k(201), GT_U, OR]),
    ...get(Q), ...k(1), ADD, END,
  ];
}

/**
 * scan(n, out): the entries of the n bytes at INPUT, or -1 when they are not a result file in the
 * plain spelling; the table at out: per entry dialog_id start and end, its candidates' count,
 * then per candidate candidate_id start and end and rank (i32 each; offsets in memory).
 */
function scanBody(): number[] {
  const [N, OUT, P, W, ENTRIES, CNT, CPTR, R, C, S, T] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const ws = (extra: number): number[] => [...(extra === 0 ? [] : [...get(P), ...k(extra), ADD, ...set(P)]), ...wsInline(P, T)];
  const expect = (ch: string): number[] => failIf([...get(P), ...LOAD8, ...k(ch.charCodeAt(0)), NE]);
  const at = (ch: string): number[] => [...get(P), ...LOAD8, ...k(ch.charCodeAt(0)), EQ];
  const lit = (a: number, n: number): number[] => litInline(P, a, n);
  const colon = [...ws(0), ...expect(':'), ...ws(1)];
  const str = [...get(P), ...k(1), ADD, ...set(S), ...get(P), ...call(STR), 0x22, ...leb(P), ...k(0), 0x48, IF, VOID, ...k(-1), RETURN, END];
  const storeSpan = [...get(W), ...get(S), ...store(0), ...get(W), ...get(P), ...k(1), SUB, ...store(4)];
  const rank = [
    ...get(P), ...LOAD8, ...set(C),
    ...failIf([...get(C), ...k(49), LT_U, ...get(C), ...k(57), GT_U, OR]),
    ...k(0), ...set(R),
    BLOCK, VOID, LOOP, VOID,
    ...get(P), ...LOAD8, 0x22, ...leb(C), ...k(48), SUB, ...k(9), GT_U, BR_IF, 1,
    ...get(R), ...k(10), MUL, ...get(C), ADD, ...k(48), SUB, 0x22, ...leb(R),
    ...k(1_000_000), GT_U, IF, VOID, ...k(-1), RETURN, END,
    ...get(P), ...k(1), ADD, ...set(P), BR, 0,
    END, END,
    ...failIf([...get(C), ...k(46), EQ, ...get(C), ...k(101), EQ, OR, ...get(C), ...k(69), EQ, OR]),
  ];
  const candidate = [
    ...expect('{'), ...ws(1),
    ...lit(CANDIDATE_ID, 14), ...colon,
    ...str, ...storeSpan,
    ...ws(0), ...expect(','), ...ws(1),
    ...lit(RANK, 6), ...colon,
    ...rank,
    ...get(W), ...get(R), ...store(8), ...get(W), ...k(12), ADD, ...set(W),
    ...get(CNT), ...k(1), ADD, 0x22, ...leb(CNT), ...k(100_000), GT_U, IF, VOID, ...k(-1), RETURN, END,
    ...ws(0), ...expect('}'), ...ws(1),
    ...at(','), IF, VOID, ...ws(1), BR, 1, END,
    ...expect(']'),
  ];
  const entry = [
    ...expect('{'), ...ws(1),
    ...lit(DIALOG_ID, 11), ...colon,
    ...str, ...storeSpan,
    ...get(W), ...k(8), ADD, ...set(CPTR), ...get(W), ...k(12), ADD, ...set(W),
    ...ws(0), ...expect(','), ...ws(1),
    ...lit(LST, 18), ...colon,
    ...expect('['), ...ws(1),
    ...k(0), ...set(CNT),
    BLOCK, VOID, ...at(']'), BR_IF, 0, LOOP, VOID, ...candidate, END, END,
    ...get(CPTR), ...get(CNT), ...store(0),
    ...ws(1), ...expect('}'),
    ...get(ENTRIES), ...k(1), ADD, ...set(ENTRIES),
    ...ws(1),
    ...at(','), IF, VOID, ...ws(1), BR, 1, END,
    ...expect(']'),
  ];
  return [
    ...vec([[9, 0x7f]]),
    ...k(INPUT), ...set(P), ...ws(0),
    ...expect('['), ...ws(1),
    ...get(OUT), ...set(W),
    BLOCK, VOID, ...at(']'), BR_IF, 0, LOOP, VOID, ...entry, END, END,
    ...ws(1),
    ...failIf([...get(P), ...get(N), ...k(INPUT), ADD, NE]),
    ...get(ENTRIES), END,
  ];
}

export function scannerBytes(): Uint8Array {
  const I32 = 0x7f;
  const fn = (params: number): number[] => [0x60, ...vec(new Array<number[]>(params).fill([I32])), 1, I32];
  const types = section(1, vec([fn(1), fn(2)]));
  const imports = section(2, vec([[1, 0x65, 1, 0x6d, 0x02, 0x00, 0x01]])); // memory e.m, at least 1 page
  const funcs = section(3, vec([[0], [1]]));
  const exports = section(7, vec([[4, ...Buffer.from('scan'), 0x00, SCAN]]));
  const code = section(10, vec([strBody(), scanBody()].map((b) => [...leb(b.length), ...b])));
  const data = section(11, vec([[0x00, ...k(0), END, ...leb(KEY_TEXT.length), ...Buffer.from(KEY_TEXT)]]));
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...types, ...imports, ...funcs, ...exports, ...code, ...data]);
}
