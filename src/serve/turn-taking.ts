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
