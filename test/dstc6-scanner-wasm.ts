/**
 * The WebAssembly module of src/testbeds/dstc6/score-scan.cts (its SCANNER_WASM, which
 * score-quick.test.ts checks against `scannerBytes()`): the byte scanner of a DSTC6 result file
 * in the plain spelling, written out here. Grammar (JSON whitespace between tokens):
 *   file  = '[' (entry (',' entry)*)? ']'
 *   entry = '{' '"dialog_id"' ':' id ',' '"lst_candidate_id"' ':' '[' (cand (',' cand)*)? ']' '}'
 *   cand  = '{' '"candidate_id"' ':' id ',' '"rank"' ':' rank '}'
 *   id    = '"' 1–200 bytes of printable ASCII but '"' and '\\' '"';  rank = [1-9][0-9]* ≤ 1,000,000, not followed by '.', 'e' or 'E'
 * at most 100,000 candidates an entry. Functions: str(p), scan(b, n, out), and for scoring a
 * result against a truth file both tabled in memory eq, find (a hash table of the truth's dialog
 * ids), truth and match (exported: scan, truth, match); whitespace skips and key
 * matches are written inline in scan (Liftoff, the baseline compiler the CLI's fast path keeps
 * WebAssembly on, does not inline calls: a call per token cost a third of the scan).
 */
import { get, leb, section, set, sleb, vec } from '../src/nn/wasm.js';

const k = (n: number): number[] => [0x41, ...sleb(n)];
const call = (f: number): number[] => [0x10, f];
const LOAD8 = [0x2d, 0, 0];
const store = (offset: number): number[] => [0x36, 2, ...leb(offset)];
const [EQ, NE, LT_U, GT_U, ADD, SUB, MUL, OR] = [0x46, 0x47, 0x49, 0x4b, 0x6a, 0x6b, 0x6c, 0x72];
const [BLOCK, LOOP, IF, ELSE, END, BR, BR_IF, RETURN, VOID] = [0x02, 0x03, 0x04, 0x05, 0x0b, 0x0c, 0x0d, 0x0f, 0x40];
/** `if (cond) return -1`. */
const failIf = (cond: number[]): number[] => [...cond, IF, VOID, ...k(-1), RETURN, END];
const [STR, SCAN, EQ_SPAN, FIND, TRUTH, MATCH, TALLY] = [0, 1, 2, 3, 4, 5, 6];
/** The keys, quotes included, at the start of memory (the files follow them: score-scan.cts INPUT). */
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

/** A SIMD instruction (prefix 0xfd, then its opcode). */
const simd = (op: number): number[] => [0xfd, ...leb(op)];
const [V128_LOAD, I8X16_SPLAT, I8X16_EQ, I8X16_GT_U, V128_OR, I8X16_BITMASK, I8X16_SUB] = [0x00, 0x0f, 0x23, 0x28, 0x50, 0x64, 0x71];
const CTZ = 0x68;

/**
 * str(p): the offset after the closing quote of a string of 1–200 printable ASCII bytes without `\`
 * at p, else -1. The bytes are read 16 at a time (SIMD): the first that is a quote, a `\` or not
 * printable ASCII ends the string, which is good when it is the quote (an id of the DSTC6 files,
 * 36 bytes, took 36 rounds of four compares a byte). It reads at most 15 bytes past a file's end,
 * inside the room kept after it for its table.
 */
