/**
 * The policy-gradient training loop (REINFORCE, Williams 1992) shared by the trained dialog agents:
 * phases of episodes (e.g. imitation of an expert, then REINFORCE), each played in batches; per
 * batch the episodes are played first, then each one's gradients are accumulated with its
 * advantage (return minus the batch baseline, over the batch size), the gradient norm of each
 * parameter group is clipped and its optimiser steps. Validation runs periodically and at the end
 * of each phase; the best validated parameters are kept (snapshot) and restored at the end. Every
 * batch gives a learning-curve point.
 *
 * The task (the testbed) supplies what is specific: how an episode is played (by the episode loop,
 * `env/episode.ts`, as every episode in dialogym) and recorded, how its gradients are accumulated,
 * the figures of a batch and the validation score.
 */
import { clipGradNorm, restore, snapshot, zeroGrads, type Optimizer, type Param } from '../nn/params.js';
import { ConfigError } from '../core/errors.js';

/** Parameters updated by one optimiser, with their own gradient-norm clip. */
export interface ParamGroup {
  readonly params: readonly Param[];
  readonly optimizer: Optimizer;
}

export interface Phase<P extends string = string> {
  /** The name on the learning-curve points of the phase. */
  readonly name: P;
  /** Training episodes of the phase (0: skipped). */
  readonly episodes: number;
  /** Episodes per update (the last batch may be smaller). */
  readonly batch: number;
  /** Called before the first batch of the phase (e.g. learning rates, sampling mode); not for a skipped phase. */
  begin?(): void;
}

/** What the loop needs of a played episode; the task's record carries what its gradients need. */
export interface Episode {
  /** The return of the episode. */
  readonly reward: number;
}

export interface EpisodeGrad<P extends string = string> {
  /** (return − baseline) / size: the weight of −∇ log π(a) for every decision of the episode. */
  readonly advantage: number;
  /** Episodes in the batch (divide per-episode losses by it, e.g. imitation or an entropy bonus). */
  readonly size: number;
  readonly phase: Phase<P>;
}

export interface Validation {
  /** Validate every this many units (0: never; the last parameters are kept). */
  readonly every: number;
  /**
   * 'batches': after every `every`-th batch (counted across phases); 'episodes': after the batch
   * in which the count of training episodes reaches a multiple of `every`. Either way also at the
   * end of each phase.
   */
  readonly unit: 'batches' | 'episodes';
}

export interface PolicyGradientTask<E extends Episode, S extends { readonly reward: number }, P extends string = string> {
  /** Parameter groups, each clipped and stepped on its own; all of them are kept by the snapshots. */
  readonly groups: readonly ParamGroup[];
  /** Gradient-norm clip of each group. */
  readonly clip: number;
  readonly phases: readonly Phase<P>[];
  readonly validation: Validation;
  /** Episodes played before this run (continued training): the curve's episode counts start there. */
  readonly episodesBefore?: number;
  /** Plays training episode `i` (0-based over all phases of this run) with the current parameters. */
  play(i: number, phase: Phase<P>): E;
  /** Adds the episode's gradients to the parameters (after all episodes of the batch are played). */
  accumulate(e: E, g: EpisodeGrad<P>): void;
  /** The figures of a batch on its learning-curve point (`reward`: its average return). */
  summarize(batch: readonly E[], phase: Phase<P>): S;
  /** Validation score of the current parameters, higher is better. */
  validate(): number;
  /** The baseline of a batch (default: the mean return of the batch). */
  baseline?(batch: readonly E[]): number;
}

/** A learning-curve point: after each batch. */
export type LearningCurvePoint<S, P extends string = string> = { episodes: number } & S & { phase: P; validReward?: number };

export interface PolicyGradientHooks<Pt> {
  /** After each batch (and its validation, if any). */
  onBatch?(p: Pt): void;
  /** When validation improves, with the improved parameters in place (write a checkpoint here). */
  onBest?(p: Pt): void;
}

