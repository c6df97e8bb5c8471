/**
 * `dialogym study …` — a study of people in the loop (docs/human-evaluation.md): create (the
 * folder, its participant codes and admin token), serve (the participants' pages and the admin
 * page), simulate (scripted participants played by the
 * environment's simulated user: a dry run), report (per agent success with its interval, turns,
 * reward, ratings; pairwise permutation tests; charts, LaTeX, Markdown, JSON, transcripts).
 */
import type { Command } from 'commander';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { ConfigError } from '../../core/errors.js';
import { count } from '../../core/text.js';
import { DialogymError } from '../../core/errors.js';
import { action, inputFlag, intFlag, keyValueFlag, keyValues, out } from '../run.js';
import { servingFlags, stopOnSignals, type ServingFlags } from '../serving.js';
import { SUMMARY } from './summaries.js';

interface CreateFlags {
  config?: string;
  env?: string;
  agents?: string;
  envOption?: string[];
  participants: number;
  sessions: number;
  role: string;
  seed: number;
  title?: string;
}

/** Opens the study of folder `dir`, saying how to make one when there is none. */
async function openStore(dir: string) {
  const { StudyStore, STUDY_DB } = await import('../../study/store.js');
  if (!existsSync(join(dir, STUDY_DB))) throw new ConfigError(`${dir}: not a study folder (no ${STUDY_DB}; \`dialogym study create ${dir} --env <id> --agents <a,b>\` makes one)`);
  return StudyStore.open(dir);
}

