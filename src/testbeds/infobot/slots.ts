/**
 * KB-InfoBot movie domain: the six inform slots (the official column order), the four KB splits of
 * the paper's Table 1, and the reward constants of the simulator.
 */
import { ConfigError } from '../../core/errors.js';

/** The inform slots, in the official order (`dialog_config.inform_slots`). */
export const SLOTS = ['actor', 'critic_rating', 'genre', 'mpaa_rating', 'director', 'release_year'] as const;
export type Slot = (typeof SLOTS)[number];
/** M, the number of slots. */
export const M = SLOTS.length;

export function slotIndex(slot: string): number {
  return (SLOTS as readonly string[]).indexOf(slot);
}

export const SPLITS = ['small', 'medium', 'large', 'xlarge'] as const;
export type SplitName = (typeof SPLITS)[number];

export interface SplitSpec {
  readonly name: SplitName;
  /** The official data folder name. */
  readonly official: string;
  /** Number of movies N. */
  readonly movies: number;
  /** Largest slot vocabulary. */
  readonly maxVocab: number;
}

/** Paper Table 1: N and the maximum slot vocabulary per split. */
export const SPLIT_SPECS: Readonly<Record<SplitName, SplitSpec>> = {
  small: { name: 'small', official: 'imdb-S', movies: 277, maxVocab: 17 },
  medium: { name: 'medium', official: 'imdb-M', movies: 428, maxVocab: 68 },
  large: { name: 'large', official: 'imdb-L', movies: 857, maxVocab: 101 },
  xlarge: { name: 'xlarge', official: 'imdb-XL', movies: 3523, maxVocab: 251 },
};

export function splitSpec(name: string): SplitSpec {
  const s = (SPLIT_SPECS as Record<string, SplitSpec | undefined>)[name];
  if (!s) throw new ConfigError(`unknown KB split '${name}' (known: ${SPLITS.join(', ')})`);
  return s;
}

/** Rewards of the simulator (official `dialog_config`). */
export const REWARDS = {
  /** Reward for the target at rank r (0-based) when r < successMaxRank: success · (1 − r / successMaxRank). */
  success: 2,
  failure: -1,
  perTurn: -0.1,
  successMaxRank: 5,
  maxTurns: 10,
} as const;

/** Fraction of values hidden in the agent's copy of the KB. */
export const DEFAULT_MISSING = 0.2;