function strBody(): number[] {
  const [P, Q, M, V] = [0, 1, 2, 3];
  const splat = (n: number): number[] => [...k(n), ...simd(I8X16_SPLAT)];
  // a lane is set where the byte is '"' or '\\' or outside 32..126 (byte - 32 above 94, unsigned)
  const ends = [
    ...get(V), ...splat(32), ...simd(I8X16_SUB), ...splat(94), ...simd(I8X16_GT_U),
    ...get(V), ...splat(34), ...simd(I8X16_EQ), ...simd(V128_OR),
    ...get(V), ...splat(92), ...simd(I8X16_EQ), ...simd(V128_OR),
    ...simd(I8X16_BITMASK),
  ];
  return [
    ...vec([[2, 0x7f], [1, 0x7b]]),
    ...failIf([...get(P), ...LOAD8, ...k(34), NE]),
    ...get(P), ...k(1), ADD, ...set(Q),
    BLOCK, VOID, LOOP, VOID,
    ...get(Q), ...simd(V128_LOAD), 0, 0, ...set(V),
    ...ends, 0x22, ...leb(M),
    IF, VOID, ...get(Q), ...get(M), CTZ, ADD, ...set(Q), BR, 2, END,
    ...get(Q), ...k(16), ADD, ...set(Q), BR, 0,
    END, END,
    ...failIf([...get(Q), ...LOAD8, ...k(34), NE]),
    ...failIf([...get(Q), ...get(P), SUB, ...k(2), LT_U, ...get(Q), ...get(P), SUB, ...k(201), GT_U, OR]),
    ...get(Q), ...k(1), ADD, END,
  ];
}

/** A signed LEB128 of a 64-bit value (i64.const). */
function sleb64(v: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    if ((v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0)) return [...out, b];
    out.push(b | 0x80);
  }
}

/**
 * Whether the bytes at p + offset are `text` (ASCII, no 0 byte): compared 8, then 4, 2 and 1 at
 * a time (little-endian words, the constants inline). A 0 byte, which ends every file in memory,
 * is in no such text: a match never reads past a file's end. Leaves an i32 (1: they are).
 */
function bytesAre(p: number, offset: number, text: string): number[] {
  const out: number[] = [];
  let o = 0;
  const word = (n: number): bigint => [...Buffer.from(text.slice(o, o + n), 'latin1')].reduceRight((v, b) => (v << 8n) | BigInt(b), 0n);
  for (const [n, op, konst, eq] of [
    [8, [0x29, 0], (v: bigint) => [0x42, ...sleb64(BigInt.asIntN(64, v))], 0x51],
    [4, [0x28, 0], (v: bigint) => k(Number(BigInt.asIntN(32, v))), EQ],
    [2, [0x2f, 0], (v: bigint) => k(Number(v)), EQ],
    [1, [0x2d, 0], (v: bigint) => k(Number(v)), EQ],
  ] as const) {
    while (text.length - o >= n) {
      out.push(...get(p), ...op, ...leb(offset + o), ...konst(word(n)), eq, ...(out.length > 0 ? [AND] : []));
      o += n;
    }
  }
  return out;
}

/**
 * scan(b, n, out): the entries of the n bytes at b, or -1 when they are not a result file in the
 * plain spelling; the table at out: per entry dialog_id start and end, its candidates' count,
 * then per candidate candidate_id start and end and rank (i32 each; offsets in memory).
 */
