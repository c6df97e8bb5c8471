/**
 * The HCN network: a GRU over the turn features, then a softmax over the action templates
 * restricted to the action mask. Logits are Wo·h + Vo·x + bo (the direct feature term lets
 * features that decide an action alone, such as the previous action, act without waiting for
 * the recurrent state to learn them).
 */
import type { Rng } from '../../../core/rng.js';
import { Gru, type GruCache } from '../../../nn/gru.js';
import { gruBackwardPacked, gruForwardPacked } from '../../../nn/gru-batch.js';
import { softmax } from '../../../nn/kernels.js';
import { matMul } from '../../../nn/matmul.js';
import { initNormal, param, type Param } from '../../../nn/params.js';

/** Indices of the non-zero entries of x, in increasing order. */
function nonZeros(x: Float32Array): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < x.length; i++) if (x[i] !== 0) out.push(i);
  return Int32Array.from(out);
}

export interface HcnStepOut {
  readonly h: Float32Array;
  /** Probabilities over templates (0 where masked). */
  readonly probs: Float32Array;
}

/** A training dialog as the network sees it: per step, the features, the target template and the action mask. */
export interface HcnDialog {
  readonly xs: readonly Float32Array[];
  readonly targets: readonly number[];
  readonly masks: readonly Uint8Array[];
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

  /**
   * Masked logits (−∞ where mask is 0) of a state and its input; `nz`: the indices of the non-zero
   * entries of x in increasing order (the input is a sparse feature vector: only those are visited).
   */
  logits(h: Float32Array, x: Float32Array, mask: Uint8Array, nz: Int32Array = nonZeros(x)): Float32Array {
    const T = this.templates;
    const H = this.hiddenSize;
    const F = this.inputSize;
    const out = new Float32Array(T);
    const W = this.Wo.data;
    const V = this.Vo.data;
    const b = this.bo.data;
    for (let t = 0; t < T; t++) {
      if (!mask[t]) {
        out[t] = -Infinity;
        continue;
      }
      let s = b[t] as number;
      const wo = t * H;
      for (let i = 0; i < H; i++) s += (W[wo + i] as number) * (h[i] as number);
      const vo = t * F;
      for (let k = 0; k < nz.length; k++) {
        const i = nz[k] as number;
        s += (V[vo + i] as number) * (x[i] as number);
      }
      out[t] = s;
    }
    return out;
  }

  /** One step from state `h`: the new state and the masked template distribution. */
  step(x: Float32Array, h: Float32Array, mask: Uint8Array): HcnStepOut {
    const c = this.gru.step(x, h);
    // The distribution is computed when read: replaying a history only needs the states.
    let probs: Float32Array | undefined;
    const net = this;
    return {
      h: c.h,
      get probs(): Float32Array {
        if (!probs) {
          probs = new Float32Array(net.templates);
          if (mask.some((m) => m)) softmax(net.logits(c.h, x, mask, c.nz), probs);
        }
        return probs;
      },
    };
  }

  /**
   * Cross-entropy of a whole dialog (teacher forcing): accumulates gradients by backpropagation
   * through time and returns the summed loss. Each target must be allowed by its step's mask.
   * A batch of one for {@link lossAndGradBatch}.
   */
  lossAndGrad(xs: readonly Float32Array[], targets: readonly number[], masks: readonly Uint8Array[]): number {
    return this.lossAndGradBatch([{ xs, targets, masks }])[0] as number;
  }

