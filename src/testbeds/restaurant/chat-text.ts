/** A chat message in the form the restaurant's dialog models read (its datasets' form, `<silence>` included). */
import { numberWord } from '../../core/text.js';

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
