/** The dialogym commander program, built from the light verb manifest (./commands/index.ts). */
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { VERBS, registerCommands, verbName } from './commands/index.js';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/**
 * The program's commands: a mistyped flag of a verb is reported, with commander's suggestion
 * (`(Did you mean --model?)`), before commander would miss a required option it stands for
 * (`eval --modle rules` said "required option '--model' not specified", with no hint). Commander
 * checks required options first; here a verb (a command without sub-commands) reports its first
 * unknown flag as soon as its options are parsed. Help (`--help`, `-h`) still comes first.
 */
class DialogymCommand extends Command {
  override createCommand(name?: string): Command {
    return new DialogymCommand(name);
  }

  override parseOptions(argv: string[]): { operands: string[]; unknown: string[] } {
    const parsed = super.parseOptions(argv);
    const first = parsed.unknown[0];
    if (this.commands.length === 0 && first !== undefined && first.startsWith('--') && first !== '--' && !argv.includes('--help') && !argv.includes('-h')) {
      (this as unknown as { unknownOption(flag: string): never }).unknownOption(first);
    }
    return parsed;
  }
}

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
  const program = new DialogymCommand('dialogym')
    .description('Goal-oriented dialog toolkit: bAbI dialog tasks, DSTC6, KB-InfoBot, AirDialogue')
    .version(pkg.version)
    .option('--debug', 'print stack traces on errors')
    .exitOverride();
  if (args === undefined) await registerCommands(program);
  else await registerCommands(program, verbOf(args) ?? { verb: '', args: [] });
  return program;
}
