/**
 * Backpropagation through time of a `Gru` on WebAssembly SIMD, bit for bit `Gru.backward`: every
 * product and sum in float64, every float32 array rounded where the JS loops round it, the rows of
 * each accumulation taken in the same order (`axpyRows`). For trainers that call `Gru.backward`
 * often on small cells (KB-InfoBot's slot trackers): the gradients of W and U and the weights are
 * copied into the kernel's memory once per `backward` and the gradients back at its end.
 */
import { InternalError } from '../core/errors.js';
import { throughTime, type Gru, type GruCache } from './gru.js';
import { rowKernelsOff } from './row-sums.js';
import { DEMOTE_ZERO, F32_LOAD, F32_STORE, F64, F64X2_ADD, F64X2_MUL, F64X2_SPLAT, I32, PROMOTE_LOW, V128, compiledOnce, get, i32const, leb, memarg, oneFunctionModule, set, simd, v128store64lane0, vec, wasmApi } from './wasm.js';

const I32_ADD = 0x6a;
const I32_MUL = 0x6c;
const I32_GE_U = 0x4f;
const I32_GT_U = 0x4b;
const I32_LT_U = 0x49;
const F64_NE = 0x62;
const F64_ADD = 0xa0;
const F64_MUL = 0xa2;
const F64_PROMOTE = 0xbb;
const F32_DEMOTE = 0xb6;
const load64zero = (offset = 0): number[] => [...simd(0x5d), ...memarg(3, offset)];

/**
 * `axpy(da, rows, dst, dstStride, src, srcStride, n)` (byte offsets and strides): for each row
 * i < rows with a = da[i] ≠ 0, dst_i[j] = f32(dst_i[j] + a·src_i[j]) for j < n, where
 * dst_i = dst + i·dstStride and src_i = src + i·srcStride (a stride 0: the same vector for every
 * row). Float64 products and sums, float32 stores: the JS `y[j] = y[j] + a * m[j]` on Float32Arrays.
 */
function axpyBody(): number[] {
  const [DA, ROWS, DST, DS, SRC, SS, N] = [0, 1, 2, 3, 4, 5, 6];
  const [I, J, D, S] = [7, 8, 9, 10];
  const A = 11; // f64
  const AV = 12; // v128
  const b: number[] = [];
  b.push(0x02, 0x40, 0x03, 0x40); // block loop (i)
  b.push(...get(I), ...get(ROWS), I32_GE_U, 0x0d, 1);
  b.push(...get(DA), ...get(I), ...i32const(4), I32_MUL, I32_ADD, F32_LOAD, ...memarg(2, 0), F64_PROMOTE, ...set(A));
  b.push(...get(A), 0x44, ...new Array<number>(8).fill(0), F64_NE, 0x04, 0x40); // if a != 0
  b.push(...get(DST), ...get(I), ...get(DS), I32_MUL, I32_ADD, ...set(D));
  b.push(...get(SRC), ...get(I), ...get(SS), I32_MUL, I32_ADD, ...set(S));
  b.push(...get(A), ...F64X2_SPLAT, ...set(AV));
  b.push(...i32const(0), ...set(J));
  // d[0..1] = f32(d + a·s), two entries as a float64 pair (byte offset `o` from d and s)
  const pair = (o: number): number[] => [...get(D), ...get(D), ...load64zero(o), ...PROMOTE_LOW, ...get(AV), ...get(S), ...load64zero(o), ...PROMOTE_LOW, ...F64X2_MUL, ...F64X2_ADD, ...DEMOTE_ZERO, ...v128store64lane0(o)];
  const advance = (k: number): number[] => [...get(D), ...i32const(4 * k), I32_ADD, ...set(D), ...get(S), ...i32const(4 * k), I32_ADD, ...set(S), ...get(J), ...i32const(k), I32_ADD, ...set(J)];
  b.push(0x02, 0x40, 0x03, 0x40); // block loop (eight entries at a time)
  b.push(...get(J), ...i32const(8), I32_ADD, ...get(N), I32_GT_U, 0x0d, 1);
  b.push(...pair(0), ...pair(8), ...pair(16), ...pair(24), ...advance(8));
  b.push(0x0c, 0, 0x0b, 0x0b); // br loop; end; end
  b.push(0x02, 0x40, 0x03, 0x40); // block loop (pairs)
  b.push(...get(J), ...i32const(2), I32_ADD, ...get(N), I32_GT_U, 0x0d, 1);
  b.push(...pair(0), ...advance(2));
  b.push(0x0c, 0, 0x0b, 0x0b); // br loop; end; end
  b.push(...get(J), ...get(N), I32_LT_U, 0x04, 0x40); // if j < n: the odd last entry
  b.push(...get(D), ...get(D), F32_LOAD, ...memarg(2, 0), F64_PROMOTE, ...get(A), ...get(S), F32_LOAD, ...memarg(2, 0), F64_PROMOTE, F64_MUL, F64_ADD, F32_DEMOTE, F32_STORE, ...memarg(2, 0));
  b.push(0x0b); // end if
  b.push(0x0b); // end if (a != 0)
  b.push(...get(I), ...i32const(1), I32_ADD, ...set(I));
  b.push(0x0c, 0, 0x0b, 0x0b, 0x0b); // br loop; end; end; end func
  return [...vec([[...leb(4), I32], [...leb(1), F64], [...leb(1), V128]]), ...b];
}

