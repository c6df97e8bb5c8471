/** A worker module for pool.test.ts: each task names what to do. */
import { threadId, workerData } from 'node:worker_threads';
import { ConfigError, FormatError, ModelFileError, errorText, optionName } from '../errors.js';
import { poolTask } from '../pool-worker.js';

export type FixtureTask =
  | { readonly kind: 'echo'; readonly value: number; readonly spin?: number }
  | { readonly kind: 'progress'; readonly n: number }
  | { readonly kind: 'thread' }
  | { readonly kind: 'flags' }
  | { readonly kind: 'data' }
  | { readonly kind: 'throw'; readonly error: 'config' | 'format' | 'model' | 'plain' | 'custom' }
  | { readonly kind: 'exit'; readonly code: number };

class CustomError extends Error {
  override readonly name = 'CustomError';
}

export default poolTask<FixtureTask, unknown, number>((task, post) => {
  switch (task.kind) {
    case 'echo': {
      // Busy work so that later tasks may finish first.
      let x = 0;
      for (let i = 0; i < (task.spin ?? 0); i++) x += Math.sqrt(i);
      return x >= 0 ? task.value : -1;
    }
    case 'progress':
      for (let i = 1; i <= task.n; i++) post(i);
      return task.n;
    case 'thread':
      return threadId;
    case 'flags':
      return process.execArgv;
    case 'data':
      return workerData as unknown;
    case 'exit':
      process.exit(task.code);
      break;
    case 'throw':
      if (task.error === 'config') throw new ConfigError(errorText`bad ${optionName('maxTurns')}`);
      if (task.error === 'format') throw new FormatError('a.txt', 3, 'no tab');
      if (task.error === 'model') throw new ModelFileError('m.bin: corrupt');
      if (task.error === 'custom') throw new CustomError('custom trouble');
      throw new TypeError('plain trouble\nsecond line');
  }
  return undefined;
});
