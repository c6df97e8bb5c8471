/**
 * The input-agreement checks of `train`, `eval` and `dstc6 rank` (testbeds/restaurant/agreement.ts)
 * as the CLI says them: one line naming the flag and the figure, refused (exit 2) before any long
 * work, or with `--force` a warning on stderr and the run goes on.
 */
import { ConfigError } from '../core/errors.js';

/** One check: the input as the user named it (`--kb`, `the candidates stored in m.dgm`), and its issue (undefined: it agrees). */
export type Agreement = readonly [subject: string, issue: string | undefined, advice: string];

/** Refuses the first disagreement (or, with `force`, warns of each one). */
export function checkAgreement(checks: readonly Agreement[], force: boolean | undefined): void {
  for (const [subject, issue, advice] of checks) {
    if (issue === undefined) continue;
    if (!force) throw new ConfigError(`${subject} ${issue}; ${advice}, or add --force to go on anyway`);
    process.stderr.write(`warning: ${subject} ${issue} (going on: --force)\n`);
  }
}

/** The advice of a KB that disagrees. */
export const KB_ADVICE = 'give the KB the dialogs were made with';
/** The advice of a model file's stored KB that disagrees (e.g. a model trained with KB 1 on a test set of KB 2). */
export const STORED_KB_ADVICE = 'give the KB of this data with --kb';
/** The advice of candidates that disagree. */
export const CANDIDATES_ADVICE = 'give the candidates of this data';
