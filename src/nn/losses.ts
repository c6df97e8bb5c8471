/** Losses with their gradients with respect to the scores. */
import { softmax } from './kernels.js';
import { InternalError } from '../core/errors.js';

/**
 * Cross-entropy of softmax(scores) against class `target`: returns the loss and writes
 * ∂loss/∂scores (= softmax − one-hot) into `grad` (which may alias nothing else). A target
 * outside [0, n) throws an InternalError.
 *
 * @example
 * ```ts
 * import { softmaxCrossEntropy } from 'dialogym/nn';
 * const grad = new Float32Array(2);
 * const loss = softmaxCrossEntropy(new Float32Array([0, 0]), 1, grad); // ln 2; grad = [0.5, -0.5]
 * ```
 */
export function softmaxCrossEntropy(scores: Float32Array, target: number, grad: Float32Array, n = scores.length): number {
  if (target < 0 || target >= n) throw new InternalError(`softmaxCrossEntropy: target ${target} out of range [0, ${n})`);
  const logZ = softmax(scores, grad, n);
  grad[target] = (grad[target] as number) - 1;
  return logZ - (scores[target] as number);
}

/**
 * Margin ranking loss Σ_i max(0, margin − pos + neg_i). Writes ∂loss/∂neg_i into `gradNeg`
 * and returns the loss and ∂loss/∂pos.
 *
 * @example
 * ```ts
 * import { marginRanking } from 'dialogym/nn';
 * const gradNeg = new Float32Array(2);
 * marginRanking(1, new Float32Array([0.5, -1]), 1, gradNeg); // { loss: 0.5, gradPos: -1 }; gradNeg = [1, 0]
 * ```
 */
export function marginRanking(pos: number, neg: Float32Array, margin: number, gradNeg: Float32Array): { loss: number; gradPos: number } {
  let loss = 0;
  let gradPos = 0;
  for (let i = 0; i < neg.length; i++) {
    const l = margin - pos + (neg[i] as number);
    if (l > 0) {
      loss += l;
      gradNeg[i] = 1;
      gradPos -= 1;
    } else gradNeg[i] = 0;
  }
  return { loss, gradPos };
}
