/**
 * Every CLI verb, in help order, as a light manifest: the verb's help-list term and summary, and
 * how to load the module that registers it. `dialogym --help` builds the list from this manifest
 * alone; `dialogym <verb> …` imports only that verb's module (so `dialogym dstc6 score` never loads
 * fastify, SQLite, piscina, WASM or model code). The summaries live in summaries.ts, which the verb
 * modules read too; test/cli-startup.test.ts checks that the manifest gives exactly the help of the
 * fully loaded program, so a term cannot drift.
 *
 * Adding a verb: its summary in summaries.ts, one line here (`term` as commander prints it in
 * `dialogym --help`; a bAbI-only verb in BABI_VERBS, which also makes its name a top-level alias),
 * and keep the verb module's top-level imports light (heavy work behind
 * `await import()` in the action).
 *
 * A verb may also run a plain command line without commander (`plain`): `dialogym dstc6 score
 * --result … --answers …`, called once per file by scripts, then loads neither commander nor the
 * program (../index.ts). This module imports commander only inside `registerCommands`, so that
 * path can read the manifest.
 */
import type { Command, Help } from 'commander';
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

/**
 * The bAbI dialog tasks' verbs (the restaurant of tasks 1-6), run as `dialogym babi <verb>`. Each
 * is also a top-level alias, its name before the testbeds had their own verb (`dialogym eval` runs
 * `dialogym babi eval`, same output and exit code; program.ts rewrites the command line), listed
 * under "Aliases:" in `dialogym --help`. `generate` and `compare` stay at the top: each has a
 * restaurant and a DSTC6 sub-verb. `serve` stays too: it already serves AirDialogue's chat beside
 * the restaurant's, and `serve --env` (issue 38) makes it serve any testbed.
 */
export const BABI_VERBS: readonly VerbEntry[] = [
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
  {
    term: 'benchmark [options]',
    summary: SUMMARY.benchmark,
    load: async () => (await import('./benchmark.js')).registerBenchmark,
  },
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
    term: 'demo [options]',
    summary: SUMMARY.demo,
    load: async () => (await import('./demo.js')).registerDemo,
  },
];

export const VERBS: readonly VerbEntry[] = [
  { term: 'data', summary: SUMMARY.data, load: async () => (await import('./data.js')).registerData },
  { term: 'generate', summary: SUMMARY.generate, load: async () => (await import('./generate.js')).registerGenerate },
  { term: 'compare', summary: SUMMARY.compare, load: async () => (await import('./compare.js')).registerCompare },
  {
    term: 'babi',
    summary: SUMMARY.babi,
    load: async () => async (program, args) => {
      const babi = program.command('babi').description(SUMMARY.babi);
      if (args === undefined) await registerCommands(babi, BABI_VERBS);
      else await registerCommands(babi, BABI_VERBS, verbIn(BABI_VERBS, args) ?? { verb: '', args: [] });
    },
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
    term: 'serve [options]',
    summary: SUMMARY.serve,
    load: async () => (await import('./serve.js')).registerServe,
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

/** Global options that take no value (every other global option ends the search for the verb). */
const GLOBAL_FLAGS = new Set(['--debug']);

/**
 * The verb of `entries` that a command line runs and the words after it (`args`: the words after
 * the parent command), or undefined when it names none of them (`--help`, `--version`, an unknown
 * word). `help <verb>` counts as that verb, so its help can be shown.
 */
export function verbIn(entries: readonly VerbEntry[], args: readonly string[]): { verb: string; args: readonly string[] } | undefined {
  let i = 0;
  while (i < args.length && GLOBAL_FLAGS.has(args[i] as string)) i++;
  if (args[i] === 'help') i++;
  const word = args[i];
  if (word === undefined || !entries.some((v) => verbName(v) === word)) return undefined;
  return { verb: word, args: args.slice(i + 1) };
}

/**
 * The command line an alias stands for: `eval …` → `babi eval …`, `help eval` → `babi help eval`
 * (what `babi eval --help` prints), global flags kept in front; any other line as it is.
 */
export function expandAlias(args: readonly string[]): readonly string[] {
  let i = 0;
  while (i < args.length && GLOBAL_FLAGS.has(args[i] as string)) i++;
  const isAlias = (w: string | undefined): boolean => w !== undefined && BABI_VERBS.some((v) => verbName(v) === w);
  if (args[i] === 'help' && isAlias(args[i + 1])) return [...args.slice(0, i), 'babi', 'help', ...args.slice(i + 1)];
  if (isAlias(args[i])) return [...args.slice(0, i), 'babi', ...args.slice(i)];
  return args;
}

/**
 * Registers `entries` (default: the program's verbs) on `parent`, in manifest order. With `only`,
 * just that verb's module is loaded and registered (given `args`, the words after it); every other
 * verb is a stub that carries its term and summary for the help list. Without `only`, every module
 * is loaded. The program's help ends with the aliases.
 */
export async function registerCommands(parent: Command, entries: readonly VerbEntry[] = VERBS, only?: { verb: string; args: readonly string[] }): Promise<void> {
  const stubs = new Map<Command, string>();
  for (const v of entries) {
    const name = verbName(v);
    if (only === undefined || only.verb === name) {
      const register = await v.load();
      await register(parent, only?.args);
    } else {
      stubs.set(parent.command(name).description(v.summary), v.term);
    }
  }
  const isProgram = parent.parent === null;
  if (stubs.size === 0 && !isProgram) return;
  const { Help } = await import('commander');
  const help = new Help();
  parent.configureHelp({
    subcommandTerm: (cmd) => stubs.get(cmd) ?? help.subcommandTerm(cmd),
    ...(isProgram ? { formatHelp: formatHelpWithAliases } : {}),
  });
}

/**
 * Commander's help of the program followed by its "Aliases:" list (each bAbI verb's old top-level
 * name), laid out as commander lays out a list, so that ../help-pages.json records it as one.
 */
function formatHelpWithAliases(this: Help, cmd: Command, helper: Help): string {
  const text = Object.getPrototypeOf(this).formatHelp.call(this, cmd, helper) as string;
  const termWidth = helper.padWidth(cmd, helper);
  const items = BABI_VERBS.map((v) => helper.formatItem(verbName(v), termWidth, `dialogym babi ${verbName(v)}`, helper));
  return `${text}\n${helper.formatItemList('Aliases:', items, helper).join('\n')}`;
}
