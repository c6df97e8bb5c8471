/**
 * The stdio transport: an agent command (`sh -c command`) speaking JSON Lines, one request line
 * in, one reply line out. Each lane of a run has its own process (a pool of `concurrency`
 * processes), started at its first request and owned end to end (`process-group.ts`): a process
 * that failed a turn, or whose lane is closed, is terminated with all its descendants.
 *
 * Reads are bounded: a reply line longer than `maxReplyBytes` fails the turn as `reply too long`
 * as soon as it passes the bound, without keeping the rest; lines nobody asked for (written between
 * requests) are kept up to the same bound, then the process is ended and the next request fails
 * the same way. The first reply of a started process may take `startupMs` more than the turn
 * timeout (the process loads its model).
 *
 * A command that cannot start (a typo, a missing file or module) would fail every episode the
 * same way, one process each: once the transport's processes have exited before their first reply
 * `SILENT_STARTS` times in a row and none of them ever replied, the next request rejects with a
 * ConfigError, which ends the run (its error output, inherited, is on the terminal already).
 */
import { ConfigError } from '../core/errors.js';
import { AgentError, DEFAULT_MAX_REPLY_BYTES, type AgentRequest } from './protocol.js';
import type { AgentConnection, AgentTransport } from './agent.js';
import { LineSplitter } from './lines.js';
import { spawnAgentProcess, terminateAgentProcess, type AgentProcess } from './process-group.js';

/**
 * Options of {@link stdioTransport} (and `maxReplyBytes` of `httpTransport`).
 *
 * @example
 * ```ts
 * import { stdioTransport, type StdioTransportOptions } from 'dialogym';
 * const opts: StdioTransportOptions = { maxReplyBytes: 1 << 20, startupMs: 10_000, graceMs: 200 };
 * const transport = stdioTransport('python3 my_agent.py', opts);
 * ```
 */
export interface StdioTransportOptions {
  /** Longest reply line in bytes (default 4 MiB): a longer one fails the turn as `reply too long`. */
  readonly maxReplyBytes?: number;
  /** Extra time for the first reply of a started process (default 30,000 ms). */
  readonly startupMs?: number;
  /** Time between SIGTERM and SIGKILL when a process is ended (default 500 ms). */
  readonly graceMs?: number;
}

/** Processes of a transport that exited before their first reply, none of its processes having ever replied, that end the run. */
const SILENT_STARTS = 3;

/** What the lanes of one transport know of how its processes start (a lane reconnects after a failed episode). */
interface Starts {
  /** Has any process replied? */
  replied: boolean;
  /** Processes that exited before their first reply (while none had replied), and the last of them. */
  silentExits: number;
  last: AgentProcess | undefined;
}

interface Pending {
  readonly resolve: (line: string) => void;
  readonly reject: (e: AgentError) => void;
}

/** How a process ended, in words: its exit code or signal (by now it has exited). */
function exitOf(p: AgentProcess | undefined): string {
  const c = p?.child;
  if (c?.exitCode !== null && c?.exitCode !== undefined) return `the last: exit code ${c.exitCode}`;
  if (c?.signalCode) return `the last: killed by ${c.signalCode}`;
  return 'the last closed its output';
}

