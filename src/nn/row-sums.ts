/**
 * Float64 row sums of a fixed float32 matrix on WebAssembly SIMD, bit for bit those of the JS
 * loops `s = b[r]; for c: s += M[r][c]·x[c]` (`Linear.forward`, `Gru.step`): the matrix is held
 * transposed (column c's rows side by side), two rows per float64 lane pair, each row's sum taken
 * over the columns in the same ascending order, every product and sum in float64. For inference
 * with weights that do not change while it is used (a decoder's session): `RowSums.create` copies
 * the matrix; a changed matrix needs a new one. Returns undefined without WebAssembly SIMD.
 */
import { InternalError } from '../core/errors.js';
import { sigmoid, type GruCache } from './gru.js';
import { F64X2_ADD, F64X2_MUL, F64X2_SPLAT, I32, PROMOTE_LOW, V128, compiledOnce, oneFunctionModule, get, i32const, leb, memarg, set, simd, vec, wasmApi } from './wasm.js';

const ADD = 0x6a;
const MUL = 0x6c;
const GE_U = 0x4f;
const load2 = (): number[] => [...simd(0x5d), ...memarg(3, 0)]; // v128.load64_zero
const v128load = (): number[] => [...simd(0x00), ...memarg(3, 0)];
const v128store = (): number[] => [...simd(0x0b), ...memarg(3, 0)];
const F32_LOAD = 0x2a;
const F64_PROMOTE = 0xbb;

/**
 * `add(acc, m, ld, cols, n, x, pairs)`: for k < n, c = cols[k] (int32 list): acc[0..2·pairs) +=
 * m[c·ld + r]·x[c] (float64 acc, float32 m and x; byte offsets, ld in floats).
 */
function addBody(): number[] {
  const [ACC, M, LD, COLS, N, X, PAIRS] = [0, 1, 2, 3, 4, 5, 6];
  const [K, R, C, MP, AP] = [7, 8, 9, 10, 11];
  const XS = 12; // v128
  const b: number[] = [];
  b.push(0x02, 0x40, 0x03, 0x40); // block loop (k)
  b.push(...get(K), ...get(N), GE_U, 0x0d, 1);
  // c = cols[k]; xs = splat(f64(x[c])); mp = m + 4·c·ld; ap = acc
  b.push(...get(COLS), ...get(K), ...i32const(4), MUL, ADD, 0x28, ...memarg(2, 0), ...set(C));
  b.push(...get(X), ...get(C), ...i32const(4), MUL, ADD, F32_LOAD, ...memarg(2, 0), F64_PROMOTE, ...F64X2_SPLAT, ...set(XS));
  b.push(...get(M), ...get(C), ...get(LD), MUL, ...i32const(4), MUL, ADD, ...set(MP));
  b.push(...get(ACC), ...set(AP), ...i32const(0), ...set(R));
  b.push(0x02, 0x40, 0x03, 0x40); // block loop (r)
  b.push(...get(R), ...get(PAIRS), GE_U, 0x0d, 1);
  b.push(...get(AP), ...get(AP), ...v128load(), ...get(MP), ...load2(), ...PROMOTE_LOW, ...get(XS), ...F64X2_MUL, ...F64X2_ADD, ...v128store());
  b.push(...get(AP), ...i32const(16), ADD, ...set(AP));
  b.push(...get(MP), ...i32const(8), ADD, ...set(MP));
  b.push(...get(R), ...i32const(1), ADD, ...set(R));
  b.push(0x0c, 0, 0x0b, 0x0b); // br loop (r); end; end
  b.push(...get(K), ...i32const(1), ADD, ...set(K));
  b.push(0x0c, 0, 0x0b, 0x0b, 0x0b); // br loop (k); end; end; end func
  return [...vec([[...leb(5), I32], [...leb(1), V128]]), ...b];
}

function rowSumsModule(): Uint8Array {
  return oneFunctionModule('add', new Array<number>(7).fill(I32), addBody());
}

const rowSumsWasm = compiledOnce(rowSumsModule);

let forceScalar = false;

