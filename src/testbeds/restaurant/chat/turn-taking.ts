/**
 * When the bot keeps the floor. In the datasets the user "says" `<SILENCE>` exactly after these bot
 * turns (measured on bAbI tasks 1–5 trn and DSTC6 tst1–4: every such turn, and only these, is
 * followed by a silence): the booking acknowledgement, the search announcement, the "another
 * option" turn, and an api_call whose results were shown (tasks 1–2 end on the call instead). A call
 * that found nothing shows one KB line (`api_call no result`, never in tasks 1–5) and keeps the floor
 * too, as in bAbI task 6 (DSTC2), where the bot says so at once: a chat must not fall silent after a search.
 */
const CONTINUES: ReadonlySet<string> = new Set([
  "i'm on it",
  'ok let me look into some options for you',
  'sure let me find an other option for you', // bAbI
  'sure let me find another option for you', // DSTC6
]);

/**
 * Whether the bot speaks again (after a silence) once it said `text`; `kbLines` = the KB lines shown
 * after an api_call (the datasets' tasks 2 and 5 show none where the user interrupts a call with updates).
 */
export function botContinues(text: string, kbLines?: number): boolean {
  const t = text.trim();
  if (t.startsWith('api_call ')) return (kbLines ?? 0) > 0;
  return CONTINUES.has(t);
}
