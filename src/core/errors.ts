/** Error classes. The CLI prints `error: <message>` for these and exits non-zero, no stack trace. */
import { excerpt } from './text.js';

/** The longest reason a FormatError keeps (a reason that quotes a whole fuzzed value is cut). */
const MAX_REASON_CHARS = 400;

/**
 * Base class of every error dialogym throws on purpose: catch it to tell dialogym's errors (bad
 * input, bad options, bad model files…) from bugs elsewhere. `name` is the subclass name and
 * `exitCode` the status the CLI exits with (1 unless a subclass says otherwise).
 *
 * @example
 * ```ts
 * import { DialogymError, make } from 'dialogym';
 * try {
 *   make('no-such-env-v0');
 * } catch (e) {
 *   if (e instanceof DialogymError) console.error(`${e.name}: ${e.message}`);
 *   else throw e;
 * }
 * ```
 */
export class DialogymError extends Error {
  /** Process exit code the CLI uses for this error. */
  readonly exitCode: number = 1;
  /**
   * The message as parts, the names of library options marked (`[{ option: 'models' }, ': unknown
   * model …']`): `message` says each option by its name, a front end by its own word for it (the
   * CLI by its flag, `--models`). A plain string message is one part.
   */
  readonly text: ErrorText;
  /**
   * `message`: a string, or parts built with `errorText` that mark option names. `option`: the
   * option the error is about, said before the message (`models: unknown model …`).
   */
  constructor(message: string | ErrorText, options?: { cause?: unknown; option?: string }) {
    const parts = typeof message === 'string' ? [message] : message;
    const text = options?.option === undefined ? parts : [{ option: options.option }, ': ', ...parts];
    super(renderErrorText(text, (o) => o), options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.text = text;
  }
}

/**
 * A library option's name inside an error's text (see `DialogymError.text`).
 *
 * @example
 * ```ts
 * import { ConfigError, type OptionName } from 'dialogym';
 * const e = new ConfigError('unknown model', { option: 'models' });
 * const named = e.text.filter((p): p is OptionName => typeof p !== 'string'); // [{ option: 'models' }]
 * ```
 */
export interface OptionName {
  readonly option: string;
}

/**
 * A run to do inside an error's text (`needs a trained policy: run …`): the run's name and its
 * options. The library says `infobot train (agent: rl-hard, split: small)`, the CLI the
 * command line (`dialogym infobot train --agent rl-hard --split small`).
 *
 * @example
 * ```ts
 * import { ConfigError, errorText, type RunAdvice } from 'dialogym';
 * const run: RunAdvice = { run: 'train', options: [['model', 'memn2n']] };
 * new ConfigError(errorText`train it first: ${run}`).message; // 'train it first: train (model: memn2n)'
 * ```
 */
export interface RunAdvice {
  readonly run: string;
  readonly options: readonly (readonly [option: string, value: string])[];
}

/**
 * An error message as parts: plain text, and names of library options.
 *
 * @example
 * ```ts
 * import { ConfigError, optionName, type ErrorText } from 'dialogym';
 * const text: ErrorText = ['give a candidates file (', optionName('candidates'), ')'];
 * new ConfigError(text).message; // 'give a candidates file (candidates)'
 * ```
 */
export type ErrorText = readonly (string | OptionName | RunAdvice)[];

/**
 * An error text from a template whose `optionName(name)` values mark option names; other values are
 * said as strings.
 *
 * @example
 * ```ts
 * import { ConfigError, errorText, optionName } from 'dialogym';
 * const e = new ConfigError(errorText`${optionName('adviceGate')} needs ${optionName('rulesAdvice')}`);
 * e.message; // 'adviceGate needs rulesAdvice'
 * ```
 */
export function errorText(strings: TemplateStringsArray, ...values: unknown[]): ErrorText {
  const parts: (string | OptionName | RunAdvice)[] = [strings[0] ?? ''];
  values.forEach((v, i) => parts.push(isPart(v) ? v : String(v), strings[i + 1] ?? ''));
  return parts.filter((p) => p !== '');
}

/**
 * The mark of an option name in `errorText`.
 *
 * @example
 * ```ts
 * import { errorText, optionName } from 'dialogym';
 * errorText`give ${optionName('kb')}`; // ['give ', { option: 'kb' }]
 * ```
 */
export function optionName(name: string): OptionName {
  return { option: name };
}

function isPart(v: unknown): v is OptionName | RunAdvice {
  if (typeof v !== 'object' || v === null) return false;
  return typeof (v as OptionName).option === 'string' || (typeof (v as RunAdvice).run === 'string' && Array.isArray((v as RunAdvice).options));
}

/**
 * An error text as one string, each option name said by `say` (the library: the name itself; the
 * CLI: the option's flag) and each run by `sayRun` (default: `<run> (<option>: <value>, …)`).
 *
 * @example
 * ```ts
 * import { ConfigError, renderErrorText } from 'dialogym';
 * const e = new ConfigError('no model given', { option: 'models' });
 * renderErrorText(e.text, (o) => `--${o}`); // '--models: no model given'
 * ```
 */
export function renderErrorText(text: ErrorText, say: (option: string) => string, sayRun: (run: RunAdvice) => string = libraryRun): string {
  return text.map((p) => (typeof p === 'string' ? p : 'option' in p ? say(p.option) : sayRun(p))).join('');
}

/** A run as the library says it: `infobot train (agent: rl-hard, split: small)`. */
function libraryRun(r: RunAdvice): string {
  return `${r.run}${r.options.length === 0 ? '' : ` (${r.options.map(([o, v]) => `${o}: ${v}`).join(', ')})`}`;
}

/**
 * Malformed or unreadable input file: the message reads `file:line: reason` (or `file: reason`
 * without a line); the parts are kept in `file`, `line` (1-based, or undefined) and `reason`.
 * Thrown by every reader and parser (`readBabiDialogs`, `parseDstc6Data`, `readTextFile`…).
 *
 * @example
 * ```ts
 * import { FormatError, parseBabiCandidates } from 'dialogym';
 * try {
 *   parseBabiCandidates('hello\n', 'cands.txt');
 * } catch (e) {
 *   if (e instanceof FormatError) console.error(e.file, e.line, e.reason); // cands.txt 1 …
 * }
 * ```
 */
export class FormatError extends DialogymError {
  readonly file: string;
  readonly line: number | undefined;
  readonly reason: string;
  /** `options.message`: the whole message, when it is not `<file>[:<line>]: <reason>` (a misread file: `x.txt looks like …`). */
  constructor(file: string, line: number | undefined, given: string, options?: { cause?: unknown; message?: string }) {
    // A reason quotes excerpts of the offending value; this bounds any that quotes too much.
    const reason = excerpt(given, MAX_REASON_CHARS);
    super(options?.message ?? (line === undefined ? `${file}: ${reason}` : `${file}:${line}: ${reason}`), options?.cause === undefined ? undefined : { cause: options.cause });
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}

/**
 * Bad flag, option or configuration value, including an unknown registry name (environment id,
 * model name). The CLI exits with status 2 for it (`exitCode` 2).
 *
 * @example
 * ```ts
 * import { ConfigError, createRng } from 'dialogym';
 * try {
 *   createRng(1.5); // seeds must be integers
 * } catch (e) {
 *   if (e instanceof ConfigError) console.error(e.message); // seed must be an integer, got 1.5
 * }
 * ```
 */
export class ConfigError extends DialogymError {
  override readonly exitCode: number = 2;
}

/**
 * Unreadable, corrupt or incompatible model file: bad magic or version, truncated tensors, a
 * header naming an unknown model. Thrown by `readModelFile`, `decodeModelFile`, `loadModel`.
 *
 * @example
 * ```ts
 * import { ModelFileError, decodeModelFile } from 'dialogym';
 * try {
 *   decodeModelFile(Buffer.from([1, 2, 3]), 'model.dgm');
 * } catch (e) {
 *   if (e instanceof ModelFileError) console.error(e.message);
 * }
 * ```
 */
export class ModelFileError extends DialogymError {}

/**
 * A method called out of order, e.g. `step()` before `reset()` or after the episode ended
 * (Gymnasium's `ResetNeeded`), or an agent's `act()` before `begin()`.
 *
 * @example
 * ```ts
 * import { make, StateError } from 'dialogym';
 * const env = make('airdialogue-v1');
 * try { env.step({ utterance: 'hello' }); } catch (e) { console.log(e instanceof StateError); } // true: no reset() yet
 * ```
 */
export class StateError extends DialogymError {}

/**
 * An action an environment cannot take (unknown slot, index out of range, missing utterance).
 *
 * @example
 * ```ts
 * import { make, InvalidActionError } from 'dialogym';
 * const env = make('airdialogue-v1');
 * env.reset({ seed: 1 });
 * try { env.step({} as never); } catch (e) { console.log(e instanceof InvalidActionError); } // true: a move (e.g. from JSON) needs an utterance
 * ```
 */
export class InvalidActionError extends DialogymError {}

/**
 * Bad input from a person in a chat (a message that is empty once normalised, not a string, an
 * action the dialogue does not allow): a server answers HTTP 400 with its message, a REPL prints it.
 */
export class InputError extends DialogymError {}

/** A chat's session that is unknown or expired (a server answers HTTP 404). */
export class SessionNotFoundError extends DialogymError {}

/** A chat server holds as many sessions as it may (HTTP 503: try again later). */
export class CapacityError extends DialogymError {}

/**
 * A broken internal invariant (mismatched shapes, a simulator with nothing to propose): a bug in
 * dialogym or in code plugged into it, never the user's input. The CLI says so and exits with 70.
 *
 * @example
 * ```ts
 * import { InternalError } from 'dialogym';
 * const e = new InternalError('gru: input has 3 entries, expected 4');
 * e.exitCode; // 70
 * ```
 */
export class InternalError extends DialogymError {
  override readonly exitCode: number = 70;
}

/**
 * A one-line description of any thrown value, for the CLI: the first line of an `Error`'s
 * message (without its name), or `String(e)` for anything else.
 *
 * @example
 * ```ts
 * import { describeError } from 'dialogym';
 * describeError(new Error('bad\nmore detail')); // 'bad'
 * describeError(42);                            // '42'
 * ```
 */
export function describeError(e: unknown): string {
  if (e instanceof Error) return e.message.split('\n')[0] ?? String(e);
  return String(e);
}
