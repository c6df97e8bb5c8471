/**
 * The numeric core: hand-written Float32Array (and WebAssembly SIMD) kernels with manual
 * gradients, a GRU, parameters with SGD/Adam/RMSProp, losses and finite-difference gradient checks.
 *
 * @example
 * ```ts
 * import { param, dot } from 'dialogym/nn';
 * const w = param('w', [4]);
 * w.data.set([1, 2, 3, 4]);
 * dot(w.data, 0, w.data, 0, 4); // 30
 * ```
 * @module
 */
export * from './kernels.js';
export * from './matmul.js';
export * from './params.js';
export * from './losses.js';
export * from './gru.js';
export * from './gru-infer.js';
export * from './gru-batch.js';
export * from './rmsprop.js';
export * from './gradcheck.js';
export * from './layers.js';
export * from './attention.js';
export * from './param-buffers.js';
export * from './row-sums.js';
export * from './gru-backprop.js';
