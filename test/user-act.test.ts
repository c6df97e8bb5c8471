/** -v2 info.userAct across the restaurant and DSTC6 envs (a cross-testbed test: it lives in test/). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import '../src/index.js'; // every testbed, loaded
import { make } from '../src/env/env.js';
import { createRulesBot } from '../src/testbeds/restaurant/rules/rules.js';
import type { UserAct } from '../src/testbeds/restaurant/online/user-act.js';

/** Plays `n` episodes of `id` with the rule bot, returning each user turn's utterance and act. */
function turns(id: string, n: number, options: object = {}): Array<{ said: string; act: UserAct; bot: string }> {
  const env = make(id, options);
  const out: Array<{ said: string; act: UserAct; bot: string }> = [];
  const dstc6 = id.startsWith('dstc6');
  for (let seed = 0; seed < n; seed++) {
    const bot = createRulesBot({ dialect: dstc6 ? 'dstc6' : 'babi', restrictions: /tst[34]/.test(id) });
    let r = env.reset({ seed });
    out.push({ said: r.obs.utterance, act: r.info['userAct'] as UserAct, bot: '' });
    let obs = r.obs;
    for (;;) {
      const said = bot.respond(obs.history);
      const s = env.step(said);
      if (s.terminated || s.truncated) break;
      out.push({ said: s.obs.utterance, act: s.info['userAct'] as UserAct, bot: said });
      obs = s.obs;
    }
  }
  return out;
}

test('-v2 userAct: every user turn has the act behind its words (values said, silences silent, hesitations before the answer)', () => {
  for (const id of ['restaurant-task5-v2', 'restaurant-task4-v2', 'dstc6-task5-tst4-v2', 'dstc6-task5-tst1-v2']) {
    const all = turns(id, 30);
    const kinds = new Set(all.map((t) => t.act.act));
    for (const k of id.includes('task4') ? ['greet', 'book at', 'ask info'] : ['greet', 'answer', 'silence', 'update', 'accept', 'thanks']) assert.ok(kinds.has(k as UserAct['act']), `${id}: ${k} never seen`);
    for (const [i, t] of all.entries()) {
      const a = t.act;
      if (a.act === 'answer' || a.act === 'update') assert.ok(t.said.includes(a.value), `${id}: ${a.act} ${a.value} in "${t.said}"`);
      if (a.act === 'silence') assert.match(t.said, /^<silence>$/i);
      if (a.act === 'book at') assert.ok(t.said.includes(a.name), t.said);
      // (after a DSTC6 hesitation the kind was named in the hesitation: "… asking my friend if we need the address")
      if (a.act === 'ask info') assert.ok(`${all[i - 1]?.act.act === 'hesitate' ? all[i - 1]?.said : ''} ${t.said}`.includes(a.kind === 'phone' ? 'phone' : 'address'), t.said);
      if (a.act === 'accept' || a.act === 'reject') assert.match(t.bot, /^what do you think of this option|^i am sorry/, `${a.act} after "${t.bot}"`);
      if (a.act === 'hesitate') assert.ok(all[i + 1] !== undefined && all[i + 1]?.act.act !== 'hesitate', `${id}: a hesitation is followed by the answer`);
    }
    if (id.startsWith('dstc6')) assert.ok(kinds.has('hesitate'), `${id}: DSTC6 users hesitate`);
  }
});

test('-v1 environments tell no userAct (their info is as it was)', () => {
  const r = make('restaurant-task5-v1').reset({ seed: 1 });
  assert.equal(r.info['userAct'], undefined);
});