function scanBody(): number[] {
  const [B, N, OUT, P, W, ENTRIES, CNT, CPTR, R, C, S, T] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
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
  // The spelling of Python's json.dumps and of dialogym's writer is read by word compares (the
  // bytes of `{"candidate_id": "`, then `, "rank": `, then `}, {`), any other through the grammar
  // token by token: the same table either way (a third of the scan's time on the DSTC6 files).
  // Each such text holds no 0 byte, which ends every file in memory: a match stays in the file.
  const candidate = [
    ...bytesAre(P, 0, '{"candidate_id": "'), IF, VOID, ...get(P), ...k(17), ADD, ...set(P), ELSE,
    ...expect('{'), ...ws(1),
    ...lit(CANDIDATE_ID, 14), ...colon,
    END,
    ...str, ...storeSpan,
    ...bytesAre(P, 0, ', "rank": '), IF, VOID, ...ws(10), ELSE,
    ...ws(0), ...expect(','), ...ws(1),
    ...lit(RANK, 6), ...colon,
    END,
    ...rank,
    ...get(W), ...get(R), ...store(8), ...get(W), ...k(12), ADD, ...set(W),
    ...get(CNT), ...k(1), ADD, 0x22, ...leb(CNT), ...k(100_000), GT_U, IF, VOID, ...k(-1), RETURN, END,
    ...bytesAre(P, 0, '}, {'), IF, VOID, ...get(P), ...k(3), ADD, ...set(P), BR, 1, END,
    ...ws(0), ...expect('}'), ...ws(1),
    ...at(','), IF, VOID, ...ws(1), BR, 1, END,
    ...expect(']'),
  ];
  // likewise `{"dialog_id": "`, `, "lst_candidate_id": [` and `]}, {`
  const entry = [
    ...bytesAre(P, 0, '{"dialog_id": "'), IF, VOID, ...get(P), ...k(14), ADD, ...set(P), ELSE,
    ...expect('{'), ...ws(1),
    ...lit(DIALOG_ID, 11), ...colon,
    END,
    ...str, ...storeSpan,
    ...get(W), ...k(8), ADD, ...set(CPTR), ...get(W), ...k(12), ADD, ...set(W),
    ...bytesAre(P, 0, ', "lst_candidate_id": ['), IF, VOID, ...ws(23), ELSE,
    ...ws(0), ...expect(','), ...ws(1),
    ...lit(LST, 18), ...colon,
    ...expect('['), ...ws(1),
    END,
    ...k(0), ...set(CNT),
    BLOCK, VOID, ...at(']'), BR_IF, 0, LOOP, VOID, ...candidate, END, END,
    ...get(CPTR), ...get(CNT), ...store(0),
    ...bytesAre(P, 0, ']}, {'), IF, VOID, ...get(P), ...k(4), ADD, ...set(P), ...get(ENTRIES), ...k(1), ADD, ...set(ENTRIES), BR, 1, END,
    ...ws(1), ...expect('}'),
    ...get(ENTRIES), ...k(1), ADD, ...set(ENTRIES),
    ...ws(1),
    ...at(','), IF, VOID, ...ws(1), BR, 1, END,
    ...expect(']'),
  ];
  return [
    ...vec([[9, 0x7f]]),
    ...get(B), ...set(P), ...ws(0),
    ...expect('['), ...ws(1),
    ...get(OUT), ...set(W),
    BLOCK, VOID, ...at(']'), BR_IF, 0, LOOP, VOID, ...entry, END, END,
    ...ws(1),
    ...failIf([...get(P), ...get(N), ...get(B), ADD, NE]),
    ...get(ENTRIES), END,
  ];
}

const [AND, XOR, SHL, SHR_U, EQZ, LE_U, GE_U, TEE] = [0x71, 0x73, 0x74, 0x76, 0x45, 0x4d, 0x4f, 0x22];
const load = (offset: number): number[] => [0x28, 2, ...leb(offset)];
/** `local = local + n`. */
const inc = (local: number, n: number): number[] => [...get(local), ...k(n), ADD, ...set(local)];
/**
 * `while (cond) { body; step }`: in `body`, `br depth+1` leaves the loop and `br depth` goes on
 * to the step (depth: the blocks `body` opened around the branch).
 */
const loopWhile = (cond: number[], body: number[], step: number[]): number[] => [
  BLOCK, VOID, LOOP, VOID,
  ...cond, EQZ, BR_IF, 1,
  BLOCK, VOID, ...body, END,
  ...step, BR, 0,
  END, END,
];

