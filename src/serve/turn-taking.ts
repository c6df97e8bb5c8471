/**
 * When the bot keeps the floor. In the datasets the user "says" `<SILENCE>` exactly after these bot
 * turns (measured on bAbI tasks 1–5 trn and DSTC6 tst1–4: every such turn, and only these, is
 * followed by a silence): the booking acknowledgement, the search announcement, the "another
 * option" turn, and an api_call whose results were shown (tasks 1–2 end on the call instead).
 */
const CONTINUES: ReadonlySet<string> = new Set([
  "i'm on it",
  'ok let me look into some options for you',
  'sure let me find an other option for you', // bAbI
  'sure let me find another option for you', // DSTC6
]);

/** Whether the bot speaks again (after a silence) once it said `text`; `results` = KB results an api_call got. */
export function botContinues(text: string, results?: number): boolean {
  const t = text.trim();
  if (t.startsWith('api_call ')) return (results ?? 0) > 0;
  return CONTINUES.has(t);
}

/**
 * A user's typed text in the datasets' form: lower case, single spaces, no sentence punctuation
 * (`Hi!  Can you book a table?` → `hi can you book a table`); apostrophes and entity words stay.
 */
export function normaliseUserText(text: string): string {
  return text
    .toLowerCase()
    .replace(/\u2019/g, "'")
    .replace(/[?!.,;:]+(?=\s|$)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Characters a user message may hold: letters, digits, spaces and everyday punctuation. The
 * datasets' vocabulary is lower-case words, `'`, `_` and `<silence>`; code-like characters
 * (`;` `"` `=` `*` backslash, brackets, control characters, …) are refused rather than silently
 * dropped, so `'; DROP TABLE restaurants; --` is a 400, not a turn.
 */
const ALLOWED = /^[\p{L}\p{M}\p{N} \t'\u2019_\-.,?!<>():&+/@%]*$/u;

/** The first character a user message may not hold, or undefined when it is fine. */
export function forbiddenCharacter(text: string): string | undefined {
  if (ALLOWED.test(text)) return undefined;
  for (const ch of text) if (!ALLOWED.test(ch)) return ch;
  return undefined;
}
