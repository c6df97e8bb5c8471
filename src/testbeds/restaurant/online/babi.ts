/**
 * The bAbI online environments `restaurant-task{1..5}-v1` (in-vocabulary half of the KB) and
 * `restaurant-task{1..5}-oov-v1` (the OOV half): goals sampled as `simulator.ts` samples them
 * (the whole goal space of the half, not one split's pool), the user speaking with the patterns
 * of `patterns.ts`, the results of a call shown in the orders of `orderResults`. The `-v2` ids
 * (`restaurant-task5-v2`, `restaurant-task5-oov-v2`) have the user that reads meaning (`env.ts`).
 */
import { createRng, type Rng } from '../../../core/rng.js';
import { memoLast } from '../../../core/memo.js';
import { ConfigError } from '../../../core/errors.js';
import type { EnvDefinition } from '../../../env/env.js';
import { babiEnvId } from './ids.js';
import { FIELDS, MemoryKbStore, allApiCalls, fieldValues, generateRestaurants, vocabOf, type ApiCall, type Field, type Restaurant, type VocabHalf } from '../kb.js';
import { BABI_KB } from '../kb-dialects.js';
import { BABI_USER, BOT, DISTRIBUTIONS, NO_MORE_UPDATES, drawInfo } from '../patterns.js';
import { hamming, orderResults, validCalls, type TaskId } from '../simulator.js';
import { babiDataset } from '../export.js';
import { RESTAURANT_FAMILY, RestaurantEnv, type OnlineSetting, type RestaurantEnvOptions } from './env.js';
import type { Goal, InfoKind } from './goal.js';
import type { UserLanguage } from './user.js';

/** The bAbI user's wording (patterns.ts: the simulator's user). */
export const BABI_LANGUAGE: UserLanguage = {
  silence: BABI_KB.silence,
  greeting: BABI_USER.greeting,
  request: (rng, goal, slots) => BABI_USER.request(rng, goal, slots as readonly Field[]),
  bookAt: BABI_USER.bookAt,
  answer: (rng, f, v) => ({ text: BABI_USER.answer(rng, f as Field, v) }),
  update: (rng, f, v) => ({ text: BABI_USER.update(rng, f as Field, v) }),
  noMoreUpdates: () => NO_MORE_UPDATES,
  accept: BABI_USER.accept,
  reject: (rng) => ({ text: BABI_USER.reject(rng) }),
  askInfo: (rng, kind) => ({ text: BABI_USER.askInfo(rng, kind) }),
  thanks: BABI_USER.thanks,
  noThanks: BABI_USER.noThanks,
};

/** The KB `generate restaurant --seed <seed>` writes (a pure function of the seed: the last few are cached, whatever seeds an env server's clients ask for). */
const generatedKb = memoLast(4, (seed: number): readonly Restaurant[] => generateRestaurants(createRng(seed).fork('kb')));

/** The setting of `restaurant-task<task>[-oov]-v<version>` over `restaurants`. */
export function babiSetting(task: TaskId, vocab: VocabHalf, restaurants: readonly Restaurant[], version: 1 | 2 = 1): OnlineSetting {
  const id = babiEnvId(task, vocab, version);
  const store = new MemoryKbStore(restaurants);
  const calls = allApiCalls(vocab);
  const finals = task === 3 || task === 5 ? validCalls(store, vocab, DISTRIBUTIONS.minResults) : [];
  const half = task === 4 ? restaurants.filter((r) => vocabOf(r) === vocab) : [];
  const need = (xs: readonly unknown[], what: string): void => {
    if (xs.length === 0) throw new ConfigError(`${id}: the KB has no ${what} in the ${vocab} half`);
  };
  if (task === 3 || task === 5) need(finals, `api_call with ≥ ${DISTRIBUTIONS.minResults} results`);
  if (task === 4) need(half, 'restaurant');
  const sampleGoal = (rng: Rng): Goal => {
    const base = { task, updates: [] as Field[], shown: [] as Restaurant[], info: [] as InfoKind[] };
    switch (task) {
      case 1: {
        const goal = rng.pick(calls);
        return { ...base, first: goal, final: goal, request: rng.sample(FIELDS, rng.range(...DISTRIBUTIONS.requestSlots[1])) };
      }
      case 2: {
        const goal = rng.pick(calls);
        const request = rng.sample(FIELDS, rng.range(...DISTRIBUTIONS.requestSlots[2]));
        const updates = rng.sample(FIELDS, rng.range(...DISTRIBUTIONS.updates[2]));
        const final: ApiCall = { ...goal };
        for (const f of updates) final[f] = rng.pick(fieldValues(f, vocab).filter((v) => v !== goal[f]));
        return { ...base, first: goal, final, request, updates };
      }
      case 3: {
        const goal = rng.pick(finals);
        const shown = orderResults(rng, store.query(goal));
        return { ...base, first: goal, final: goal, shown, request: rng.sample(FIELDS, rng.range(...DISTRIBUTIONS.requestSlots[3])) };
      }
      case 4: {
        const r = rng.pick(half);
        const call: ApiCall = { cuisine: r.cuisine, location: r.location, number: r.number, price: r.price };
        return { ...base, first: call, final: call, request: [], restaurant: r, info: drawInfo(rng, DISTRIBUTIONS.infoWeights) };
      }
      case 5: {
        const k = rng.range(...DISTRIBUTIONS.updates[5]);
        for (;;) {
          const first = rng.pick(calls);
          const reach = finals.filter((c) => hamming(first, c).length === k);
          if (reach.length === 0) continue;
          const final = rng.pick(reach);
          const request = rng.sample(FIELDS, rng.range(...DISTRIBUTIONS.requestSlots[5]));
          return { ...base, first, final, request, updates: rng.shuffle(hamming(first, final)), info: drawInfo(rng, DISTRIBUTIONS.infoWeights) };
        }
      }
    }
  };
  return {
    id,
    version,
    task,
    dialect: BABI_KB,
    slots: FIELDS,
    language: BABI_LANGUAGE,
    store,
    restaurants,
    values: (slot) => fieldValues(slot as Field, vocab),
    sampleGoal,
    show: (rng, results) => orderResults(rng, results),
    botPhrases: [BOT.greet, BOT.onIt, ...FIELDS.map((f) => BOT.ask[f]), BOT.lookInto, BOT.anythingElseToUpdate, BOT.findOther, BOT.reserve, BOT.anythingElse, BOT.welcome],
  };
}

export { babiEnvId } from './ids.js';

/**
 * The definition of `restaurant-task<task>[-oov]-v<version>`: what the testbed's entry point
 * (testbed.ts) gives each declared id — the restaurant family with the bAbI dataset export, and the builder.
 */
export function babiEnv(a: { readonly task: TaskId; readonly vocab: VocabHalf; readonly version: 1 | 2 }): EnvDefinition<RestaurantEnvOptions> {
  return {
    family: { ...RESTAURANT_FAMILY, dataset: babiDataset(a.task) },
    build: (o) => new RestaurantEnv(babiSetting(a.task, a.vocab, o.restaurants ?? generatedKb(o.kbSeed ?? 1), a.version), o),
  };
}
