/**
 * Every CLI verb, in help order, as a light manifest: the verb's help-list term and summary, and
 * how to load the module that registers it. `dialogym --help` builds the list from this manifest
 * alone; `dialogym <verb> …` imports only that verb's module (so `dialogym dstc6 score` never loads
 * fastify, SQLite, piscina, WASM or model code). The summaries live in summaries.ts, which the verb
 * modules read too; test/cli-startup.test.ts checks that the manifest gives exactly the help of the
 * fully loaded program, so a term cannot drift.
 *
 * Adding a verb: its summary in summaries.ts, one line here (`term` as commander prints it in
 * `dialogym --help`), and keep the verb module's top-level imports light (heavy work behind
 * `await import()` in the action).
 *
 * A verb may also run a plain command line without commander (`plain`): `dialogym dstc6 score
 * --result … --answers …`, called once per file by scripts, then loads neither commander nor the
 * program (../index.ts). This module imports commander only inside `registerCommands`, so that
 * path can read the manifest.
 */
import type { Command } from 'commander';
import { SUMMARY } from './summaries.js';

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
  { term: 'data', summary: SUMMARY.data, load: async () => (await import('./data.js')).registerData },
  { term: 'generate', summary: SUMMARY.generate, load: async () => (await import('./generate.js')).registerGenerate },
  {
    term: 'stats [options] <file...>',
    summary: SUMMARY.stats,
    load: async () => (await import('./stats.js')).registerStats,
  },
  {
    term: 'walk [options] <file>',
    summary: SUMMARY.walk,
    load: async () => (await import('./walk.js')).registerWalk,
  },
  {
    term: 'train [options]',
    summary: SUMMARY.train,
    load: async () => (await import('./train.js')).registerTrain,
  },
  {
    term: 'eval [options]',
    summary: SUMMARY.eval,
    load: async () => (await import('./eval.js')).registerEval,
  },
  { term: 'compare', summary: SUMMARY.compare, load: async () => (await import('./compare.js')).registerCompare },
  {
    term: 'benchmark [options]',
    summary: SUMMARY.benchmark,
    load: async () => (await import('./benchmark.js')).registerBenchmark,
  },
  {
    term: 'dstc6',
    summary: SUMMARY['dstc6'],
    load: async () => (await import('./dstc6.js')).registerDstc6,
    plain: async (args) => args[0] === 'score' && (await import('./dstc6-score.js')).runPlainScore(args.slice(1)),
  },
  {
    term: 'airdialogue',
    summary: SUMMARY.airdialogue,
    load: async () => {
      const [{ registerAirdialogue }, { registerAirdialogueChat }] = await Promise.all([import('./airdialogue.js'), import('./airdialogue-chat.js')]);
      return (program) => {
        registerAirdialogue(program);
        registerAirdialogueChat(program);
      };
    },
  },
  { term: 'infobot', summary: SUMMARY.infobot, load: async () => (await import('./infobot.js')).registerInfobot },
  {
    term: 'kb',
    summary: SUMMARY.kb,
    load: async () => (await import('./kb.js')).registerKb,
  },
  {
    term: 'chat [options]',
    summary: SUMMARY.chat,
    load: async () => (await import('./chat.js')).registerChat,
  },
  {
    term: 'serve [options]',
    summary: SUMMARY.serve,
    load: async () => (await import('./serve.js')).registerServe,
  },
  {
    term: 'demo [options]',
    summary: SUMMARY.demo,
    load: async () => (await import('./demo.js')).registerDemo,
  },
  {
    term: 'evaluate [options]',
    summary: SUMMARY.evaluate,
    load: async () => (await import('./evaluate.js')).registerEvaluate,
  },
  {
    term: 'agent [options]',
    summary: SUMMARY.agent,
    load: async () => (await import('./agent.js')).registerAgent,
  },
  {
    term: 'env-server [options]',
    summary: SUMMARY['env-server'],
    load: async () => (await import('./env-server.js')).registerEnvServer,
  },
  {
    term: 'view [options] [folder]',
    summary: SUMMARY.view,
    load: async () => (await import('./view.js')).registerView,
  },
  { term: 'study', summary: SUMMARY.study, load: async () => (await import('./study.js')).registerStudy },
  { term: 'export [options] <transcripts>', summary: SUMMARY.export, load: async () => (await import('./export.js')).registerExport },
  {
    term: 'merge [options] <shards...>',
    summary: SUMMARY.merge,
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
