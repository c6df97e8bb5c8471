/**
 * Data of the learned AirDialogue agents: "synthesized" splits played by dialogym's templated
 * simulator (rule customer vs rule agent, contexts from the context generator; the paper's
 * synthesized data set, §5) in-domain and in the two out-of-domain settings, and the conversion of
 * any AirDialogue example (generated or the real data) into token streams and context tokens.
 */
import { createRng } from '../../../core/rng.js';
import type { Action, AirExample } from '../../../formats/airdialogue.js';
import { agentPolicies } from '../policies.js';
import { AirDialogueEnv, episodeSeed, episodeToLines, playEpisode } from '../env.js';
import { OOD_PRIORS } from '../facts.js';
import type { ContextOptions } from '../context.js';
import { dialogueTokens, flightTokens, intentTokens, reservationToken, type ContextToken, type DialogueTokens } from './tokens.js';

/** In-domain (0) or one of the out-of-domain settings of the paper's Table 10 (1, 2). */
export type OodSetting = 0 | 1 | 2;

/**
 * The context-generator options of an OOD setting. dialogym's two settings: 1 = the customers'
 * goals and reservations drawn from other priors (uniform goals, a reservation 70% of the time),
 * same names and airports; 2 = those priors plus names and airports never seen in training.
 */
export function oodContext(ood: OodSetting): ContextOptions {
  if (ood === 1) return { priors: OOD_PRIORS };
  if (ood === 2) return { ood: true };
  return {};
}

/** Sizes of the synthesized splits and the run seed. */
export interface SplitOptions {
  train?: number;
  dev?: number;
  test?: number;
  seed?: number;
  ood?: OodSetting;
  onEpisode?: (done: number, total: number) => void;
}

/**
 * Synthesized train / dev / test splits: each split is its own stream of simulator episodes
 * (split seeds derived from `seed`), every episode as an AirDialogue example (data + KB line).
 */
export function synthesizeSplits(o: SplitOptions = {}): { train: AirExample[]; dev: AirExample[]; test: AirExample[] } {
  const sizes = { train: o.train ?? 2000, dev: o.dev ?? 200, test: o.test ?? 200 };
  const total = sizes.train + sizes.dev + sizes.test;
  let done = 0;
  const split = (name: 'train' | 'dev' | 'test'): AirExample[] => {
    const runSeed = createRng(o.seed ?? 0).fork(`split:${name}`).int(0x7fffffff);
    return synthesize(sizes[name], runSeed, o.ood ?? 0, () => o.onEpisode?.(++done, total));
  };
  return { train: split('train'), dev: split('dev'), test: split('test') };
}

/** `n` simulator episodes of run `seed` as AirDialogue examples (line numbers from 1). */
export function synthesize(n: number, seed: number, ood: OodSetting = 0, onEpisode?: () => void): AirExample[] {
  const env = new AirDialogueEnv({ context: oodContext(ood) });
  const rules = agentPolicies.get('rules');
  const out: AirExample[] = [];
  for (let i = 0; i < n; i++) {
    const e = playEpisode(env, rules, episodeSeed(seed, i));
    const { data, kb } = episodeToLines(e, createRng(seed).fork(`timestamps:${i}`));
    out.push({ line: i + 1, data, kb });
    onEpisode?.();
  }
  return out;
}

/** An example as the learned models read it. */
export interface LearnedExample {
  /** Line of the example in its data file (1-based). */
  readonly line: number;
  /** The dialogue token stream. */
  readonly dialogue: DialogueTokens;
  /** Customer context: the 15 intent tokens. */
  readonly intent: readonly ContextToken[];
  /** Agent context: 13 tokens per flight. */
  readonly flights: readonly (readonly ContextToken[])[];
  /** Agent context: the reservation flag. */
  readonly reservation: ContextToken;
  /** Flight numbers of the KB, in order. */
  readonly flightNumbers: readonly number[];
  /** The final state written in the dialogue (the data line's `action`): the state model's target. */
  readonly action: Action;
  /** The source example. */
  readonly source: AirExample;
}

/** Converts an AirDialogue example into token streams and context tokens. */
export function toLearned(ex: AirExample): LearnedExample {
  return {
    line: ex.line,
    dialogue: dialogueTokens(ex.data.dialogue ?? []),
    intent: intentTokens(ex.data.intent),
    flights: ex.kb.kb.map(flightTokens),
    reservation: reservationToken(ex.kb),
    flightNumbers: ex.kb.kb.map((f) => f.flight_number),
    action: ex.data.action,
    source: ex,
  };
}
