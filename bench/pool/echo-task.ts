/** Pool task of pool.bench.ts: answers its number after `spin` iterations of busy work. */
import { poolTask } from '../../src/core/pool-worker.js';

export interface EchoTask {
  readonly n: number;
  readonly spin: number;
}

export function echo(t: EchoTask): number {
  let x = 0;
  for (let i = 0; i < t.spin; i++) x += i & 1;
  return x >= 0 ? t.n : -1;
}

export default poolTask<EchoTask, number>(echo);
