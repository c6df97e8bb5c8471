/**
 * Named parameter tensors with gradient buffers, initialisation, snapshots (for early stopping)
 * and optimisers (SGD, Adam) with global gradient-norm clipping.
 */
import type { Rng } from '../core/rng.js';

export interface Param {
  readonly name: string;
  readonly shape: readonly number[];
  readonly data: Float32Array;
  readonly grad: Float32Array;
}

export function param(name: string, shape: readonly number[]): Param {
  const n = shape.reduce((a, b) => a * b, 1);
  return { name, shape: [...shape], data: new Float32Array(n), grad: new Float32Array(n) };
}

/** Fills with N(0, sd²) draws. */
export function initNormal(p: Param, rng: Rng, sd: number): void {
  for (let i = 0; i < p.data.length; i++) p.data[i] = rng.normal(0, sd);
}

export function zeroGrads(ps: readonly Param[]): void {
  for (const p of ps) p.grad.fill(0);
}

/** Scales all gradients so their global L2 norm is at most maxNorm; returns the norm before. */
export function clipGradNorm(ps: readonly Param[], maxNorm: number): number {
  let s = 0;
  for (const p of ps) for (let i = 0; i < p.grad.length; i++) s += (p.grad[i] as number) ** 2;
  const norm = Math.sqrt(s);
  if (norm > maxNorm && norm > 0) {
    const k = maxNorm / norm;
    for (const p of ps) for (let i = 0; i < p.grad.length; i++) p.grad[i] = (p.grad[i] as number) * k;
  }
  return norm;
}

export function snapshot(ps: readonly Param[]): Float32Array[] {
  return ps.map((p) => p.data.slice());
}

export function restore(ps: readonly Param[], snap: readonly Float32Array[]): void {
  ps.forEach((p, i) => p.data.set(snap[i] as Float32Array));
}

export interface Optimizer {
  /** Applies one update from the current gradients (does not zero them). */
  step(ps: readonly Param[]): void;
}

/** Plain SGD: θ −= lr·g. */
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

/**
 * Adam (Kingma & Ba) with bias correction. Rows whose gradient is entirely zero still decay their
 * moments, as in the dense algorithm.
 */
export function adam(lr: number, beta1 = 0.9, beta2 = 0.999, eps = 1e-8): Optimizer {
  const m = new Map<Param, Float32Array>();
  const v = new Map<Param, Float32Array>();
  let t = 0;
  return {
    step(ps) {
      t++;
      const c1 = 1 - beta1 ** t;
      const c2 = 1 - beta2 ** t;
      const a = (lr * Math.sqrt(c2)) / c1;
      for (const p of ps) {
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
        for (let i = 0; i < d.length; i++) {
          const gi = g[i] as number;
          const mi = beta1 * (mp[i] as number) + (1 - beta1) * gi;
          const vi = beta2 * (vp[i] as number) + (1 - beta2) * gi * gi;
          mp[i] = mi;
          vp[i] = vi;
          d[i] = (d[i] as number) - (a * mi) / (Math.sqrt(vi) + eps);
        }
      }
    },
  };
}
