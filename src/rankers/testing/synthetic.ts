/**
 * A tiny synthetic booking task for fast model tests: the bot must remember the cuisine said two
 * turns earlier to produce `api_call <cuisine> <city>`, so a model without memory cannot solve it.
 */
import type { Dialog, Turn } from '../../core/dialog.js';
import { createRng } from '../../core/rng.js';
import { KbTypes } from '../match-type.js';

export const CUISINES = ['italian', 'french', 'indian', 'thai', 'korean', 'spanish'];
export const CITIES = ['paris', 'rome', 'tokyo', 'london', 'madrid'];
/** Cuisines and cities that never occur in `syntheticDialogs(…, 'train')`. */
export const OOV_CUISINES = ['greek', 'turkish'];
export const OOV_CITIES = ['bombay', 'seoul'];

export function syntheticDialogs(n: number, seed: number, vocabulary: 'train' | 'oov' = 'train'): Dialog[] {
  const rng = createRng(seed);
  const cs = vocabulary === 'train' ? CUISINES : OOV_CUISINES;
  const ys = vocabulary === 'train' ? CITIES : OOV_CITIES;
  const out: Dialog[] = [];
  for (let i = 0; i < n; i++) {
    const c = rng.pick(cs);
    const y = rng.pick(ys);
    const turns: Turn[] = [
      { speaker: 'user', text: 'hello' },
      { speaker: 'bot', text: 'what food do you like' },
      { speaker: 'user', text: `i love ${c} food` },
      { speaker: 'bot', text: 'which city' },
      { speaker: 'user', text: `in ${y} please` },
      { speaker: 'bot', text: `api_call ${c} ${y}` },
    ];
    if (rng.chance(0.5)) turns.push({ speaker: 'user', text: 'thanks' }, { speaker: 'bot', text: 'you are welcome' });
    out.push({ id: String(i), turns });
  }
  return out;
}

export function syntheticCandidates(): string[] {
  const out = ['what food do you like', 'which city', 'you are welcome', 'hello'];
  for (const c of [...CUISINES, ...OOV_CUISINES]) for (const y of [...CITIES, ...OOV_CITIES]) out.push(`api_call ${c} ${y}`);
  return out;
}

export function syntheticKb(): KbTypes {
  return new KbTypes([...[...CUISINES, ...OOV_CUISINES].map((c) => [c, 'R_cuisine'] as const), ...[...CITIES, ...OOV_CITIES].map((y) => [y, 'R_location'] as const)]);
}
