/**
 * WebAssembly SIMD kernel for the hot product of the 32-dimensional bag-of-words models: scores =
 * C·u for a candidate matrix C (n×32). Two float64 lanes per instruction, with exactly the sums of
 * `matVec` (four strided partial sums in float64, products of float32 values are exact in float64,
 * then s0 + s1 + s2 + s3 rounded to float32), so the scores are bit-identical to the JS kernels,
 * about twice as fast. The module is assembled here from its opcodes (no toolchain, no binary file).
 * Where WebAssembly SIMD is missing, `Wasm32Matrix.create` returns undefined and callers use `matVec`.
 */
import { InternalError } from '../core/errors.js';
import { bagSum, bagSumBackward } from './kernels.js';

/** The few WebAssembly APIs used here (the project's lib settings do not declare them). */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Memory {
    constructor(d: { initial: number });
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
  class Instance {
    constructor(m: Module, imports: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
}
/** The global WebAssembly object with the declarations above (for the other kernel modules). */
export const wasmApi: typeof WebAssembly = WebAssembly;

export const leb = (n: number): number[] => {
  const out: number[] = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return out;
};
export const vec = (items: number[][]): number[] => [...leb(items.length), ...items.flat()];
export const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];
export const str = (s: string): number[] => [...leb(s.length), ...Buffer.from(s)];
export const I32 = 0x7f;
export const V128 = 0x7b;
export const get = (i: number): number[] => [0x20, ...leb(i)];
export const set = (i: number): number[] => [0x21, ...leb(i)];
export const sleb = (n: number): number[] => {
  const out: number[] = [];
  for (;;) {
    const b = n & 0x7f;
    n >>= 7;
    if ((n === 0 && !(b & 0x40)) || (n === -1 && b & 0x40)) return [...out, b];
    out.push(b | 0x80);
  }
};
export const i32const = (n: number): number[] => [0x41, ...sleb(n)];
export const simd = (op: number): number[] => [0xfd, ...leb(op)];
export const memarg = (align: number, offset: number): number[] => [...leb(align), ...leb(offset)];
export const v128load = (offset: number): number[] => [...simd(0x00), ...memarg(2, offset)];
export const PROMOTE_LOW = simd(0x5f); // f64x2.promote_low_f32x4
export const F64X2_MUL = simd(0xf2);
export const F64X2_ADD = simd(0xf0);
const lane = (l: number): number[] => [...simd(0x21), l]; // f64x2.extract_lane
const V128_ZERO = [...simd(0x0c), ...new Array<number>(16).fill(0)];
const F64_ADD = 0xa0;
export const DEMOTE_ZERO = simd(0x5e); // f32x4.demote_f64x2_zero
export const F64X2_SPLAT = simd(0x14);
export const v128store64lane0 = (offset: number): number[] => [...simd(0x5b), ...memarg(3, offset), 0];
export const F32_LOAD = 0x2a;
const F64_PROMOTE = 0xbb;
const F64_ABS = 0x99;
const F64_LT = 0x63;
const F64_EQ = 0x61;
const I32_OR = 0x72;
export const F64 = 0x7c;
export const F32X4_ADD = simd(0xe4);
export const v128store = (offset: number): number[] => [...simd(0x0b), ...memarg(2, offset)];
const I32_LOAD = 0x28;
const F32_DEMOTE = 0xb6;
export const F32_STORE = 0x38;

/**
 * Body of `mv(m, rows, x, out)`: out[r] = M[r]·x for a row-major rows×`cols` float32 matrix (byte
 * offsets; `cols` a multiple of 4: 32 for `mv`, 64 for `mv64`).
 */
function matVecBody(cols: number): number[] {
  const [M, ROWS, X, OUT, R, O, S01, S23, XP] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const pairs = cols / 2;
  const b: number[] = [];
  // x as float64 pairs (x0,x1) (x2,x3) …
  for (let k = 0; k < pairs; k++) b.push(...get(X), ...v128load(8 * k), ...PROMOTE_LOW, ...set(XP + k));
  b.push(...get(M), ...set(O));
  b.push(0x02, 0x40, 0x03, 0x40); // block loop
  b.push(...get(R), ...get(ROWS), 0x4f, 0x0d, 1); // r >= rows → exit
  b.push(...V128_ZERO, ...set(S01), ...V128_ZERO, ...set(S23));
  // Columns 4j, 4j+1 go to (s0, s1); 4j+2, 4j+3 to (s2, s3): the partial sums of matVec, in its order.
  for (let j = 0; j < cols / 4; j++) {
    b.push(...get(S01), ...get(O), ...v128load(16 * j), ...PROMOTE_LOW, ...get(XP + 2 * j), ...F64X2_MUL, ...F64X2_ADD, ...set(S01));
    b.push(...get(S23), ...get(O), ...v128load(16 * j + 8), ...PROMOTE_LOW, ...get(XP + 2 * j + 1), ...F64X2_MUL, ...F64X2_ADD, ...set(S23));
  }
  // out[r] = f32(((s0 + s1) + s2) + s3)
  b.push(...get(OUT), ...get(R), ...i32const(2), 0x74, 0x6a);
  b.push(...get(S01), ...lane(0), ...get(S01), ...lane(1), F64_ADD, ...get(S23), ...lane(0), F64_ADD, ...get(S23), ...lane(1), F64_ADD, F32_DEMOTE, F32_STORE, ...memarg(2, 0));
  b.push(...get(O), ...i32const(4 * cols), 0x6a, ...set(O)); // o += one row
  b.push(...get(R), ...i32const(1), 0x6a, ...set(R));
  b.push(0x0c, 0, 0x0b, 0x0b, 0x0b); // br loop; end loop; end block; end func
  return [...vec([[...leb(2), I32], [...leb(2 + pairs), V128]]), ...b];
}

export const F32X4_MUL = simd(0xe6);
const f32lane = (l: number): number[] => [...simd(0x1f), l]; // f32x4.extract_lane
const F32_ADD = 0x92;
const F32_GT = 0x5e;
const F32_LT = 0x5d;
const F32 = 0x7d;
const I32_STORE = 0x36;
const I32_EQZ = 0x45;
const I32_EQ = 0x46;
const I32_NE = 0x47;
const I32_LT_S = 0x48;
const I32_AND = 0x71;
const tee = (i: number): number[] => [0x22, ...leb(i)];
const f32const = (v: number): number[] => {
  const bytes = Buffer.alloc(4);
  bytes.writeFloatLE(v);
  return [0x43, ...bytes];
};

/**
 * Body of `mvf(m, rows, x, out)` (`mvf64` for 64 columns): out[r] = M[r]·x in float32 lanes, the
 * arithmetic of `matVecF32` — four accumulators (column block j = 4 columns goes to accumulator
 * j mod 4), a = (a0 + a1) + (a2 + a3), out[r] = (a.0 + a.1) + (a.2 + a.3). About three times the
 * float64 kernel's speed; the numbers differ from `matVec` in the last bits.
 *
 * With `top` (`mvfk(m, rows, x, out, k, skip, top, ts)`, 32 columns): also the k best rows other
 * than `skip` by insertion as the rows come (top[]: rows, ts[]: their scores, best first; a row
 * enters only above the k-th best so far, so ties keep the earlier row); returns how many (≤ k).
 */
function matVecF32Body(cols: number, top = false): number[] {
  const [M, ROWS, X, OUT] = [0, 1, 2, 3];
  const [K, SKIP, TOP, TS] = [4, 5, 6, 7];
  const first = top ? 8 : 4;
  // i32 locals R, O (and with `top`: CNT, I), f32 locals V, FLOOR.
  const [R, O, CNT, I, V, FLOOR] = [first, first + 1, first + 2, first + 3, first + 4, first + 5];
  const blocks = cols / 4;
  const XV = top ? first + 6 : first + 2;
  const A = XV + blocks;
  const b: number[] = [];
  for (let j = 0; j < blocks; j++) b.push(...get(X), ...v128load(16 * j), ...set(XV + j));
  b.push(...get(M), ...set(O));
  if (top) b.push(...f32const(-Infinity), ...set(FLOOR));
  b.push(0x02, 0x40, 0x03, 0x40); // block loop
  b.push(...get(R), ...get(ROWS), 0x4f, 0x0d, 1); // r >= rows → exit
  for (let q = 0; q < 4; q++) b.push(...V128_ZERO, ...set(A + q));
  for (let j = 0; j < blocks; j++) b.push(...get(A + (j % 4)), ...get(O), ...v128load(16 * j), ...get(XV + j), ...F32X4_MUL, ...F32X4_ADD, ...set(A + (j % 4)));
  b.push(...get(A), ...get(A + 1), ...F32X4_ADD, ...get(A + 2), ...get(A + 3), ...F32X4_ADD, ...F32X4_ADD, ...set(A));
  b.push(...get(OUT), ...get(R), ...i32const(2), 0x74, 0x6a);
  b.push(...get(A), ...f32lane(0), ...get(A), ...f32lane(1), F32_ADD, ...get(A), ...f32lane(2), ...get(A), ...f32lane(3), F32_ADD, F32_ADD);
  if (top) {
    b.push(...tee(V), F32_STORE, ...memarg(2, 0));
    // if (v > floor && r != skip)
    b.push(...get(V), ...get(FLOOR), F32_GT, ...get(R), ...get(SKIP), I32_NE, I32_AND, 0x04, 0x40);
    // i = cnt < k ? cnt++ : k − 1
    b.push(...get(CNT), ...get(K), I32_LT_S, 0x04, 0x40, ...get(CNT), ...set(I), ...get(CNT), ...i32const(1), 0x6a, ...set(CNT), 0x05, ...get(K), ...i32const(1), 0x6b, ...set(I), 0x0b);
    // while (i > 0 && ts[i − 1] < v) { ts[i] = ts[i − 1]; top[i] = top[i − 1]; i-- }
    const at = (base: number): number[] => [...get(base), ...get(I), ...i32const(2), 0x74, 0x6a]; // base + 4i
    b.push(0x02, 0x40, 0x03, 0x40);
    b.push(...get(I), I32_EQZ, 0x0d, 1);
    b.push(...at(TS), ...i32const(4), 0x6b, F32_LOAD, ...memarg(2, 0), ...get(V), F32_LT, I32_EQZ, 0x0d, 1);
    b.push(...at(TS), ...at(TS), ...i32const(4), 0x6b, F32_LOAD, ...memarg(2, 0), F32_STORE, ...memarg(2, 0));
    b.push(...at(TOP), ...at(TOP), ...i32const(4), 0x6b, I32_LOAD, ...memarg(2, 0), I32_STORE, ...memarg(2, 0));
    b.push(...get(I), ...i32const(1), 0x6b, ...set(I), 0x0c, 0, 0x0b, 0x0b);
    b.push(...at(TS), ...get(V), F32_STORE, ...memarg(2, 0));
    b.push(...at(TOP), ...get(R), I32_STORE, ...memarg(2, 0));
    // if (cnt == k) floor = ts[k − 1]
    b.push(...get(CNT), ...get(K), I32_EQ, 0x04, 0x40, ...get(TS), ...get(K), ...i32const(2), 0x74, 0x6a, ...i32const(4), 0x6b, F32_LOAD, ...memarg(2, 0), ...set(FLOOR), 0x0b);
    b.push(0x0b); // end if (v > floor …)
  } else b.push(F32_STORE, ...memarg(2, 0));
  b.push(...get(O), ...i32const(4 * cols), 0x6a, ...set(O));
  b.push(...get(R), ...i32const(1), 0x6a, ...set(R));
  if (top) b.push(0x0c, 0, 0x0b, 0x0b, ...get(CNT), 0x0b);
  else b.push(0x0c, 0, 0x0b, 0x0b, 0x0b);
  const scalars = top ? [[...leb(4), I32], [...leb(2), F32]] : [[...leb(2), I32]];
  return [...vec([...scalars, [...leb(blocks + 4), V128]]), ...b];
}

/**
 * Body of `bw(m, rows, x, gy, gx, gm, skip)`, the backward of y = M·x (`matVecBackward`): gx += Mᵀ·gy
 * with gx rounded to float32 after every row, then gm += gy·xᵀ, rows with gy = 0 or |gy| < skip
 * skipped — the float32 results of the JS loops. `bwt` is its first pass alone (gx += Mᵀ·gy: `matTVec`
 * when gx starts at zero), `bwo` its second (gm += gy·xᵀ: `addOuter`); same parameters.
 */
function matVecBackward32Body(pass1 = true, pass2 = true): number[] {
  const [M, ROWS, X, GY, GX, GM, SKIP, R, O, G, A, AV, P] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  const b: number[] = [];
  /** Emits the row loop: `a` = gy[r] (skipped rows continue), then `perRow`. */
  const rows = (perRow: number[]): void => {
    b.push(...i32const(0), ...set(R), ...get(M), ...set(O));
    b.push(0x02, 0x40, 0x03, 0x40);
    b.push(...get(R), ...get(ROWS), 0x4f, 0x0d, 1);
    b.push(0x02, 0x40); // block: skip target
    b.push(...get(GY), ...get(R), ...i32const(2), 0x74, 0x6a, F32_LOAD, ...memarg(2, 0), F64_PROMOTE, ...set(A));
    b.push(...get(A), 0x44, 0, 0, 0, 0, 0, 0, 0, 0, F64_EQ, ...get(A), F64_ABS, ...get(SKIP), F64_LT, I32_OR, 0x0d, 0); // skip → end of block
    b.push(...get(A), ...F64X2_SPLAT, ...set(AV));
    b.push(...perRow);
    b.push(0x0b); // end skip block
    b.push(...get(O), ...i32const(128), 0x6a, ...set(O));
    b.push(...get(R), ...i32const(1), 0x6a, ...set(R));
    b.push(0x0c, 0, 0x0b, 0x0b);
  };
  if (pass1) {
    // Pass 1: gx pairs in P..P+15; each row: g = f32(g + a·m).
    for (let k = 0; k < 16; k++) b.push(...get(GX), ...v128load(8 * k), ...PROMOTE_LOW, ...set(P + k));
    const p1: number[] = [];
    for (let k = 0; k < 16; k++) p1.push(...get(P + k), ...get(AV), ...get(O), ...v128load(8 * k), ...PROMOTE_LOW, ...F64X2_MUL, ...F64X2_ADD, ...DEMOTE_ZERO, ...PROMOTE_LOW, ...set(P + k));
    rows(p1);
    for (let k = 0; k < 16; k++) {
      b.push(...get(GX), ...get(P + k), ...lane(0), F32_DEMOTE, F32_STORE, ...memarg(2, 8 * k));
      b.push(...get(GX), ...get(P + k), ...lane(1), F32_DEMOTE, F32_STORE, ...memarg(2, 8 * k + 4));
    }
  }
  if (pass2) {
    // Pass 2: x pairs in P..P+15; each row: gm[r] = f32(gm[r] + a·x), two floats at a time.
    for (let k = 0; k < 16; k++) b.push(...get(X), ...v128load(8 * k), ...PROMOTE_LOW, ...set(P + k));
    const p2: number[] = [];
    // The row's address in gm: g = gm + (o − m).
    p2.push(...get(GM), ...get(O), ...get(M), 0x6b, 0x6a, ...set(G));
    for (let k = 0; k < 16; k++) {
      p2.push(...get(G)); // address for the store
      p2.push(...get(G), ...v128load(8 * k), ...PROMOTE_LOW, ...get(AV), ...get(P + k), ...F64X2_MUL, ...F64X2_ADD, ...DEMOTE_ZERO);
      p2.push(...v128store64lane0(8 * k));
    }
    rows(p2);
  }
  b.push(0x0b);
  return [...vec([[...leb(3), I32], [...leb(1), F64], [...leb(1), V128], [...leb(16), V128]]), ...b];
}

/**
 * Bodies of the bag-of-words sums over a list of rows given as CSR (ids, offs: byte offsets):
 * `bs(w, ids, offs, rows, out)`: out[r] = Σ_k w[ids[k]] for k in offs[r]..offs[r+1] (float32 sums in
 * id order, as `bagSum`); `bb(gw, ids, offs, rows, g)`: gw[ids[k]] += g[r] (as `bagSumBackward`).
 * Float32 lanes: a float32 sum rounded once equals the float64 sum rounded to float32.
 */
function bagBody(backward: boolean): number[] {
  const [W, IDS, OFFS, ROWS, OUT, R, K, END, A, V] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  const b: number[] = [];
  const rowAddr = [...get(OUT), ...get(R), ...i32const(7), 0x74, 0x6a]; // out/g + r·128
  b.push(0x02, 0x40, 0x03, 0x40);
  b.push(...get(R), ...get(ROWS), 0x4f, 0x0d, 1);
  if (backward) for (let j = 0; j < 8; j++) b.push(...rowAddr, ...v128load(16 * j), ...set(V + j));
  else for (let j = 0; j < 8; j++) b.push(...V128_ZERO, ...set(V + j));
  // k = offs[r], end = offs[r + 1]
  b.push(...get(OFFS), ...get(R), ...i32const(2), 0x74, 0x6a, I32_LOAD, ...memarg(2, 0), ...set(K));
  b.push(...get(OFFS), ...get(R), ...i32const(2), 0x74, 0x6a, I32_LOAD, ...memarg(2, 4), ...set(END));
  b.push(0x02, 0x40, 0x03, 0x40);
  b.push(...get(K), ...get(END), 0x4f, 0x0d, 1);
  // a = w + ids[k]·128
  b.push(...get(W), ...get(IDS), ...get(K), 0x6a, I32_LOAD, ...memarg(2, 0), ...i32const(7), 0x74, 0x6a, ...set(A));
  if (backward) for (let j = 0; j < 8; j++) b.push(...get(A), ...get(A), ...v128load(16 * j), ...get(V + j), ...F32X4_ADD, ...v128store(16 * j));
  else for (let j = 0; j < 8; j++) b.push(...get(V + j), ...get(A), ...v128load(16 * j), ...F32X4_ADD, ...set(V + j));
  b.push(...get(K), ...i32const(4), 0x6a, ...set(K));
  b.push(0x0c, 0, 0x0b, 0x0b);
  if (!backward) for (let j = 0; j < 8; j++) b.push(...rowAddr, ...get(V + j), ...v128store(16 * j));
  b.push(...get(R), ...i32const(1), 0x6a, ...set(R));
  b.push(0x0c, 0, 0x0b, 0x0b, 0x0b);
  return [...vec([[...leb(4), I32], [...leb(8), V128]]), ...b];
}

function kernelsModule(): Uint8Array {
  const mv = matVecBody(32);
  const mv64 = matVecBody(64);
  const bw = matVecBackward32Body();
  const bs = bagBody(false);
  const bb = bagBody(true);
  const mvf = matVecF32Body(32);
  const mvf64 = matVecF32Body(64);
  const mvfk = matVecF32Body(32, true);
  const bwt = matVecBackward32Body(true, false);
  const bwo = matVecBackward32Body(false, true);
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, vec([
      [0x60, ...vec([[I32], [I32], [I32], [I32]]), ...vec([])],
      [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32], [F64]]), ...vec([])],
      [0x60, ...vec([[I32], [I32], [I32], [I32], [I32]]), ...vec([])],
      [0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I32], [I32], [I32]]), ...vec([[I32]])],
    ])),
    ...section(2, vec([[...str('e'), ...str('m'), 0x02, 0x00, ...leb(1)]])),
    ...section(3, vec([leb(0), leb(1), leb(2), leb(2), leb(0), leb(0), leb(0), leb(3), leb(1), leb(1)])),
    ...section(7, vec([[...str('mv'), 0x00, ...leb(0)], [...str('bw'), 0x00, ...leb(1)], [...str('bs'), 0x00, ...leb(2)], [...str('bb'), 0x00, ...leb(3)], [...str('mv64'), 0x00, ...leb(4)], [...str('mvf'), 0x00, ...leb(5)], [...str('mvf64'), 0x00, ...leb(6)], [...str('mvfk'), 0x00, ...leb(7)], [...str('bwt'), 0x00, ...leb(8)], [...str('bwo'), 0x00, ...leb(9)]])),
    ...section(10, vec([[...leb(mv.length), ...mv], [...leb(bw.length), ...bw], [...leb(bs.length), ...bs], [...leb(bb.length), ...bb], [...leb(mv64.length), ...mv64], [...leb(mvf.length), ...mvf], [...leb(mvf64.length), ...mvf64], [...leb(mvfk.length), ...mvfk], [...leb(bwt.length), ...bwt], [...leb(bwo.length), ...bwo]])),
  ]);
}

