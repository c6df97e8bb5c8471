import { test } from 'node:test';
import assert from 'node:assert/strict';
import '../../index.js'; // every testbed, loaded
import { createRng } from '../../core/rng.js';
import { ConfigError } from '../../core/errors.js';
import { envs } from '../../env/env.js';
import type { AirContext } from './context.js';
import { AirDialogueEnv, AirDialogueV2Env, AIR_ENV_V2_ID, AIR_FAILURES } from './env.js';
import { CUSTOMER_NOT_UNDERSTOOD } from './language.js';
import { violations } from './logic.js';
import { agentPolicies } from './policies.js';
import { OwnWordsAgent } from './testing/own-words.js';

/** Plays one episode with the rule agent; the conversation, the reward and the last info. */
function playRules(env: AirDialogueEnv, seed: number) {
  const first = env.reset({ seed });
  const agent = agentPolicies.get('rules')(first.obs.context, createRng(seed).fork('agent'));
  let utterance = first.obs.utterance;
  for (;;) {
    const r = env.step(agent.respond(utterance));
    if (r.terminated || r.truncated) return { history: JSON.stringify(r.obs.history), reward: r.reward, info: r.info };
    utterance = r.obs.utterance;
  }
}

test('airdialogue-v2 is registered; reset gives the goal and the turn limit, each step how the customer read the turn', () => {
  assert.ok(envs.has(AIR_ENV_V2_ID));
  const env = envs.get(AIR_ENV_V2_ID)() as AirDialogueV2Env;
  assert.equal(env.id, 'airdialogue-v2');
  const { obs, info } = env.reset({ seed: 5 });
  assert.deepEqual(Object.keys(obs).sort(), ['context', 'history', 'utterance']);
  assert.deepEqual(info['goal'], env.episodeContext.intent);
  assert.equal(info['maxTurns'], 40);
  const r1 = env.step('Ok so... WHAT IS YOUR NAME?!');
  assert.deepEqual(r1.info, { turn: 1, read: 'ask(name)', notUnderstood: 0 });
  assert.match(r1.obs.utterance, new RegExp(env.episodeContext.intent.name));
  const r2 = env.step('Purple monkeys?');
  assert.deepEqual(r2.info, { turn: 2, read: 'not understood', notUnderstood: 1 });
  assert.ok(CUSTOMER_NOT_UNDERSTOOD.includes(r2.obs.utterance), r2.obs.utterance);
  const r3 = env.step({ tool: 'cancel', arguments: { name: 'x' } });
  assert.equal(r3.info['read'], 'act(cancel)');
  assert.equal(r3.info['notUnderstood'], 1);
  assert.throws(() => new AirDialogueV2Env().step('hello'), /reset\(\)/);
  assert.throws(() => envs.get(AIR_ENV_V2_ID)({ userStyle: 'varied' }), (e: unknown) => e instanceof ConfigError && /userStyle/.test(e.message));
});

test('the rule agent and random template moves (the simulator\'s wording) have the same conversations and rewards on v2 as on v1', () => {
  const randomV1 = new AirDialogueEnv();
  const randomV2 = new AirDialogueV2Env();
  const [ra, rb] = [createRng(5), createRng(5)];
  for (let seed = 0; seed < 150; seed++) {
    randomV1.reset({ seed });
    randomV2.reset({ seed });
    let x;
    let y;
    do {
      x = randomV1.step(randomV1.sampleAction(ra));
      y = randomV2.step(randomV2.sampleAction(rb));
    } while (!x.terminated && !x.truncated);
    assert.deepEqual([y.obs, y.reward, y.truncated], [x.obs, x.reward, x.truncated], `seed ${seed}`);
  }
  for (const ood of [false, true]) {
    const v1 = new AirDialogueEnv({ ood });
    const v2 = new AirDialogueV2Env({ ood });
    for (let seed = 0; seed < 150; seed++) {
      const a = playRules(v1, seed);
      const b = playRules(v2, seed);
      assert.equal(b.history, a.history, `seed ${seed}`);
      assert.equal(b.reward, a.reward);
      assert.equal(b.info['success'], a.reward >= 1);
    }
  }
});

