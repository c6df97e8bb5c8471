/**
 * `dialogym serve --model <name|model.dgm> [--kb <kb.sqlite>] [--airdialogue m.dgm] [--port 8080] [--host 127.0.0.1]`: JSON API + web UI (either model, or both).
 * `dialogym serve --env <id> [--as user|agent] (--agent … | --agent-cmd … | --agent-url … | --agent-llm …) [--transcripts <file>]`: a person in any environment's episodes (serve/env-routes.ts), the finished ones appended as transcripts.
 */
import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import type { EpisodeRecord } from '../../evaluation/evaluate.js';
import { defaultWebDir, serveChats, type HostedChat, type ServerOptions } from '../../serve/server.js';
import { chatOf, openChat } from '../../serve/chat-routes.js';
import { startWorkerPool } from '../../serve/worker-pool.js';
import type { ChatBackend } from '../../testbeds/testbed.js';
import { checkModelName, isModelFile } from '../../rankers/registry.js';
import { chatReads, checkAllowCheckpoint, checkContextFlags, modelArg } from '../model-flags.js';
import { action, alias, inputFlag, intFlag, keyValueFlag, keyValues, outFileFlag } from '../run.js';
import { servingFlags, stopOnSignals, type ServingFlags } from '../serving.js';
import { ConfigError, DialogymError } from '../../core/errors.js';
import { SUMMARY } from './summaries.js';
import { agentFlagsGiven, openFlaggedAgent, type AgentFlags } from '../agent-flags.js';
import { llmConnectionOptions, openLlmUser } from '../llm-flags.js';
import { DEFAULT_MAX_REPLY_BYTES } from '../../agents/protocol.js';

