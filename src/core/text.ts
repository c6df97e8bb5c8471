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

/**
 * What a person typed, in the form the dialog models read (the datasets' form): NFKC, lower case,
 * `’` → `'`, `&` → `and`; every character that is not a letter, a mark, a digit, `'`, `_`, `-` or
 * the `<silence>` brackets becomes a space (emoji, `;`, `"`, `=`, `*`, brackets, control
 * characters, sentence punctuation); quotes around a word (`'rome'`) and dashes outside a word are
 * dropped; a whole number 0–20 becomes its word (`4 people` → `four people`, so `4` and `four`
 * read the same; `5stars` or `resto_1` are left alone); spaces collapse. Never throws: text with
 * nothing readable gives `''`. `Table for 4 in Rome, please!! 🍝 ;-)` → `table for four in rome please`.
 */
export function normaliseChatText(text: string): string {
  const kept = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/&/g, ' and ')
    .replace(/<silence>/g, '\u0000')
    .replace(/[^\p{L}\p{M}\p{N}'_\-\u0000]+/gu, ' ')
    .replace(/\u0000/g, ' <silence> ');
  const out: string[] = [];
  for (const raw of kept.split(' ')) {
    // Quotes and dashes that are not inside a word (`'rome'`, `-`, `--`) are punctuation.
    const t = raw === '<silence>' ? raw : raw.replace(/^['\-]+|['\-]+$/g, '');
    if (t.length === 0) continue;
    out.push(numberWord(t) ?? t);
  }
  return out.join(' ');
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
