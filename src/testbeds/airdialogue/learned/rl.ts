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
import { ConfigError } from '../../../core/errors.js';
import { createRng } from '../../../core/rng.js';
import type { AirExample } from '../../../formats/airdialogue.js';
import { adam, clipGradNorm } from '../../../nn/index.js';
import { learnedSetOf, type LearnedExample, type LearnedSet, type OodSetting } from './data.js';
import { PART_DIALOGUES } from './parallel.js';
import { RlRunner, valueLayer } from './rl-parallel.js';
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
  /**
   * Threads playing each update's episodes and computing its gradients (default 1): the main one
   * and `threads − 1` workers (rl-parallel.ts: one episode a part, supervised dialogues in parts
   * of 2, each part's gradient alone, summed in part order). The results do not depend on it
   * (the same weights bit for bit); more threads than an update's episodes are not used.
   */
  threads?: number;
}

/** One RL update: the episodes played so far, their mean reward and the baseline's mean. */
export interface RlPoint {
  readonly episodes: number;
  readonly reward: number;
  readonly value: number;
}

/**
 * Trains the agent of `m` (in place) by self-play against its customer (module description).
 * Same models, options and seed → the same weights.
 */
export function rlTrain(m: AirModels, o: RlOptions): { curve: RlPoint[] } {
  const batch = o.batch ?? 8;
  const seed = o.seed ?? 0;
  const threads = o.threads ?? 1;
  for (const [name, v] of [['threads', threads], ['batch', batch], ['supervisedBatch', o.supervisedBatch ?? 8]] as const) if (!Number.isInteger(v) || v < 1) throw new ConfigError(`${name} must be a positive integer, got ${v}`);
  const rng = createRng(seed);
  const value = valueLayer(m.sizes.hidden);
  value.init(rng.fork('value'));
  const opt = adam(o.lr ?? 0.0005);
  // The supervised examples are prepared when drawn (a LearnedStore of the real data is too large to prepare all at once).
  const sup = learnedSetOf(o.supervised);
  const supBatch = Math.min(o.supervisedBatch ?? 8, sup.length);
  const order = rng.fork('supervised');
  const curve: RlPoint[] = [];
  let played = 0;
  let supPos = 0;
  let supOrder = order.shuffle(Array.from({ length: sup.length }, (_, i) => i));
  const runner = new RlRunner({ ...m, value }, { seed, ood: o.ood ?? 0, ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}) }, threads, Math.max(batch, Math.ceil(supBatch / PART_DIALOGUES)));
  try {
    while (played < o.episodes) {
      const n = Math.min(batch, o.episodes - played);
      const results = runner.episodes(played, n);
      let rSum = 0;
      let vSum = 0;
      for (const r of results) {
        rSum += r.reward;
        vSum += r.value;
      }
      clipGradNorm(runner.params, 5);
      opt.step(runner.params);
      played += n;
      curve.push({ episodes: played, reward: rSum / n, value: vSum / n });
      for (let s = 0; s < (o.supervisedPerRl ?? 3) && sup.length > 0; s++) {
        const examples: LearnedExample[] = [];
        for (let k = 0; k < supBatch; k++) {
          if (supPos >= supOrder.length) {
            supOrder = order.shuffle(supOrder);
            supPos = 0;
          }
          examples.push(sup.get(supOrder[supPos++]!));
        }
        runner.supervised(examples);
        clipGradNorm(m.agent.params, 5);
        opt.step(m.agent.params);
      }
      o.onProgress?.(played, o.episodes, `reward ${(rSum / n).toFixed(3)} baseline ${(vSum / n).toFixed(3)}`);
    }
  } finally {
    runner.close();
  }
  return { curve };
}
