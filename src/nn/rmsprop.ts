/**
 * RMSProp (Tieleman & Hinton 2012), the optimiser of the KB-InfoBot policies: per parameter a running
 * mean of squared gradients r ← ρ·r + (1 − ρ)·g², then θ ← θ − lr·g / (√r + ε). Implements the shared
 * `Optimizer` interface of `nn/params.ts` (which has SGD and Adam only).
 */
import type { Optimizer, Param } from './params.js';
import { ConfigError } from '../core/errors.js';

export interface RmsPropOptions {
  /** Learning rate (default 0.001). */
  lr?: number;
  /** Decay ρ of the squared-gradient average (default 0.9). */
  rho?: number;
  /** ε added to the root (default 1e-6). */
  eps?: number;
}

export interface RmsProp extends Optimizer {
  /** Changes the learning rate (annealing). */
  setLearningRate(lr: number): void;
  readonly learningRate: number;
}

export function rmsprop(opts: RmsPropOptions = {}): RmsProp {
  let lr = opts.lr ?? 0.001;
  const rho = opts.rho ?? 0.9;
  const eps = opts.eps ?? 1e-6;
  if (!(lr > 0) || !(rho >= 0 && rho < 1) || !(eps > 0)) throw new ConfigError('rmsprop: lr > 0, 0 ≤ rho < 1, eps > 0');
  const acc = new Map<Param, Float32Array>();
  return {
    get learningRate() {
      return lr;
    },
    setLearningRate(x: number) {
      if (!(x > 0)) throw new ConfigError('rmsprop: lr must be > 0');
      lr = x;
    },
    step(ps) {
      for (const p of ps) {
        let r = acc.get(p);
        if (!r) {
          r = new Float32Array(p.data.length);
          acc.set(p, r);
        }
        const d = p.data;
        const g = p.grad;
        for (let i = 0; i < d.length; i++) {
          const gi = g[i] as number;
          const ri = rho * (r[i] as number) + (1 - rho) * gi * gi;
          r[i] = ri;
          d[i] = (d[i] as number) - (lr * gi) / (Math.sqrt(ri) + eps);
        }
      }
    },
  };
}
