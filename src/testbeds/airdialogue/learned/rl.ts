/**
 * Self-play reinforcement learning of the learned agent (Wei et al. 2018, §6.2): the agent plays
 * the (fixed) learned customer on generated contexts, drawing its words and its final state from
 * its own distributions; the terminal reward is the scaled score of its action; REINFORCE with a
 * value network as the baseline (a linear value of the agent's context encoding, trained by
 * squared error; the original builds value networks over the encoder states,
 * `_build_value_network`, build_graph.py ≈l.400) updates the agent model and its state model, and
 * every RL update is followed by `supervisedPerRl` supervised updates on the training dialogues
 * (the paper's 3:1 mix, which keeps the language close to the data).
 *
 * The policy-gradient step minimises (R − V)·NLL(sampled dialogue turns and action) — the loss
 * of the supervised trainer with the sampled episode as its target and the advantage as its
 * weight — so the same hand-written gradients serve both.
 */
import { createRng } from '../../../core/rng.js';
import type { AirExample } from '../../../formats/airdialogue.js';
import { Linear, adam, clipGradNorm, zeroGrads } from '../../../nn/index.js';
import { AirDialogueEnv, episodeSeed, selfPlayEpisode, type Episode } from '../env.js';
import { learnedSetOf, oodContext, toLearned, type LearnedSet, type OodSetting } from './data.js';
import { countOwn, prepare, type Prepared } from './model.js';
import { learnedAgent, learnedCustomer, type LearnedAgentSession } from './policy.js';
import type { AirModels } from './train.js';

/** Options of `rlTrain`. */
export interface RlOptions {
  /** Self-play episodes in all. */
  episodes: number;
  /** Episodes per REINFORCE update (default 8). */
  batch?: number;
  /** Adam learning rate (default 0.0005). */
  lr?: number;
  /** Supervised updates after each RL update (default 3) and their examples. */
  supervisedPerRl?: number;
  supervised: readonly AirExample[] | LearnedSet;
  /** Dialogues per supervised update (default 8). */
  supervisedBatch?: number;
  seed?: number;
  ood?: OodSetting;
  /** Utterances before an episode is truncated (default 40). */
  maxTurns?: number;
  onProgress?: (done: number, total: number, note: string) => void;
}

/** One RL update: the episodes played so far, their mean reward and the baseline's mean. */
export interface RlPoint {
  readonly episodes: number;
  readonly reward: number;
  readonly value: number;
}

function episodeExample(e: Episode): AirExample {
  const dialogue = e.dialogue.map((t) => `${t.speaker === 'user' ? 'customer' : 'agent'}: ${t.text}`);
  const none = { status: '', name: '', flight: [] as number[] };
  return {
    line: 0,
    data: { intent: e.context.intent, action: e.action ?? none, expected_action: e.context.expected, dialogue, timestamps: [], correct_sample: false },
    kb: e.context.kb,
  };
}

const sameInts = (a: Int32Array, b: Int32Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether two prepared examples have the same agent context (the flights and the reservation flag: what the agent's encoding reads). */
function sameContext(a: Prepared, b: Prepared): boolean {
  return a.resId === b.resId && a.resField === b.resField && sameInts(a.flightIds, b.flightIds) && sameInts(a.flightFields, b.flightFields);
}

/**
 * Trains the agent of `m` (in place) by self-play against its customer (module description).
 * Same models, options and seed → the same weights.
 */
export function rlTrain(m: AirModels, o: RlOptions): { curve: RlPoint[] } {
  const batch = o.batch ?? 8;
  const seed = o.seed ?? 0;
  const rng = createRng(seed);
  const value = new Linear(m.sizes.hidden, 1, 'agent.value');
  value.init(rng.fork('value'));
  const params = [...m.agent.params, ...value.params];
  const opt = adam(o.lr ?? 0.0005);
  // decoding kernels made once: the customer's weights never change; the agent's are reloaded after each update
  const env = new AirDialogueEnv({ customer: learnedCustomer(m, { kernels: m.customer.decodeKernels() }), context: oodContext(o.ood ?? 0), ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}) });
  const agentKernels = m.agent.decodeKernels();
  const play = learnedAgent(m, { sample: true, kernels: agentKernels });
  // the loss reads the encoding the episode's session made (same weights, same context)
  let session: LearnedAgentSession | null = null;
  const agent = (context: Parameters<typeof play>[0], r: Parameters<typeof play>[1]): LearnedAgentSession => (session = play(context, r));
  // The supervised examples are prepared when drawn (a LearnedStore of the real data is too large to prepare all at once).
  const sup = learnedSetOf(o.supervised);
  const order = rng.fork('supervised');
  const curve: RlPoint[] = [];
  let played = 0;
  let supPos = 0;
  let supOrder = order.shuffle(Array.from({ length: sup.length }, (_, i) => i));
  while (played < o.episodes) {
    const n = Math.min(batch, o.episodes - played);
    if (played > 0) m.agent.decodeKernels(agentKernels);
    zeroGrads(params);
    let rSum = 0;
    let vSum = 0;
    for (let k = 0; k < n; k++) {
      session = null;
      const e = selfPlayEpisode(env, agent, episodeSeed(seed, played + k));
      const p = prepare(toLearned(episodeExample(e)), m.vocab);
      const s = session as LearnedAgentSession | null;
      const enc = s && sameContext(s.context, p) ? s.encoding : m.agent.encode(p);
      const h0 = enc.h0;
      const v = value.forward(h0)[0]!;
      const r = e.score.total;
      const adv = r - v;
      m.agent.loss(p, true, adv / n / Math.max(1, countOwn(p, 1)), e.action ? adv / n : 0, enc);
      value.backward(h0, new Float32Array([(2 * (v - r)) / n]));
      rSum += r;
      vSum += v;
    }
    clipGradNorm(params, 5);
    opt.step(params);
    played += n;
    curve.push({ episodes: played, reward: rSum / n, value: vSum / n });
    for (let s = 0; s < (o.supervisedPerRl ?? 3) && sup.length > 0; s++) {
      zeroGrads(m.agent.params);
      const b = Math.min(o.supervisedBatch ?? 8, sup.length);
      for (let k = 0; k < b; k++) {
        if (supPos >= supOrder.length) {
          supOrder = order.shuffle(supOrder);
          supPos = 0;
        }
        const p = prepare(sup.get(supOrder[supPos++]!), m.vocab);
        m.agent.loss(p, true, 1 / b / Math.max(1, countOwn(p, 1)), 1 / b);
      }
      clipGradNorm(m.agent.params, 5);
      opt.step(m.agent.params);
    }
    o.onProgress?.(played, o.episodes, `reward ${(rSum / n).toFixed(3)} baseline ${(vSum / n).toFixed(3)}`);
  }
  return { curve };
}
