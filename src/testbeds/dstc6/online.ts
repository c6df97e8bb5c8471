/**
 * DSTC6 Track 1 online environments `dstc6-task{1..5}-tst{1,2,3,4}-v1`: the restaurant online
 * environment (`restaurant/online/env.ts`) on an extended KB, with the api_call slots and KB of the
 * test set (tst1: KB 1; tst2: KB 2; tst3/tst4: the same with the restrictions slot), goals drawn
 * from the test half as `sim-dialog.ts` draws them, and the user speaking with the DSTC6 patterns
 * (hesitations before answers and updates, out-of-scope questions before rejections, asking a
 * friend before phone/address questions: the agent's next turn, whatever it is, gets the real
 * answer). A call's results are shown as in the datasets: at most 4, in random order. The `-v2`
 * ids (`dstc6-task5-tst4-v2`) have the user that reads meaning (`restaurant/online/env.ts`).
 */
import { createRng, type Rng } from '../../core/rng.js';
import { memoLast } from '../../core/memo.js';
import { ConfigError } from '../../core/errors.js';
import type { EnvDefinition } from '../../env/env.js';
import type { ApiCall, Restaurant } from '../restaurant/kb.js';
import { DSTC6_KB } from '../restaurant/kb-dialects.js';
import { RESTAURANT_FAMILY, RestaurantEnv, type OnlineSetting, type RestaurantEnvOptions } from '../restaurant/online/env.js';
import { drawInfo } from '../restaurant/patterns.js';
import type { Goal, InfoKind } from '../restaurant/online/goal.js';
import type { UserLanguage } from '../restaurant/online/user.js';
import { generateExtendedKbs, slotValues, type ExtSlot, type KbId } from './extended-kb.js';
import { ANSWERS, BOT6, DSTC6_DIST, FRIEND_PREFIXES, NO_MORE_UPDATES, OUT_OF_SCOPE, REJECTS, fillPattern } from './patterns-dstc6.js';
import { SET_SPECS, dstc6EnvId, type TestSet } from './sets.js';
import { dstc6Dataset } from './export.js';
import { DSTC6_USER, goalPools, makeSimContext, randomCall, shownResults, SILENCE6, updatedCall, type Dstc6Task } from './sim-dialog.js';

const withDistractor = (distractor: string | undefined, text: string): { distractor?: string; text: string } => (distractor === undefined ? { text } : { distractor, text });

/** The DSTC6 user's wording over KB `kb` (sim-dialog.ts's user; her answer draws the other value first). */
function dstc6Language(kb: KbId): UserLanguage {
  return {
    silence: SILENCE6,
    greeting: DSTC6_USER.greeting,
    request: (rng, goal, slots) => DSTC6_USER.request(rng, goal, slots),
    bookAt: DSTC6_USER.bookAt,
    answer: (rng, slot, value) => {
      const d = DSTC6_USER.hesitation(rng, kb, slot);
      const other = rng.pick(slotValues(slot, kb).filter((v) => v !== value));
      return withDistractor(d, fillPattern(rng.pick(ANSWERS[slot]), { X: value, Y: other, F: rng.pick(FRIEND_PREFIXES) }));
    },
    update: (rng, slot, value, index) => withDistractor(index > 0 ? DSTC6_USER.hesitation(rng, kb, slot) : undefined, DSTC6_USER.update(rng, slot, value)),
    noMoreUpdates: () => NO_MORE_UPDATES,
    accept: DSTC6_USER.accept,
    reject: (rng) => withDistractor(rng.chance(DSTC6_DIST.outOfScope) ? rng.pick(OUT_OF_SCOPE) : undefined, rng.pick(REJECTS)),
    askInfo: DSTC6_USER.askInfo,
    thanks: DSTC6_USER.thanks,
    noThanks: DSTC6_USER.noThanks,
  };
}

export { dstc6EnvId } from './sets.js';

