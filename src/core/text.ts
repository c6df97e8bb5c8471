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
