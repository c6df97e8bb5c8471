/**
 * KB-InfoBot as a Gym-style environment: a hand-written policy (ask every slot once, then inform
 * the first five movies) played through `make`/`playEpisode`, against the paper's agents evaluated
 * by name — the rule-based Soft-KB agent and the shipped trained E2E-Soft agent
 * (`node dist/examples/infobot.js`).
 */
import { make, playEpisode, type EpisodeTurn } from 'dialogym';
import { evaluateAgent, SLOTS, type InfoBotAction, type InfoBotObservation } from 'dialogym/infobot';

const env = make('infobot-medium-v1');
const episodes = 200;
let total = 0;
for (let i = 0; i < episodes; i++) {
  const policy = ({ obs }: EpisodeTurn<InfoBotObservation>): InfoBotAction => {
    const slot = SLOTS[obs.turn];
    return slot !== undefined ? { act: 'request', slot } : { act: 'inform', results: [0, 1, 2, 3, 4] };
  };
  total += playEpisode(env, policy, { reset: { seed: i } }).reward;
}
console.log(`ask-all-then-guess: R ${(total / episodes).toFixed(3)}`);

for (const agent of ['rule-soft', 'e2e-soft']) {
  const r = evaluateAgent({ agent, split: 'medium', episodes });
  console.log(`${agent}: R ${r.reward.toFixed(3)} S ${r.success.toFixed(3)} T ${r.turns.toFixed(2)}`);
}