const axpyWasm = compiledOnce(() => oneFunctionModule('axpy', new Array<number>(7).fill(I32), axpyBody()));

type AxpyFn = (da: number, rows: number, dst: number, dstStride: number, src: number, srcStride: number, n: number) => void;

/**
 * Rows of float32 vectors added in order into float32 vectors with float64 arithmetic, in a
 * WebAssembly memory of a fixed size (`floats` float32 entries): `view(at, n)` is a view of the
 * memory, `axpy` the kernel above on float offsets. Undefined without WebAssembly SIMD.
 *
 * @example
 * ```ts
 * import { AxpyRows } from 'dialogym/nn';
 * const k = AxpyRows.create(16);
 * if (k) {
 *   k.view(0, 2).set([1, 2]);           // da
 *   k.view(2, 3).set([1, 1, 1]);        // y
 *   k.view(5, 6).set([1, 2, 3, 4, 5, 6]); // two rows of m
 *   k.axpy(0, 2, 2, 0, 5, 3, 3);       // y += 1·m_0 + 2·m_1
 *   k.view(2, 3);                      // [10, 13, 16]
 * }
 * ```
 */
export class AxpyRows {
  private constructor(
    private readonly fn: AxpyFn,
    readonly f32: Float32Array,
  ) {}

  static create(floats: number): AxpyRows | undefined {
    const mod = rowKernelsOff() ? null : axpyWasm();
    if (!mod) return undefined;
    const memory = new wasmApi.Memory({ initial: Math.max(1, Math.ceil((floats * 4) / 65536)) });
    const fn = new wasmApi.Instance(mod, { e: { m: memory } }).exports.axpy as AxpyFn;
    return new AxpyRows(fn, new Float32Array(memory.buffer));
  }

  /** A view of `n` floats at float offset `at`. */
  view(at: number, n: number): Float32Array {
    return this.f32.subarray(at, at + n);
  }

  /** For i < rows with a = da[i] ≠ 0: dst_i[j] = f32(dst_i[j] + a·src_i[j]), j < n (float offsets and strides; dst_i = dst + i·dstStride). */
  axpy(da: number, rows: number, dst: number, dstStride: number, src: number, srcStride: number, n: number): void {
    if (rows <= 0 || n <= 0) return;
    this.fn(4 * da, rows, 4 * dst, 4 * dstStride, 4 * src, 4 * srcStride, n);
  }
}

/**
 * `Gru.backward` on `AxpyRows` (module description): `backward(caches, dhs, dxs)` accumulates
 * the same gradients into the GRU's `W`, `U`, `b` and returns the same ∂L/∂h0, bit for bit.
 * Undefined without WebAssembly SIMD.
 *
 * @example
 * ```ts
 * import { Gru, GruBackprop, zeroGrads } from 'dialogym/nn';
 * import { createRng } from 'dialogym';
 * const gru = new Gru(4, 8);
 * gru.init(createRng(1));
 * const caches = gru.forward([new Float32Array([1, 0, 0, 0])]);
 * zeroGrads(gru.params);
 * GruBackprop.create(gru)?.backward(caches, [new Float32Array(8).fill(1)]); // = gru.backward(…)
 * ```
 */
export class GruBackprop {
  private readonly I: number;
  private readonly H: number;
  /** Float offsets in the memory. */
  private readonly at: { W: number; U: number; gW: number; gU: number; da: number; drh: number; dhPrev: number; rh: number; hPrev: number; x: number; dx: number };
  private readonly v: { W: Float32Array; U: Float32Array; gW: Float32Array; gU: Float32Array; da: Float32Array; drh: Float32Array; dhPrev: Float32Array; rh: Float32Array; hPrev: Float32Array; x: Float32Array; dx: Float32Array };

