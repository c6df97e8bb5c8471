/**
 * Matrix-matrix products for the batched layers: C (n×m) = op(A)·op(B) (+ C), op(X) being X or
 * Xᵀ, every matrix a row-major `Float32Array` of any size. The forward of a layer over a batch
 * (Y = X·Wᵀ) and its two gradient products (∂X = ∂Y·W, ∂W += ∂Yᵀ·X) are all this one product.
 *
 * Arithmetic (both paths, bit for bit): every entry is accumulated in float32 in the order of the
 * inner index, c ← f32(c + f32(a·b)), from 0 (or from C with `accumulate`). The WebAssembly SIMD
 * path computes 4×8 tiles of C with eight f32x4 accumulators (A packed in panels of 4 rows, B
 * with its rows padded to a multiple of 8 columns) in a memory that grows as needed; where
 * WebAssembly SIMD is missing, `matMul` runs `matMulScalar`, the same numbers in a JS loop.
 * The products differ from the float64-accumulated `matVec` family in the last bits only.
 */
import { ConfigError } from '../core/errors.js';
import { F32X4_ADD, F32X4_MUL, F32_LOAD, I32, V128, compiledOnce, oneFunctionModule, get, wasmApi, i32const, leb, memarg, set, simd, v128load, v128store, vec } from './wasm.js';

/**
 * Which operands are transposed and whether C is added to.
 *
 * @example
 * ```ts
 * import type { MatMulOptions } from 'dialogym/nn';
 * const gradW: MatMulOptions = { transA: true, accumulate: true }; // ∂W += ∂Yᵀ·X
 * ```
 */
export interface MatMulOptions {
  /** A is stored k×n (op(A) = Aᵀ). */
  readonly transA?: boolean;
  /** B is stored m×k (op(B) = Bᵀ). */
  readonly transB?: boolean;
  /** C += op(A)·op(B) instead of C = op(A)·op(B). */
  readonly accumulate?: boolean;
}

function check(a: Float32Array, b: Float32Array, c: Float32Array, n: number, k: number, m: number): void {
  if (!(Number.isInteger(n) && Number.isInteger(k) && Number.isInteger(m) && n >= 0 && k >= 0 && m >= 0)) throw new ConfigError(`matMul: sizes ${n}×${k}·${k}×${m} are not counts`);
  if (a.length < n * k || b.length < k * m || c.length < n * m) throw new ConfigError(`matMul: ${n}×${k}·${k}×${m} needs A ≥ ${n * k}, B ≥ ${k * m}, C ≥ ${n * m} entries (have ${a.length}, ${b.length}, ${c.length})`);
}

/**
 * `matMul` in a JS loop (the reference of the SIMD kernel, same numbers bit for bit).
 *
 * @example
 * ```ts
 * import { matMulScalar } from 'dialogym/nn';
 * const c = new Float32Array(4);
 * matMulScalar(new Float32Array([1, 2, 3, 4]), new Float32Array([1, 0, 0, 1]), c, 2, 2, 2); // c = [1, 2, 3, 4]
 * ```
 */
export function matMulScalar(a: Float32Array, b: Float32Array, c: Float32Array, n: number, k: number, m: number, o: MatMulOptions = {}): void {
  check(a, b, c, n, k, m);
  const f = Math.fround;
  const [as, ap] = o.transA ? [1, n] : [k, 1]; // A(i, p) = a[i·as + p·ap]
  const [bp, bs] = o.transB ? [1, k] : [m, 1]; // B(p, j) = b[p·bp + j·bs]
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < m; j++) {
      let s = o.accumulate ? (c[i * m + j] as number) : 0;
      for (let p = 0; p < k; p++) s = f(s + f((a[i * as + p * ap] as number) * (b[p * bp + j * bs] as number)));
      c[i * m + j] = s;
    }
  }
}

/**
 * Body of `mm(a, b, c, n, k, m, ldb, ldc)` (byte offsets and strides): C[i..i+4)[j..j+8) +=
 * Σ_p A[i..i+4)[p]·B[p][j..j+8) for i < n step 4, j < m step 8; A in panels (rows i..i+4 at
 * a + 4ik floats, entry (p, r) at 4p + r), B rows `ldb` bytes apart, C rows `ldc`.
 */
