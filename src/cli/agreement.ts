/**
 * The input-agreement checks of `train`, `eval` and `dstc6 rank` (testbeds/restaurant/agreement.ts:
 * `checkAgreements`) as the CLI says them: one line naming the flag and the figure, refused (exit 2)
 * before any long work, or with `--force` a warning on stderr and the run goes on.
 */
import { checkAgreements, type AgreementCheck } from '../testbeds/restaurant/agreement.js';
import { textForCli } from './option-flags.js';

export { CANDIDATES_ADVICE, KB_ADVICE, STORED_KB_ADVICE } from '../testbeds/restaurant/agreement.js';

/** Refuses the first disagreement (or, with `force`, warns of each one on stderr). */
export function checkAgreement(checks: readonly AgreementCheck[], force: boolean | undefined): void {
  checkAgreements(checks, force, warnForCli);
}

/** A library warning on stderr, its option names said as flags. */
export function warnForCli(text: Parameters<typeof textForCli>[0]): void {
  process.stderr.write(`warning: ${textForCli(text)}\n`);
}