/** eq(a, ae, b, be): 1 when the bytes [a, ae) are those of [b, be), else 0; compared 8 bytes at a time, then the last bytes one by one. */
function eqBody(): number[] {
  const [A, AE, BB, BE] = [0, 1, 2, 3];
  const I64_LOAD = [0x29, 0, 0];
  const I64_NE = 0x52;
  return [
    ...vec([]),
    ...get(AE), ...get(A), SUB, ...get(BE), ...get(BB), SUB, NE, IF, VOID, ...k(0), RETURN, END,
    ...loopWhile(
      [...get(A), ...k(8), ADD, ...get(AE), LE_U],
      [...get(A), ...I64_LOAD, ...get(BB), ...I64_LOAD, I64_NE, IF, VOID, ...k(0), RETURN, END],
      [...inc(A, 8), ...inc(BB, 8)],
    ),
    ...loopWhile(
      [...get(A), ...get(AE), LT_U],
      [...get(A), ...LOAD8, ...get(BB), ...LOAD8, NE, IF, VOID, ...k(0), RETURN, END],
      [...inc(A, 1), ...inc(BB, 1)],
    ),
    ...k(1), END,
  ];
}

/**
 * find(s, e, h, mask, ans): the address of the slot of the id [s, e) in the hash table at h
 * (mask + 1 slots of an i32: 0 empty, else 1 + the truth entry whose id it is, that entry's
 * id span at ans + 16 × entry), or of the empty slot where it goes. FNV-1a over the id's 4-byte
 * words and then its last bytes, mixed at the end (murmur3's finalizer: the slot takes the low
 * bits, to which FNV's product brings nothing of a word's high bytes), linear probing.
 */
function findBody(): number[] {
  const [S_, E, H, MASK, ANS, X, P, V] = [0, 1, 2, 3, 4, 5, 6, 7];
  const slot = [...get(H), ...get(X), ...get(MASK), AND, ...k(2), SHL, ADD];
  return [
    ...vec([[3, 0x7f]]),
    ...k(0x811c9dc5 | 0), ...set(X),
    ...get(S_), ...set(P),
    ...loopWhile(
      [...get(P), ...k(4), ADD, ...get(E), LE_U],
      [...get(X), ...get(P), ...load(0), XOR, ...k(16777619), MUL, ...set(X)],
      inc(P, 4),
    ),
    ...loopWhile(
      [...get(P), ...get(E), LT_U],
      [...get(X), ...get(P), ...LOAD8, XOR, ...k(16777619), MUL, ...set(X)],
      inc(P, 1),
    ),
    ...get(X), ...get(X), ...k(16), SHR_U, XOR, ...k(0x85ebca6b | 0), MUL, ...set(X),
    ...get(X), ...get(X), ...k(13), SHR_U, XOR, ...set(X),
    LOOP, VOID,
    ...slot, ...load(0), TEE, ...leb(V), EQZ, IF, VOID, ...slot, RETURN, END,
    ...get(S_), ...get(E),
    ...get(ANS), ...get(V), ...k(1), SUB, ...k(4), SHL, ADD, ...load(0),
    ...get(ANS), ...get(V), ...k(1), SUB, ...k(4), SHL, ADD, ...load(4),
    ...call(EQ_SPAN), IF, VOID, ...slot, RETURN, END,
    ...inc(X, 1), BR, 0,
    END,
    ...k(0), END,
  ];
}

/**
 * truth(t, te, h, mask, ans): reads the te entries of a truth file's table at t: per entry, at
 * ans + 16 × entry, its dialog_id span and the candidate_id span of its answer (its last
 * candidate of rank 1), and its id in the hash table at h (zeroed by the caller); 0, or -1 when
 * an entry has no rank-1 candidate or a dialog_id is there twice.
 */
