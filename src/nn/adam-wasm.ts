/**
 * The dense Adam update on WebAssembly SIMD: two float64 lanes per instruction, every operation
 * of `adamUpdate` (adam-update.ts) in the same order on the same float64 values (float32 inputs
 * promoted exactly, the moments and the value rounded to float32 at the same places), so the
 * weights are bit-identical to the JS loop. The moments stay in the kernel's memory between steps;
 * a step copies a parameter's values and gradient in and its values out. Where WebAssembly SIMD is
 * missing, `AdamKernel.create` returns undefined and `adam` keeps the JS loop.
 */
import { DEMOTE_ZERO, F64, F64X2_ADD, F64X2_MUL, F64X2_SPLAT, I32, PROMOTE_LOW, V128, compiledOnce, oneFunctionModule, get, i32const, leb, memarg, set, simd, v128store64lane0, vec, wasmApi } from './wasm.js';

const F64X2_SUB = simd(0xf1);
const F64X2_DIV = simd(0xf3);
const F64X2_SQRT = simd(0xef);
/** v128.load64_zero: two float32 into the low half. */
const load2 = (): number[] => [...simd(0x5d), ...memarg(3, 0)];

/**
 * Body of `adam(x, g, m, v, pairs, scale, a, b1, c1, b2, c2, eps)` (byte offsets; `pairs` pairs of
 * entries): for each entry, as `adamUpdate` with c1 = 1 − β₁, c2 = 1 − β₂ —
 * gi = scale·g; mi = β₁·m + c1·gi; vi = β₂·v + (c2·gi)·gi; m = f32(mi); v = f32(vi);
 * x = f32(x − (a·mi)/(√vi + eps)).
 */
function adamBody(): number[] {
  const [X, G, M, V, N] = [0, 1, 2, 3, 4];
  const [SCALE, A, B1, C1, B2, C2, EPS] = [5, 6, 7, 8, 9, 10, 11];
  const [K, OFF] = [12, 13];
  const [vG, vM, vV, sS, sA, sB1, sC1, sB2, sC2, sE] = [14, 15, 16, 17, 18, 19, 20, 21, 22, 23];
  const ADD = 0x6a;
  const b: number[] = [];
  [
    [SCALE, sS],
    [A, sA],
    [B1, sB1],
    [C1, sC1],
    [B2, sB2],
    [C2, sC2],
    [EPS, sE],
  ].forEach(([from, to]) => b.push(...get(from!), ...F64X2_SPLAT, ...set(to!)));
  const at = (base: number): number[] => [...get(base), ...get(OFF), ADD];
  b.push(0x02, 0x40, 0x03, 0x40); // block loop
  b.push(...get(K), ...get(N), 0x4f, 0x0d, 1); // k >= pairs → exit
  b.push(...get(K), ...i32const(3), 0x74, ...set(OFF)); // off = 8k
  // gi = scale·g
  b.push(...at(G), ...load2(), ...PROMOTE_LOW, ...get(sS), ...F64X2_MUL, ...set(vG));
  // mi = β₁·m + c1·gi
  b.push(...get(sB1), ...at(M), ...load2(), ...PROMOTE_LOW, ...F64X2_MUL, ...get(sC1), ...get(vG), ...F64X2_MUL, ...F64X2_ADD, ...set(vM));
  // vi = β₂·v + (c2·gi)·gi
  b.push(...get(sB2), ...at(V), ...load2(), ...PROMOTE_LOW, ...F64X2_MUL, ...get(sC2), ...get(vG), ...F64X2_MUL, ...get(vG), ...F64X2_MUL, ...F64X2_ADD, ...set(vV));
  b.push(...at(M), ...get(vM), ...DEMOTE_ZERO, ...v128store64lane0(0));
  b.push(...at(V), ...get(vV), ...DEMOTE_ZERO, ...v128store64lane0(0));
  // x = x − (a·mi)/(√vi + eps)
  b.push(...at(X), ...at(X), ...load2(), ...PROMOTE_LOW, ...get(sA), ...get(vM), ...F64X2_MUL, ...get(vV), ...F64X2_SQRT, ...get(sE), ...F64X2_ADD, ...F64X2_DIV, ...F64X2_SUB, ...DEMOTE_ZERO, ...v128store64lane0(0));
  b.push(...get(K), ...i32const(1), ADD, ...set(K));
  b.push(0x0c, 0, 0x0b, 0x0b, 0x0b); // br loop; end loop; end block; end func
  return [...vec([[...leb(2), I32], [...leb(10), V128]]), ...b];
}

function adamModule(): Uint8Array {
  return oneFunctionModule('adam', [I32, I32, I32, I32, I32, F64, F64, F64, F64, F64, F64, F64], adamBody());
}

const adamWasm = compiledOnce(adamModule);

/** What the kernel reads of a parameter (params.ts's `Param`). */
interface Tensor {
  readonly data: Float32Array;
  readonly grad: Float32Array;
}

type AdamFn = (x: number, g: number, m: number, v: number, pairs: number, scale: number, a: number, b1: number, c1: number, b2: number, c2: number, eps: number) => void;

/**
 * The moments of one `adam` optimizer in WebAssembly memory and the SIMD update (module
 * description): `update(p, …)` updates p's values from its gradient, bit for bit as `adamUpdate`.
 */
export class AdamKernel {
  private readonly memory: InstanceType<typeof wasmApi.Memory>;
  private readonly fn: AdamFn;
  private f32: Float32Array;
  /** Float index of each parameter's moments (m, then v; each padded to an even length). */
  private readonly at = new Map<Tensor, number>();
  private top = 0;

  private constructor(mod: NonNullable<ReturnType<typeof adamWasm>>) {
    this.memory = new wasmApi.Memory({ initial: 1 });
    this.fn = new wasmApi.Instance(mod, { e: { m: this.memory } }).exports.adam as AdamFn;
    this.f32 = new Float32Array(this.memory.buffer);
  }

  /** A kernel, or undefined without WebAssembly SIMD. */
  static create(): AdamKernel | undefined {
    const mod = adamWasm();
    return mod ? new AdamKernel(mod) : undefined;
  }

  private reserve(floats: number): void {
    const bytes = floats * 4;
    if (bytes > this.memory.buffer.byteLength) {
      this.memory.grow(Math.ceil((bytes - this.memory.buffer.byteLength) / 65536));
      this.f32 = new Float32Array(this.memory.buffer);
    }
  }

  /** One update of p (moments start at zero the first time p is seen); `a` = lr·√(1−β₂ᵗ)/(1−β₁ᵗ). */
  update(p: Tensor, a: number, beta1: number, beta2: number, eps: number, scale = 1): void {
    const n = p.data.length;
    const n2 = n + (n & 1);
    let m = this.at.get(p);
    if (m === undefined) {
      m = this.top;
      this.top += 2 * n2;
      this.reserve(this.top);
      this.f32.fill(0, m, m + 2 * n2);
      this.at.set(p, m);
    }
    // the values and the gradient after the moments of every parameter (the odd tail padded with 0)
    const x = this.top;
    const g = x + n2;
    this.reserve(g + n2);
    const f = this.f32;
    f.set(p.data, x);
    f.set(p.grad, g);
    if (n2 > n) f[x + n] = f[g + n] = 0;
    this.fn(4 * x, 4 * g, 4 * m, 4 * (m + n2), n2 / 2, scale, a, beta1, 1 - beta1, beta2, 1 - beta2, eps);
    p.data.set(f.subarray(x, x + n));
  }
}