  /**
   * {@link lossAndGrad} of several dialogs at once (their gradients summed), returning each
   * dialog's loss. The dialogs go through matrix products (`src/nn/matmul.ts`): packed, longest
   * first, through the GRU of `src/nn/gru-batch.ts` (one product per step for the whole batch's
   * recurrent side), then the logits of every step of every dialog (Hs·Woᵀ + X·Voᵀ) and their
   * gradients one product each. Same losses and gradients as {@link lossAndGradSteps} per dialog
   * up to float summation order (float32 sums in the products).
   */
  lossAndGradBatch(dialogs: readonly HcnDialog[]): number[] {
    const T = this.templates;
    const H = this.hiddenSize;
    const F = this.inputSize;
    const losses = dialogs.map(() => 0);
    const order = dialogs.map((_, i) => i).filter((i) => (dialogs[i] as HcnDialog).xs.length > 0);
    order.sort((i, j) => (dialogs[j] as HcnDialog).xs.length - (dialogs[i] as HcnDialog).xs.length || i - j);
    if (order.length === 0) return losses;
    const longest = (dialogs[order[0] as number] as HcnDialog).xs.length;
    // packed, time-major: step t holds the dialogs longer than t (a prefix of `order`)
    const sizes: number[] = [];
    for (let t = 0; t < longest; t++) sizes.push(order.filter((i) => (dialogs[i] as HcnDialog).xs.length > t).length);
    const P = sizes.reduce((x, y) => x + y, 0);
    const X = new Float32Array(P * F);
    const rowDialog = new Int32Array(P);
    const rowStep = new Int32Array(P);
    let row = 0;
    sizes.forEach((n, t) => {
      for (let q = 0; q < n; q++, row++) {
        const d = order[q] as number;
        X.set(((dialogs[d] as HcnDialog).xs[t] as Float32Array).subarray(0, F), row * F);
        rowDialog[row] = d;
        rowStep[row] = t;
      }
    });
    const run = gruForwardPacked(this.gru, X, sizes);
    const hs = run.rows.h;
    // logits of every row: Z = Hs·Woᵀ + X·Voᵀ + bo, −∞ where masked
    const Z = new Float32Array(P * T);
    matMul(hs, this.Wo.data, Z, P, H, T, { transB: true });
    matMul(X, this.Vo.data, Z, P, F, T, { transB: true, accumulate: true });
    const b = this.bo.data;
    const G = new Float32Array(P * T);
    const gb = this.bo.grad;
    for (let k = 0; k < P; k++) {
      const d = dialogs[rowDialog[k] as number] as HcnDialog;
      const step = rowStep[k] as number;
      const mask = d.masks[step] as Uint8Array;
      const z = Z.subarray(k * T, (k + 1) * T);
      for (let t = 0; t < T; t++) z[t] = mask[t] ? (z[t] as number) + (b[t] as number) : -Infinity;
      const p = G.subarray(k * T, (k + 1) * T);
      const target = d.targets[step] as number;
      const di = rowDialog[k] as number;
      losses[di] = (losses[di] as number) + softmax(z, p) - (z[target] as number);
      p[target] = (p[target] as number) - 1;
      for (let t = 0; t < T; t++) gb[t] = (gb[t] as number) + (p[t] as number);
    }
    matMul(G, hs, this.Wo.grad, T, P, H, { transA: true, accumulate: true });
    matMul(G, X, this.Vo.grad, T, P, F, { transA: true, accumulate: true });
    const dh = new Float32Array(P * H);
    matMul(G, this.Wo.data, dh, P, T, H);
    gruBackwardPacked(this.gru, run, dh);
    return losses;
  }

  /**
   * {@link lossAndGrad} one step at a time (`Gru.step`, float64 sums, the sparse inputs' non-zero
   * entries only): the reference of the batched path, kept for its test and `bench/hcn-kernels`.
   */
  lossAndGradSteps(xs: readonly Float32Array[], targets: readonly number[], masks: readonly Uint8Array[]): number {
    const T = this.templates;
    const H = this.hiddenSize;
    const F = this.inputSize;
    const caches: GruCache[] = this.gru.forward(xs);
    const dhs: Float32Array[] = [];
    let loss = 0;
    const p = new Float32Array(T);
    const Wo = this.Wo.data;
    const gW = this.Wo.grad;
    const gV = this.Vo.grad;
    const gb = this.bo.grad;
    caches.forEach((c, k) => {
      const x = xs[k] as Float32Array;
      const nz = c.nz;
      const target = targets[k] as number;
      const z = this.logits(c.h, x, masks[k] as Uint8Array, nz);
      const logZ = softmax(z, p);
      loss += logZ - (z[target] as number);
      p[target] = (p[target] as number) - 1;
      const dh = new Float32Array(H);
      for (let t = 0; t < T; t++) {
        const g = p[t] as number;
        if (g === 0) continue;
        gb[t] = (gb[t] as number) + g;
        const wo = t * H;
        for (let i = 0; i < H; i++) {
          dh[i] = (dh[i] as number) + g * (Wo[wo + i] as number);
          gW[wo + i] = (gW[wo + i] as number) + g * (c.h[i] as number);
        }
        const vo = t * F;
        for (let j = 0; j < nz.length; j++) {
          const i = nz[j] as number;
          gV[vo + i] = (gV[vo + i] as number) + g * (x[i] as number);
        }
      }
      dhs.push(dh);
    });
    this.gru.backward(caches, dhs);
    return loss;
  }
}