/**
 * The bytes of a module of one exported function `name` (parameter types `params`, no result;
 * `body`: its locals and code) over an imported memory `e.m`. Internal.
 */
export function oneFunctionModule(name: string, params: readonly number[], body: readonly number[]): Uint8Array {
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, vec([[0x60, ...vec(params.map((t) => [t])), ...vec([])]])),
    ...section(2, vec([[...str('e'), ...str('m'), 0x02, 0x00, ...leb(1)]])),
    ...section(3, vec([leb(0)])),
    ...section(7, vec([[...str(name), 0x00, ...leb(0)]])),
    ...section(10, vec([[...leb(body.length), ...body]])),
  ]);
}

/**
 * A module compiled once, on first use, from the bytes `build` makes: null where it cannot be
 * compiled (no WebAssembly SIMD here), and the callers take their scalar path. Internal.
 */
export function compiledOnce(build: () => Uint8Array): () => WebAssembly.Module | null {
  let compiled: WebAssembly.Module | null | undefined;
  return () => {
    if (compiled === undefined) {
      try {
        compiled = new wasmApi.Module(build());
      } catch {
        compiled = null; // no WebAssembly SIMD here
      }
    }
    return compiled;
  };
}

const module = compiledOnce(kernelsModule);

/** Each matrix row as a bag of word ids into a word matrix of `vocabRows`×32. */
export interface Bags {
  readonly ids: readonly ArrayLike<number>[];
  readonly vocabRows: number;
}