function mmBody(): number[] {
  const [A, B, C, N, K, M, LDB, LDC] = [0, 1, 2, 3, 4, 5, 6, 7];
  const [I, J, AP, BP, C0, C1, C2, C3, P] = [8, 9, 10, 11, 12, 13, 14, 15, 16];
  const ACC = 17; // v128 locals: 8 accumulators, b0, b1, s
  const [B0, B1, S] = [ACC + 8, ACC + 9, ACC + 10];
  const ADD = 0x6a;
  const MUL = 0x6c;
  const GE_U = 0x4f;
  const F32X4_SPLAT = simd(0x13);
  const b: number[] = [];
  b.push(0x02, 0x40, 0x03, 0x40); // block loop (i)
  b.push(...get(I), ...get(N), GE_U, 0x0d, 1);
  b.push(...i32const(0), ...set(J));
  b.push(0x02, 0x40, 0x03, 0x40); // block loop (j)
  b.push(...get(J), ...get(M), GE_U, 0x0d, 1);
  // row addresses of the tile: c0 = c + i·ldc + 4j, c1..c3 the next rows
  b.push(...get(C), ...get(I), ...get(LDC), MUL, ADD, ...get(J), ...i32const(4), MUL, ADD, ...set(C0));
  b.push(...get(C0), ...get(LDC), ADD, ...set(C1));
  b.push(...get(C1), ...get(LDC), ADD, ...set(C2));
  b.push(...get(C2), ...get(LDC), ADD, ...set(C3));
  [C0, C1, C2, C3].forEach((row, r) => b.push(...get(row), ...v128load(0), ...set(ACC + 2 * r), ...get(row), ...v128load(16), ...set(ACC + 2 * r + 1)));
  // ap = a + 4·i·k floats; bp = b + 4j; p = k
  b.push(...get(A), ...get(I), ...get(K), MUL, ...i32const(4), MUL, ADD, ...set(AP));
  b.push(...get(B), ...get(J), ...i32const(4), MUL, ADD, ...set(BP));
  b.push(...get(K), ...set(P));
  b.push(0x02, 0x40, 0x03, 0x40); // block loop (p)
  b.push(...get(P), 0x45, 0x0d, 1); // p == 0 → exit
  b.push(...get(BP), ...v128load(0), ...set(B0), ...get(BP), ...v128load(16), ...set(B1));
  for (let r = 0; r < 4; r++) {
    b.push(...get(AP), F32_LOAD, ...memarg(2, 4 * r), ...F32X4_SPLAT, ...set(S));
    b.push(...get(ACC + 2 * r), ...get(S), ...get(B0), ...F32X4_MUL, ...F32X4_ADD, ...set(ACC + 2 * r));
    b.push(...get(ACC + 2 * r + 1), ...get(S), ...get(B1), ...F32X4_MUL, ...F32X4_ADD, ...set(ACC + 2 * r + 1));
  }
  b.push(...get(AP), ...i32const(16), ADD, ...set(AP));
  b.push(...get(BP), ...get(LDB), ADD, ...set(BP));
  b.push(...get(P), ...i32const(1), 0x6b, ...set(P));
  b.push(0x0c, 0, 0x0b, 0x0b); // br loop (p); end; end
  [C0, C1, C2, C3].forEach((row, r) => b.push(...get(row), ...get(ACC + 2 * r), ...v128store(0), ...get(row), ...get(ACC + 2 * r + 1), ...v128store(16)));
  b.push(...get(J), ...i32const(8), ADD, ...set(J));
  b.push(0x0c, 0, 0x0b, 0x0b); // br loop (j); end; end
  b.push(...get(I), ...i32const(4), ADD, ...set(I));
  b.push(0x0c, 0, 0x0b, 0x0b, 0x0b); // br loop (i); end; end; end func
  return [...vec([[...leb(9), I32], [...leb(11), V128]]), ...b];
}

function mmModule(): Uint8Array {
  return oneFunctionModule('mm', new Array<number>(8).fill(I32), mmBody());
}

const simdModule = compiledOnce(mmModule);

/**
 * Whether `matMul` runs on the WebAssembly SIMD kernel here (else on `matMulScalar`).
 *
 * @example
 * ```ts
 * import { matMulIsSimd } from 'dialogym/nn';
 * console.log(matMulIsSimd() ? 'SIMD' : 'scalar');
 * ```
 */
export function matMulIsSimd(): boolean {
  return simdModule() !== null;
}

let forceScalar = false;
/**
 * `matMul` and new `MatMulWorkspace`s take the scalar path while set (for tests and
 * measurements); returns the previous setting.
 *
 * @example
 * ```ts
 * import { setMatMulScalar } from 'dialogym/nn';
 * const was = setMatMulScalar(true);
 * // … products on the scalar path …
 * setMatMulScalar(was);
 * ```
 */
export function setMatMulScalar(on: boolean): boolean {
  const was = forceScalar;
  forceScalar = on;
  return was;
}

/** A right operand held by a workspace: its place (floats), its sizes, its padded width. */
interface Held {
  at: number;
  k: number;
  m: number;
  m8: number;
  /** The scalar path's copy (k×m). */
  copy: Float32Array | null;
}

