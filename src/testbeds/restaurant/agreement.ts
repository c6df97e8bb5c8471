/**
 * Inputs that must agree, checked against each other before long work starts: the KB and the
 * restaurants the dialogs name (their KB-result turns, `name R_attr value`), and the candidate
 * responses and the dialogs' answers. A KB that names none of the training dialogs' restaurants
 * delexicalises nothing (issue 41: an hcn epoch of 1,142 s instead of about a minute, and a useless
 * model); candidates that miss the answers cap the accuracy and leave training turns out.
 */
import type { Dialog } from '../../core/dialog.js';
import { ConfigError, errorText, optionName, renderErrorText, type ErrorText, type OptionName } from '../../core/errors.js';
import type { KbFact } from '../../formats/babi.js';
import type { ModelFileContent } from '../../formats/model-file.js';
import { NAME_TYPE } from './hcn/entities.js';

/**
 * How many of the distinct things the dialogs need (restaurants, answers) the other input has.
 *
 * @example
 * ```ts
 * import type { Coverage } from 'dialogym/restaurant';
 * const c: Coverage = { found: 0, total: 2400, missing: ['great_public_hand_head'] };
 * ```
 */
export interface Coverage {
  /** Of `total`, how many the other input has. */
  readonly found: number;
  /** Distinct restaurants (or answers) in the dialogs. */
  readonly total: number;
  /** A few of those it lacks (at most 3, in order of first appearance), for the message. */
  readonly missing: readonly string[];
}

/**
 * Below this share of the dialogs' restaurants (or answers) found, the inputs disagree (refused, or with force a warning).
 *
 * @example
 * ```ts
 * import { AGREEMENT_MIN_SHARE } from 'dialogym/restaurant';
 * const agrees = (found: number, total: number) => total === 0 || found >= AGREEMENT_MIN_SHARE * total;
 * ```
 */
export const AGREEMENT_MIN_SHARE = 0.5;

/** A KB-result line of a dialog (bAbI `name R_attr value`, DSTC6 `name r_attr value`): its restaurant. */
const KB_RESULT = /^(\S+) [rR]_\w+ \S/;

/** The distinct restaurants named by the KB-result turns of `dialogs`, in order of first appearance. */
function dialogRestaurants(dialogs: Iterable<Dialog>): Set<string> {
  const seen = new Set<string>();
  for (const d of dialogs)
    for (const t of d.turns) {
      const r = t.speaker === 'kb' ? KB_RESULT.exec(t.text)?.[1] : undefined;
      if (r !== undefined) seen.add(r);
    }
  return seen;
}

/** How many of `needed` are in `has`. */
function coverage(needed: Iterable<string>, has: (x: string) => boolean): Coverage {
  let found = 0;
  let total = 0;
  const missing: string[] = [];
  for (const x of needed) {
    total++;
    if (has(x)) found++;
    else if (missing.length < 3) missing.push(x);
  }
  return { found, total, missing };
}

/**
 * Of the restaurants the dialogs name (in their KB-result turns), how many the KB `facts` (or the set of restaurant names) hold.
 *
 * @example
 * ```ts
 * import { kbCoverage } from 'dialogym/restaurant';
 * const c = kbCoverage([{ id: '1', turns: [{ speaker: 'kb', text: 'resto_a R_phone resto_a_phone' }] }], []);
 * // { found: 0, total: 1, missing: ['resto_a'] }
 * ```
 */
export function kbCoverage(dialogs: Iterable<Dialog>, facts: readonly KbFact[] | ReadonlySet<string>): Coverage {
  const names = facts instanceof Set ? facts : new Set((facts as readonly KbFact[]).map((f) => f.entity));
  return coverage(dialogRestaurants(dialogs), (r) => names.has(r));
}

/**
 * The restaurants of the KB a model file stores (an hcn model keeps the names of its training KB
 * in its lexicon, and recognises them when no KB is given at run time), or undefined when it stores none.
 *
 * @example
 * ```ts
 * import { readModelFile } from 'dialogym';
 * import { kbCoverage, storedRestaurants } from 'dialogym/restaurant';
 * const names = storedRestaurants(readModelFile('hcn-task5.dgm'));
 * if (names) console.log(kbCoverage([], names).total);
 * ```
 */
export function storedRestaurants(c: ModelFileContent): ReadonlySet<string> | undefined {
  if (c.model !== 'hcn') return undefined;
  const lexicon = (c.meta as { lexicon?: unknown } | null)?.lexicon;
  const names = typeof lexicon === 'object' && lexicon !== null ? (lexicon as Record<string, unknown>)[NAME_TYPE] : undefined;
  return Array.isArray(names) ? new Set(names.map(String)) : undefined;
}

/**
 * Of the distinct bot answers of `dialogs`, how many are among `candidates`.
 *
 * @example
 * ```ts
 * import { candidateCoverage } from 'dialogym/restaurant';
 * candidateCoverage([{ id: '1', turns: [{ speaker: 'user', text: 'hi' }, { speaker: 'bot', text: 'hello' }] }], ['hello']); // found 1 of 1
 * ```
 */