/** An n×32 float32 matrix held in WebAssembly memory, with its SIMD product and its backward. */
export class Wasm32Matrix {
  /** The matrix, row-major (write it in place; `matVec` reads it). */
  readonly data: Float32Array;
  /** A gradient accumulator of the matrix's shape (`backward` adds into it). */
  readonly grad: Float32Array;
  private readonly x: Float32Array;
  private readonly out: Float32Array;
  private readonly gy: Float32Array;
  private readonly gx: Float32Array;
  private readonly mv: (m: number, rows: number, x: number, out: number) => void;
  private readonly mvf: (m: number, rows: number, x: number, out: number) => void;
  private readonly mvfk: (m: number, rows: number, x: number, out: number, k: number, skip: number, top: number, ts: number) => number;
  /** The rows found by `matVecFastTop`, best first (the first `count` entries), and their scores. */
  readonly top: Int32Array;
  private readonly bw: (m: number, rows: number, x: number, gy: number, gx: number, gm: number, skip: number) => void;
  private readonly at: { x: number; out: number; gy: number; gx: number; grad: number; w: number; gw: number; ids: number; offs: number; top: number; ts: number };
  private readonly bs: (w: number, ids: number, offs: number, rows: number, out: number) => void;
  private readonly bb: (gw: number, ids: number, offs: number, rows: number, g: number) => void;
  /** Rows of the word matrix the bags read (0: no bags, `sumRows` unavailable). */
  readonly vocabRows: number;
  private readonly w: Float32Array;
  private readonly gw: Float32Array;