/**
 * Makes the float64 row kernels (`RowSums`, `GruStepper`, `AxpyRows`, `GruBackprop`,
 * `RowsBackprop`) unavailable as if WebAssembly SIMD were missing (`on`), so their users take their
 * JS loops: for tests that compare the two. Returns the previous setting.
 *
 * @example
 * ```ts
 * import { setRowKernelsScalar } from 'dialogym/nn';
 * const was = setRowKernelsScalar(true);
 * // … the JS loops …
 * setRowKernelsScalar(was);
 * ```
 */
export function setRowKernelsScalar(on: boolean): boolean {
  const was = forceScalar;
  forceScalar = on;
  return was;
}

/**
 * Whether `setRowKernelsScalar` turned the row kernels off.
 *
 * @example
 * ```ts
 * import { rowKernelsOff } from 'dialogym/nn';
 * rowKernelsOff(); // false unless a test turned them off
 * ```
 */
export function rowKernelsOff(): boolean {
  return forceScalar;
}

/**
 * A rows×cols float32 matrix (row-major when given) held for float64 row sums (module
 * description). `start` sets the sums to a bias (or zero); `add` adds the products of listed
 * columns with x; `sums` are the float64 sums (a view, rows entries).
 *
 * @example
 * ```ts
 * import { RowSums } from 'dialogym/nn';
 * const rs = RowSums.create(new Float32Array([1, 2, 3, 4]), 2, 2); // [[1, 2], [3, 4]]
 * if (rs) {
 *   rs.start(new Float32Array([0.5, 0]));
 *   rs.add(new Float32Array([1, 1]));
 *   rs.sums; // [3.5, 7]
 * }
 * ```
 */
export class RowSums {
  private readonly fn: (acc: number, m: number, ld: number, cols: number, n: number, x: number, pairs: number) => void;
  private readonly ld: number;
  /** Float offsets in the memory. */
  private readonly at: { acc: number; x: number; cols: number; all: number };
  private readonly f32: Float32Array;
  private readonly i32: Int32Array;
  readonly sums: Float64Array;
  private readonly all: Int32Array;

  private constructor(
    mod: NonNullable<ReturnType<typeof rowSumsWasm>>,
    m: Float32Array,
    readonly rows: number,
    readonly cols: number,
  ) {
    this.ld = rows + (rows & 1);
    const mFloats = this.ld * cols;
    const acc = mFloats + (mFloats & 1); // 8-byte aligned
    const x = acc + 2 * this.ld;
    const colsAt = x + cols + 4;
    const allAt = colsAt + cols + 4;
    const end = allAt + cols + 4;
    const memory = new wasmApi.Memory({ initial: Math.max(1, Math.ceil((end * 4) / 65536)) });
    this.fn = new wasmApi.Instance(mod, { e: { m: memory } }).exports.add as RowSums['fn'];
    this.f32 = new Float32Array(memory.buffer);
    this.i32 = new Int32Array(memory.buffer);
    this.at = { acc, x, cols: colsAt, all: allAt };
    this.sums = new Float64Array(memory.buffer, acc * 4, rows);
    this.load(m);
    this.all = Int32Array.from({ length: cols }, (_, c) => c);
    this.i32.set(this.all, allAt);
  }

  /** Holds `m` (rows×cols, row-major; copied); undefined without WebAssembly SIMD. */
  static create(m: Float32Array, rows: number, cols: number): RowSums | undefined {
    if (m.length < rows * cols) throw new InternalError(`RowSums: ${m.length} entries for ${rows}×${cols}`);
    const mod = forceScalar ? null : rowSumsWasm();
    return mod ? new RowSums(mod, m, rows, cols) : undefined;
  }

