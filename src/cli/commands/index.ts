/**
 * Every CLI verb, in help order, as a light manifest: the verb's help-list term and summary, and
 * how to load the module that registers it. `dialogym --help` builds the list from this manifest
 * alone; `dialogym <verb> …` imports only that verb's module (so `dialogym dstc6 score` never loads
 * fastify, SQLite, piscina, WASM or model code). test/cli-startup.test.ts checks that the manifest
 * gives exactly the help of the fully loaded program, so a term or summary cannot drift.
 *
 * Adding a verb: one line here (`term` as commander prints it in `dialogym --help`), and keep the
 * verb module's top-level imports light (heavy work behind `await import()` in the action).
 *
 * A verb may also run a plain command line without commander (`plain`): `dialogym dstc6 score
 * --result … --answers …`, called once per file by scripts, then loads neither commander nor the
 * program (../index.ts). This module imports commander only inside `registerCommands`, so that
 * path can read the manifest.
 */
import type { Command } from 'commander';

/** Registers a verb on the program; `args` are the command-line words after the verb, when known. */
export type RegisterVerb = (program: Command, args?: readonly string[]) => void | Promise<void>;

export interface VerbEntry {
  /** The verb's line in `dialogym --help`: name, ` [options]` when it has options, arguments. */
  readonly term: string;
  /** Its description (the same string the module gives commander). */
  readonly summary: string;
  readonly load: () => Promise<RegisterVerb>;
  /**
   * Runs the verb without commander when `args` (the words after the verb) are a plain command
   * line it reads exactly as commander would, and says whether it did; false: commander runs it.
   */
  readonly plain?: (args: readonly string[]) => Promise<boolean>;
}

export const VERBS: readonly VerbEntry[] = [
  { term: 'generate', summary: 'generate a dataset with a simulator', load: async () => (await import('./generate.js')).registerGenerate },
  {
    term: 'stats [options] <file...>',
    summary: 'dialogs, utterances per dialog (user / bot / KB), bot turns and vocabulary of bAbI dialog files',
    load: async () => (await import('./stats.js')).registerStats,
  },
  {
    term: 'walk [options] <file>',
    summary: 'show bAbI dialogs readably: one turn per line with its speaker (colour on a terminal)',
    load: async () => (await import('./walk.js')).registerWalk,
  },
  {
    term: 'train [options]',
    summary: 'train a response ranker on bAbI dialog files, keep the best epoch on dev, write a model file',
    load: async () => (await import('./train.js')).registerTrain,
  },
  {
    term: 'eval [options]',
    summary: 'evaluate a model on a bAbI dialog file: per-response and per-dialog accuracy',
    load: async () => (await import('./eval.js')).registerEval,
  },
  { term: 'compare', summary: 'compare generated data with the original files', load: async () => (await import('./compare.js')).registerCompare },
  {
    term: 'benchmark [options]',
    summary: "train and evaluate every model of the paper's Table 2 on tasks 1-5 (+ OOV) and 6; write benchmark.md, benchmark.json and benchmark.svg",
    load: async () => (await import('./benchmark.js')).registerBenchmark,
  },
  {
    term: 'dstc6',
    summary: 'DSTC6 Track 1 tools: walk, check, score, baseline, rank',
    load: async () => (await import('./dstc6.js')).registerDstc6,
    plain: async (args) => args[0] === 'score' && (await import('./dstc6-score.js')).runPlainScore(args.slice(1)),
  },
  {
    term: 'airdialogue',
    summary: 'AirDialogue tools: logic, score, generate, selfplay, splits, train, eval, rl, tables, chat',
    load: async () => {
      const [{ registerAirdialogue }, { registerAirdialogueChat }] = await Promise.all([import('./airdialogue.js'), import('./airdialogue-chat.js')]);
      return (program) => {
        registerAirdialogue(program);
        registerAirdialogueChat(program);
      };
    },
  },
  { term: 'infobot', summary: 'KB-InfoBot movie search: kb, eval, table, train, chat, agents', load: async () => (await import('./infobot.js')).registerInfobot },
  {
    term: 'kb',
    summary: 'restaurant KB in SQLite for serving: import a bAbI/DSTC6 KB file, run api_calls on it',
    load: async () => (await import('./kb.js')).registerKb,
  },
  {
    term: 'chat [options]',
    summary: 'chat with a model in the terminal: api_calls run on the KB, /reset, /explain, /history (reads stdin, so it can be piped)',
    load: async () => (await import('./chat.js')).registerChat,
  },
  {
    term: 'serve [options]',
    summary: 'JSON HTTP API (POST /api/sessions, POST /api/sessions/:id/messages, …) and the web chat UI at /',
    load: async () => (await import('./serve.js')).registerServe,
  },
  {
    term: 'demo [options]',
    summary: 'end-to-end demo: generate bAbI tasks 1-5, show stats and a dialog, evaluate the rule-based bot',
    load: async () => (await import('./demo.js')).registerDemo,
  },
  {
    term: 'evaluate [options]',
    summary: 'play an online environment with an agent (child process over JSON Lines, HTTP endpoint, or a dialogym model in process): success, pass^k, turns, reward, failures by reason',
    load: async () => (await import('./evaluate.js')).registerEvaluate,
  },
  {
    term: 'agent [options]',
    summary: "serve one of dialogym's agents (rules, a model file, an AirDialogue policy) over the agent protocol: a JSON request per stdin line, a JSON reply per stdout line",
    load: async () => (await import('./agent.js')).registerAgent,
  },
  {
    term: 'env-server [options]',
    summary: 'serve the environments over HTTP: GET /envs, POST /envs/:id → session, POST /sessions/:sid/reset|step, DELETE /sessions/:sid',
    load: async () => (await import('./env-server.js')).registerEnvServer,
  },
  {
    term: 'merge [options] <shards...>',
    summary: 'combine the shard files of a run made with --shard i/n into exactly what the unsharded run writes',
    load: async () => (await import('./merge.js')).registerMerge,
  },
];

/** The verb's name: the first word of its term. */
export function verbName(v: VerbEntry): string {
  return v.term.split(' ', 1)[0] as string;
}

/**
 * Registers the verbs on `program`, in manifest order. With `only`, just that verb's module is
 * loaded and registered (given `args`, the words after it); every other verb is a stub that carries
 * its term and summary for the help list. Without `only`, every module is loaded.
 */
export async function registerCommands(program: Command, only?: { verb: string; args: readonly string[] }): Promise<void> {
  const stubs = new Map<Command, string>();
  for (const v of VERBS) {
    const name = verbName(v);
    if (only === undefined || only.verb === name) {
      const register = await v.load();
      await register(program, only?.args);
    } else {
      stubs.set(program.command(name).description(v.summary), v.term);
    }
  }
  if (stubs.size === 0) return;
  const { Help } = await import('commander');
  const help = new Help();
  program.configureHelp({ subcommandTerm: (cmd) => stubs.get(cmd) ?? help.subcommandTerm(cmd) });
}