function truthBody(): number[] {
  const [T_, TE, H, MASK, ANS, Q, E, END_, ONE, A, ADDR] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  return [
    ...vec([[6, 0x7f]]),
    ...get(T_), ...set(Q),
    ...k(0), ...set(E),
    ...loopWhile(
      [...get(E), ...get(TE), LT_U],
      [
        ...get(Q), ...k(12), ADD, ...get(Q), ...load(8), ...k(12), MUL, ADD, ...set(END_),
        ...get(ANS), ...get(E), ...k(4), SHL, ADD, ...set(A),
        ...get(A), ...get(Q), ...load(0), ...store(0),
        ...get(A), ...get(Q), ...load(4), ...store(4),
        ...k(0), ...set(ONE),
        ...inc(Q, 12),
        ...loopWhile(
          [...get(Q), ...get(END_), LT_U],
          [...get(Q), ...load(8), ...k(1), EQ, IF, VOID, ...get(Q), ...set(ONE), END],
          inc(Q, 12),
        ),
        ...failIf([...get(ONE), EQZ]),
        ...get(A), ...get(ONE), ...load(0), ...store(8),
        ...get(A), ...get(ONE), ...load(4), ...store(12),
        ...get(A), ...load(0), ...get(A), ...load(4), ...get(H), ...get(MASK), ...get(ANS), ...call(FIND), TEE, ...leb(ADDR),
        ...load(0), IF, VOID, ...k(-1), RETURN, END,
        ...get(ADDR), ...get(E), ...k(1), ADD, ...store(0),
      ],
      inc(E, 1),
    ),
    ...k(0), END,
  ];
}

/**
 * match(r, re, nb, h, mask, ans, ranks): scores the re entries of a result file's table at r
 * against the truth read by `truth` (h, mask, ans): for each entry, the rank of its dialog's
 * answer as score-scan.cts `rankOfAnswer` reads it (0: none) plus 1 is written at ranks + 4 ×
 * the truth entry (the last listing of a dialog wins; the caller zeroes ranks: 0 is a dialog not
 * listed). Returns how many listings repeat a dialog, or -2 when a dialog_id is not in the
 * truth (the caller's Map walk counts those).
 */
function matchBody(): number[] {
  const [R_, RE, NB, H, MASK, ANS, RANKS, Q, E, END_, V, AS, AE, BEST, I, J, RI, OV, DUP, SLOT] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19];
  const isAnswer = (at: number): number[] => [...get(at), ...load(0), ...get(at), ...load(4), ...get(AS), ...get(AE), ...call(EQ_SPAN)];
  // one candidate i: skipped (br 0 to the step) unless it can be the best slot holding the answer
  const candidate = [
    ...get(I), ...load(8), TEE, ...leb(RI), ...get(NB), GT_U, BR_IF, 0,
    ...get(BEST), ...k(0), NE, ...get(RI), ...get(BEST), GE_U, AND, BR_IF, 0,
    ...isAnswer(I), EQZ, BR_IF, 0,
    ...k(0), ...set(OV),
    ...get(I), ...k(12), ADD, ...set(J),
    ...loopWhile(
      [...get(J), ...get(END_), LT_U, ...get(OV), EQZ, AND],
      [...get(J), ...load(8), ...get(RI), EQ, IF, VOID, ...isAnswer(J), EQZ, ...set(OV), END],
      inc(J, 12),
    ),
    ...get(OV), EQZ, IF, VOID, ...get(RI), ...set(BEST), END,
  ];
  return [
    ...vec([[13, 0x7f]]),
    ...get(R_), ...set(Q),
    ...k(0), ...set(E),
    ...k(0), ...set(DUP),
    ...loopWhile(
      [...get(E), ...get(RE), LT_U],
      [
        ...get(Q), ...k(12), ADD, ...get(Q), ...load(8), ...k(12), MUL, ADD, ...set(END_),
        ...get(Q), ...load(0), ...get(Q), ...load(4), ...get(H), ...get(MASK), ...get(ANS), ...call(FIND), ...load(0), TEE, ...leb(V),
        EQZ, IF, VOID, ...k(-2), RETURN, END,
        ...get(ANS), ...get(V), ...k(1), SUB, ...k(4), SHL, ADD, TEE, ...leb(AS), ...load(12), ...set(AE),
        ...get(AS), ...load(8), ...set(AS),
        ...k(0), ...set(BEST),
        ...get(Q), ...k(12), ADD, ...set(I),
        ...loopWhile([...get(I), ...get(END_), LT_U], candidate, inc(I, 12)),
        ...get(RANKS), ...get(V), ...k(1), SUB, ...k(2), SHL, ADD, TEE, ...leb(SLOT), ...load(0),
        IF, VOID, ...inc(DUP, 1), END,
        ...get(SLOT), ...get(BEST), ...k(1), ADD, ...store(0),
        ...get(END_), ...set(Q),
      ],
      inc(E, 1),
    ),
    ...get(DUP), END,
  ];
}