function dstc6Setting(task: Dstc6Task, set: TestSet, restaurants: readonly Restaurant[], version: 1 | 2): OnlineSetting {
  const id = dstc6EnvId(task, set, version);
  const spec = SET_SPECS[set];
  const ctx = makeSimContext(restaurants, spec.kb, spec.restrictions, 1);
  const pools = goalPools(ctx);
  if (task === 3 && pools.task3Calls.length === 0) throw new ConfigError(`${id}: the KB has no api_call with ≥ ${DSTC6_DIST.minResults[3]} results in the test half`);
  if (task === 4 && pools.task4Restaurants.length === 0) throw new ConfigError(`${id}: the KB has no restaurant in the test half`);
  const all = ctx.slots;
  const sampleGoal = (rng: Rng): Goal => {
    const base = { task, updates: [] as ExtSlot[], shown: [] as Restaurant[], info: [] as InfoKind[] };
    switch (task) {
      case 1: {
        const goal = randomCall(rng, ctx);
        return { ...base, first: goal, final: goal, request: rng.sample(all, rng.range(...DSTC6_DIST.requestSlots[1])) };
      }
      case 2: {
        const goal = randomCall(rng, ctx);
        const { fields, next } = updatedCall(rng, ctx, goal, rng.range(1, all.length));
        return { ...base, first: goal, final: next, request: all, updates: fields };
      }
      case 3: {
        const goal = rng.pick(pools.task3Calls);
        return { ...base, first: goal, final: goal, request: all, shown: shownResults(rng, ctx.store.query(goal)) };
      }
      case 4: {
        const r = rng.pick(pools.task4Restaurants);
        const call: ApiCall = { cuisine: r.cuisine, location: r.location, number: r.number, price: r.price };
        return { ...base, first: call, final: call, request: [], restaurant: r, info: drawInfo(rng, DSTC6_DIST.infoWeights) };
      }
      case 5: {
        const first = randomCall(rng, ctx);
        const k = rng.range(1, all.length);
        let upd = updatedCall(rng, ctx, first, k);
        for (let attempt = 0; ctx.store.query(upd.next).length < DSTC6_DIST.minResults[5]; attempt++) {
          if (attempt > 10_000) throw new ConfigError(`${id}: no updated api_call with results (is the KB empty?)`);
          upd = updatedCall(rng, ctx, first, k);
        }
        const request = rng.sample(all, rng.range(...DSTC6_DIST.requestSlots[5]));
        return { ...base, first, final: upd.next, request, updates: upd.fields, info: drawInfo(rng, DSTC6_DIST.infoWeights) };
      }
    }
  };
  return {
    id,
    version,
    task,
    dialect: DSTC6_KB,
    slots: all,
    language: dstc6Language(spec.kb),
    store: ctx.store,
    restaurants,
    values: (slot) => slotValues(slot, spec.kb),
    sampleGoal,
    show: shownResults,
    botPhrases: [BOT6.greet, BOT6.onIt, ...all.map((s) => BOT6.ask[s]), BOT6.lookInto, BOT6.updated, BOT6.wait, BOT6.another, BOT6.sorry, BOT6.reserve, BOT6.anythingElse, BOT6.welcome],
  };
}

/** The extended KBs `generate dstc6 --seed <seed>` writes (a pure function of the seed: the last few are cached, whatever seeds an env server's clients ask for). */
const generatedKbs = memoLast(4, (seed: number): Record<KbId, Restaurant[]> => generateExtendedKbs(createRng(seed).fork('kb')));

/**
 * The definition of `dstc6-task<task>-<set>-v<version>`: what the testbed's entry point (testbed.ts)
 * gives each declared id — the restaurant family with the DSTC6 dataset export, and the builder.
 */
export function dstc6Env(a: { readonly task: Dstc6Task; readonly set: TestSet; readonly version: 1 | 2 }): EnvDefinition<RestaurantEnvOptions> {
  const spec = SET_SPECS[a.set];
  return {
    family: { ...RESTAURANT_FAMILY, dataset: dstc6Dataset(a.task, a.set, () => makeSimContext(generatedKbs(1)[spec.kb], spec.kb, spec.restrictions, 1)) },
    build: (o) => new RestaurantEnv(dstc6Setting(a.task, a.set, o.restaurants ?? generatedKbs(o.kbSeed ?? 1)[spec.kb], a.version), o),
  };
}
