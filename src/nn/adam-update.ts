/**
 * One Adam update of x[from..to) in place (moments m, v of the same shape), the arithmetic shared
 * by the dense `adam` optimizer and the lazy row-wise `SparseAdam`: gradients scaled by `scale`
 * (1 when not clipped), `a` = lr·√(1−β₂ᵗ)/(1−β₁ᵗ).
 */
export function adamUpdate(x: Float32Array, g: Float32Array, m: Float32Array, v: Float32Array, from: number, to: number, a: number, beta1: number, beta2: number, eps: number, scale: number): void {
  for (let j = from; j < to; j++) {
    const gi = scale * (g[j] as number);
    const mi = beta1 * (m[j] as number) + (1 - beta1) * gi;
    const vi = beta2 * (v[j] as number) + (1 - beta2) * gi * gi;
    m[j] = mi;
    v[j] = vi;
    x[j] = (x[j] as number) - (a * mi) / (Math.sqrt(vi) + eps);
  }
}
