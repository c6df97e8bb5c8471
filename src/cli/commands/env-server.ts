/** `dialogym env-server --port P`: every registered environment over HTTP/JSON, driven by an agent in any language. */
import type { Command } from 'commander';
import { DialogymError } from '../../core/errors.js';
import { action, intFlag } from '../run.js';
import { SUMMARY } from './summaries.js';

interface EnvServerFlags {
  port: number;
  host: string;
  maxSessions: number;
  idleMinutes: number;
  bodyLimit: number;
}

export function registerEnvServer(program: Command): void {
  program
    .command('env-server')
    .description(SUMMARY['env-server'])
    .option('--port <n>', 'TCP port (0 = any free port)', intFlag('--port', 0, 65535), 8090)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--max-sessions <n>', 'most live sessions', intFlag('--max-sessions', 1), 1000)
    .option('--idle-minutes <n>', 'drop a session idle this long', intFlag('--idle-minutes', 1), 30)
    .option('--body-limit <bytes>', 'largest request body', intFlag('--body-limit', 64, 1 << 24), 65536)
    .action(
      action(async (o: EnvServerFlags) => {
        await import('../../index.js');
        await import('../../testbeds/dstc6/index.js');
        const { createEnvServer } = await import('../../serve/env-server.js');
        const server = createEnvServer({ maxSessions: o.maxSessions, idleMs: o.idleMinutes * 60_000, bodyLimit: o.bodyLimit });
        let url: string;
        try {
          url = await server.listen(o.port, o.host);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          throw new DialogymError(code === 'EADDRINUSE' ? `${o.host}:${o.port} is already in use` : `cannot listen on ${o.host}:${o.port} (${(e as Error).message})`);
        }
        process.stderr.write(`env-server on ${url}\n`);
        const stop = (signal: string): void => {
          process.stderr.write(`${signal}: shutting down\n`);
          server.close().then(
            () => process.exit(0),
            () => process.exit(1),
          );
        };
        process.once('SIGINT', () => stop('SIGINT'));
        process.once('SIGTERM', () => stop('SIGTERM'));
      }),
    );
}