export function candidateCoverage(dialogs: Iterable<Dialog>, candidates: readonly string[]): Coverage {
  const answers = new Set<string>();
  for (const d of dialogs) for (const t of d.turns) if (t.speaker === 'bot') answers.add(t.text);
  const has = new Set(candidates);
  return coverage(answers, (a) => has.has(a));
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * The disagreement of a coverage as the rest of a sentence whose subject is the input (`kb names 0
 * of the 2,400 restaurants in the training dialogs (none of great_public_hand_head, …)`), or
 * undefined when at least `AGREEMENT_MIN_SHARE` is found (or the dialogs need nothing).
 *
 * @example
 * ```ts
 * import { agreementIssue } from 'dialogym/restaurant';
 * agreementIssue({ found: 0, total: 2400, missing: ['x'] }, 'restaurants', 'the training dialogs');
 * // 'names 0 of the 2,400 restaurants in the training dialogs (not x, …)'
 * ```
 */
export function agreementIssue(c: Coverage, what: 'restaurants' | 'answers', where: string): string | undefined {
  const t = agreementIssueText(c, what, [where]);
  return t === undefined ? undefined : renderErrorText(t, (o) => o);
}

/**
 * `agreementIssue` as an error text, for a `where` that names an option (`the ${optionName('data')} dialogs`:
 * `the data dialogs` in the library, `the --data dialogs` from the CLI).
 *
 * @example
 * ```ts
 * import { agreementIssueText } from 'dialogym/restaurant';
 * import { errorText, optionName } from 'dialogym';
 * agreementIssueText({ found: 0, total: 2, missing: ['x', 'y'] }, 'restaurants', errorText`the ${optionName('data')} dialogs`);
 * ```
 */
export function agreementIssueText(c: Coverage, what: 'restaurants' | 'answers', where: ErrorText): ErrorText | undefined {
  if (c.total === 0 || c.found >= AGREEMENT_MIN_SHARE * c.total) return undefined;
  const verb = what === 'restaurants' ? 'names' : 'holds';
  const of = c.found === 0 && c.total === 1 ? `the one ${what.slice(0, -1)}` : `the ${count(c.total)} ${what}`;
  const not = c.missing.map((m) => (m.length > 60 ? `${m.slice(0, 57)}...` : m)).join(', ');
  return [`${verb} ${count(c.found)} of ${of} in `, ...where, ` (not ${not}${c.total - c.found > c.missing.length ? ', …' : ''})`];
}

/**
 * One agreement check: the input as its user named it (an option such as `kb`, or words such as
 * `the KB stored in m.dgm`), its issue (undefined: it agrees) and the advice.
 *
 * @example
 * ```ts
 * import type { AgreementCheck } from 'dialogym/restaurant';
 * import { optionName } from 'dialogym';
 * const check: AgreementCheck = [optionName('kb'), undefined, 'give the KB the dialogs were made with'];
 * ```
 */
export type AgreementCheck = readonly [subject: string | OptionName, issue: ErrorText | string | undefined, advice: ErrorText | string];

/** The advice of a KB that disagrees. */
export const KB_ADVICE = 'give the KB the dialogs were made with';
/** The advice of a model file's stored KB that disagrees (e.g. a model trained with KB 1 on a test set of KB 2). */
export const STORED_KB_ADVICE: ErrorText = errorText`give the KB of this data with ${optionName('kb')}`;
/** The advice of candidates that disagree. */
export const CANDIDATES_ADVICE = 'give the candidates of this data';

const parts = (t: ErrorText | string | OptionName): ErrorText => (typeof t === 'string' ? [t] : 'option' in t ? [t] : (t as ErrorText));

/**
 * Refuses the first check that disagrees with a one-line ConfigError (`kb names 0 of … ; give the KB
 * the dialogs were made with, or add force to go on anyway`); with `force`, tells `onWarning` of each
 * one instead (`kb names 0 of … (going on: force)`) and returns.
 *
 * @example
 * ```ts
 * import { checkAgreements } from 'dialogym/restaurant';
 * import { optionName } from 'dialogym';
 * checkAgreements([[optionName('kb'), undefined, 'give the KB the dialogs were made with']], false); // agrees: nothing happens
 * ```
 */
export function checkAgreements(checks: readonly AgreementCheck[], force: boolean | undefined, onWarning?: (text: ErrorText) => void): void {
  for (const [subject, issue, advice] of checks) {
    if (issue === undefined) continue;
    const said = [...parts(subject), ' ', ...parts(issue)];
    if (!force) throw new ConfigError([...said, '; ', ...parts(advice), ', or add ', optionName('force'), ' to go on anyway']);
    onWarning?.([...said, ' (going on: ', optionName('force'), ')']);
  }
}

/**
 * Throws a one-line ConfigError (`kb names 0 of the 2,400 restaurants in the dialogs (not …)`)
 * when the KB `facts` hold fewer than half of the restaurants `dialogs` name; returns the coverage.
 *
 * @example
 * ```ts
 * import { checkKbAgreement } from 'dialogym/restaurant';
 * checkKbAgreement([], []); // nothing named: nothing to check
 * ```
 */
export function checkKbAgreement(dialogs: Iterable<Dialog>, facts: readonly KbFact[], where = 'the dialogs'): Coverage {
  const c = kbCoverage(dialogs, facts);
  const issue = agreementIssue(c, 'restaurants', where);
  if (issue !== undefined) throw new ConfigError(`kb ${issue}`);
  return c;
}
