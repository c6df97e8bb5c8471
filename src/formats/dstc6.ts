/**
 * DSTC6 Track 1 JSON formats (dataset files, result/answer files).
 * (Being extended: readers/writers with `file: entry N (dialog_id …): reason` errors.)
 */
import type { Turn } from '../core/dialog.js';

/** A KB-result utterance inside a DSTC6 context: `<name> r_<attr> <value>` (or bAbI's `R_`). */
export function isDstc6KbLine(u: string): boolean {
  return /^\S+ [rR]_\w+ \S/.test(u);
}

/**
 * The dialog history of a DSTC6 entry: KB-result lines become `kb` turns; the other utterances
 * alternate user, bot, … starting with the user (KB lines do not break the alternation). The
 * context ends just before the bot turn to predict, so the last non-KB turn is a user turn.
 */
export function dstc6History(utterances: readonly string[]): Turn[] {
  const out: Turn[] = [];
  let user = true;
  for (const u of utterances) {
    if (isDstc6KbLine(u)) out.push({ speaker: 'kb', text: u });
    else {
      out.push({ speaker: user ? 'user' : 'bot', text: u });
      user = !user;
    }
  }
  return out;
}