  private constructor(
    readonly rows: number,
    mod: WebAssembly.Module,
    bags?: Bags,
  ) {
    // Layout (bytes, 16-aligned; each area padded so the kernels' 16-byte loads stay inside).
    const pad = (n: number): number => Math.ceil((n + 16) / 16) * 16;
    const mBytes = pad(rows * 128);
    const x = mBytes;
    const out = x + pad(128);
    const gy = out + pad(rows * 4);
    const gx = gy + pad(rows * 4);
    const grad = gx + pad(128);
    const vocabRows = bags?.vocabRows ?? 0;
    const nIds = bags ? bags.ids.reduce((n, l) => n + l.length, 0) : 0;
    const w = grad + pad(rows * 128);
    const gw = w + pad(vocabRows * 128);
    const ids = gw + pad(vocabRows * 128);
    const offs = ids + pad(nIds * 4);
    const top = offs + pad((rows + 1) * 4);
    const ts = top + pad(rows * 4);
    const end = ts + pad(rows * 4);
    this.at = { x, out, gy, gx, grad, w, gw, ids, offs, top, ts };
    this.vocabRows = vocabRows;
    const memory = new WebAssembly.Memory({ initial: Math.ceil(end / 65536) });
    const instance = new WebAssembly.Instance(mod, { e: { m: memory } });
    this.mv = instance.exports.mv as Wasm32Matrix['mv'];
    this.mvf = instance.exports.mvf as Wasm32Matrix['mvf'];
    this.mvfk = instance.exports.mvfk as Wasm32Matrix['mvfk'];
    this.top = new Int32Array(memory.buffer, top, rows);
    this.bw = instance.exports.bw as Wasm32Matrix['bw'];
    this.bs = instance.exports.bs as Wasm32Matrix['bs'];
    this.bb = instance.exports.bb as Wasm32Matrix['bb'];
    this.w = new Float32Array(memory.buffer, w, vocabRows * 32);
    this.gw = new Float32Array(memory.buffer, gw, vocabRows * 32);
    if (bags) {
      // CSR: ids of row r at byte offsets offs[r]..offs[r+1] from `ids`; negative ids dropped (bagSum skips them).
      const idView = new Int32Array(memory.buffer, ids, nIds);
      const offView = new Int32Array(memory.buffer, offs, rows + 1);
      let k = 0;
      bags.ids.forEach((l, r) => {
        offView[r] = 4 * k;
        for (let i = 0; i < l.length; i++) {
          const id = l[i] as number;
          if (id < 0) continue;
          if (id >= vocabRows) throw new InternalError(`Wasm32Matrix: id ${id} outside the ${vocabRows} word rows`);
          idView[k++] = id;
        }
      });
      offView[rows] = 4 * k;
    }
    this.data = new Float32Array(memory.buffer, 0, rows * 32);
    this.x = new Float32Array(memory.buffer, x, 32);
    this.out = new Float32Array(memory.buffer, out, rows);
    this.gy = new Float32Array(memory.buffer, gy, rows);
    this.gx = new Float32Array(memory.buffer, gx, 32);
    this.grad = new Float32Array(memory.buffer, grad, rows * 32);
  }