  private constructor(
    readonly gru: Gru,
    private readonly k: AxpyRows,
    at: GruBackprop['at'],
  ) {
    this.I = gru.inputSize;
    this.H = gru.hiddenSize;
    this.at = at;
    const { I, H } = this;
    this.v = { W: k.view(at.W, 3 * H * I), U: k.view(at.U, 3 * H * H), gW: k.view(at.gW, 3 * H * I), gU: k.view(at.gU, 3 * H * H), da: k.view(at.da, 3 * H), drh: k.view(at.drh, H), dhPrev: k.view(at.dhPrev, H), rh: k.view(at.rh, H), hPrev: k.view(at.hPrev, H), x: k.view(at.x, I), dx: k.view(at.dx, I) };
  }

  static create(gru: Gru): GruBackprop | undefined {
    const I = gru.inputSize;
    const H = gru.hiddenSize;
    const at = { W: 0, U: 0, gW: 0, gU: 0, da: 0, drh: 0, dhPrev: 0, rh: 0, hPrev: 0, x: 0, dx: 0 };
    let end = 0;
    const sizes: Record<keyof typeof at, number> = { W: 3 * H * I, U: 3 * H * H, gW: 3 * H * I, gU: 3 * H * H, da: 3 * H, drh: H, dhPrev: H, rh: H, hPrev: H, x: I, dx: I };
    for (const key of Object.keys(at) as (keyof typeof at)[]) {
      at[key] = end;
      end += sizes[key] + ((4 - (sizes[key] % 4)) % 4); // 16-byte aligned
    }
    const k = AxpyRows.create(end);
    return k ? new GruBackprop(gru, k, at) : undefined;
  }

  /**
   * `Gru.backward(caches, dhs, dxs)` bit for bit: `dhs[t]` ∂L/∂h_t from the loss at step t
   * (undefined = none); accumulates the GRU's gradients; returns ∂L/∂h0; adds ∂L/∂x_t into `dxs[t]`.
   */
  backward(caches: readonly GruCache[], dhs: readonly (Float32Array | undefined)[], dxs?: readonly Float32Array[]): Float32Array {
    const { gru, v, H } = this;
    v.W.set(gru.W.data);
    v.U.set(gru.U.data);
    v.gW.set(gru.W.grad);
    v.gU.set(gru.U.grad);
    const carry = throughTime(H, caches, dhs, dxs, (c, d, dx) => this.stepBackward(c, d, dx));
    gru.W.grad.set(v.gW);
    gru.U.grad.set(v.gU);
    return carry;
  }

  /** `Gru.stepBackward` on the memory's copies of the weights and gradients. */
  private stepBackward(c: GruCache, dh: Float32Array, dx: Float32Array | undefined): Float32Array {
    const { I, H, k, at, v } = this;
    const gb = this.gru.b.grad;
    if (c.x.length !== I || c.hPrev.length !== H || dh.length < H) throw new InternalError(`GruBackprop: a step of ${c.x.length}→${c.hPrev.length} for a ${I}→${H} GRU`);
    const { da, drh, dhPrev } = v;
    // da = [daz | dar | dan]
    for (let i = 0; i < H; i++) {
      const g = dh[i] as number;
      const zi = c.z[i] as number;
      const ni = c.n[i] as number;
      dhPrev[i] = g * zi;
      da[2 * H + i] = g * (1 - zi) * (1 - ni * ni);
      da[i] = g * ((c.hPrev[i] as number) - ni) * zi * (1 - zi);
    }
    // candidate: an = Wn·x + Un·rh + bn
    drh.fill(0);
    v.rh.set(c.rh);
    v.hPrev.set(c.hPrev);
    for (let i = 0; i < H; i++) {
      const a = da[2 * H + i] as number;
      if (a !== 0) gb[2 * H + i] = (gb[2 * H + i] as number) + a;
    }
    k.axpy(at.da + 2 * H, H, at.drh, 0, at.U + 2 * H * H, H, H);
    k.axpy(at.da + 2 * H, H, at.gU + 2 * H * H, H, at.rh, 0, H);
    for (let j = 0; j < H; j++) {
      const ri = c.r[j] as number;
      dhPrev[j] = (dhPrev[j] as number) + (drh[j] as number) * ri;
      da[H + j] = (drh[j] as number) * (c.hPrev[j] as number) * ri * (1 - ri);
    }
    // gates z, r: az = Wz·x + Uz·h + bz, ar likewise
    for (let i = 0; i < 2 * H; i++) {
      const a = da[i] as number;
      if (a !== 0) gb[i] = (gb[i] as number) + a;
    }
    k.axpy(at.da, 2 * H, at.dhPrev, 0, at.U, H, H);
    k.axpy(at.da, 2 * H, at.gU, H, at.hPrev, 0, H);
    // input side: gW over the non-zero inputs (in runs of consecutive columns), dx over all
    v.x.set(c.x);
    const nz = c.nz;
    for (let s = 0; s < nz.length; ) {
      let e = s + 1;
      while (e < nz.length && nz[e] === (nz[e - 1] as number) + 1) e++;
      const c0 = nz[s] as number;
      k.axpy(at.da, 3 * H, at.gW + c0, I, at.x + c0, 0, e - s);
      s = e;
    }
    if (dx) {
      v.dx.set(dx.subarray(0, I));
      k.axpy(at.da, 3 * H, at.dx, 0, at.W, I, I);
      dx.set(v.dx);
    }
    return dhPrev.slice();
  }
}

