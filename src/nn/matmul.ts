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
import { F32X4_ADD, F32X4_MUL, F32_LOAD, I32, V128, get, wasmApi, i32const, leb, memarg, section, set, simd, str, v128load, v128store, vec } from './wasm.js';

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
  const mm = mmBody();
  return new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
    ...section(1, vec([[0x60, ...vec(new Array<number[]>(8).fill([I32])), ...vec([])]])),
    ...section(2, vec([[...str('e'), ...str('m'), 0x02, 0x00, ...leb(1)]])),
    ...section(3, vec([leb(0)])),
    ...section(7, vec([[...str('mm'), 0x00, ...leb(0)]])),
    ...section(10, vec([[...leb(mm.length), ...mm]])),
  ]);
}

interface Kernel {
  memory: InstanceType<typeof wasmApi.Memory>;
  mm: (a: number, b: number, c: number, n: number, k: number, m: number, ldb: number, ldc: number) => void;
  f32: Float32Array;
}

let kernel: Kernel | null | undefined;
function simdKernel(): Kernel | null {
  if (kernel === undefined) {
    try {
      const memory = new wasmApi.Memory({ initial: 16 });
      const instance = new wasmApi.Instance(new wasmApi.Module(mmModule()), { e: { m: memory } });
      kernel = { memory, mm: instance.exports.mm as Kernel['mm'], f32: new Float32Array(memory.buffer) };
    } catch {
      kernel = null; // no WebAssembly SIMD here
    }
  }
  return kernel;
}

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
  return simdKernel() !== null;
}

let forceScalar = false;
/**
 * `matMul` takes the scalar path while set (for tests and measurements); returns the previous setting.
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
  const kern = forceScalar ? null : simdKernel();
  if (!kern || n === 0 || m === 0) return matMulScalar(a, b, c, n, k, m, o);
  check(a, b, c, n, k, m);
  const n4 = (n + 3) & ~3;
  const m8 = (m + 7) & ~7;
  // layout (floats, 16-byte aligned): A panels n4·k, B k·m8, C n4·m8
  const aAt = 0;
  const bAt = n4 * k;
  const cAt = bAt + k * m8;
  const end = cAt + n4 * m8;
  if (end * 4 > kern.memory.buffer.byteLength) {
    kern.memory.grow(Math.ceil((end * 4 - kern.memory.buffer.byteLength) / 65536));
    kern.f32 = new Float32Array(kern.memory.buffer);
  }
  const w = kern.f32;
  // A in panels of 4 rows: entry (i, p) at aAt + (i & ~3)·k + 4p + (i & 3); rows past n are zero
  if (o.transA) {
    for (let p = 0; p < k; p++) {
      const src = p * n;
      for (let i = 0; i < n; i++) w[aAt + (i & ~3) * k + 4 * p + (i & 3)] = a[src + i] as number;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const src = i * k;
      const dst = aAt + (i & ~3) * k + (i & 3);
      for (let p = 0; p < k; p++) w[dst + 4 * p] = a[src + p] as number;
    }
  }
  for (let i = n; i < n4; i++) for (let p = 0; p < k; p++) w[aAt + (i & ~3) * k + 4 * p + (i & 3)] = 0;
  // B rows of m8 floats
  if (o.transB) {
    for (let j = 0; j < m; j++) {
      const src = j * k;
      for (let p = 0; p < k; p++) w[bAt + p * m8 + j] = b[src + p] as number;
    }
  } else if (m8 === m) w.set(b.subarray(0, k * m), bAt);
  else for (let p = 0; p < k; p++) w.set(b.subarray(p * m, (p + 1) * m), bAt + p * m8);
  // C
  if (!o.accumulate) w.fill(0, cAt, cAt + n4 * m8);
  else if (m8 === m) w.set(c.subarray(0, n * m), cAt);
  else for (let i = 0; i < n; i++) w.set(c.subarray(i * m, (i + 1) * m), cAt + i * m8);
  kern.mm(4 * aAt, 4 * bAt, 4 * cAt, n4, k, m8, 4 * m8, 4 * m8);
  if (m8 === m) c.set(w.subarray(cAt, cAt + n * m));
  else for (let i = 0; i < n; i++) c.set(w.subarray(cAt + i * m8, cAt + i * m8 + m), i * m);
}