  /**
   * A matrix of `rows`×32, or undefined when WebAssembly SIMD is not available. With `bags`, row r
   * can be computed as the sum of the word rows `bags.ids[r]` (`sumRows`, `sumRowsBackward`).
   */
  static create(rows: number, bags?: Bags): Wasm32Matrix | undefined {
    const mod = module();
    return mod ? new Wasm32Matrix(rows, mod, bags) : undefined;
  }

  /** data[r] = Σ w[ids of row r] for every row: `bagSum(w, 32, bags.ids[r], data, 32r)`, bit for bit. */
  sumRows(w: Float32Array): void {
    if (w.length !== this.vocabRows * 32) throw new InternalError(`Wasm32Matrix.sumRows: ${w.length} weights for ${this.vocabRows} rows of 32`);
    this.w.set(w);
    this.bs(this.at.w, this.at.ids, this.at.offs, this.rows, 0);
  }

  /** gw[ids of row r] += grad[r] for every row in order: `bagSumBackward(gw, 32, bags.ids[r], grad, 32r)`, bit for bit. */
  sumRowsBackward(gw: Float32Array): void {
    if (gw.length !== this.vocabRows * 32) throw new InternalError(`Wasm32Matrix.sumRowsBackward: ${gw.length} gradients for ${this.vocabRows} rows of 32`);
    this.gw.set(gw);
    this.bb(this.at.gw, this.at.ids, this.at.offs, this.rows, this.at.grad);
    gw.set(this.gw);
  }

