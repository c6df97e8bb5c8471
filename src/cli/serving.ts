/** What the two server verbs (`serve`, `env-server`) share: the flags of their HTTP layer, and how they stop on SIGTERM / SIGINT. */
import type { Command } from 'commander';
import { processDone } from '../core/exit.js';
import { HTTP_DEFAULTS, type CloseReport } from '../serve/http.js';
import { intFlag } from './plain.js';

/** The values of the flags `servingFlags` adds. */
export interface ServingFlags {
  requestTimeout: number;
  grace: number;
}

/** Adds `--request-timeout` and `--grace` to a server verb. */
export function servingFlags(cmd: Command): Command {
  return cmd
    .option('--request-timeout <ms>', 'a request must arrive whole within this, its headers within min(10 s, this): a slower client gets 408 and is disconnected', intFlag('--request-timeout', 1000, 3_600_000), HTTP_DEFAULTS.requestTimeoutMs)
    .option('--grace <ms>', 'on SIGTERM/SIGINT: stop accepting, give the requests in flight this long to finish, then close every connection and exit 0', intFlag('--grace', 0, 600_000), HTTP_DEFAULTS.graceMs);
}

/**
 * On SIGTERM or SIGINT: `close` the server gracefully within `graceMs`, run `after`, and exit 0 (1
 * if closing failed). A second signal ends the wait at once.
 */
export function stopOnSignals(close: (graceMs: number, signal: AbortSignal) => Promise<CloseReport>, graceMs: number, after: () => void = () => {}): void {
  const abort = new AbortController();
  let stopping = false;
  const stop = (name: string): void => {
    if (stopping) {
      process.stderr.write(`${name} again: closing every connection now\n`);
      abort.abort();
      return;
    }
    stopping = true;
    process.stderr.write(`${name}: shutting down (the requests in flight get ${graceMs} ms to finish)\n`);
    close(graceMs, abort.signal).then(
      (r) => {
        after();
        process.stderr.write(r.cut > 0 ? `stopped (${r.cut} connection${r.cut === 1 ? '' : 's'} still open at the end of the grace period cut)\n` : 'stopped\n');
        processDone();
        process.exit(0);
      },
      (e: unknown) => {
        process.stderr.write(`error: shutdown: ${e instanceof Error ? e.message : String(e)}\n`);
        processDone();
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}
