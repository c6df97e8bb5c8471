/**
 * What a KB value (or a restaurant's name) may hold. KB values end up inside dialog lines — a
 * KB-result line `name R_attr value`, an api_call, a bot utterance — so a value holding a newline,
 * a TAB, a control character, or the shape of a KB fact or an api_call would forge lines of its
 * own in every dialog that quotes it. Every KB reader (bAbI KB files, restaurant KB files,
 * SQLite KBs at import and at open) refuses such a value with the reason given here.
 */

/**
 * Options of `kbValueIssue`.
 *
 * @example
 * ```ts
 * import type { KbValueRules } from 'dialogym';
 * const rules: KbValueRules = { oneWord: true };
 * ```
 */
export interface KbValueRules {
  /** Refuse spaces too (restaurant KBs: every value is one word); default false (task-6 KB values may hold spaces). */
  readonly oneWord?: boolean;
}

/**
 * Why `value` cannot be a KB value or an entity name (`holds a newline`, `holds a TAB`, `is
 * shaped like a KB fact …`, …), or undefined when it can.
 *
 * @example
 * ```ts
 * import { kbValueIssue } from 'dialogym';
 * kbValueIssue('resto_rome_cheap_italian_1stars_phone'); // undefined
 * kbValueIssue('x\nresto_y R_phone 1');                   // 'holds a newline'
 * kbValueIssue('resto_y R_phone 1');                      // 'is shaped like a KB fact (`<name> R_<attr> <value>`)'
 * ```
 */
export function kbValueIssue(value: string, rules: KbValueRules = {}): string | undefined {
  if (value === '') return 'is empty';
  if (/[\n\r\u2028\u2029\u0085]/.test(value)) return 'holds a newline';
  if (value.includes('\t')) return 'holds a TAB';
  const control = /[\u0000-\u001f\u007f-\u009f]/.exec(value);
  if (control) return `holds a control character (U+${(control[0].codePointAt(0) as number).toString(16).toUpperCase().padStart(4, '0')})`;
  if (/^\S+\s+[rR]_\w+(\s|$)/.test(value)) return 'is shaped like a KB fact (`<name> R_<attr> <value>`)';
  if (/^api_call(\s|$)/.test(value)) return 'is shaped like an api_call';
  if (/^[rR]_\w+$/.test(value)) return 'is shaped like a KB attribute (`R_<attr>`)';
  if (value.trim() !== value) return 'starts or ends with a space';
  if (rules.oneWord && /\s/.test(value)) return 'holds a space (a KB value is one word)';
  return undefined;
}

/**
 * Why a KB fact's entity name or value is not fit for a KB (`name is shaped like an api_call`,
 * `value holds a newline`), or undefined. Names are always one word; `rules` apply to the value.
 *
 * @example
 * ```ts
 * import { kbFactIssue } from 'dialogym';
 * kbFactIssue('resto_x', 'resto_x_phone'); // undefined
 * kbFactIssue('api_call', 'x');            // 'name is shaped like an api_call'
 * ```
 */
export function kbFactIssue(name: string, value: string, rules: KbValueRules = {}): string | undefined {
  const n = kbValueIssue(name, { oneWord: true });
  if (n !== undefined) return `name ${n}`;
  const v = kbValueIssue(value, rules);
  return v === undefined ? undefined : `value ${v}`;
}

/**
 * A value as an error message may quote it: as is when it is short and plain, else as a clipped
 * JSON string (a newline shows as `\n`), so that the message stays one short line.
 *
 * @example
 * ```ts
 * import { quoteKbValue } from 'dialogym';
 * quoteKbValue('resto_x');  // 'resto_x'
 * quoteKbValue('a\nb');     // '"a\\nb"'
 * ```
 */
export function quoteKbValue(value: string, max = 60): string {
  const plain = /^[\x21-\x7e]*$/.test(value) && value.length <= max && !value.includes('"');
  if (plain) return value;
  const s = JSON.stringify(value.length > max ? value.slice(0, max) : value);
  return value.length > max ? `${s.slice(0, -1)}…"` : s;
}
