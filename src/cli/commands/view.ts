/** `dialogym view [folder] [--port 8080] [--host 127.0.0.1]`: a local page over what runs wrote in a folder. */
import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, DialogymError } from '../../core/errors.js';
import { count } from '../../core/text.js';
import { action, intFlag } from '../run.js';
import { servingFlags, stopOnSignals, type ServingFlags } from '../serving.js';
import { SUMMARY } from './summaries.js';

interface ViewFlags extends ServingFlags {
  port: number;
  host: string;
}

export function registerView(program: Command): void {
  const cmd = program
    .command('view')
    .description(SUMMARY.view)
    .argument('[folder]', 'the folder to look at (read recursively, 4 levels deep)', 'results')
    .option('--port <n>', 'TCP port (0 = any free port)', intFlag('--port', 0, 65535), 8080)
    .option('--host <host>', 'address to listen on', '127.0.0.1');
  servingFlags(cmd).action(
    action(async (folder: string, o: ViewFlags) => {
      if (!existsSync(folder)) throw new ConfigError(`${folder}: no such folder (dialogym view reads the folder a run wrote into, e.g. results/)`);
      if (!statSync(folder).isDirectory()) throw new ConfigError(`${folder}: not a folder (dialogym view reads a folder of runs and reports)`);
      const { createViewServer, scanViewFolder } = await import('../../serve/view.js');
      const root = resolve(folder);
      const found = scanViewFolder(root);
      const server = createViewServer(root, { requestTimeoutMs: o.requestTimeout });
      let url: string;
      try {
        url = await server.listen(o.port, o.host);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw new DialogymError(code === 'EADDRINUSE' ? `${o.host}:${o.port} is already in use (try --port 0)` : `cannot listen on ${o.host}:${o.port} (${(e as Error).message})`);
      }
      process.stderr.write(`view: ${url}/ (${count(found.runs.length, 'run')}, ${count(found.reports.length, 'report')}, ${count(found.images.length, 'chart')} in ${folder})\n`);
      stopOnSignals((grace, signal) => server.close(grace, signal), o.grace);
    }),
  );
}