  /** out[0..rows) = data·x (x has 32 entries): the numbers of `matVec(data, rows, 32, x, out)`. */
  matVec(x: Float32Array, out: Float32Array): void {
    this.x.set(x.length === 32 ? x : x.subarray(0, 32));
    this.mv(0, this.rows, this.at.x, this.at.out);
    out.set(this.out);
  }

  /**
   * data·x in float32 lanes, about twice as fast as `matVec` but not bit-identical to it (float32
   * sums in another order; use it to choose rows, e.g. the best-scoring candidates). Returns a view
   * of the kernel's output, valid until its next product.
   */
  matVecFast(x: Float32Array): Float32Array {
    this.x.set(x.length === 32 ? x : x.subarray(0, 32));
    this.mvf(0, this.rows, this.at.x, this.at.out);
    return this.out;
  }

  /**
   * `matVecFast` that also finds the `k` best rows (1 ≤ k ≤ rows) other than row `skip` (−1: none) in the same
   * pass: `top[0..count)`, best first, ties by row order; returns count (k, or fewer rows). The
   * scores are in `fastScores` until the next product.
   */
  matVecFastTop(x: Float32Array, k: number, skip: number): number {
    if (k < 1 || k > this.rows) throw new InternalError(`Wasm32Matrix.matVecFastTop: k = ${k} of ${this.rows} rows`);
    this.x.set(x.length === 32 ? x : x.subarray(0, 32));
    return this.mvfk(0, this.rows, this.at.x, this.at.out, k, skip, this.at.top, this.at.ts);
  }

  /** The scores of the last `matVecFast` / `matVecFastTop` (a view of the kernel's output). */
  get fastScores(): Float32Array {
    return this.out;
  }

  /**
   * Backward of y = data·x: gx += dataᵀ·gy and grad += gy·xᵀ — the numbers of
   * `matVecBackward(data, rows, 32, x, gy, gx, grad, skipBelow)`.
   */
  backward(x: Float32Array, gy: Float32Array, gx: Float32Array, skipBelow: number): void {
    this.x.set(x.length === 32 ? x : x.subarray(0, 32));
    this.gy.set(gy.length === this.rows ? gy : gy.subarray(0, this.rows));
    this.gx.set(gx.length === 32 ? gx : gx.subarray(0, 32));
    this.bw(0, this.rows, this.at.x, this.at.gy, this.at.gx, this.at.grad, skipBelow);
    gx.set(this.gx);
  }
}

/**
 * A rows×32 float32 table (the word embeddings of a bag-of-words model) and its gradient, both in
 * WebAssembly memory, with the SIMD bag sums of `Wasm32Matrix`: `sum` gives `bagSum` of each id
 * list, `sumBackward` adds like `bagSumBackward`, bit for bit. `data` and `grad` are the arrays a
 * model keeps as its parameter (write them in place; they stay valid: the memory never grows).
 * Lists longer than the scratch (`maxBags` lists, `maxIds` ids) fall back to the JS kernels.
 */
export class WasmBagTable {
  readonly data: Float32Array;
  readonly grad: Float32Array;
  private readonly ids: Int32Array;
  private readonly offs: Int32Array;
  private readonly rowsOut: Float32Array;
  /**
   * A maxBags×32 matrix and its gradient in the same memory (the memories of a MemN2N example):
   * `sum` into `M` and `sumBackward` from `gM` skip the copies; `matVecBackward` works on them.
   */
  readonly M: Float32Array;
  readonly gM: Float32Array;
  private readonly x: Float32Array;
  private readonly gy: Float32Array;
  private readonly gx: Float32Array;
  private readonly at: { data: number; grad: number; ids: number; offs: number; out: number; M: number; gM: number; x: number; gy: number; gx: number };
  private readonly bs: (w: number, ids: number, offs: number, rows: number, out: number) => void;
  private readonly bb: (gw: number, ids: number, offs: number, rows: number, g: number) => void;
  private readonly bw: (m: number, rows: number, x: number, gy: number, gx: number, gm: number, skip: number) => void;
  private readonly bwt: WasmBagTable['bw'];
  private readonly bwo: WasmBagTable['bw'];
  private readonly mv: (m: number, rows: number, x: number, out: number) => void;

