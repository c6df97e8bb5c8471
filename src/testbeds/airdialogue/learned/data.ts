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

/**
 * In-domain (0) or one of dialogym's two out-of-domain settings for the paper's Table 10 (1, 2;
 * see `synthesizeSplits`).
 *
 * @example
 * ```ts
 * import { synthesizeSplits, type OodSetting } from 'dialogym/airdialogue';
 * const ood: OodSetting = 2;
 * const { test } = synthesizeSplits({ train: 0, dev: 0, test: 100, ood });
 * ```
 */
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

/**
 * Options of `synthesizeSplits`: split sizes (defaults 2000 / 200 / 200), run seed, context setting.
 *
 * @example
 * ```ts
 * import type { SplitOptions } from 'dialogym/airdialogue';
 * const o: SplitOptions = { train: 1000, dev: 200, test: 200, seed: 1, ood: 0 };
 * ```
 */
export interface SplitOptions {
  train?: number;
  dev?: number;
  test?: number;
  seed?: number;
  ood?: OodSetting;
  onEpisode?: (done: number, total: number) => void;
}

/**
 * Synthesized train / dev / test splits: each split is its own stream of simulator episodes (rule
 * customer vs rule agent; split seeds derived from `seed`), every episode as an AirDialogue
 * example (data + KB line). `ood` 1 draws goals and reservations from other priors (uniform
 * goals, a reservation 70% of the time); 2 adds names and airports never seen in-domain.
 *
 * @example
 * ```ts
 * import { formatAirLines, writeFileAtomic } from 'dialogym';
 * import { synthesizeSplits } from 'dialogym/airdialogue';
 * const { train } = synthesizeSplits({ train: 500, dev: 50, test: 50, seed: 1 });
 * writeFileAtomic('out/train_data.json', formatAirLines(train.map((e) => e.data)));
 * writeFileAtomic('out/train_kb.json', formatAirLines(train.map((e) => e.kb)));
 * ```
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
