/**
 * Pins `airdialogue-v1`: the same seeds give byte-identical observations, rewards and info as on
 * the code that introduced `airdialogue-v2` (hashes computed on that code before any change). A
 * change of these hashes means v1's dynamics changed, which published v1 numbers forbid.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createRng } from '../../core/rng.js';
import { AirDialogueEnv } from './env.js';
import { agentPolicies } from './policies.js';

type Player = 'rules' | 'random';

/** sha256 of every reset and step result of `n` episodes (seeds 0…n−1) played by `player`. */
function transcriptHash(player: Player, n: number, ood: boolean): string {
  const h = createHash('sha256');
  const env = new AirDialogueEnv({ ood });
  const random = createRng(77);
  for (let seed = 0; seed < n; seed++) {
    const first = env.reset({ seed });
    h.update(JSON.stringify(first) + '\n');
    const agent = player === 'rules' ? agentPolicies.get('rules')(first.obs.context, createRng(seed).fork('agent')) : null;
    let utterance = first.obs.utterance;
    for (;;) {
      const r = env.step(agent ? agent.respond(utterance) : env.sampleAction(random));
      h.update(JSON.stringify(r) + '\n');
      if (r.terminated || r.truncated) break;
      utterance = r.obs.utterance;
    }
  }
  return h.digest('hex');
}

test('airdialogue-v1 transcripts are byte-identical to the pinned ones (rule agent and random agent, 200 episodes each)', () => {
  const got = {
    rules: transcriptHash('rules', 200, false),
    random: transcriptHash('random', 200, false),
    rulesOod: transcriptHash('rules', 100, true),
  };
  assert.deepEqual(got, {
    rules: '5d06c1758f9c574647a39a358825e136d2c66a9456158bb7c026a7a7705810e3',
    random: 'fdefd83d200502e3084d0394694e5a225d2ec3991cb844af22e911225c09dffb',
    rulesOod: '5fca7ad3af5858bdd0dd645f5502eb4bb465336c617f9102c40157699720225a',
  });
});