interface ServeFlags extends ServingFlags, AgentFlags {
  model?: string;
  env?: string;
  as?: string;
  free?: boolean;
  envOption?: string[];
  maxTurns?: number;
  userLlm?: string;
  userPrompt?: string;
  transcripts?: string;
  kb?: string;
  candidates?: string;
  kbSeed: number;
  port: number;
  host: string;
  maxSessions: number;
  idleMinutes: number;
  timeout: number;
  bodyLimit: number;
  maxText: number;
  maxResults?: number;
  workers: number;
  maxReplyBytes: number;
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
    .option('--kb-seed <n>', 'seed of the generated KB when --kb is not given; with --env, of the first dialog\'s episode (each new dialog takes the next)', intFlag('--kb-seed', 0), 1)
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
    .option('--airdialogue <file>', 'serve the AirDialogue chat with these learned models (`airdialogue train`): page /airdialogue, API /api/airdialogue/…; without --model, / redirects to it (default: none)')
    .option('--env <id>', 'a person plays one side of this environment\'s episodes (any testbed: restaurant-task5-v2, dstc6-task5-tst1-v2, infobot-medium-v1, airdialogue-v2, …) on the page /env, API /api/env/…; instead of --model and --airdialogue (default: none)')
    .option('--as <side>', 'with --env, the side the person plays: user (the goal card; the agent of --agent* answers; the environment judges) or agent (the tools as forms; the simulated user talks) (default: user)')
    .option('--agent <name|file>', 'with --env --as user: one of dialogym\'s agents in this process (rules, a model file, an AirDialogue policy, a KB-InfoBot agent) (default: none)')
    .option('--agent-cmd <command>', 'with --env --as user: an agent process speaking the agent protocol on stdio; one per dialog, ended with it (default: none)')
    .option('--agent-url <url>', 'with --env --as user: an agent endpoint; each request is POSTed as JSON (default: none)')
    .option('--agent-llm <model>', 'with --env --as user: a language model behind an OpenAI-compatible endpoint (--llm-url) plays the agent (docs/llm.md) (default: none)')
    .option('--timeout <ms>', 'with --env --as user: per-turn reply timeout of the agent (an agent that does not answer in time fails the dialog, as in evaluate); the person\'s limit is --idle-minutes', intFlag('--timeout', 1), 20_000)
    .option('--max-reply-bytes <n>', 'with --agent-cmd or --agent-url: longest reply line or body', intFlag('--max-reply-bytes', 1), DEFAULT_MAX_REPLY_BYTES)
    .option('--env-option <key=value>', 'with --env: an option of the environment (userStyle=varied on the -v2 envs, maxTurns=40; JSON values as JSON), checked against its schema; repeatable (default: none)', keyValueFlag('--env-option'))
    .option('--max-turns <n>', "with --env: agent turns after which a dialog ends, as evaluate's --max-turns (the environment's own limit where its testbed has one, unless --env-option sets it; else a generic wrapper) (default: the environment's)", intFlag('--max-turns', 1))
    .option('--free', 'with --env: free chat: no goal card and nothing judged; the environment still runs and the person ends the dialog')
    .option('--user-llm <model>', 'with --env --as agent: a language model (the --llm-* flags) says the simulated user\'s turns in its own words (default: the environment\'s own words)')
    .option('--user-prompt <file>', "the LLM user's system prompt (default: prompts/user-<testbed>.md of the package)")
    .option('--transcripts <file>', 'with --env: append each dialog played to its end as one JSON line, as `evaluate --transcripts` writes them (`dialogym export` makes the testbed\'s dataset of them); abandoned dialogs are not written (default: none)', outFileFlag('--transcripts'));
  llmConnectionOptions(cmd, { prices: false });
  servingFlags(cmd)
    .action(
      action(async (o: ServeFlags) => {
        if (o.env !== undefined) return serveEnv(o);
        const envOnly = envOnlyFlag(o);
        if (envOnly !== undefined) throw new ConfigError(`${envOnly} applies to --env (a person in an environment's episodes): give --env <id> too`);
        if (o.model === undefined) {
          if (o.airdialogue === undefined) throw new ConfigError('serve: give --model (the restaurant chat), --airdialogue (the AirDialogue chat) or both');
          const stray = (['kb', 'candidates', 'maxResults', 'allowCheckpoint'] as const).find((k) => o[k] !== undefined);
          if (stray) throw new ConfigError(`--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} applies to the restaurant chat: give --model too`);
          if (o.workers > 0) throw new ConfigError('--workers applies to the restaurant chat (the AirDialogue sessions live in the HTTP thread): give --model too');
        }
        // AirDialogue's models first: a bad file is reported before the restaurant model loads.
        const air = o.airdialogue === undefined ? undefined : await openChat('airdialogue', { model: o.airdialogue, maxTextLength: o.maxText });
        const serverOpts: ServerOptions = { maxSessions: o.maxSessions, idleMs: o.idleMinutes * 60_000, bodyLimit: o.bodyLimit, maxTextLength: o.maxText, requestTimeoutMs: o.requestTimeout };
        const chats: HostedChat[] = [];
        let restaurant: ChatBackend | undefined;
        if (o.model !== undefined) {
          checkModelName(o.model);
          const isFile = isModelFile(o.model);
          checkAllowCheckpoint(o.model, isFile, o.allowCheckpoint);
          const m = modelArg(o.model, isFile); // the one read of a model file in this thread: the chat gets its content
          checkContextFlags(m, o, ['candidates'], chatReads(m));
          const options = { model: o.model, seed: o.kbSeed, maxTextLength: o.maxText, ...(o.kb ? { kb: o.kb } : {}), ...(o.candidates ? { candidates: o.candidates } : {}), ...(o.allowCheckpoint ? { allowCheckpoint: true } : {}), ...(o.maxResults !== undefined ? { maxResults: o.maxResults } : {}) };
          const r = await openChat('restaurant', { ...options, ...(m.content ? { content: m.content } : {}) });
          restaurant = r;
          try {
            // Each worker opens the model and the KB itself; this thread only checked that they load (and answers GET /api/kb).
            const sessions = o.workers > 0 ? await startWorkerPool({ workers: o.workers, testbed: 'restaurant', options, store: { maxSessions: o.maxSessions, idleMs: o.idleMinutes * 60_000 } }) : undefined;
            chats.push({ testbed: 'restaurant', chat: r, ...(sessions ? { sessions } : {}) });
          } catch (e) {
            r.close();
            throw e;
          }
        }
        if (air) chats.push({ testbed: 'airdialogue', chat: air });
        const server = serveChats(chats, { ...serverOpts, webDir: defaultWebDir() });
        const closeChats = (): void => chats.forEach((c) => c.chat.close());
        let url: string;
        try {
          url = await server.listen(o.port, o.host);
        } catch (e) {
          closeChats();
          throw listenError(e, o);
        }
        const lines = chats.map((c) => {
          const details = [...(c.chat.details ?? []), ...(c.chat === restaurant && o.workers > 0 ? [`${o.workers} worker threads`] : [])];
          const page = chatOf(c.testbed).page;
          return `${c.chat.banner}${details.length > 0 ? ` (${details.join(', ')})` : ''} on ${url}${page === '/' ? '' : page}`;
        });
        process.stderr.write(`serving ${lines.join('; ')}\n`);
        stopOnSignals((grace, signal) => server.close(grace, signal), o.grace, closeChats);
      }),
    );
}

