/** Progress for long work: a bar with ETA on a TTY, plain lines otherwise (stderr). */
import type cliProgressModule from 'cli-progress';
import { createRequire } from 'node:module';

/** cli-progress (CommonJS), loaded only when a bar is drawn on a terminal: plain runs skip it. */
const loadCliProgress = (): typeof cliProgressModule => createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;

export interface Progress {
  update(done: number, note?: string): void;
  stop(): void;
}

export function progress(label: string, total: number, opts: { quiet?: boolean } = {}): Progress {
  if (opts.quiet || total <= 0) return { update() {}, stop() {} };
  if (process.stderr.isTTY) {
    const cliProgress = loadCliProgress();
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {percentage}% {value}/{total} ETA {eta_formatted} {note}`, stream: process.stderr, hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { note: '' });
    return {
      update: (done, note = '') => bar.update(done, { note }),
      stop: () => bar.stop(),
    };
  }
  // Plain lines: about ten per run, and the last one.
  const step = Math.max(1, Math.ceil(total / 10));
  const t0 = Date.now();
  let last = -1;
  return {
    update(done, note = '') {
      if (done !== total && Math.floor(done / step) === Math.floor(last / step)) return;
      last = done;
      const el = (Date.now() - t0) / 1000;
      const eta = done > 0 ? (el * (total - done)) / done : 0;
      process.stderr.write(`${label}: ${done}/${total} (${Math.round((100 * done) / total)}%) elapsed ${el.toFixed(1)}s eta ${eta.toFixed(1)}s${note ? ' ' + note : ''}\n`);
    },
    stop() {},
  };
}
