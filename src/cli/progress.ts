/** Progress for long work: a bar with ETA on a TTY, plain lines otherwise (stderr). */
import type cliProgressModule from 'cli-progress';
import { createRequire } from 'node:module';

/** cli-progress (CommonJS), loaded only when a bar is drawn on a terminal: plain runs skip it. */
const loadCliProgress = (): typeof cliProgressModule => createRequire(import.meta.url)('cli-progress') as typeof cliProgressModule;

export interface Progress {
  /**
   * `done` of `total` items; `fraction` (0–1), when the items differ in size, is the share of the
   * work done, and the ETA is read from it instead of from the count.
   */
  update(done: number, note?: string, fraction?: number): void;
  stop(): void;
}

/**
 * A duration for people: `4.2s`, `42s`, `3m05s`, `2h07m`; `?` when it cannot be known yet (nothing done, or
 * not a finite number). Rounded once to whole seconds, so a minute never shows as `60s`
 * (cli-progress's own `eta_formatted` printed `3m60s`, and `NFs` for an infinite ETA).
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 9.95) return `${seconds.toFixed(1)}s`;
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Seconds left at the rate so far, `fraction` (0–1) of the work being done; NaN before any is. */
export function secondsLeft(elapsedSeconds: number, fraction: number): number {
  return fraction > 0 ? (elapsedSeconds * (1 - Math.min(1, fraction))) / fraction : Number.NaN;
}

/** Seconds left at the mean rate so far (of the work's `fraction` done, when given, else of `done` of `total`). */
function etaSeconds(elapsedSeconds: number, done: number, total: number, fraction?: number): number {
  if (fraction !== undefined) return secondsLeft(elapsedSeconds, fraction);
  return done > 0 ? (elapsedSeconds * (total - done)) / done : Number.NaN;
}

/** Options of `progress`: `quiet` prints nothing; `now` is the clock in ms (tests). */
export interface ProgressOptions {
  readonly quiet?: boolean;
  readonly now?: () => number;
}

/** Longest gap between two plain lines while work is reported (a slow run still shows it is alive). */
const PLAIN_GAP_MS = 60_000;

export function progress(label: string, total: number, opts: ProgressOptions = {}): Progress {
  if (opts.quiet || total <= 0) return { update() {}, stop() {} };
  const now = opts.now ?? Date.now;
  const t0 = now();
  let last = -1;
  if (process.stderr.isTTY) {
    const cliProgress = loadCliProgress();
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {percentage}% {value}/{total} ETA {eta} {note}`, stream: process.stderr, hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { note: '', eta: '?' });
    return {
      update: (done, note = '', fraction) => bar.update(done, { note, eta: formatDuration(etaSeconds((now() - t0) / 1000, done, total, fraction)) }),
      stop: () => bar.stop(),
    };
  }
  // Plain lines: about ten per run, at least one a minute while work is reported, and the last one
  // (once, however often it is reported).
  const step = Math.max(1, Math.ceil(total / 10));
  let printed = t0;
  return {
    update(done, note = '', fraction) {
      const t = now();
      if (done === last || (done !== total && Math.floor(done / step) === Math.floor(last / step) && t - printed < PLAIN_GAP_MS)) return;
      last = done;
      printed = t;
      const el = (t - t0) / 1000;
      process.stderr.write(`${label}: ${done}/${total} (${Math.round((100 * done) / total)}%) elapsed ${formatDuration(el)} eta ${formatDuration(etaSeconds(el, done, total, fraction))}${note ? ' ' + note : ''}\n`);
    },
    stop() {},
  };
}
