/**
 * The HCN network: a GRU over the turn features, then a softmax over the action templates
 * restricted to the action mask. Logits are Wo·h + Vo·x + bo (the direct feature term lets
 * features that decide an action alone, such as the previous action, act without waiting for
 * the recurrent state to learn them).
 */
import type { Rng } from '../../../core/rng.js';
import { Gru, type GruCache } from '../../../nn/gru.js';
import { softmax } from '../../../nn/kernels.js';
import { initNormal, param, type Param } from '../../../nn/params.js';

export interface HcnStepOut {
  readonly h: Float32Array;
  /** Probabilities over templates (0 where masked). */
  readonly probs: Float32Array;
}

export class HcnNet {
  readonly gru: Gru;
  readonly Wo: Param;
  readonly Vo: Param;
  readonly bo: Param;
  readonly params: Param[];

  constructor(
    readonly inputSize: number,
    readonly hiddenSize: number,
    readonly templates: number,
  ) {
    this.gru = new Gru(inputSize, hiddenSize, 'gru');
    this.Wo = param('out.W', [templates, hiddenSize]);
    this.Vo = param('out.V', [templates, inputSize]);
    this.bo = param('out.b', [templates]);
    this.params = [...this.gru.params, this.Wo, this.Vo, this.bo];
  }

  init(rng: Rng): void {
    this.gru.init(rng.fork('gru'));
    initNormal(this.Wo, rng.fork('Wo'), 1 / Math.sqrt(this.hiddenSize));
    initNormal(this.Vo, rng.fork('Vo'), 0.01);
    this.bo.data.fill(0);
  }

  /** Masked logits (−∞ where mask is 0) of a state and its input. */
  logits(h: Float32Array, x: Float32Array, mask: Uint8Array): Float32Array {
    const T = this.templates;
    const H = this.hiddenSize;
    const F = this.inputSize;
    const out = new Float32Array(T);
    const W = this.Wo.data;
    const V = this.Vo.data;
    for (let t = 0; t < T; t++) {
      if (!mask[t]) {
        out[t] = -Infinity;
        continue;
      }
      let s = this.bo.data[t] as number;
      const wo = t * H;
      for (let i = 0; i < H; i++) s += (W[wo + i] as number) * (h[i] as number);
      const vo = t * F;
      for (let i = 0; i < F; i++) {
        const xi = x[i] as number;
        if (xi !== 0) s += (V[vo + i] as number) * xi;
      }
      out[t] = s;
    }
    return out;
  }

  /** One step from state `h`: the new state and the masked template distribution. */
  step(x: Float32Array, h: Float32Array, mask: Uint8Array): HcnStepOut {
    const c = this.gru.step(x, h);
    const probs = new Float32Array(this.templates);
    if (mask.some((m) => m)) softmax(this.logits(c.h, x, mask), probs);
    return { h: c.h, probs };
  }

  /**
   * Cross-entropy of a whole dialog (teacher forcing): accumulates gradients by backpropagation
   * through time and returns the summed loss. Each target must be allowed by its step's mask.
   */
  lossAndGrad(xs: readonly Float32Array[], targets: readonly number[], masks: readonly Uint8Array[]): number {
    const T = this.templates;
    const H = this.hiddenSize;
    const F = this.inputSize;
    const caches: GruCache[] = this.gru.forward(xs);
    const dhs: Float32Array[] = [];
    let loss = 0;
    const p = new Float32Array(T);
    caches.forEach((c, k) => {
      const x = xs[k] as Float32Array;
      const target = targets[k] as number;
      const z = this.logits(c.h, x, masks[k] as Uint8Array);
      const logZ = softmax(z, p);
      loss += logZ - (z[target] as number);
      p[target] = (p[target] as number) - 1;
      const dh = new Float32Array(H);
      for (let t = 0; t < T; t++) {
        const g = p[t] as number;
        if (g === 0) continue;
        this.bo.grad[t] = (this.bo.grad[t] as number) + g;
        const wo = t * H;
        for (let i = 0; i < H; i++) {
          dh[i] = (dh[i] as number) + g * (this.Wo.data[wo + i] as number);
          this.Wo.grad[wo + i] = (this.Wo.grad[wo + i] as number) + g * (c.h[i] as number);
        }
        const vo = t * F;
        for (let i = 0; i < F; i++) {
          const xi = x[i] as number;
          if (xi !== 0) this.Vo.grad[vo + i] = (this.Vo.grad[vo + i] as number) + g * xi;
        }
      }
      dhs.push(dh);
    });
    this.gru.backward(caches, dhs);
    return loss;
  }
}
