/** Tokenisation shared by stats, baselines and models. */

/** Whitespace tokens, as the bAbI files are written (no lower-casing, punctuation kept). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const t of text.split(/\s+/)) if (t.length > 0) out.push(t);
  return out;
}

/** Lower-cased whitespace tokens (task 6 mixes case). */
export function tokenizeLower(text: string): string[] {
  return tokenize(text.toLowerCase());
}

const NUMBER_WORDS = [
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty',
] as const;

/** The English word of a small whole number written in digits (`4` → `four`, 0–20), else undefined. */
export function numberWord(token: string): string | undefined {
  if (!/^\d{1,2}$/.test(token)) return undefined;
  return NUMBER_WORDS[Number(token)];
}

/** Longest excerpt of a value that an error message quotes. */
export const EXCERPT_CHARS = 80;

/**
 * A short excerpt of `s` for an error message: at most `max` characters, the cut marked with `…`
 * (a fuzzed 8 MB value must not become an 8 MB message).
 */
export function excerpt(s: string, max = EXCERPT_CHARS): string {
  return s.length > max ? s.slice(0, max - 1) + '…' : s;
}

/** `n` and an English noun in the number it takes: `count(1, 'run')` → `1 run`, `count(2, 'run')` → `2 runs`. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
