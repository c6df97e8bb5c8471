/**
 * RMSProp (Tieleman & Hinton 2012), the optimiser of the KB-InfoBot policies: per parameter a running
 * mean of squared gradients r ← ρ·r + (1 − ρ)·g², then θ ← θ − lr·g / (√r + ε). Implements the shared
 * `Optimizer` interface of `nn/params.ts` (which has SGD and Adam only).
 */
import type { Optimizer, Param } from './params.js';
import { ConfigError } from '../core/errors.js';

/**
 * Options of `rmsprop`; every field has a default.
 *
 * @example
 * ```ts
 * import { rmsprop, type RmsPropOptions } from 'dialogym/nn';
 * const opts: RmsPropOptions = { lr: 0.005, rho: 0.95 };
 * const opt = rmsprop(opts);
 * ```
 */
export interface RmsPropOptions {
  /** Learning rate (default 0.001). */
  lr?: number;
  /** Decay ρ of the squared-gradient average (default 0.9). */
  rho?: number;
  /** ε added to the root (default 1e-6). */
  eps?: number;
  /**
   * Add ε under the root instead, θ ← θ − lr·g / √(r + ε) (default false): Lasagne's `rmsprop`, which
   * the official KB-InfoBot agents use with ε = 1e-4 (MiuLab/KB-InfoBot `deep_dialog/agents/agent_rl.py`
   * `_init_model`), so that gradients far below √ε take steps far below lr.
   */
  epsUnderRoot?: boolean;
}

/**
 * An RMSProp optimiser (made by `rmsprop`) whose learning rate can be changed during training.
 *
 * @example
 * ```ts
 * import { rmsprop, type RmsProp } from 'dialogym/nn';
 * const opt: RmsProp = rmsprop({ lr: 0.01 });
 * opt.setLearningRate(opt.learningRate * 0.5); // anneal
 * ```
 */
export interface RmsProp extends Optimizer {
  /** Changes the learning rate (annealing); throws a ConfigError unless lr > 0. */
  setLearningRate(lr: number): void;
  /** The current learning rate. */
  readonly learningRate: number;
}

/**
 * An RMSProp optimiser (update rule in this module's description), the optimiser of the
 * KB-InfoBot policies. Throws a ConfigError unless lr > 0, 0 ≤ rho < 1 and eps > 0. Gradients are
 * not zeroed by `step`.
 *
 * @example
 * ```ts
 * import { rmsprop, param } from 'dialogym/nn';
 * const w = param('w', [2]);
 * const opt = rmsprop({ lr: 0.01 });
 * w.grad.set([1, -1]);
 * opt.step([w]);
 * ```
 */
export function rmsprop(opts: RmsPropOptions = {}): RmsProp {
  let lr = opts.lr ?? 0.001;
  const rho = opts.rho ?? 0.9;
  const eps = opts.eps ?? 1e-6;
  const under = opts.epsUnderRoot === true;
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
          d[i] = (d[i] as number) - (lr * gi) / (under ? Math.sqrt(ri + eps) : Math.sqrt(ri) + eps);
        }
      }
    },
  };
}