/**
 * A memory for products whose right operand B is used many times (the recurrent weights of a
 * GRU over the steps of a sequence): `hold` copies B in once, `mul` multiplies rows by it (module
 * description: the numbers of `matMul`, bit for bit). On the WebAssembly SIMD kernel when
 * available, else on the scalar loop. A handle stays valid for the workspace's life; `set`
 * refreshes its values (after a parameter update).
 *
 * @example
 * ```ts
 * import { MatMulWorkspace } from 'dialogym/nn';
 * const ws = new MatMulWorkspace();
 * const b = ws.hold(new Float32Array([1, 0, 0, 1, 1, 1]), 3, 2); // B: 3×2
 * const c = new Float32Array(2);
 * ws.mul(new Float32Array([1, 2, 3]), 1, b, c); // c = [4, 5]
 * ```
 */
export class MatMulWorkspace {
  private readonly memory: InstanceType<typeof wasmApi.Memory> | null;
  private readonly mm: ((a: number, b: number, c: number, n: number, k: number, m: number, ldb: number, ldc: number) => void) | null;
  private f32: Float32Array;
  /** Floats used by held operands (the scratch of a product starts here). */
  private top = 0;
  private readonly held: Held[] = [];

  constructor() {
    const mod = forceScalar ? null : simdModule();
    if (mod) {
      this.memory = new wasmApi.Memory({ initial: 1 });
      const instance = new wasmApi.Instance(mod, { e: { m: this.memory } });
      this.mm = instance.exports.mm as MatMulWorkspace['mm'];
      this.f32 = new Float32Array(this.memory.buffer);
    } else {
      this.memory = null;
      this.mm = null;
      this.f32 = new Float32Array(0);
    }
  }

  /** Whether the products run on the SIMD kernel. */
  get simd(): boolean {
    return this.mm !== null;
  }

  private reserve(floats: number): void {
    const memory = this.memory as NonNullable<MatMulWorkspace['memory']>;
    if (floats * 4 > memory.buffer.byteLength) {
      memory.grow(Math.ceil((floats * 4 - memory.buffer.byteLength) / 65536));
      this.f32 = new Float32Array(memory.buffer);
    }
  }

  /** Holds B (k×m; stored m×k with `transB`) for `mul`; returns its handle. */
  hold(b: Float32Array, k: number, m: number, transB = false): number {
    const m8 = (m + 7) & ~7;
    const h: Held = { at: this.top, k, m, m8, copy: this.mm ? null : new Float32Array(k * m) };
    this.top += k * m8 + 4;
    if (this.mm) this.reserve(this.top);
    this.held.push(h);
    this.set(this.held.length - 1, b, transB);
    return this.held.length - 1;
  }

  /** New values for held operand `handle` (same sizes and layout as given to `hold`). */
  set(handle: number, b: Float32Array, transB = false): void {
    const h = this.held[handle];
    if (!h) throw new ConfigError(`MatMulWorkspace: no operand ${handle}`);
    const { k, m } = h;
    if (b.length < k * m) throw new ConfigError(`MatMulWorkspace: ${b.length} values for a ${k}×${m} operand`);
    if (h.copy) {
      if (transB) for (let p = 0; p < k; p++) for (let j = 0; j < m; j++) h.copy[p * m + j] = b[j * k + p] as number;
      else h.copy.set(b.subarray(0, k * m));
      return;
    }
    packB(this.f32, h.at, h.m8, b, k, m, transB);
  }

  /**
   * C (n×m) = A (n×k)·B, or C += A·B with `accumulate`, B the held operand `handle`; A's rows
   * start at a[aOff], C's at c[cOff] (rows of k and m floats).
   */
  mul(a: Float32Array, n: number, handle: number, c: Float32Array, accumulate = false, aOff = 0, cOff = 0): void {
    const h = this.held[handle];
    if (!h) throw new ConfigError(`MatMulWorkspace: no operand ${handle}`);
    const { k, m, m8 } = h;
    if (a.length < aOff + n * k || c.length < cOff + n * m) throw new ConfigError(`MatMulWorkspace.mul: ${n}×${k}·${k}×${m} needs A ≥ ${aOff + n * k}, C ≥ ${cOff + n * m} entries (have ${a.length}, ${c.length})`);
    if (n === 0 || m === 0) return;
    if (h.copy) {
      matMulScalar(aOff === 0 ? a : a.subarray(aOff), h.copy, cOff === 0 ? c : c.subarray(cOff), n, k, m, { accumulate });
      return;
    }
    const n4 = (n + 3) & ~3;
    const aAt = this.top;
    const cAt = aAt + n4 * k;
    this.reserve(cAt + n4 * m8);
    const w = this.f32;
    packA(w, aAt, a, aOff, n, k, false);
    loadC(w, cAt, m8, c, cOff, n, m, accumulate);
    (this.mm as NonNullable<MatMulWorkspace['mm']>)(4 * aAt, 4 * h.at, 4 * cAt, n4, k, m8, 4 * m8, 4 * m8);
    storeC(w, cAt, m8, c, cOff, n, m);
  }

