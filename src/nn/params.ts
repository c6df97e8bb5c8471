/**
 * Named parameter tensors with gradient buffers, initialisation, snapshots (for early stopping)
 * and optimisers (SGD, Adam) with global gradient-norm clipping.
 */
import type { Rng } from '../core/rng.js';
import { adamUpdate } from './adam-update.js';
import { AdamKernel } from './adam-wasm.js';

/**
 * A named parameter tensor: its values and a gradient buffer of the same size (row-major,
 * length = product of `shape`). Models expose their parameters as `Param[]` for the optimisers.
 *
 * @example
 * ```ts
 * import { param, type Param } from 'dialogym/nn';
 * const W: Param = param('W', [2, 3]);
 * W.data.length; // 6, all zeros
 * ```
 */
export interface Param {
  /** Unique within a model; used as the tensor name in model files. */
  readonly name: string;
  readonly shape: readonly number[];
  /** Values, row-major. */
  readonly data: Float32Array;
  /** Accumulated gradient, same layout as `data`. */
  readonly grad: Float32Array;
}

/**
 * A new parameter of the given shape, values and gradient zero.
 *
 * @example
 * ```ts
 * import { param, initNormal } from 'dialogym/nn';
 * import { createRng } from 'dialogym';
 * const E = param('E', [100, 32]);
 * initNormal(E, createRng(1), 0.1);
 * ```
 */
export function param(name: string, shape: readonly number[]): Param {
  const n = shape.reduce((a, b) => a * b, 1);
  return { name, shape: [...shape], data: new Float32Array(n), grad: new Float32Array(n) };
}

/**
 * Fills a parameter's values with N(0, sd²) draws from `rng` (the gradient is untouched).
 *
 * @example
 * ```ts
 * import { param, initNormal } from 'dialogym/nn';
 * import { createRng } from 'dialogym';
 * const W = param('W', [4, 4]);
 * initNormal(W, createRng(7).fork('W'), 0.1);
 * ```
 */
export function initNormal(p: Param, rng: Rng, sd: number): void {
  for (let i = 0; i < p.data.length; i++) p.data[i] = rng.normal(0, sd);
}

/**
 * Sets every gradient of `ps` to zero (before accumulating a new batch).
 *
 * @example
 * ```ts
 * import { param, zeroGrads, sgd } from 'dialogym/nn';
 * const ps = [param('w', [2])];
 * zeroGrads(ps);
 * ps[0]!.grad.set([1, -1]);
 * sgd(0.1).step(ps); // w = [-0.1, 0.1]
 * ```
 */
export function zeroGrads(ps: readonly Param[]): void {
  for (const p of ps) p.grad.fill(0);
}

/**
 * Scales all gradients of `ps` so their global L2 norm is at most `maxNorm`; returns the norm before clipping.
 *
 * @example
 * ```ts
 * import { param, clipGradNorm } from 'dialogym/nn';
 * const w = param('w', [2]);
 * w.grad.set([3, 4]);
 * clipGradNorm([w], 1); // 5; w.grad = [0.6, 0.8]
 * ```
 */
export function clipGradNorm(ps: readonly Param[], maxNorm: number): number {
  let s = 0;
  for (const p of ps) {
    const g = p.grad;
    for (let i = 0; i < g.length; i++) {
      const x = g[i] as number;
      s += x * x; // exact in float64 (a float32 squared), as x ** 2
    }
  }
  const norm = Math.sqrt(s);
  if (norm > maxNorm && norm > 0) {
    const k = maxNorm / norm;
    for (const p of ps) {
      const g = p.grad;
      for (let i = 0; i < g.length; i++) g[i] = (g[i] as number) * k;
    }
  }
  return norm;
}

/**
 * Copies of the values of `ps` (for early stopping: keep the best epoch's weights).
 *
 * @example
 * ```ts
 * import { param, snapshot, restore } from 'dialogym/nn';
 * const ps = [param('w', [2])];
 * const best = snapshot(ps);
 * ps[0]!.data.fill(9);
 * restore(ps, best); // w = [0, 0] again
 * ```
 */
export function snapshot(ps: readonly Param[]): Float32Array[] {
  return ps.map((p) => p.data.slice());
}

