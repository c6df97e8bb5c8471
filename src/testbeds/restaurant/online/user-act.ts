/**
 * What the simulated user of a -v2 restaurant or DSTC6 env does in each of its turns, told in
 * `info.userAct` of the reset and of each step — for a voice that says the user's turns in other
 * words (`evaluate --user-llm`): the environment decides the act, the voice words it. The act is
 * the `UserLanguage` call behind the utterance (recorded by wrapping the language: same calls, same
 * draws, same words), or what the user does without one: the datasets' silence, a "not
 * understood" reply, the last utterance again, the real answer after a hesitation.
 */
import type { CallSlot, InfoKind } from './goal.js';
import { NOT_UNDERSTOOD } from './lexicon.js';
import type { UserLanguage } from './user.js';

/**
 * One act of the simulated user (`info.userAct`).
 *
 * @example
 * ```ts
 * import { make } from 'dialogym';
 * const env = make('restaurant-task5-v2');
 * console.log(env.reset({ seed: 1 }).info['userAct']); // { act: 'greet' }
 * ```
 */
export type UserAct =
  | { readonly act: 'greet' | 'no more updates' | 'accept' | 'reject' | 'thanks' | 'no thanks' | 'silence' | 'not understood' | 'repeat' | 'hesitate' }
  | { readonly act: 'request'; readonly slots: Readonly<Record<string, string>> }
  | { readonly act: 'book at'; readonly name: string }
  | { readonly act: 'answer' | 'update'; readonly slot: CallSlot; readonly value: string }
  | { readonly act: 'ask info'; readonly kind: InfoKind };

type Said = string | { distractor?: string; text: string };

/** Records the act of each call of a user language and reads the act behind an utterance. */
export class UserActRecorder {
  private recorded: { act: UserAct; said: Said } | undefined;
  private pending: UserAct | undefined;

  /** `lang` with every call recorded (the same words, the same draws). */
  wrap(lang: UserLanguage): UserLanguage {
    const rec = <S extends Said>(act: UserAct, said: S): S => {
      this.recorded = { act, said };
      return said;
    };
    return {
      silence: lang.silence,
      greeting: (rng) => rec({ act: 'greet' }, lang.greeting(rng)),
      request: (rng, goal, slots) => rec({ act: 'request', slots: Object.fromEntries(slots.map((s) => [s, goal[s] ?? ''])) }, lang.request(rng, goal, slots)),
      bookAt: (rng, name) => rec({ act: 'book at', name }, lang.bookAt(rng, name)),
      answer: (rng, slot, value) => rec({ act: 'answer', slot, value }, lang.answer(rng, slot, value)),
      update: (rng, slot, value, index) => rec({ act: 'update', slot, value }, lang.update(rng, slot, value, index)),
      noMoreUpdates: (rng) => rec({ act: 'no more updates' }, lang.noMoreUpdates(rng)),
      accept: (rng) => rec({ act: 'accept' }, lang.accept(rng)),
      reject: (rng) => rec({ act: 'reject' }, lang.reject(rng)),
      askInfo: (rng, kind) => rec({ act: 'ask info', kind }, lang.askInfo(rng, kind)),
      thanks: (rng) => rec({ act: 'thanks' }, lang.thanks(rng)),
      noThanks: (rng) => rec({ act: 'no thanks' }, lang.noThanks(rng)),
    };
  }

  /** Forgets the episode (at reset). */
  clear(): void {
    this.recorded = undefined;
    this.pending = undefined;
  }

  /** The act behind `utterance`, what the user just said (`silence`: the language's silence). */
  actOf(utterance: string, silence: string): UserAct {
    const r = this.recorded;
    this.recorded = undefined;
    if (r !== undefined) {
      if (typeof r.said !== 'string' && r.said.distractor !== undefined && utterance === r.said.distractor) {
        this.pending = r.act;
        return { act: 'hesitate' };
      }
      if (utterance === (typeof r.said === 'string' ? r.said : r.said.text)) return r.act;
    } else if (this.pending !== undefined) {
      const p = this.pending;
      this.pending = undefined;
      return p;
    }
    if (utterance === silence) return { act: 'silence' };
    if (NOT_UNDERSTOOD.includes(utterance)) return { act: 'not understood' };
    return { act: 'repeat' };
  }
}