test('an agent asking every question in its own words succeeds on airdialogue-v2 (>= 0.99) and is always understood', () => {
  const run = (env: AirDialogueEnv, n: number) => {
    let success = 0;
    let notUnderstood = 0;
    const reads = new Set<string>();
    for (let seed = 0; seed < n; seed++) {
      let { obs } = env.reset({ seed });
      const agent = new OwnWordsAgent(obs.context, createRng(seed).fork('own-words'));
      for (;;) {
        const r = env.step(agent.act(obs.utterance));
        if (typeof r.info['read'] === 'string') reads.add((r.info['read'] as string).replace(/\(\d+\)/, ''));
        if (r.terminated || r.truncated) {
          if (r.reward >= 1) success++;
          notUnderstood += (r.info['notUnderstood'] as number | undefined) ?? 0;
          break;
        }
        obs = r.obs;
      }
    }
    return { success: success / n, notUnderstood, reads };
  };
  const v2 = run(new AirDialogueV2Env(), 100);
  assert.ok(v2.success >= 0.99, `success ${v2.success}`);
  assert.equal(v2.notUnderstood, 0);
  for (const act of ['goal', 'name', 'open', 'route', 'origin', 'destination', 'dates', 'departure date', 'return date', 'departure time', 'return time', 'budget', 'connections', 'class', 'airline', 'requirements'])
    assert.ok(v2.reads.has(`ask(${act})`), `never asked ${act}`);
  assert.ok(v2.reads.has('wait') && v2.reads.has('propose'));
  assert.ok(run(new AirDialogueV2Env({ ood: true }), 50).success >= 0.99);
  // the v1 customer does not understand it
  assert.ok(run(new AirDialogueEnv(), 100).success < 0.9);
});

/** The first seed whose expected action is a booking with a flight that breaks some requirement in the table. */
function bookingEpisode(env: AirDialogueV2Env): { seed: number; ctx: AirContext; wrongFlight: number } {
  for (let seed = 0; ; seed++) {
    env.reset({ seed });
    const ctx = env.episodeContext;
    const bad = ctx.kb.kb.find((f) => violations(ctx.intent, f).length > 0);
    if (ctx.expected.status === 'book' && bad) return { seed, ctx, wrongFlight: bad.flight_number };
  }
}

test('failures carry their reason by precedence, a detail saying why, and the turn where it went wrong', () => {
  const env = new AirDialogueV2Env({ maxTurns: 10 });
  const { seed, ctx, wrongFlight } = bookingEpisode(env);
  const want = ctx.expected;
  const end = (tool: string, args: Record<string, unknown>) => {
    env.reset({ seed });
    env.step('What is your name?');
    return env.step({ tool, arguments: args }).info;
  };
  const right = end('book', { name: want.name, flight: want.flight[0] });
  assert.deepEqual([right['success'], right['failure'], right['detail'], right['failureTurn']], [true, null, undefined, undefined]);
  const status = end('cancel', { name: 'Nobody Atall' });
  assert.equal(status['failure'], 'wrong status');
  assert.deepEqual((status['detail'] as { wrong: string[] }).wrong, ['status', 'flight', 'name']);
  assert.match((status['detail'] as { why: string }).why, /^status 'cancel' but 'book' was expected: the customer wants to book; no flight given/);
  assert.equal(status['failureTurn'], 1); // 0-based: the second agent turn
  const flight = end('book', { name: want.name, flight: wrongFlight });
  assert.equal(flight['failure'], 'wrong flight');
  assert.match((flight['detail'] as { why: string }).why, new RegExp(`^flight ${wrongFlight} breaks the customer's `));
  const name = end('book', { name: 'Nobody Atall', flight: want.flight[0] });
  assert.equal(name['failure'], 'wrong name');
  assert.match((name['detail'] as { why: string }).why, /^name 'Nobody Atall' is not /);
  // out of turns: the first turn the customer did not understand is where it went wrong
  env.reset({ seed });
  let r = env.step('What is your name?');
  for (let i = 0; !r.truncated; i++) r = env.step(i === 1 ? 'Purple monkeys?' : 'What are your travel dates?');
  assert.deepEqual([r.info['failure'], r.info['failureTurn'], r.info['success'], r.reward], ['max turns', 2, false, 0]);
  assert.deepEqual(r.info['detail'], { why: 'no action within 10 utterances', notUnderstood: 1 });
  // the reasons are the documented ones, in their order of precedence
  assert.deepEqual(AIR_FAILURES.map((f) => f.reason), [status['failure'], flight['failure'], name['failure'], r.info['failure']]);
});

test('variant: the same task (goal and flights) with other draws of the customer\'s wording', () => {
  const env = new AirDialogueV2Env();
  let differ = 0;
  for (let seed = 0; seed < 20; seed++) {
    const a = env.reset({ seed });
    const ra = env.step('What are your travel dates? And your budget?').obs.utterance;
    const b = env.reset({ seed, variant: 1 });
    const rb = env.step('What are your travel dates? And your budget?').obs.utterance;
    assert.deepEqual(b.info['goal'], a.info['goal']);
    assert.deepEqual(b.obs.context, a.obs.context);
    if (ra !== rb || a.obs.utterance !== b.obs.utterance) differ++;
    const again = env.reset({ seed, variant: 1 });
    assert.equal(again.obs.utterance, b.obs.utterance);
  }
  assert.ok(differ >= 10, `${differ} of 20 differ`);
});
