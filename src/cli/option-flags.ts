/**
 * How the CLI says a library error: each library option the error names (`models`, `systemPrompt`,
 * see `DialogymError.text`) as its flag (`--models`, `--system-prompt`), and each run it advises as
 * the command line to type (`dialogym infobot train --agent rl-hard --split small`).
 */
import { DialogymError, describeError, renderErrorText, type ErrorText, type RunAdvice } from '../core/errors.js';

/** The options whose flag is not their name in kebab case. */
const FLAG_OF: Readonly<Record<string, string>> = {
  source: '--data', // runBenchmark's { kind: 'files', dir }
  envOptions: '--env-option, --kb, --max-turns', // evaluate's environment options, set by these three
};

/** The flag of a library option: `FLAG_OF`, else `--` and the name in kebab case (`adviceGate` → `--advice-gate`). */
export function flagOf(option: string): string {
  return FLAG_OF[option] ?? `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** A run as a command line: `dialogym <run> --<option> <value> …`. */
function commandOf(r: RunAdvice): string {
  return ['dialogym', r.run, ...r.options.flatMap(([o, v]) => [flagOf(o), v])].join(' ');
}

/** The first line of an error as the CLI says it (`describeError`, with flags for option names). */
export function describeForCli(e: unknown): string {
  if (!(e instanceof DialogymError)) return describeError(e);
  return renderErrorText(e.text, flagOf, commandOf).split('\n')[0] ?? '';
}

/** A library text (a warning's, an advice's) as the CLI says it: option names as flags. */
export function textForCli(text: ErrorText): string {
  return renderErrorText(text, flagOf, commandOf);
}