/**
 * `Linear.backward` of a rows×cols weight matrix on `AxpyRows`, bit for bit: between `begin(W, gW)`
 * (the weights and their gradient copied into the kernel's memory) and `end()` (the gradient
 * copied back), each `backward(x, dy, dx?, gb?)` adds dy_r·x to row r of ∂W and dy_r to ∂b_r and
 * Σ_r dy_r·W_r to `dx`, rows with dy_r = 0 skipped, in row order. Undefined without WebAssembly SIMD.
 *
 * @example
 * ```ts
 * import { Linear, RowsBackprop, zeroGrads } from 'dialogym/nn';
 * import { createRng } from 'dialogym';
 * const lin = new Linear(4, 3);
 * lin.init(createRng(1));
 * zeroGrads(lin.params);
 * const k = RowsBackprop.create(3, 4);
 * const dx = new Float32Array(4);
 * k?.begin(lin.W.data, lin.W.grad);
 * k?.backward(new Float32Array([1, 2, 3, 4]), new Float32Array([1, 0, -1]), dx, lin.b!.grad);
 * k?.end(); // = lin.backward(x, dy, dx)
 * ```
 */
export class RowsBackprop {
  private readonly at: { W: number; gW: number; dy: number; x: number; dx: number };
  private readonly v: { W: Float32Array; gW: Float32Array; dy: Float32Array; x: Float32Array; dx: Float32Array };
  private gW: Float32Array | null = null;

  private constructor(
    readonly rows: number,
    readonly cols: number,
    private readonly k: AxpyRows,
  ) {
    const a4 = (n: number): number => n + ((4 - (n % 4)) % 4);
    const W = 0;
    const gW = W + a4(rows * cols);
    const dy = gW + a4(rows * cols);
    const x = dy + a4(rows);
    const dx = x + a4(cols);
    this.at = { W, gW, dy, x, dx };
    this.v = { W: k.view(W, rows * cols), gW: k.view(gW, rows * cols), dy: k.view(dy, rows), x: k.view(x, cols), dx: k.view(dx, cols) };
  }

  static create(rows: number, cols: number): RowsBackprop | undefined {
    const a4 = (n: number): number => n + ((4 - (n % 4)) % 4);
    const k = AxpyRows.create(2 * a4(rows * cols) + a4(rows) + 2 * a4(cols));
    return k ? new RowsBackprop(rows, cols, k) : undefined;
  }

  /** Copies the weights `W` and their gradient `gW` (rows×cols, row-major) in; `end` writes the gradient back to `gW`. */
  begin(W: Float32Array, gW: Float32Array): void {
    if (W.length !== this.rows * this.cols || gW.length !== W.length) throw new InternalError(`RowsBackprop.begin: ${W.length}/${gW.length} entries for ${this.rows}×${this.cols}`);
    this.v.W.set(W);
    this.v.gW.set(gW);
    this.gW = gW;
  }

  /** `Linear.backward(x, dy, dx)` on the held copies (∂b into `gb` when given). */
  backward(x: Float32Array, dy: Float32Array, dx?: Float32Array, gb?: Float32Array): void {
    const { k, at, v, rows, cols } = this;
    if (!this.gW) throw new InternalError('RowsBackprop.backward before begin');
    if (gb) {
      for (let r = 0; r < rows; r++) {
        const a = dy[r] as number;
        if (a !== 0) gb[r] = (gb[r] as number) + a;
      }
    }
    v.dy.set(dy.subarray(0, rows));
    v.x.set(x.subarray(0, cols));
    k.axpy(at.dy, rows, at.gW, cols, at.x, 0, cols);
    if (dx) {
      v.dx.set(dx.subarray(0, cols));
      k.axpy(at.dy, rows, at.dx, 0, at.W, cols, cols);
      dx.set(v.dx);
    }
  }

  /** Writes the gradient back to the `gW` of `begin`. */
  end(): void {
    if (!this.gW) throw new InternalError('RowsBackprop.end before begin');
    this.gW.set(this.v.gW);
    this.gW = null;
  }
}
