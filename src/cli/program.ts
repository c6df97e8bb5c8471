/** The dialogym commander program, built from the light verb manifest (./commands/index.ts). */
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { VERBS, registerCommands, verbName } from './commands/index.js';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Global options that take no value (every other global option ends the search for the verb). */
const GLOBAL_FLAGS = new Set(['--debug']);

/**
 * The verb a command line runs and the words after it (`args` = process.argv.slice(2)), or
 * undefined when it names none of the manifest's verbs (`--help`, `--version`, an unknown word).
 * `help <verb>` counts as that verb, so its help can be shown.
 */
export function verbOf(args: readonly string[]): { verb: string; args: readonly string[] } | undefined {
  let i = 0;
  while (i < args.length && GLOBAL_FLAGS.has(args[i] as string)) i++;
  if (args[i] === 'help') i++;
  const word = args[i];
  if (word === undefined || !VERBS.some((v) => verbName(v) === word)) return undefined;
  return { verb: word, args: args.slice(i + 1) };
}

/**
 * The commander program. With `args` (the command-line words), only the verb they run is loaded;
 * without, every verb (what tests inspect).
 */
export async function buildProgram(args?: readonly string[]): Promise<Command> {
  const program = new Command('dialogym')
    .description('Goal-oriented dialog toolkit: bAbI dialog tasks, DSTC6, KB-InfoBot, AirDialogue')
    .version(pkg.version)
    .option('--debug', 'print stack traces on errors')
    .exitOverride();
  if (args === undefined) await registerCommands(program);
  else await registerCommands(program, verbOf(args) ?? { verb: '', args: [] });
  return program;
}
