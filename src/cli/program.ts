/** The dialogym commander program, built from the light verb manifest (./commands/index.ts). */
import { Command, type Help, type ParseOptions } from 'commander';
import { readFileSync } from 'node:fs';
import { BABI_VERBS, VERBS, expandAlias, registerCommands, verbIn, verbName } from './commands/index.js';

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

  /** Commander's unknown-command error, the aliases among the names it suggests (`evl` → eval). */
  unknownCommand(): never {
    const unknownCommand = (Command.prototype as unknown as { unknownCommand(this: Command): never }).unknownCommand;
    if (this.parent !== null) return unknownCommand.call(this);
    const createHelp = this.createHelp.bind(this);
    this.createHelp = (): Help => {
      const help = createHelp();
      const visible = help.visibleCommands.bind(help);
      help.visibleCommands = (cmd) => [...visible(cmd), ...BABI_VERBS.map((v) => new Command(verbName(v)))];
      return help;
    };
    return unknownCommand.call(this);
  }

  /** The program reads an alias's command line as the one it stands for (`eval …` as `babi eval …`). */
  override parse(argv?: readonly string[], parseOptions?: ParseOptions): this {
    return this.parent === null ? super.parse(...userArgs(argv, parseOptions)) : super.parse(argv, parseOptions);
  }

  override parseAsync(argv?: readonly string[], parseOptions?: ParseOptions): Promise<this> {
    return this.parent === null ? super.parseAsync(...userArgs(argv, parseOptions)) : super.parseAsync(argv, parseOptions);
  }
}

/**
 * The arguments of `parse`/`parseAsync` with an alias expanded (`expandAlias`) in the user's words
 * of a given `argv` (from 'node', the default, or 'user'); any other call as it is.
 */
function userArgs(argv: readonly string[] | undefined, parseOptions: ParseOptions | undefined): [readonly string[] | undefined, ParseOptions | undefined] {
  const from = parseOptions?.from;
  if (argv === undefined || (from !== undefined && from !== 'node' && from !== 'user')) return [argv, parseOptions];
  const skip = from === 'user' ? 0 : 2;
  return [[...argv.slice(0, skip), ...expandAlias(argv.slice(skip))], parseOptions];
}

/**
 * The verb a command line runs and the words after it (`args` = process.argv.slice(2), an alias
 * read as the name it stands for), or undefined when it names none of the manifest's verbs
 * (`--help`, `--version`, an unknown word). `help <verb>` counts as that verb, so its help can be shown.
 */
export function verbOf(args: readonly string[]): { verb: string; args: readonly string[] } | undefined {
  return verbIn(VERBS, expandAlias(args));
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
  else await registerCommands(program, VERBS, verbOf(args) ?? { verb: '', args: [] });
  return program;
}
