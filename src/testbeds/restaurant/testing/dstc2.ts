/** Test helpers of the task-6 (DSTC2) rule bots (not part of the public API): turns and KB results. */
import type { Turn } from '../../../core/dialog.js';

export const u = (text: string): Turn => ({ speaker: 'user', text });
export const b = (text: string): Turn => ({ speaker: 'bot', text });
export const k = (text: string): Turn => ({ speaker: 'kb', text });
export const GREET = 'Hello , welcome to the Cambridge restaurant system . You can ask for restaurants by area , price range or food type . How may I help you ?';

/** The KB lines an api_call answer gives for one restaurant. */
export const resto = (name: string, cuisine: string, location: string, price: string, rating: number): Turn[] =>
  [['post_code', `${name}_post_code`], ['cuisine', cuisine], ['location', location], ['phone', `${name}_phone`], ['address', `${name}_address`], ['price', price], ['rating', String(rating)]].map(
    ([a, v]) => k(`${name} R_${a} ${v}`),
  );