  private constructor(
    readonly rows: number,
    readonly maxBags: number,
    readonly maxIds: number,
    mod: WebAssembly.Module,
  ) {
    const pad = (n: number): number => Math.ceil((n + 16) / 16) * 16;
    const data = 0;
    const grad = data + pad(rows * 128);
    const ids = grad + pad(rows * 128);
    const offs = ids + pad(maxIds * 4);
    const out = offs + pad((maxBags + 1) * 4);
    const M = out + pad(maxBags * 128);
    const gM = M + pad(maxBags * 128);
    const x = gM + pad(maxBags * 128);
    const gy = x + pad(128);
    const gx = gy + pad(maxBags * 4);
    const end = gx + pad(128);
    this.at = { data, grad, ids, offs, out, M, gM, x, gy, gx };
    const memory = new WebAssembly.Memory({ initial: Math.ceil(end / 65536) });
    const instance = new WebAssembly.Instance(mod, { e: { m: memory } });
    this.bs = instance.exports.bs as WasmBagTable['bs'];
    this.bb = instance.exports.bb as WasmBagTable['bb'];
    this.bw = instance.exports.bw as WasmBagTable['bw'];
    this.bwt = instance.exports.bwt as WasmBagTable['bw'];
    this.bwo = instance.exports.bwo as WasmBagTable['bw'];
    this.mv = instance.exports.mv as WasmBagTable['mv'];
    this.M = new Float32Array(memory.buffer, M, maxBags * 32);
    this.gM = new Float32Array(memory.buffer, gM, maxBags * 32);
    this.x = new Float32Array(memory.buffer, x, 32);
    this.gy = new Float32Array(memory.buffer, gy, maxBags);
    this.gx = new Float32Array(memory.buffer, gx, 32);
    this.data = new Float32Array(memory.buffer, data, rows * 32);
    this.grad = new Float32Array(memory.buffer, grad, rows * 32);
    this.ids = new Int32Array(memory.buffer, ids, maxIds);
    this.offs = new Int32Array(memory.buffer, offs, maxBags + 1);
    this.rowsOut = new Float32Array(memory.buffer, out, maxBags * 32);
  }

  /** A zeroed table of `rows`×32 for at most `maxBags` lists of at most `maxIds` ids in all per call, or undefined without WebAssembly SIMD. */
  static create(rows: number, maxBags: number, maxIds = 1 << 16): WasmBagTable | undefined {
    const mod = module();
    return mod ? new WasmBagTable(rows, maxBags, maxIds, mod) : undefined;
  }

  /**
   * The first n lists of `bags` as CSR in the scratch (ids < 0 dropped); false when they do not
   * fit. `flat`: the lists are consecutive views of it from its start (read as one array).
   */
  private load(bags: readonly ArrayLike<number>[], n: number, flat?: Int32Array): boolean {
    if (n > this.maxBags) return false;
    const idView = this.ids;
    if (flat) {
      let len = 0;
      for (let r = 0; r < n; r++) len += (bags[r] as ArrayLike<number>).length;
      if (len > this.maxIds || len > flat.length) return false;
      let k = 0;
      let at = 0;
      for (let r = 0; r < n; r++) {
        this.offs[r] = 4 * k;
        at += (bags[r] as ArrayLike<number>).length;
        for (; k < at; k++) {
          const id = flat[k] as number;
          if (id < 0 || id >= this.rows) return this.load(bags, n);
          idView[k] = id;
        }
      }
      this.offs[n] = 4 * k;
      return true;
    }
    let k = 0;
    for (let r = 0; r < n; r++) {
      const l = bags[r] as ArrayLike<number>;
      this.offs[r] = 4 * k;
      if (k + l.length > this.maxIds) return false;
      for (let i = 0; i < l.length; i++) {
        const id = l[i] as number;
        if (id < 0) continue;
        if (id >= this.rows) throw new InternalError(`WasmBagTable: id ${id} outside the ${this.rows} rows`);
        idView[k++] = id;
      }
    }
    this.offs[n] = 4 * k;
    return true;
  }

  /**
   * out[outOff + 32i ..] = Σ data[bags[i]] for i < n: `bagSum(data, 32, bags[i], out, outOff + 32i)`,
   * bit for bit. `flat`: the lists are consecutive views of it from its start (faster to read).
   */
  sum(bags: readonly ArrayLike<number>[], n: number, out: Float32Array, outOff = 0, flat?: Int32Array): void {
    if (!this.load(bags, n, flat)) {
      for (let i = 0; i < n; i++) bagSum(this.data, 32, bags[i] as ArrayLike<number>, out, outOff + 32 * i);
      return;
    }
    if (out === this.M && outOff === 0) {
      this.bs(this.at.data, this.at.ids, this.at.offs, n, this.at.M);
      return;
    }
    this.bs(this.at.data, this.at.ids, this.at.offs, n, this.at.out);
    const rows = this.rowsOut;
    for (let i = 0; i < 32 * n; i++) out[outOff + i] = rows[i] as number;
  }

  /** grad[ids of bags[i]] += g[gOff + 32i ..] for i < n in order: `bagSumBackward(grad, 32, bags[i], g, gOff + 32i)`, bit for bit. */
  sumBackward(bags: readonly ArrayLike<number>[], n: number, g: Float32Array, gOff = 0, flat?: Int32Array): void {
    if (!this.load(bags, n, flat)) {
      for (let i = 0; i < n; i++) bagSumBackward(this.grad, 32, bags[i] as ArrayLike<number>, g, gOff + 32 * i);
      return;
    }
    if (g === this.gM && gOff === 0) {
      this.bb(this.at.grad, this.at.ids, this.at.offs, n, this.at.gM);
      return;
    }
    const rows = this.rowsOut;
    for (let i = 0; i < 32 * n; i++) rows[i] = g[gOff + i] as number;
    this.bb(this.at.grad, this.at.ids, this.at.offs, n, this.at.out);
  }

