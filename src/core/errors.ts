/** Error classes. The CLI prints `error: <message>` for these and exits non-zero, no stack trace. */

export class DialogymError extends Error {
  /** Process exit code the CLI uses for this error. */
  readonly exitCode: number = 1;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Malformed input file: the message reads `file:line: reason` (or `file: reason` without a line). */
export class FormatError extends DialogymError {
  readonly file: string;
  readonly line: number | undefined;
  readonly reason: string;
  constructor(file: string, line: number | undefined, reason: string, options?: { cause?: unknown }) {
    super(line === undefined ? `${file}: ${reason}` : `${file}:${line}: ${reason}`, options);
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}

/** Bad flag, option or configuration value. */
export class ConfigError extends DialogymError {
  override readonly exitCode: number = 2;
}

/** Unreadable, corrupt or incompatible model file. */
export class ModelFileError extends DialogymError {}

/**
 * A method called out of order, e.g. `step()` before `reset()` or after the episode ended
 * (Gymnasium's `ResetNeeded`), or an agent's `act()` before `begin()`.
 */
export class StateError extends DialogymError {}

/** An action an environment cannot take (unknown slot, index out of range, missing utterance). */
export class InvalidActionError extends DialogymError {}

/**
 * A broken internal invariant (mismatched shapes, a simulator with nothing to propose): a bug in
 * dialogym or in code plugged into it, never the user's input. The CLI says so.
 */
export class InternalError extends DialogymError {
  override readonly exitCode: number = 70;
}

/** A one-line description of any thrown value, for the CLI. */
export function describeError(e: unknown): string {
  if (e instanceof Error) return e.message.split('\n')[0] ?? String(e);
  return String(e);
}
