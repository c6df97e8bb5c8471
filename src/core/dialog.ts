/** Dialog types shared by every testbed. */

export type Speaker = 'user' | 'bot' | 'kb';

export interface Turn {
  readonly speaker: Speaker;
  readonly text: string;
}

export interface Dialog {
  readonly id: string;
  readonly turns: readonly Turn[];
}

/** The user placeholder for a bot turn that follows another bot turn (bAbI convention). */
export const SILENCE = '<SILENCE>';

/** Indices of the bot turns of a dialog, in order. */
export function botTurnIndices(d: Dialog): number[] {
  const out: number[] = [];
  d.turns.forEach((t, i) => {
    if (t.speaker === 'bot') out.push(i);
  });
  return out;
}