/**
 * tally(ranks, n, ks, nks, out): the score of n truth dialogs from the ranks `match` wrote (rank
 * + 1 each; 0 not listed) as score-scan.cts `scoreInOrder` makes it: at out the sum of the
 * reciprocal ranks (f64, added in dialog order as there: the same double), at out + 8 the dialogs
 * not listed, at out + 16 + 4k the hits at k of the nks ks (i32) at ks. Returns 0. (A loop of a
 * thousand dialogs in JavaScript took ~0.17 ms at the baseline tier.)
 */
function tallyBody(): number[] {
  const [RANKS, N, KS, NKS, OUT, I, R, K, MISSING, SUM] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const [F64_CONVERT_I32_S, F64_DIV, F64_ADD, LT_S, GT_S, LE_S] = [0xb7, 0xa3, 0xa0, 0x48, 0x4a, 0x4c];
  const f64one = [0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f];
  const hit = (local: number): number[] => [...get(OUT), ...k(16), ADD, ...get(local), ...k(2), SHL, ADD];
  return [
    ...vec([[4, 0x7f], [1, 0x7c]]),
    ...loopWhile([...get(K), ...get(NKS), LT_U], [...hit(K), ...k(0), ...store(0)], inc(K, 1)),
    ...loopWhile(
      [...get(I), ...get(N), LT_U],
      [
        ...get(RANKS), ...get(I), ...k(2), SHL, ADD, ...load(0), ...k(1), SUB, TEE, ...leb(R),
        ...k(0), LT_S, IF, VOID, ...inc(MISSING, 1), END,
        ...get(R), ...k(0), GT_S, IF, VOID,
        ...k(0), ...set(K),
        ...loopWhile(
          [...get(K), ...get(NKS), LT_U],
          [...get(R), ...get(KS), ...get(K), ...k(2), SHL, ADD, ...load(0), LE_S, IF, VOID, ...hit(K), ...hit(K), ...load(0), ...k(1), ADD, ...store(0), END],
          inc(K, 1),
        ),
        ...get(SUM), ...f64one, ...get(R), F64_CONVERT_I32_S, F64_DIV, F64_ADD, ...set(SUM),
        END,
      ],
      inc(I, 1),
    ),
    ...get(OUT), ...get(SUM), 0x39, 3, 0,
    ...get(OUT), ...get(MISSING), ...store(8),
    ...k(0), END,
  ];
}

export function scannerBytes(): Uint8Array {
  const I32 = 0x7f;
  const fn = (params: number): number[] => [0x60, ...vec(new Array<number[]>(params).fill([I32])), 1, I32];
  const types = section(1, vec([fn(1), fn(3), fn(4), fn(5), fn(7)]));
  const imports = section(2, vec([[1, 0x65, 1, 0x6d, 0x02, 0x00, 0x01]])); // memory e.m, at least 1 page
  const funcs = section(3, vec([[0], [1], [2], [3], [3], [4], [3]]));
  const name = (s: string, f: number): number[] => [s.length, ...Buffer.from(s), 0x00, f];
  const exports = section(7, vec([name('scan', SCAN), name('truth', TRUTH), name('match', MATCH), name('tally', TALLY)]));
  const code = section(10, vec([strBody(), scanBody(), eqBody(), findBody(), truthBody(), matchBody(), tallyBody()].map((b) => [...leb(b.length), ...b])));
  const data = section(11, vec([[0x00, ...k(0), END, ...leb(KEY_TEXT.length), ...Buffer.from(KEY_TEXT)]]));
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, ...types, ...imports, ...funcs, ...exports, ...code, ...data]);
}