export function registerStudy(program: Command): void {
  const study = program.command('study').description(SUMMARY.study);

  study
    .command('create')
    .description('create a study folder: the configuration, the SQLite store, participant codes and the admin token (printed once)')
    .argument('<dir>', 'the new study folder (must not exist, or be empty)')
    .option('--config <file>', 'the study as JSON (schemas/study-config.schema.json: env, envOptions, agents of any kind, role, participants, sessionsPerParticipant, seed, questions); the other flags then may not be given (default: none)', inputFlag('--config'))
    .option('--env <id>', 'environment id (infobot-medium-v1, restaurant-task5-v2, …) (required without --config)')
    .option('--agents <list>', "comma-separated agents compared, dialogym's own by name or model file (rl-hard,rule-soft,rl-soft,e2e-soft); processes, URLs and LLMs through --config (required without --config)")
    .option('--env-option <key=value>', 'an option of the environment (JSON values as JSON); repeatable (default: none)', keyValueFlag('--env-option'))
    .option('--participants <n>', 'participant codes to create', intFlag('--participants', 1, 10000), 8)
    .option('--sessions <n>', 'dialogs per participant', intFlag('--sessions', 1, 1000), 20)
    .option('--role <side>', 'the side people play: user or agent', 'user')
    .option('--seed <n>', 'seed of the assignment and the goals', intFlag('--seed', 0, 2147483647), 1)
    .option('--title <text>', 'the study\'s name, shown to participants (default "<env> study")')
    .action(
      action(async (dir: string, o: CreateFlags, cmd: Command) => {
        const { studyConfig, readStudyConfig } = await import('../../study/config.js');
        // The flags given on the command line (the others hold their defaults).
        const flags = (['env', 'agents', 'participants', 'sessions', 'role', 'seed', 'title'] as const).filter((k) => cmd.getOptionValueSource(k) === 'cli');
        let config;
        if (o.config !== undefined) {
          if (flags.length > 0 || (o.envOption ?? []).length > 0) throw new ConfigError(`--config: give the study in the file alone (drop --${flags[0] ?? 'env-option'})`);
          config = readStudyConfig(o.config);
        } else {
          if (o.env === undefined) throw new ConfigError('give --env <id> (or the whole study with --config <file>)');
          if (o.role !== 'user' && o.role !== 'agent') throw new ConfigError(`--role: must be user or agent, got '${o.role}'`);
          if (o.role !== 'agent' && o.agents === undefined) throw new ConfigError('give --agents <a,b,…>: the agents compared (or the whole study with --config <file>)');
          if (o.role === 'agent' && o.agents !== undefined) throw new ConfigError('--agents: people play the agent with --role agent; drop --agents');
          const agents = o.agents?.split(',').map((a) => a.trim());
          if (agents?.some((a) => a === '')) throw new ConfigError(`--agents: an empty name in '${o.agents}'`);
          config = flagsConfig(studyConfig, {
              env: o.env,
              envOptions: keyValues(o.envOption ?? []),
              ...(agents ? { agents } : {}),
              role: o.role,
              participants: o.participants,
              sessionsPerParticipant: o.sessions,
              seed: o.seed,
              ...(o.title !== undefined ? { title: o.title } : {}),
          });
        }
        // The environment, its options and dialogym's own agents are checked before anything is written.
        await (await import('../../testbeds/index.js')).loadTestbeds();
        const { make } = await import('../../env/env.js');
        make(config.env, config.envOptions);
        if (config.role === 'user') {
          const { studyAgentProblem } = await import('../../study/agents.js');
          for (const [i, a] of config.agents.entries()) {
            const problem = await studyAgentProblem(a, config.env);
            if (problem !== undefined) throw new ConfigError(`${o.config !== undefined ? `${o.config}: agents[${i}]` : '--agents'}: ${problem}`);
          }
        }
        const { createStudy } = await import('../../study/store.js');
        const made = createStudy(dir, config);
        out(`study ${dir}: ${config.env}, people play the ${config.role}${config.role === 'user' ? ` against ${config.agents.map((a) => a.label).join(', ')}` : ''}; ${count(config.participants, 'participant')} × ${count(config.sessionsPerParticipant, 'session')}`);
        out('These codes and the token are printed once and not stored (only their hashes are): keep them.');
        out(`admin token: ${made.adminToken}`);
        for (const p of made.participants) out(`participant ${p.label}: ${p.code}`);
      }),
    );

  const serve = study
    .command('serve')
    .description("the study's web server: each participant opens /p/<code> and plays their sessions (agents assigned at random, balanced, blind), answers the questions after each; /admin (the token) shows live counts and closes the study")
    .argument('<dir>', 'the study folder')
    .option('--port <n>', 'TCP port (0 = any free port)', intFlag('--port', 0, 65535), 8095)
    .option('--host <host>', 'address to listen on (0.0.0.0 to reach it from other machines)', '127.0.0.1')
    .option('--timeout <ms>', "per-turn reply timeout of the agents (an agent that does not answer in time fails the session, as in evaluate)", intFlag('--timeout', 1), 20_000)
    .option('--max-text <n>', "longest message a participant sends, in characters (longer ones are cut)", intFlag('--max-text', 1, 10_000), 500)
    .option('--idle-minutes <n>', 'a session idle this long is marked abandoned (not counted; its slot goes to the next session)', intFlag('--idle-minutes', 1), 30);
  servingFlags(serve).action(
    action(async (dir: string, o: ServingFlags & { port: number; host: string; timeout: number; maxText: number; idleMinutes: number }) => {
      const store = await openStore(dir);
      await (await import('../../testbeds/index.js')).loadTestbeds();
      const { createStudyServer } = await import('../../serve/study-server.js');
      const { llmSystemMessage } = await import('../../llm/prompts.js');
      let server;
      try {
        server = createStudyServer(store, { timeoutMs: o.timeout, maxText: o.maxText, idleMs: o.idleMinutes * 60_000, requestTimeoutMs: o.requestTimeout, llmSystem: (req) => llmSystemMessage(req) });
      } catch (e) {
        store.close();
        throw e;
      }
      let url: string;
      try {
        url = await server.listen(o.port, o.host);
      } catch (e) {
        store.close();
        if (e instanceof ConfigError) throw e; // an agent that cannot be opened: its own line
        const code = (e as NodeJS.ErrnoException).code;
        throw new DialogymError(code === 'EADDRINUSE' ? `${o.host}:${o.port} is already in use (another --port, or 0 for any free one)` : `cannot listen on ${o.host}:${o.port} (${(e as Error).message})`);
      }
      const c = store.counts();
      if (server.abandonedAtStart > 0) process.stderr.write(`${count(server.abandonedAtStart, 'session')} left open by an earlier run marked abandoned (not counted; their slots go to the next sessions)\n`);
      process.stderr.write(`study serve on ${url}: participants open ${url}/p/<code>, the admin ${url}/admin; ${c.finished} of ${c.participants * store.config.sessionsPerParticipant} sessions finished${c.closed ? ' (the study is closed)' : ''}\n`);
      stopOnSignals((grace, signal) => server.close(grace, signal), o.grace, () => store.close());
    }),
  );

  study
    .command('simulate')
    .description("scripted participants: the environment's simulated user plays each participant's remaining sessions against the assigned agents (a dry run of the study, recorded in its store)")
    .argument('<dir>', 'the study folder')
    .option('--participants <labels>', 'comma-separated participant labels (p1,p2) (default: all)')
    .option('--timeout <ms>', 'per-turn reply timeout of the agents', intFlag('--timeout', 1), 5000)
    .action(
      action(async (dir: string, o: { participants?: string; timeout: number }) => {
        const store = await openStore(dir);
        try {
          await (await import('../../testbeds/index.js')).loadTestbeds();
          const { simulateStudy } = await import('../../study/simulate.js');
          const { llmSystemMessage } = await import('../../llm/prompts.js');
          const r = await simulateStudy(store, { ...(o.participants !== undefined ? { participants: o.participants.split(',').map((p) => p.trim()) } : {}), timeoutMs: o.timeout, llmSystem: (req) => llmSystemMessage(req) });
          const c = store.counts();
          out(`simulated ${r.finished} sessions${r.abandoned > 0 ? ` (${r.abandoned} left open by an interrupted run marked abandoned)` : ''}; finished per agent: ${Object.entries(c.perAgent).map(([a, n]) => `${a} ${n}`).join(', ')}`);
        } finally {
          store.close();
        }
      }),
    );

  study
    .command('report')
    .description('the report of a study: per agent dialogues, success with its 95 % Wilson interval, turns, reward, ratings; pairwise permutation tests; SVG charts, LaTeX, Markdown, JSON, transcripts')
    .argument('<dir>', 'the study folder')
    .option('--out <dir>', 'where the report goes (default: <dir>/report)')
    .option('--samples <n>', 'Monte-Carlo draws of a permutation test not computed exactly', intFlag('--samples', 1, 10_000_000), 20_000)
    .option('--json', 'print the report as JSON')
    .action(
      action(async (dir: string, o: { out?: string; samples: number; json?: boolean }) => {
        const store = await openStore(dir);
        try {
          const { writeStudyReport, formatP } = await import('../../study/report.js');
          const outDir = o.out ?? join(dir, 'report');
          const r = writeStudyReport(store, outDir, { samples: o.samples });
          if (o.json) {
            out(JSON.stringify(r));
            return;
          }
          out(`${r.title}: ${r.finished} finished dialogue${r.finished === 1 ? '' : 's'} (${r.open} open, ${r.abandoned} abandoned: not counted) → ${outDir}/`);
          for (const a of r.agents.filter((x) => x.dialogues === 0)) out(`${a.agent.padEnd(12)}    0 dialogues`);
          for (const a of r.agents.filter((x) => x.dialogues > 0)) out(`${a.agent.padEnd(12)} ${String(a.dialogues).padStart(4)} ${a.dialogues === 1 ? 'dialogue ' : 'dialogues'}  success ${(100 * a.success).toFixed(1)} % (95 % Wilson ${(100 * a.interval[0]).toFixed(1)}–${(100 * a.interval[1]).toFixed(1)})  turns ${a.avgTurns.toFixed(2)}  reward ${a.avgReward.toFixed(3)}`);
          for (const p of r.pairs) out(`${p.a} – ${p.b}: p(success) ${formatP(p.success.p)}, p(turns) ${formatP(p.turns.p)}`);
        } finally {
          store.close();
        }
      }),
    );
}

