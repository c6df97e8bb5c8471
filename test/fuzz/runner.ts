/**
 * Runs a fuzz target: `runs` mutated inputs drawn by fast-check (in chunks, so that large inputs
 * are not all held at once), each checked by `check`; counts accepted / rejected inputs, failures
 * of the property by kind, and slow cases (a sync reader cannot be interrupted: a case over
 * `slowMs` counts as a hang). Failing inputs are written to `failDir` when given.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { check, type FuzzTarget } from './targets.js';

export interface FuzzStats {
  readonly name: string;
  cases: number;
  accepted: number;
  rejected: number;
  untyped: number;
  hangs: number;
  otherFailures: number;
  readonly failures: { why: string; file?: string }[];
  ms: number;
}

export function runTarget<T>(target: FuzzTarget<T>, runs: number, seed: number, opts: { failDir?: string; slowMs?: number; chunk?: number } = {}): FuzzStats {
  const stats: FuzzStats = { name: target.name, cases: 0, accepted: 0, rejected: 0, untyped: 0, hangs: 0, otherFailures: 0, failures: [], ms: 0 };
  const chunk = opts.chunk ?? 250;
  const t0 = performance.now();
  for (let done = 0, k = 0; done < runs; k++) {
    const n = Math.min(chunk, runs - done);
    for (const input of fc.sample(target.input, { numRuns: n, seed: seed + k })) {
      const t = performance.now();
      const o = check(target, input);
      const ms = performance.now() - t;
      stats.cases++;
      let why: string | undefined;
      if (o.kind === 'failure') {
        why = o.why;
        if (why.startsWith('untyped')) stats.untyped++;
        else stats.otherFailures++;
      } else if (ms > (opts.slowMs ?? 5000)) {
        why = `hang: ${ms.toFixed(0)} ms`;
        stats.hangs++;
      } else stats[o.kind]++;
      if (why !== undefined) {
        const failure: { why: string; file?: string } = { why };
        if (opts.failDir) {
          mkdirSync(opts.failDir, { recursive: true });
          const f = join(opts.failDir, `${target.name}-${stats.failures.length + 1}.bin`);
          writeFileSync(f, target.bytes(input));
          writeFileSync(`${f}.txt`, `${why}\n`);
          failure.file = f;
        }
        stats.failures.push(failure);
      }
    }
    done += n;
  }
  stats.ms = performance.now() - t0;
  return stats;
}