  /** Holds `m` (rows×cols, row-major; copied) in place of the matrix held so far: after the weights change (a training step). */
  load(m: Float32Array): void {
    const { rows, cols, ld, f32 } = this;
    if (m.length < rows * cols) throw new InternalError(`RowSums.load: ${m.length} entries for ${rows}×${cols}`);
    for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) f32[c * ld + r] = m[r * cols + c] as number;
  }

  /** sums[r] = bias[r] (float64), or 0 without a bias. */
  start(bias: Float32Array | null): void {
    const s = this.sums;
    if (bias) for (let r = 0; r < this.rows; r++) s[r] = bias[r] as number;
    else s.fill(0);
  }

  /** The input vector in the kernel's memory (cols entries) that `addHeld` reads: write x here once for several sums. */
  get input(): Float32Array {
    return this.f32.subarray(this.at.x, this.at.x + this.cols);
  }

  /**
   * `add` of the x already in `input` over the consecutive columns [c0, c1) (none copied), for
   * the rows [from, to) (`from` even).
   */
  addHeld(c0: number, c1: number, from = 0, to = this.rows): void {
    if (c0 < 0 || c1 > this.cols || from % 2 !== 0 || from < 0 || to > this.rows) throw new InternalError(`RowSums.addHeld: columns ${c0}..${c1} of ${this.cols}, rows ${from}..${to} of ${this.rows} (from even)`);
    if (c1 <= c0) return;
    this.fn(4 * this.at.acc + 8 * from, 4 * from, this.ld, 4 * (this.at.all + c0), c1 - c0, 4 * this.at.x, (to - from + 1) >> 1);
  }

  /**
   * sums[r] += Σ m[r][c]·x[c] over the columns `cols` (ascending; all when omitted), for the rows
   * [from, to) (`from` even; all rows when omitted; an odd count also updates the spare row above).
   */
  add(x: Float32Array, cols?: ArrayLike<number>, from = 0, to = this.rows): void {
    if (x.length < this.cols || from % 2 !== 0 || from < 0 || to > this.rows) throw new InternalError(`RowSums.add: x of ${x.length} (expected ${this.cols}), rows ${from}..${to} of ${this.rows} (from even)`);
    this.f32.set(x.length === this.cols ? x : x.subarray(0, this.cols), this.at.x);
    let list = this.at.all;
    let n = this.cols;
    if (cols) {
      n = cols.length;
      list = this.at.cols;
      for (let k = 0; k < n; k++) this.i32[list + k] = cols[k] as number;
    }
    this.fn(4 * this.at.acc + 8 * from, 4 * from, this.ld, 4 * list, n, 4 * this.at.x, (to - from + 1) >> 1);
  }
}


/** [W | U] row by row (3H × (I + H)) into `out`. */
function joinWU(gru: GruWeights, out: Float32Array): Float32Array {
  const I = gru.inputSize;
  const H = gru.hiddenSize;
  for (let row = 0; row < 3 * H; row++) {
    out.set(gru.W.data.subarray(row * I, (row + 1) * I), row * (I + H));
    out.set(gru.U.data.subarray(row * H, (row + 1) * H), row * (I + H) + I);
  }
  return out;
}

/** What `GruStepper` reads of a GRU (gru.ts's `Gru`). */
interface GruWeights {
  readonly inputSize: number;
  readonly hiddenSize: number;
  readonly W: { readonly data: Float32Array };
  readonly U: { readonly data: Float32Array };
  readonly b: { readonly data: Float32Array };
}

/**
 * Inference steps of a GRU on `RowSums` over [W | U] (a copy of the weights as they are when
 * created): `step(x, h)` returns the new state, bit for bit `Gru.step(x, h).h` (the same float64
 * sums in the same order — the input's non-zero columns, then the state's — and the same float32
 * roundings of z, r, r⊙h and n). Even hidden sizes only; undefined otherwise or without
 * WebAssembly SIMD.
 *
 * @example
 * ```ts
 * import { Gru, GruStepper } from 'dialogym/nn';
 * import { createRng } from 'dialogym';
 * const gru = new Gru(3, 4);
 * gru.init(createRng(1));
 * const h = GruStepper.create(gru)?.step(new Float32Array([1, 0, 2]), new Float32Array(4)); // = gru.step(…).h
 * ```
 */
export class GruStepper {
  private readonly xh: Float32Array;
  private readonly nz: Int32Array;
  private readonly z: Float32Array;
  private readonly r: Float32Array;
  private readonly n: Float32Array;
  /** The non-zero inputs of the last step (`nz`'s first entries). */
  private nzCount = 0;