/** The study configuration's field → the `study create` flag that sets it. */
const FLAG_OF: Readonly<Record<string, string>> = { env: '--env', envOptions: '--env-option', agents: '--agents', role: '--role', participants: '--participants', sessionsPerParticipant: '--sessions', seed: '--seed', title: '--title' };

/**
 * The configuration of the flags, a fault of it naming the flag (`--title: must not be empty…`)
 * rather than the configuration's field (`the flags: "title" must…`), and an agent given twice as
 * such (a file's advice — give each its own "label" — has no flag).
 */
function flagsConfig<C>(make: (raw: unknown, where: string) => C, raw: Record<string, unknown>): C {
  try {
    return make(raw, 'the flags');
  } catch (e) {
    if (!(e instanceof DialogymError) || !e.message.startsWith('the flags: ')) throw e;
    const said = e.message.slice('the flags: '.length);
    const twice = /^agents\[\d+\]: the label "(.*)" is already agents\[\d+\]'s/.exec(said);
    if (twice) throw new ConfigError(`--agents: ${twice[1] as string} is given twice (to compare an agent with itself, give the study with --config and a "label" for each)`);
    const field = /^"?([A-Za-z]+)"?(?:\[\d+\])?:? /.exec(said);
    const flag = field ? FLAG_OF[field[1] as string] : undefined;
    throw new ConfigError(flag !== undefined && field ? `${flag}: ${said.slice(field[0].length)}` : `${said}`);
  }
}
