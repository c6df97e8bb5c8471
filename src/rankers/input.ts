/** Which part of the dialog a bag-of-words model reads as its input. */
import type { Turn } from '../core/dialog.js';

/** `last`: the last user utterance; `history`: every turn so far (KB lines included). */
export type InputMode = 'last' | 'history';

export function inputText(history: readonly Turn[], mode: InputMode): string {
  if (mode === 'history') return history.map((t) => t.text).join(' ');
  for (let i = history.length - 1; i >= 0; i--) if ((history[i] as Turn).speaker === 'user') return (history[i] as Turn).text;
  return '';
}