  private constructor(
    private readonly rs: RowSums,
    private readonly bias: Float32Array,
    private readonly I: number,
    private readonly H: number,
    private readonly wu: Float32Array,
  ) {
    this.xh = rs.input; // [x | hPrev], then [x | r ⊙ hPrev]: written in the kernel's memory
    this.nz = new Int32Array(I);
    this.z = new Float32Array(H);
    this.r = new Float32Array(H);
    this.n = new Float32Array(H);
  }

  static create(gru: GruWeights): GruStepper | undefined {
    const I = gru.inputSize;
    const H = gru.hiddenSize;
    if (H % 2 !== 0) return undefined;
    const wu = joinWU(gru, new Float32Array(3 * H * (I + H)));
    const rs = RowSums.create(wu, 3 * H, I + H);
    return rs ? new GruStepper(rs, gru.b.data.slice(), I, H, wu) : undefined;
  }

  /** Holds `gru`'s weights as they are now (the same sizes as at `create`): after a training step. */
  reload(gru: GruWeights): void {
    if (gru.inputSize !== this.I || gru.hiddenSize !== this.H) throw new InternalError(`GruStepper.reload: a ${gru.inputSize}→${gru.hiddenSize} GRU into a ${this.I}→${this.H} stepper`);
    this.rs.load(joinWU(gru, this.wu));
    this.bias.set(gru.b.data);
  }

  /**
   * `Gru.step(x, hPrev)` bit for bit, its cache included (new arrays, `x` and `hPrev` kept by
   * reference as `Gru.step` keeps them): for training on the held weights.
   */
  stepCache(x: Float32Array, hPrev: Float32Array): GruCache {
    const H = this.H;
    // one backing store for the cache's arrays (each small typed array is an allocation of its own)
    const buf = new ArrayBuffer(4 * (5 * H + this.I));
    const part = (k: number): Float32Array => new Float32Array(buf, 4 * k * H, H);
    const h = part(4);
    this.stepInto(x, hPrev, h);
    const [z, r, n, rh] = [part(0), part(1), part(2), part(3)];
    z.set(this.z);
    r.set(this.r);
    n.set(this.n);
    rh.set(this.xh.subarray(this.I, this.I + H)); // r ⊙ hPrev, as the step left it
    const nz = new Int32Array(buf, 4 * 5 * H, this.nzCount);
    nz.set(this.nz.subarray(0, this.nzCount));
    return { x, hPrev, z, r, n, rh, h, nz };
  }

  /** The state after reading x from hPrev (a new array). */
  step(x: Float32Array, hPrev: Float32Array): Float32Array {
    const h = new Float32Array(this.H);
    this.stepInto(x, hPrev, h);
    return h;
  }

  /** `step` into `h` (not `hPrev`). */
  private stepInto(x: Float32Array, hPrev: Float32Array, h: Float32Array): void {
    const { I, H, rs, xh, z, r, n } = this;
    if (x.length !== I || hPrev.length !== H) throw new InternalError(`gru: input ${x.length}/${I}, state ${hPrev.length}/${H}`);
    let k = 0;
    for (let i = 0; i < I; i++) if (x[i] !== 0) this.nz[k++] = i;
    this.nzCount = k;
    xh.set(x);
    xh.set(hPrev, I);
    const s = rs.sums;
    rs.start(this.bias);
    // the input's non-zero columns in runs of consecutive ones, then the state's: the order of Gru.step
    for (let a = 0; a < k; ) {
      let e = a + 1;
      while (e < k && this.nz[e] === (this.nz[e - 1] as number) + 1) e++;
      rs.addHeld(this.nz[a] as number, (this.nz[e - 1] as number) + 1);
      a = e;
    }
    rs.addHeld(I, I + H, 0, 2 * H);
    for (let i = 0; i < H; i++) {
      z[i] = sigmoid(s[i] as number);
      r[i] = sigmoid(s[H + i] as number);
    }
    for (let i = 0; i < H; i++) xh[I + i] = (r[i] as number) * (hPrev[i] as number);
    rs.addHeld(I, I + H, 2 * H, 3 * H);
    for (let i = 0; i < H; i++) n[i] = Math.tanh(s[2 * H + i] as number);
    for (let i = 0; i < H; i++) {
      const zi = z[i] as number;
      h[i] = (1 - zi) * (n[i] as number) + zi * (hPrev[i] as number);
    }
  }
}
