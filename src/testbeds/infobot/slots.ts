/**
 * KB-InfoBot movie domain: the six inform slots (the official column order), the four KB splits of
 * the paper's Table 1, and the reward constants of the simulator.
 */
import { ConfigError } from '../../core/errors.js';

/** The inform slots, in the official order (`dialog_config.inform_slots`).
 *
 * @example
 * ```ts
 * import { SLOTS } from 'dialogym/infobot';
 * SLOTS[0]; // 'actor'
 * ```
 */
export const SLOTS = ['actor', 'critic_rating', 'genre', 'mpaa_rating', 'director', 'release_year'] as const;
/**
 * One inform slot of the movie domain.
 *
 * @example
 * ```ts
 * import { slotIndex, type Slot } from 'dialogym/infobot';
 * const s: Slot = 'director';
 * slotIndex(s); // 4
 * ```
 */
export type Slot = (typeof SLOTS)[number];
/** M, the number of slots.
 *
 * @example
 * ```ts
 * import { M } from 'dialogym/infobot';
 * M; // 6
 * ```
 */
export const M = SLOTS.length;

/**
 * The index of a slot in `SLOTS` (the KB column), or −1 for an unknown name.
 *
 * @example
 * ```ts
 * import { slotIndex } from 'dialogym/infobot';
 * slotIndex('genre');  // 2
 * slotIndex('budget'); // -1
 * ```
 */
export function slotIndex(slot: string): number {
  return (SLOTS as readonly string[]).indexOf(slot);
}

/**
 * The four KB splits of the paper's Table 1, smallest first.
 *
 * @example
 * ```ts
 * import { SPLITS } from 'dialogym/infobot';
 * SPLITS.map((s) => `infobot-${s}-v1`); // the environment ids
 * ```
 */
export const SPLITS = ['small', 'medium', 'large', 'xlarge'] as const;
/**
 * The name of a KB split: small, medium, large or xlarge.
 *
 * @example
 * ```ts
 * import { splitSpec, type SplitName } from 'dialogym/infobot';
 * const split: SplitName = 'large';
 * splitSpec(split).movies; // 857
 * ```
 */
export type SplitName = (typeof SPLITS)[number];

/**
 * The size of a KB split (paper Table 1) and its official folder name.
 *
 * @example
 * ```ts
 * import { SPLIT_SPECS, type SplitSpec } from 'dialogym/infobot';
 * const s: SplitSpec = SPLIT_SPECS.medium; // { name: 'medium', official: 'imdb-M', movies: 428, maxVocab: 68 }
 * ```
 */
export interface SplitSpec {
  readonly name: SplitName;
  /** The official data folder name. */
  readonly official: string;
  /** Number of movies N. */
  readonly movies: number;
  /** Largest slot vocabulary. */
  readonly maxVocab: number;
}

/** Paper Table 1: N and the maximum slot vocabulary per split.
 *
 * @example
 * ```ts
 * import { SPLIT_SPECS } from 'dialogym/infobot';
 * SPLIT_SPECS.xlarge.movies; // 3523
 * ```
 */
export const SPLIT_SPECS: Readonly<Record<SplitName, SplitSpec>> = {
  small: { name: 'small', official: 'imdb-S', movies: 277, maxVocab: 17 },
  medium: { name: 'medium', official: 'imdb-M', movies: 428, maxVocab: 68 },
  large: { name: 'large', official: 'imdb-L', movies: 857, maxVocab: 101 },
  xlarge: { name: 'xlarge', official: 'imdb-XL', movies: 3523, maxVocab: 251 },
};

/**
 * The spec of a split by name; a ConfigError for an unknown name.
 *
 * @example
 * ```ts
 * import { splitSpec } from 'dialogym/infobot';
 * splitSpec('small').official; // 'imdb-S'
 * ```
 */
export function splitSpec(name: string): SplitSpec {
  const s = (SPLIT_SPECS as Record<string, SplitSpec | undefined>)[name];
  if (!s) throw new ConfigError(`unknown KB split '${name}' (known: ${SPLITS.join(', ')})`);
  return s;
}

/** Rewards of the simulator (official `dialog_config`).
 *
 * @example
 * ```ts
 * import { REWARDS } from 'dialogym/infobot';
 * const rewardAtRank = (r: number) => (r < REWARDS.successMaxRank ? REWARDS.success * (1 - r / REWARDS.successMaxRank) : REWARDS.failure);
 * rewardAtRank(0); // 2
 * ```
 */
export const REWARDS = {
  /** Reward for the target at rank r (0-based) when r < successMaxRank: success · (1 − r / successMaxRank). */
  success: 2,
  failure: -1,
  perTurn: -0.1,
  successMaxRank: 5,
  maxTurns: 10,
} as const;

/** Fraction of values hidden in the agent's copy of the KB.
 *
 * @example
 * ```ts
 * import { DEFAULT_MISSING, splitKbs } from 'dialogym/infobot';
 * const { incomplete } = splitKbs('small', 1, DEFAULT_MISSING); // 0.2 of the values hidden
 * ```
 */
export const DEFAULT_MISSING = 0.2;

/**
 * The environment id of a split: `infobot-<split>-v1`.
 *
 * @example
 * ```ts
 * import { envId } from 'dialogym/infobot';
 * envId('xlarge'); // 'infobot-xlarge-v1'
 * ```
 */
export function envId(split: SplitName): string {
  return `infobot-${split}-v1`;
}

/**
 * The split of a KB-InfoBot environment id (`infobot-<split>-v<n>`); a ConfigError for another id.
 *
 * @example
 * ```ts
 * import { splitOfEnvId } from 'dialogym/infobot';
 * splitOfEnvId('infobot-medium-v1'); // 'medium'
 * ```
 */
export function splitOfEnvId(id: string): SplitName {
  const split = /^infobot-([a-z]+)-v\d+$/.exec(id)?.[1];
  if (split === undefined || !(SPLITS as readonly string[]).includes(split)) throw new ConfigError(`${id}: not a KB-InfoBot environment id (infobot-<split>-v1, split: ${SPLITS.join(', ')})`);
  return split as SplitName;
}
