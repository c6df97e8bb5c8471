/**
 * A toy `PartWork` for parts.test.ts (train/parts.ts), built alike on the main thread and in the
 * worker (parts-fixture.ts): a trained vector `w` and a value `c` read but not trained; a part is a
 * number x, its result the loss c·x·Σ w[i]·(i + 1)·scale, its gradient c·x·(i + 1)·scale into w.
 * A negative x throws the ConfigError `part -1: negative`.
 */
import { ConfigError } from '../../core/errors.js';
import { param, type Param } from '../../nn/params.js';
import type { PartWork } from '../parts.js';

/** What the worker builds its replica from. */
export interface ToySetup {
  readonly size: number;
}

/** A task's settings. */
export interface ToyCommon {
  readonly scale: number;
}

export interface ToyWork extends PartWork<ToyCommon, number, number> {
  readonly w: Param;
  readonly c: Param;
}

export function toyWork({ size }: ToySetup): ToyWork {
  const w = param('w', [size]);
  const c = param('c', [1]);
  return {
    w,
    c,
    trained: [w],
    values: [w, c],
    task:
      ({ scale }, gradients) =>
      (x) => {
        if (x < 0) throw new ConfigError(`part ${x}: negative`);
        const k = Math.fround(c.data[0]! * x * scale);
        let loss = 0;
        for (let i = 0; i < size; i++) {
          loss += w.data[i]! * (i + 1) * k;
          if (gradients) w.grad[i] = w.grad[i]! + (i + 1) * k;
        }
        return loss;
      },
  };
}
