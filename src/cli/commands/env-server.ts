/** `dialogym env-server --port P`: every registered environment over HTTP/JSON, driven by an agent in any language. */
import type { Command } from 'commander';
import { DialogymError } from '../../core/errors.js';
import { action, intFlag } from '../run.js';
import { servingFlags, stopOnSignals, type ServingFlags } from '../serving.js';
import { SUMMARY } from './summaries.js';

interface EnvServerFlags extends ServingFlags {
  port: number;
  host: string;
  maxSessions: number;
  idleMinutes: number;
  bodyLimit: number;
  maxTurns?: number;
}

export function registerEnvServer(program: Command): void {
  const cmd = program
    .command('env-server')
    .description(SUMMARY['env-server'])
    .option('--port <n>', 'TCP port (0 = any free port)', intFlag('--port', 0, 65535), 8090)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--max-sessions <n>', 'most live sessions', intFlag('--max-sessions', 1), 1000)
    .option('--idle-minutes <n>', 'drop a session idle this long', intFlag('--idle-minutes', 1), 30)
    .option('--body-limit <bytes>', 'largest request body', intFlag('--body-limit', 64, 1 << 24), 65536)
    .option('--max-turns <n>', "agent turns after which a session's episodes end, as evaluate's --max-turns (the environment's own limit where its testbed has one, unless the session's options set it; else a generic wrapper: truncated, info.truncatedBy) (default: the environment's)", intFlag('--max-turns', 1));
  servingFlags(cmd)
    .action(
      action(async (o: EnvServerFlags) => {
        await (await import('../../testbeds/index.js')).loadTestbeds();
        const { createEnvServer } = await import('../../serve/env-server.js');
        const server = createEnvServer({ maxSessions: o.maxSessions, idleMs: o.idleMinutes * 60_000, bodyLimit: o.bodyLimit, requestTimeoutMs: o.requestTimeout, ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}) });
        let url: string;
        try {
          url = await server.listen(o.port, o.host);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          throw new DialogymError(code === 'EADDRINUSE' ? `${o.host}:${o.port} is already in use` : `cannot listen on ${o.host}:${o.port} (${(e as Error).message})`);
        }
        process.stderr.write(`env-server on ${url}\n`);
        stopOnSignals((grace, signal) => server.close(grace, signal), o.grace);
      }),
    );
}