  /**
   * Backward of y = M·x over the first `rows` rows of `M`: gx += Mᵀ·gy and gM += gy·xᵀ (rows with
   * gy = 0 skipped): `matVecBackward(M, rows, 32, x, gy, gx, gM)`, bit for bit, in SIMD.
   */
  matVecBackward(rows: number, x: Float32Array, gy: Float32Array, gx: Float32Array): void {
    this.check(rows);
    const X = this.x;
    const GY = this.gy;
    const GX = this.gx;
    for (let i = 0; i < 32; i++) {
      X[i] = x[i] as number;
      GX[i] = gx[i] as number;
    }
    for (let i = 0; i < rows; i++) GY[i] = gy[i] as number;
    this.bw(this.at.M, rows, this.at.x, this.at.gy, this.at.gx, this.at.gM, 0);
    for (let i = 0; i < 32; i++) gx[i] = GX[i] as number;
  }

  private check(rows: number): void {
    if (rows > this.maxBags) throw new InternalError(`WasmBagTable: ${rows} rows of ${this.maxBags}`);
  }

  /** out[0..rows) = M·x over the first `rows` rows of `M`: `matVec(M, rows, 32, x, out)`, bit for bit. */
  matVec(rows: number, x: Float32Array, out: Float32Array): void {
    this.check(rows);
    const X = this.x;
    for (let i = 0; i < 32; i++) X[i] = x[i] as number;
    this.mv(this.at.M, rows, this.at.x, this.at.gy);
    const Y = this.gy;
    for (let i = 0; i < rows; i++) out[i] = Y[i] as number;
  }

  /** out[0..32) = Mᵀ·x over the first `rows` rows of `M`: `matTVec(M, rows, 32, x, out)`, bit for bit. */
  matTVec(rows: number, x: Float32Array, out: Float32Array): void {
    this.check(rows);
    const GY = this.gy;
    for (let i = 0; i < rows; i++) GY[i] = x[i] as number;
    this.gx.fill(0);
    this.bwt(this.at.M, rows, this.at.x, this.at.gy, this.at.gx, this.at.gM, 0);
    const GX = this.gx;
    for (let i = 0; i < 32; i++) out[i] = GX[i] as number;
  }

  /** gM += u·vᵀ over the first `rows` rows (u has `rows` entries, v 32; rows with u = 0 skipped): `addOuter(gM, rows, 32, u, v)`, bit for bit. */
  addOuter(rows: number, u: Float32Array, v: Float32Array): void {
    this.check(rows);
    const GY = this.gy;
    const X = this.x;
    for (let i = 0; i < rows; i++) GY[i] = u[i] as number;
    for (let i = 0; i < 32; i++) X[i] = v[i] as number;
    this.bwo(this.at.M, rows, this.at.x, this.at.gy, this.at.gx, this.at.gM, 0);
  }
}

/**
 * A rows×`cols` float32 matrix (`cols` 32 or 64) in WebAssembly memory with its SIMD product:
 * `matVec` gives the numbers of the JS `matVec`, bit for bit (the scoring matrix of the
 * embeddings ranker). `create` returns undefined for other widths or without WebAssembly SIMD.
 */
export class WasmMatVec {
  /** The matrix, row-major (write it in place; `matVec` reads it). */
  readonly data: Float32Array;
  private readonly x: Float32Array;
  private readonly out: Float32Array;
  private readonly mv: (m: number, rows: number, x: number, out: number) => void;
  private readonly at: { x: number; out: number };

  private constructor(
    readonly rows: number,
    readonly cols: number,
    mod: WebAssembly.Module,
    /** Float32 lanes (`matVecF32`'s numbers) instead of `matVec`'s. */
    readonly f32: boolean,
  ) {
    const pad = (n: number): number => Math.ceil((n + 16) / 16) * 16;
    const x = pad(rows * cols * 4);
    const out = x + pad(cols * 4);
    const end = out + pad(rows * 4);
    this.at = { x, out };
    const memory = new WebAssembly.Memory({ initial: Math.ceil(end / 65536) });
    const instance = new WebAssembly.Instance(mod, { e: { m: memory } });
    this.mv = instance.exports[(f32 ? 'mvf' : 'mv') + (cols === 32 ? '' : '64')] as WasmMatVec['mv'];
    this.data = new Float32Array(memory.buffer, 0, rows * cols);
    this.x = new Float32Array(memory.buffer, x, cols);
    this.out = new Float32Array(memory.buffer, out, rows);
  }

  /** With `f32`, the product in float32 lanes: the numbers of `matVecF32` (about 3× faster). */
  static create(rows: number, cols: number, f32 = false): WasmMatVec | undefined {
    if (cols !== 32 && cols !== 64) return undefined;
    const mod = module();
    return mod ? new WasmMatVec(rows, cols, mod, f32) : undefined;
  }

  /**
   * out[0..rows) = data·x (x has `cols` entries): the numbers of `matVec(data, rows, cols, x, out)`
   * (of `matVecF32` when created with `f32`). `rows` (at most the matrix's): only the first rows.
   */
  matVec(x: Float32Array, out: Float32Array, rows = this.rows): void {
    if (rows > this.rows) throw new InternalError(`WasmMatVec.matVec: ${rows} rows of a ${this.rows}-row matrix`);
    this.x.set(x.length === this.cols ? x : x.subarray(0, this.cols));
    this.mv(0, rows, this.at.x, this.at.out);
    const n = Math.min(rows, out.length);
    out.set(this.out.length === n ? this.out : this.out.subarray(0, n));
  }
}