  /** C = op(A)·op(B) (+ C) through the scratch of this workspace: `matMul`'s product. */
  product(a: Float32Array, b: Float32Array, c: Float32Array, n: number, k: number, m: number, o: MatMulOptions): void {
    if (!this.mm || n === 0 || m === 0) return matMulScalar(a, b, c, n, k, m, o);
    check(a, b, c, n, k, m);
    const n4 = (n + 3) & ~3;
    const m8 = (m + 7) & ~7;
    const aAt = this.top;
    const bAt = aAt + n4 * k;
    const cAt = bAt + k * m8;
    this.reserve(cAt + n4 * m8);
    const w = this.f32;
    packA(w, aAt, a, 0, n, k, o.transA === true);
    packB(w, bAt, m8, b, k, m, o.transB === true);
    loadC(w, cAt, m8, c, 0, n, m, o.accumulate === true);
    this.mm(4 * aAt, 4 * bAt, 4 * cAt, n4, k, m8, 4 * m8, 4 * m8);
    storeC(w, cAt, m8, c, 0, n, m);
  }
}

/** A (n×k, or k×n with `transA`) into panels of 4 rows at w[at]: entry (i, p) at (i & ~3)·k + 4p + (i & 3); rows past n are zero. */
function packA(w: Float32Array, at: number, a: Float32Array, aOff: number, n: number, k: number, transA: boolean): void {
  if (transA) {
    for (let p = 0; p < k; p++) {
      const src = aOff + p * n;
      for (let i = 0; i < n; i++) w[at + (i & ~3) * k + 4 * p + (i & 3)] = a[src + i] as number;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const src = aOff + i * k;
      const dst = at + (i & ~3) * k + (i & 3);
      for (let p = 0; p < k; p++) w[dst + 4 * p] = a[src + p] as number;
    }
  }
  const n4 = (n + 3) & ~3;
  for (let i = n; i < n4; i++) for (let p = 0; p < k; p++) w[at + (i & ~3) * k + 4 * p + (i & 3)] = 0;
}

/** B (k×m, or m×k with `transB`) into rows of m8 floats at w[at]. */
function packB(w: Float32Array, at: number, m8: number, b: Float32Array, k: number, m: number, transB: boolean): void {
  if (transB) {
    for (let j = 0; j < m; j++) {
      const src = j * k;
      for (let p = 0; p < k; p++) w[at + p * m8 + j] = b[src + p] as number;
    }
  } else if (m8 === m) w.set(b.subarray(0, k * m), at);
  else for (let p = 0; p < k; p++) w.set(b.subarray(p * m, (p + 1) * m), at + p * m8);
}

function loadC(w: Float32Array, at: number, m8: number, c: Float32Array, cOff: number, n: number, m: number, accumulate: boolean): void {
  const n4 = (n + 3) & ~3;
  if (!accumulate) w.fill(0, at, at + n4 * m8);
  else if (m8 === m) w.set(c.subarray(cOff, cOff + n * m), at);
  else for (let i = 0; i < n; i++) w.set(c.subarray(cOff + i * m, cOff + (i + 1) * m), at + i * m8);
}

function storeC(w: Float32Array, at: number, m8: number, c: Float32Array, cOff: number, n: number, m: number): void {
  if (m8 === m) c.set(w.subarray(at, at + n * m), cOff);
  else for (let i = 0; i < n; i++) c.set(w.subarray(at + i * m8, at + i * m8 + m), cOff + i * m);
}

let shared: MatMulWorkspace | undefined;

/**
 * C (n×m) = op(A)·op(B), or C += op(A)·op(B) with `accumulate` (module description: float32
 * accumulation in the order of k, the same numbers on the SIMD and the scalar path).
 *
 * @example
 * ```ts
 * import { matMul } from 'dialogym/nn';
 * const c = new Float32Array(2);
 * // (1×3)·(3×2): [1 2 3]·[[1 0] [0 1] [1 1]] = [4 5]
 * matMul(new Float32Array([1, 2, 3]), new Float32Array([1, 0, 0, 1, 1, 1]), c, 1, 3, 2);
 * ```
 */
export function matMul(a: Float32Array, b: Float32Array, c: Float32Array, n: number, k: number, m: number, o: MatMulOptions = {}): void {
  if (forceScalar) return matMulScalar(a, b, c, n, k, m, o);
  shared ??= new MatMulWorkspace();
  shared.product(a, b, c, n, k, m, o);
}