/** The first flag given that only `--env` reads, if any. */
function envOnlyFlag(o: ServeFlags): string | undefined {
  const given = [...agentFlagsGiven(o), ...(o.as !== undefined ? ['--as'] : []), ...(o.free ? ['--free'] : []), ...((o.envOption ?? []).length > 0 ? ['--env-option'] : []), ...(o.maxTurns !== undefined ? ['--max-turns'] : []), ...(o.userLlm !== undefined ? ['--user-llm'] : []), ...(o.userPrompt !== undefined ? ['--user-prompt'] : []), ...(o.transcripts !== undefined ? ['--transcripts'] : [])];
  return given[0];
}

/** `serve --env <id>`: the page /env and its API (serve/env-routes.ts), a person as the user or the agent. */
async function serveEnv(o: ServeFlags): Promise<void> {
  const env = o.env as string;
  const role = o.as ?? 'user';
  if (role !== 'user' && role !== 'agent') throw new ConfigError(`--as: expected user or agent, got '${role}'`);
  if (o.model !== undefined || o.airdialogue !== undefined) throw new ConfigError(`--env serves its own page: give --env alone, or ${o.model !== undefined ? '--model' : '--airdialogue'} without --env (two servers on two ports for both)`);
  const stray = (['kb', 'candidates', 'maxResults', 'allowCheckpoint'] as const).find((k) => o[k] !== undefined);
  if (stray) throw new ConfigError(`--${stray.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} applies to the restaurant chat (--model), not to --env`);
  if (o.workers > 0) throw new ConfigError('--workers applies to the restaurant chat (--model); the --env dialogs live in the HTTP thread');
  const agents = agentFlagsGiven(o);
  if (role === 'user' && agents.length !== 1) throw new ConfigError(`serve --env: give exactly one agent the person talks to: --agent, --agent-cmd, --agent-url or --agent-llm${agents.length > 1 ? ` (got ${agents.join(' and ')})` : ''} (or --as agent: the person plays the agent)`);
  if (role === 'agent' && agents.length > 0) throw new ConfigError(`${agents[0] as string}: with --as agent the person is the agent; drop ${agents.join(' and ')}`);
  if (role === 'user' && o.userLlm !== undefined) throw new ConfigError("--user-llm says the simulated user's turns; with --as user the person says them: drop --user-llm, or give --as agent");
  if (o.userPrompt !== undefined && o.userLlm === undefined) throw new ConfigError('--user-prompt is the prompt of --user-llm: give --user-llm too');
  await (await import('../../testbeds/index.js')).loadTestbeds();
  const envOptions = keyValues(o.envOption ?? []);
  // Checked (unknown id, schema, unknown keys; the turn limit's options too) before an agent starts.
  const [{ make }, { sessionTurnLimit }] = await Promise.all([import('../../env/env.js'), import('../../env/turn-limit.js')]);
  make(env, sessionTurnLimit(env, envOptions, o.maxTurns).envOptions);
  if (o.agent !== undefined) {
    const { builtinAgentProblem } = await import('../../evaluation/open.js');
    const problem = await builtinAgentProblem(o.agent, env);
    if (problem !== undefined) throw new ConfigError(`--agent: ${problem}`);
  }
  // Opened before the agent starts: a file that is not a transcript file costs nothing.
  const log = o.transcripts !== undefined ? await openCollectedLog(o.transcripts) : undefined;
  const agent = role === 'user' ? await openFlaggedAgent(o, o.kbSeed) : undefined;
  const userVoice = o.userLlm !== undefined ? await openLlmUser(o.userLlm, o, o.kbSeed) : undefined;
  if (userVoice) {
    // Its system message made once before the page opens (evaluate's first episode does): an environment without an LLM user (KB-InfoBot) or a user goal (-v1) would end every dialog at once.
    const { llmUserSystemMessage } = await import('../../llm/prompts.js');
    llmUserSystemMessage({ env, goal: make(env, sessionTurnLimit(env, envOptions, o.maxTurns).envOptions).reset({ seed: o.kbSeed }).info['goal'] }, o.userPrompt !== undefined ? '' : undefined);
  }
  const { bareServer } = await import('../../serve/server.js');
  const { registerEnvRoutes } = await import('../../serve/env-routes.js');
  const server = bareServer({ bodyLimit: o.bodyLimit, requestTimeoutMs: o.requestTimeout, maxTextLength: o.maxText });
  server.app.get('/api/health', async () => ({ status: 'ok', env, page: '/env' }));
  server.app.get('/', async (_req, reply) => reply.redirect('/env', 302));
  registerEnvRoutes(server.app, {
    envId: env,
    role,
    firstSeed: o.kbSeed,
    webDir: defaultWebDir(),
    maxSessions: o.maxSessions,
    idleMs: o.idleMinutes * 60_000,
    agentTimeoutMs: o.timeout,
    maxText: o.maxText,
    // A connection without traffic is closed after the request timeout: a waiting request answers well before.
    waitMs: Math.min(20_000, Math.floor(o.requestTimeout / 2)),
    ...(Object.keys(envOptions).length > 0 ? { envOptions } : {}),
    ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}),
    ...(o.free ? { free: true } : {}),
    ...(agent ? { agent } : {}),
    ...(userVoice ? { userVoice } : {}),
    ...(log ? { onRecord: log.append } : {}),
  });
  let url: string;
  try {
    url = await server.listen(o.port, o.host);
  } catch (e) {
    await agent?.close?.();
    log?.close();
    throw listenError(e, o);
  }
  const other = role === 'user' ? `agent ${o.agent ?? o.agentCmd ?? o.agentUrl ?? o.agentLlm ?? ''}` : `simulated user${userVoice ? ` in ${o.userLlm as string}'s words` : ''}`;
  const kept = log ? `; finished dialogs appended to ${o.transcripts as string}${log.episodes > 0 ? ` (${log.episodes} there already)` : ''}` : '';
  process.stderr.write(`serving ${env} on ${url}/env: a person as the ${role}${o.free ? ' (free chat)' : ''}, against the ${other}${kept}\n`);
  stopOnSignals((grace, signal) => server.close(grace, signal), o.grace, () => log?.close());
}

/**
 * `serve --env --transcripts <file>`: the collected dialogs' transcript file, appended to (a file
 * of an earlier run keeps its records, its unfinished last line cut), each record numbered after
 * those already there. One write per record: a kill never leaves half a line behind a finished one.
 */
async function openCollectedLog(file: string): Promise<{ episodes: number; append: (rec: EpisodeRecord) => void; close: () => void }> {
  const { TranscriptLog } = await import('../../runs/transcript-log.js');
  const log = new TranscriptLog(file, existsSync(file) && statSync(file).size > 0, undefined);
  let next = log.records.length;
  return {
    episodes: next,
    append: (rec) => log.append({ ...rec, episode: next++ }),
    close: () => log.close(),
  };
}

/** A listen failure in words. */
function listenError(e: unknown, o: { host: string; port: number }): DialogymError {
  const code = (e as NodeJS.ErrnoException).code;
  return new DialogymError(code === 'EADDRINUSE' ? `${o.host}:${o.port} is already in use` : code === 'EACCES' ? `no permission to listen on ${o.host}:${o.port}` : `cannot listen on ${o.host}:${o.port} (${(e as Error).message})`);
}