/**
 * Copies a `snapshot` back into the values of `ps` (same parameters, same order).
 *
 * @example
 * ```ts
 * import { param, snapshot, restore } from 'dialogym/nn';
 * const ps = [param('w', [3])];
 * const snap = snapshot(ps);
 * restore(ps, snap);
 * ```
 */
export function restore(ps: readonly Param[], snap: readonly Float32Array[]): void {
  ps.forEach((p, i) => p.data.set(snap[i] as Float32Array));
}

/**
 * An optimiser: `step(ps)` updates the values of `ps` from their current gradients. Made by
 * `sgd`, `adam` and `rmsprop`; stateful ones keep their moments per `Param` object.
 *
 * @example
 * ```ts
 * import { adam, param, type Optimizer } from 'dialogym/nn';
 * const opt: Optimizer = adam(0.01);
 * const w = param('w', [2]);
 * w.grad.set([1, 1]);
 * opt.step([w]);
 * ```
 */
export interface Optimizer {
  /** Applies one update from the current gradients (does not zero them). */
  step(ps: readonly Param[]): void;
  /** The learning rate of the next steps, where the optimizer has one that can change (Adam: a decay schedule sets it between epochs). */
  lr?: number;
}

/**
 * Plain SGD: θ −= lr·g for every parameter (gradients are not zeroed).
 *
 * @example
 * ```ts
 * import { sgd, param } from 'dialogym/nn';
 * const w = param('w', [1]);
 * w.grad[0] = 2;
 * sgd(0.5).step([w]); // w = [-1]
 * ```
 */
export function sgd(lr: number): Optimizer {
  return {
    step(ps) {
      for (const p of ps) {
        const d = p.data;
        const g = p.grad;
        for (let i = 0; i < d.length; i++) d[i] = (d[i] as number) - lr * (g[i] as number);
      }
    },
  };
}

let forceJsAdam = false;
/**
 * New `adam` optimizers take the JS loop instead of the WebAssembly kernel while set (for tests
 * and measurements; the two give the same bits); returns the previous setting.
 *
 * @example
 * ```ts
 * import { setAdamJs } from 'dialogym/nn';
 * const was = setAdamJs(true);
 * // … train with the JS loop …
 * setAdamJs(was);
 * ```
 */
export function setAdamJs(on: boolean): boolean {
  const was = forceJsAdam;
  forceJsAdam = on;
  return was;
}

/**
 * Adam (Kingma & Ba) with bias correction. Rows whose gradient is entirely zero still decay their
 * moments, as in the dense algorithm. Gradients are not zeroed.
 *
 * @example
 * ```ts
 * import { adam, param, zeroGrads } from 'dialogym/nn';
 * const w = param('w', [2]);
 * const opt = adam(0.001);
 * w.grad.set([0.5, -0.5]);
 * opt.step([w]); // each value moves by about lr against its gradient's sign
 * zeroGrads([w]);
 * ```
 */
export function adam(lr: number, beta1 = 0.9, beta2 = 0.999, eps = 1e-8): Optimizer {
  const m = new Map<Param, Float32Array>();
  const v = new Map<Param, Float32Array>();
  // the update on WebAssembly SIMD where there is one (adam-wasm.ts: the same bits as adamUpdate)
  const kernel = forceJsAdam ? undefined : AdamKernel.create();
  let t = 0;
  const opt: Optimizer = {
    lr,
    step(ps) {
      t++;
      const c1 = 1 - beta1 ** t;
      const c2 = 1 - beta2 ** t;
      const a = ((opt.lr ?? lr) * Math.sqrt(c2)) / c1;
      for (const p of ps) {
        if (kernel) {
          kernel.update(p, a, beta1, beta2, eps);
          continue;
        }
        let mp = m.get(p);
        let vp = v.get(p);
        if (!mp || !vp) {
          mp = new Float32Array(p.data.length);
          vp = new Float32Array(p.data.length);
          m.set(p, mp);
          v.set(p, vp);
        }
        const d = p.data;
        const g = p.grad;
        adamUpdate(d, g, mp, vp, 0, d.length, a, beta1, beta2, eps, 1);
      }
    },
  };
  return opt;
}
