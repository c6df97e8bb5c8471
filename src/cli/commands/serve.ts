/** `dialogym serve --model <name|model.dgm> [--kb <kb.sqlite>] [--airdialogue m.dgm] [--port 8080] [--host 127.0.0.1]`: JSON API + web UI (either model, or both). */
import type { Command } from 'commander';
import { createServer, defaultWebDir, serveBackend, serveWithoutRestaurant, sessionOptionsOf, type ChatServer, type ServerOptions } from '../../serve/server.js';
import { kbHint } from '../../serve/kb-hint.js';
import { setupBot, type BotSetup, type BotSetupOptions } from '../../serve/setup.js';
import { startWorkerPool } from '../../serve/worker-pool.js';
import { checkModelName, isModelFile } from '../../rankers/registry.js';
import { chatReads, checkAllowCheckpoint, checkContextFlags, modelArg } from '../model-flags.js';
import { action, alias, inputFlag, intFlag } from '../run.js';
import { servingFlags, stopOnSignals, type ServingFlags } from '../serving.js';
import { ConfigError, DialogymError } from '../../core/errors.js';
import { SUMMARY } from './summaries.js';
import { loadModels } from '../../testbeds/index.js';

// The testbeds' models (rules, hcn): the chat's --model names them.
await loadModels();

interface ServeFlags extends ServingFlags {
  model?: string;
  kb?: string;
  candidates?: string;
  kbSeed: number;
  port: number;
  host: string;
  maxSessions: number;
  idleMinutes: number;
  bodyLimit: number;
  maxText: number;
  maxResults?: number;
  workers: number;
  allowCheckpoint?: boolean;
  airdialogue?: string;
}

export function registerServe(program: Command): void {
  const cmd = program
    .command('serve')
    .description(SUMMARY.serve)
    .option('--model <model>', 'registry name (rules, …) or model file (*.dgm) of the restaurant chat (required unless --airdialogue is given)')
    .option('--kb <kb>', 'SQLite KB from `dialogym kb import`, or a bAbI/DSTC6 KB text file (default: a generated bAbI KB)', inputFlag('--kb'))
    .option('--candidates <file>', 'candidates file, for ranking models (memn2n, tfidf, …; an hcn model writes its answers; default for a model file: the candidates it stores)', inputFlag('--candidates'))
    .option('--kb-seed <n>', 'seed of the generated KB when --kb is not given', intFlag('--kb-seed', 0), 1)
    .addOption(alias('--seed <n>', 'kbSeed', intFlag('--seed', 0)))
    .option('--port <n>', 'TCP port (0 = any free port)', intFlag('--port', 0, 65535), 8080)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--max-sessions <n>', 'most live sessions', intFlag('--max-sessions', 1), 1000)
    .option('--idle-minutes <n>', 'drop a session idle this long', intFlag('--idle-minutes', 1), 30)
    .option('--body-limit <bytes>', 'largest request body', intFlag('--body-limit', 64, 1 << 24), 16384)
    .option('--max-text <n>', 'longest user message in characters (longer ones are cut to it)', intFlag('--max-text', 1, 100_000), 500)
    .option('--max-results <n>', 'show at most n restaurants per api_call (default: all)', intFlag('--max-results', 1))
    .option('--allow-checkpoint', 'accept the checkpoint of an unfinished `train` run as --model')
    .option('--workers <n>', 'worker threads holding the sessions and running the model (0 = in the HTTP thread)', intFlag('--workers', 0, 64), 0)
    .option('--airdialogue <file>', 'serve the AirDialogue chat with these learned models (`airdialogue train`): page /airdialogue, API /api/airdialogue/…; without --model, / redirects to it (default: none)');
  servingFlags(cmd)
    .action(
      action(async (o: ServeFlags) => {
        if (o.model === undefined) {
          if (o.airdialogue === undefined) throw new ConfigError('serve: give --model (the restaurant chat), --airdialogue (the AirDialogue chat) or both');
          const stray = (['kb', 'candidates', 'maxResults', 'allowCheckpoint'] as const).find((k) => o[k] !== undefined);
          if (stray) throw new ConfigError(`--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} applies to the restaurant chat: give --model too`);
          if (o.workers > 0) throw new ConfigError('--workers applies to the restaurant chat (the AirDialogue sessions live in the HTTP thread): give --model too');
        }
        const air = o.airdialogue === undefined ? undefined : { file: o.airdialogue, models: (await import('../../testbeds/airdialogue/learned/train.js')).loadAirModels(o.airdialogue) };
        const serverOpts: ServerOptions = {
          maxSessions: o.maxSessions,
          idleMs: o.idleMinutes * 60_000,
          bodyLimit: o.bodyLimit,
          maxTextLength: o.maxText,
          requestTimeoutMs: o.requestTimeout,
          ...(o.maxResults !== undefined ? { maxResults: o.maxResults } : {}),
        };
        let bot: BotSetup | undefined;
        let server: ChatServer;
        if (o.model === undefined) server = serveWithoutRestaurant(serverOpts);
        else {
          checkModelName(o.model);
          const isFile = isModelFile(o.model);
          checkAllowCheckpoint(o.model, isFile, o.allowCheckpoint);
          const m = modelArg(o.model, isFile); // the one read of a model file in this thread: setupBot gets its content
          checkContextFlags(m, o, ['candidates'], chatReads(m));
          const setup: BotSetupOptions = { model: o.model, seed: o.kbSeed, ...(o.kb ? { kb: o.kb } : {}), ...(o.candidates ? { candidates: o.candidates } : {}), ...(o.allowCheckpoint ? { allowCheckpoint: true } : {}) };
          const b = setupBot(setup, m.content);
          bot = b;
          if (o.workers > 0) {
            // Each worker loads the model and opens the KB; this thread only checked that they load.
            const pool = await startWorkerPool({ workers: o.workers, setup, session: sessionOptionsOf(serverOpts), store: { maxSessions: o.maxSessions, idleMs: o.idleMinutes * 60_000 } });
            server = serveBackend(pool, { model: b.model.name, dialect: b.kb.dialect.name, hint: () => kbHint(b.kb.store), ...(air ? { airdialogue: true } : {}) }, serverOpts);
          } else server = createServer(b.model, b.kb, { ...serverOpts, ...(air ? { airdialogue: true } : {}) });
        }
        if (air) {
          const { registerAirDialogueRoutes } = await import('../../serve/airdialogue-routes.js');
          registerAirDialogueRoutes(server.app, air.models, { modelName: air.file, webDir: defaultWebDir(), maxSessions: o.maxSessions, idleMs: o.idleMinutes * 60_000, maxTextLength: o.maxText, restaurant: bot !== undefined });
        }
        let url: string;
        try {
          url = await server.listen(o.port, o.host);
        } catch (e) {
          bot?.close();
          const code = (e as NodeJS.ErrnoException).code;
          throw new DialogymError(code === 'EADDRINUSE' ? `${o.host}:${o.port} is already in use` : code === 'EACCES' ? `no permission to listen on ${o.host}:${o.port}` : `cannot listen on ${o.host}:${o.port} (${(e as Error).message})`);
        }
        const restaurant = bot ? `model ${bot.model.name} (KB ${bot.kbSource}${o.workers > 0 ? `, ${o.workers} worker threads` : ''}) on ${url}` : undefined;
        const airLine = air ? `AirDialogue models ${air.file} on ${url}/airdialogue` : undefined;
        process.stderr.write(`serving ${[restaurant, airLine].filter((x) => x !== undefined).join('; ')}\n`);
        stopOnSignals((grace, signal) => server.close(grace, signal), o.grace, () => bot?.close());
      }),
    );
}