class StdioConnection implements AgentConnection {
  private proc: AgentProcess | undefined;
  private fresh = false;
  private pending: Pending | undefined;
  private queue: string[] = [];
  private queuedBytes = 0;
  /** Set when the process broke the protocol between requests; the next request fails with it. */
  private broken: AgentError | undefined;
  /** Set once stdout ended: the agent cannot answer any more. */
  private ended: AgentError | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly command: string,
    private readonly maxBytes: number,
    private readonly startupMs: number,
    private readonly graceMs: number,
    private readonly starts: Starts,
  ) {}

  private start(): void {
    const p = spawnAgentProcess(this.command);
    this.proc = p;
    this.fresh = true;
    const split = new LineSplitter(this.maxBytes);
    const out = p.child.stdout;
    if (!out) throw new Error('no stdout pipe');
    let spoke = false;
    out.on('data', (chunk: Buffer) => {
      if (this.proc !== p) return;
      const r = split.push(chunk);
      if (r.lines.length > 0) spoke = this.starts.replied = true;
      for (const line of r.lines) this.deliver(line);
      if (r.tooLong) this.fail(new AgentError('reply too long', `the agent wrote a reply line longer than ${this.maxBytes} bytes`));
    });
    out.on('error', () => {});
    out.on('end', () => {
      if (this.proc !== p) return;
      const code = p.child.exitCode ?? p.child.signalCode;
      if (!spoke) {
        this.starts.silentExits++;
        this.starts.last = p;
      }
      this.fail(new AgentError('agent exited', code === null ? 'the agent process closed its stdout' : `the agent process exited (code ${String(code)})`));
    });
  }

  private deliver(line: string): void {
    if (this.pending) {
      const w = this.pending;
      this.pending = undefined;
      w.resolve(line);
      return;
    }
    if (this.broken) return;
    this.queue.push(line);
    this.queuedBytes += Buffer.byteLength(line) + 1;
    if (this.queuedBytes > this.maxBytes) this.fail(new AgentError('reply too long', `the agent wrote more than ${this.maxBytes} bytes of replies nobody asked for`));
  }

  /** The process broke the protocol: fail the request in flight (or the next one) and end the process. */
  private fail(e: AgentError): void {
    if (this.pending) {
      const w = this.pending;
      this.pending = undefined;
      w.reject(e);
    } else if (e.reason === 'agent exited') this.ended ??= e;
    else this.broken ??= e;
    if (e.reason !== 'agent exited') void this.stop();
  }

  private stop(): Promise<void> {
    const p = this.proc;
    if (!p) return Promise.resolve();
    this.proc = undefined;
    const ending = terminateAgentProcess(p, this.graceMs);
    this.closing = Promise.all([this.closing, ending]).then(() => {});
    return ending;
  }

  send(req: AgentRequest, timeoutMs: number): Promise<string> {
    const queued = this.queue.shift();
    if (queued !== undefined) {
      this.queuedBytes -= Buffer.byteLength(queued) + 1;
      this.write(req);
      return Promise.resolve(queued);
    }
    if (this.ended && req.turn === 0 && !this.broken) {
      // The agent exited between episodes: a new episode gets a new process.
      this.ended = undefined;
      void this.stop();
    }
    const failed = this.broken ?? this.ended;
    if (failed) return Promise.reject(failed);
    const starts = this.starts;
    if (!this.proc && !starts.replied && starts.silentExits >= SILENT_STARTS) {
      return Promise.reject(new ConfigError(`the agent command exited before its first reply ${starts.silentExits} times in a row (${exitOf(starts.last)}), so it cannot start: its error output is above; run it alone to see it: ${this.command}`));
    }
    if (!this.proc) this.start();
    const limit = this.fresh ? timeoutMs + this.startupMs : timeoutMs;
    this.fresh = false;
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending = undefined;
        reject(new AgentError('timeout', `no reply from the agent within ${limit} ms`));
        void this.stop();
      }, limit);
      this.pending = {
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.write(req);
    });
  }

  private write(req: AgentRequest): void {
    const stdin = this.proc?.child.stdin;
    if (stdin && !stdin.destroyed && stdin.writable) stdin.write(JSON.stringify(req) + '\n');
  }

  async close(): Promise<void> {
    if (this.pending) {
      const w = this.pending;
      this.pending = undefined;
      w.reject(new AgentError('agent exited', 'the connection was closed'));
    }
    const p = this.proc;
    if (p) {
      // A well-behaved agent exits when its stdin ends; the rest is ended as a group.
      this.proc = undefined;
      p.child.stdin?.end();
      await new Promise<void>((resolve) => {
        if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
        const t = setTimeout(resolve, Math.min(this.graceMs, 200));
        p.child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
      });
      await terminateAgentProcess(p, this.graceMs);
    }
    await this.closing;
  }
}

/**
 * A child process per lane (`sh -c command`) speaking JSON Lines; see the module description.
 *
 * @example
 * ```ts
 * import { evaluate, stdioTransport } from 'dialogym';
 * const { summary } = await evaluate('restaurant-task1-v1', stdioTransport('python3 examples/python/stdio_agent.py'), { episodes: 10, concurrency: 2 });
 * console.log(summary.success);
 * ```
 */
export function stdioTransport(command: string, opts: StdioTransportOptions = {}): AgentTransport {
  const maxBytes = opts.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  const startupMs = opts.startupMs ?? 30_000;
  const graceMs = opts.graceMs ?? 500;
  const starts: Starts = { replied: false, silentExits: 0, last: undefined };
  return {
    name: command,
    connect: () => new StdioConnection(command, maxBytes, startupMs, graceMs, starts),
  };
}
