/**
 * AirDialogue with the library: self-play of the rule-based agent against the templated customer
 * (in-domain and out-of-domain contexts), scored like the paper (scaled and exact name / flight /
 * action scores), and one episode through the Gym-style environment (`node dist/examples/airdialogue.js`).
 */
import { make, playEpisode, createRng } from 'dialogym';
import { selfPlay } from 'dialogym/airdialogue';

for (const ood of [false, true]) {
  const r = selfPlay({ agent: 'rules', customer: 'rules', n: 200, seed: 1, ood });
  console.log(`${ood ? 'out-of-domain' : 'in-domain'}: total ${r.total.toFixed(3)} (name ${r.name.toFixed(2)}, flight ${r.flight.toFixed(2)}, action ${r.action.toFixed(2)}), exact ${r.exact.total.toFixed(3)}, ${r.dialogs} dialogs`);
}

const env = make('airdialogue-v1');
const rng = createRng(1);
const episode = playEpisode(env, () => env.sampleAction(rng), { reset: { seed: 1 } });
console.log(`random agent: reward ${episode.reward.toFixed(3)} after ${episode.turns} moves`);