export interface PolicyGradientResult<Pt> {
  /** The points of this run, one per batch. */
  curve: Pt[];
  /** Validation score of the kept parameters (NaN without validation, −∞ if no batch ran). */
  bestValidReward: number;
  /** Episode count (from `episodesBefore`) when the kept parameters were reached. */
  bestEpisodes: number;
  /** Training episodes played in this run. */
  episodes: number;
}

/** The mean return of a batch. */
export function batchMeanReward(batch: readonly Episode[]): number {
  let s = 0;
  for (const e of batch) s += e.reward;
  return s / batch.length;
}

export function trainPolicyGradient<E extends Episode, S extends { readonly reward: number }, P extends string>(task: PolicyGradientTask<E, S, P>, hooks: PolicyGradientHooks<LearningCurvePoint<S, P>> = {}): PolicyGradientResult<LearningCurvePoint<S, P>> {
  const all = task.groups.flatMap((g) => g.params);
  const offset = task.episodesBefore ?? 0;
  const { every, unit } = task.validation;
  if (!Number.isInteger(every) || every < 0) throw new ConfigError('validation.every must be an integer ≥ 0');
  for (const ph of task.phases) if (!Number.isInteger(ph.episodes) || ph.episodes < 0 || !Number.isInteger(ph.batch) || ph.batch < 1) throw new ConfigError(`phase '${ph.name}': episodes must be an integer ≥ 0, batch a positive integer`);
  const validating = every > 0;
  const baseline = task.baseline ?? batchMeanReward;
  const curve: LearningCurvePoint<S, P>[] = [];
  let best = { reward: -Infinity, params: snapshot(all), episodes: offset };
  let played = 0;
  let batches = 0;
  for (const phase of task.phases) {
    if (phase.episodes === 0) continue;
    phase.begin?.();
    for (let done = 0; done < phase.episodes; ) {
      const size = Math.min(phase.batch, phase.episodes - done);
      const eps: E[] = [];
      for (let e = 0; e < size; e++) eps.push(task.play(played + e, phase));
      const b = baseline(eps);
      zeroGrads(all);
      for (const e of eps) task.accumulate(e, { advantage: (e.reward - b) / size, size, phase });
      for (const g of task.groups) clipGradNorm(g.params, task.clip);
      for (const g of task.groups) g.optimizer.step(g.params);
      done += size;
      played += size;
      batches++;
      const point = { episodes: offset + played, ...task.summarize(eps, phase), phase: phase.name } as LearningCurvePoint<S, P>;
      const due = unit === 'batches' ? batches % every === 0 : Math.floor(played / every) > Math.floor((played - size) / every);
      if (validating && (due || done === phase.episodes)) {
        const v = task.validate();
        point.validReward = v;
        if (v > best.reward) {
          best = { reward: v, params: snapshot(all), episodes: offset + played };
          hooks.onBest?.(point);
        }
      }
      curve.push(point);
      hooks.onBatch?.(point);
    }
  }
  if (validating) restore(all, best.params);
  return { curve, bestValidReward: validating ? best.reward : NaN, bestEpisodes: validating ? best.episodes : offset + played, episodes: played };
}

/**
 * ∂/∂logits of −advantage·log π(action) − entropy·H(π) for a softmax policy with probabilities
 * `probs`: advantage·(π − 1_action) + entropy·π⊙(log π + H).
 */
export function policyLogitGrad(probs: Float32Array, action: number, advantage: number, entropy: number): Float32Array {
  const g = new Float32Array(probs.length);
  let h = 0;
  for (let k = 0; k < probs.length; k++) if ((probs[k] as number) > 0) h -= (probs[k] as number) * Math.log(probs[k] as number);
  for (let k = 0; k < probs.length; k++) {
    const pk = probs[k] as number;
    g[k] = advantage * (pk - (k === action ? 1 : 0)) + entropy * pk * (Math.log(Math.max(pk, 1e-30)) + h);
  }
  return g;
}

/** ∂/∂logits of the cross-entropy with an expert's action, over the batch size: (π − 1_expert) / size. */
export function imitationLogitGrad(probs: Float32Array, expert: number, size: number): Float32Array {
  return Float32Array.from(probs, (p, k) => (p - (k === expert ? 1 : 0)) / size);
}
