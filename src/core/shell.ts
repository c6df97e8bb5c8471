/** Shell words for the commands dialogym prints as advice (`run \`…\``): they must work pasted as printed. */

/**
 * `s` as one POSIX shell word: as it is when it holds only characters no shell treats specially,
 * else single-quoted.
 *
 * @example
 * ```ts
 * shellWord('/data/dialogym'); // '/data/dialogym'
 * shellWord("/my data/it's"); // "'/my data/it'\\''s'"
 * ```
 */
export function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
