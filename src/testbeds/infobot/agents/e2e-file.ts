/**
 * Trained E2E-Soft agents as model files (`*.dgm`, `formats/model-file.ts`): model `infobot-e2e`,
 * metadata (split and seeds, network sizes, the n-gram vocabulary, training options and figures, the
 * learning curve thinned to ≤ 400 points plus the validations) and the tensors of the neural tracker and the policy.
 */
import { ModelFileError } from '../../../core/errors.js';
import { readModelFile, tensorOf, writeModelFile, type ModelFileContent } from '../../../formats/model-file.js';
import type { E2eParts } from './e2e-agent.js';
import type { E2eTrainResult, E2eTrainSettings } from './e2e-train.js';
import { NeuralTracker } from './neural-tracker.js';
import { NgramVocab } from './ngrams.js';
import { PolicyNet } from './policy-net.js';
import type { CurvePoint } from './reinforce.js';
import { FEATURE_SIZE, POLICY_ACTIONS } from './rl-agent.js';
import { M, type SplitName } from '../slots.js';
import { FEATURES_VERSION } from './policy-file.js';

/**
 * The model name in the header of E2E-Soft agent files.
 *
 * @example
 * ```ts
 * import { readModelFile } from 'dialogym';
 * import { E2E_MODEL } from 'dialogym/infobot';
 * readModelFile('policies/infobot/e2e-soft-medium.dgm').model === E2E_MODEL; // true
 * ```
 */
export const E2E_MODEL = 'infobot-e2e';

/**
 * The metadata of an E2E-Soft agent file: sizes, vocabulary, the split and seeds it was trained
 * on, training settings and figures, and the (thinned) learning curve.
 *
 * @example
 * ```ts
 * import { loadE2e, type E2eMeta } from 'dialogym/infobot';
 * const meta: E2eMeta = loadE2e('policies/infobot/e2e-soft-medium.dgm').meta;
 * console.log(meta.split, meta.bestValidReward, meta.curve.length);
 * ```
 */
export interface E2eMeta {
  agent: 'e2e-soft';
  features: string;
  split: SplitName;
  kbSeed: number;
  seed: number;
  values: number[];
  embed: number;
  trackerHidden: number;
  hidden: number;
  vocab: string[];
  /** Per slot, per value: ids of the value's n-grams (tied value embeddings). */
  valueNgrams: number[][][];
  /** Residual tracker (reads the hand-crafted tracker's beliefs); absent in older files = false. */
  residual?: boolean;
  options: Omit<E2eTrainSettings, 'split' | 'kbSeed' | 'seed'>;
  bestValidReward: number;
  bestEpisodes: number;
  curve: CurvePoint[];
}

/**
 * An E2E-Soft agent file read back: its metadata and its parts.
 *
 * @example
 * ```ts
 * import { loadE2e, type LoadedE2e } from 'dialogym/infobot';
 * const { meta, parts }: LoadedE2e = loadE2e('policies/infobot/e2e-soft-medium.dgm');
 * ```
 */
export interface LoadedE2e {
  readonly meta: E2eMeta;
  readonly parts: E2eParts;
}

/** Most learning-curve points kept in a model file (validated points are always kept).
 *
 * @example
 * ```ts
 * import { MAX_CURVE_POINTS, thinCurve, type CurvePoint } from 'dialogym/infobot';
 * declare const curve: CurvePoint[];
 * thinCurve(curve, MAX_CURVE_POINTS).length; // about 400 at most, plus validated points
 * ```
 */
export const MAX_CURVE_POINTS = 400;

/** The curve thinned to about `max` points: every k-th batch plus every validated one.
 *
 * @example
 * ```ts
 * import { thinCurve } from 'dialogym/infobot';
 * const pts = Array.from({ length: 10 }, (_, i) => ({ episodes: i, reward: 0, success: 0, turns: 0, phase: 'reinforce' as const }));
 * thinCurve(pts, 5).map((p) => p.episodes); // [1, 3, 5, 7, 9]
 * ```
 */
export function thinCurve(curve: readonly CurvePoint[], max = MAX_CURVE_POINTS): CurvePoint[] {
  const k = Math.max(1, Math.ceil(curve.length / max));
  return curve.filter((p, i) => p.validReward !== undefined || i % k === k - 1 || i === curve.length - 1);
}

/**
 * Writes a trained E2E-Soft agent (`trainE2e`'s result) as a model file (`infobot-e2e`), the
 * learning curve thinned with `thinCurve`.
 *
 * @example
 * ```ts
 * import { trainE2e, saveE2e, defaultPolicyFile } from 'dialogym/infobot';
 * const r = trainE2e({ split: 'small', imitation: 500, episodes: 500 });
 * saveE2e(defaultPolicyFile('out/policies', 'e2e-soft', 'small'), r);
 * ```
 */
export function saveE2e(file: string, r: E2eTrainResult): void {
  const { split, kbSeed, seed, ...options } = r.options;
  const { tracker, policy, vocab } = r.parts;
  const meta: E2eMeta = {
    agent: 'e2e-soft',
    features: FEATURES_VERSION,
    split,
    kbSeed,
    seed,
    values: [...tracker.sizes.values],
    embed: tracker.embed,
    trackerHidden: tracker.hidden,
    hidden: policy.hiddenSize,
    vocab: [...vocab.entries],
    valueNgrams: tracker.sizes.valueNgrams?.map((slot) => slot.map((ids) => [...ids])) ?? [],
    ...(tracker.residual ? { residual: true } : {}),
    options,
    bestValidReward: r.bestValidReward,
    bestEpisodes: r.bestEpisodes,
    curve: thinCurve(r.curve),
  };
  writeModelFile(file, { model: E2E_MODEL, meta, tensors: [...tracker.params, ...policy.params].map((p) => ({ name: p.name, shape: p.shape, data: p.data })) });
}

/** Builds the agent parts from a read model file of model `infobot-e2e`.
 *
 * @example
 * ```ts
 * import { readModelFile } from 'dialogym';
 * import { e2eFromContent } from 'dialogym/infobot';
 * const file = 'policies/infobot/e2e-soft-medium.dgm';
 * const { parts } = e2eFromContent(readModelFile(file), file); // ModelFileError if corrupt
 * ```
 */
export function e2eFromContent(c: ModelFileContent, file: string): LoadedE2e {
  if (c.model !== E2E_MODEL) throw new ModelFileError(`${file}: a '${c.model}' model, not an E2E-Soft agent (${E2E_MODEL})`);
  const m = c.meta as Partial<E2eMeta> | null;
  // Sizes are bounded before anything is allocated: a forged 4294967300 is a corrupt file, not a RangeError.
  const ints = (x: unknown): boolean => Number.isInteger(x) && (x as number) > 0 && (x as number) <= 4096;
  if (
    !m ||
    typeof m !== 'object' ||
    !Array.isArray(m.vocab) ||
    !m.vocab.every((v) => typeof v === 'string') ||
    !Array.isArray(m.values) ||
    m.values.length !== M ||
    !m.values.every((x) => Number.isInteger(x) && x > 0 && x <= 65536) ||
    !ints(m.embed) ||
    !ints(m.trackerHidden) ||
    !ints(m.hidden)
  ) {
    throw new ModelFileError(`${file}: corrupt E2E-Soft agent file (bad metadata)`);
  }
  if (m.features !== FEATURES_VERSION) throw new ModelFileError(`${file}: E2E agent built for features '${String(m.features)}'; this version uses '${FEATURES_VERSION}'`);
  let vocab: NgramVocab;
  try {
    vocab = new NgramVocab(m.vocab);
  } catch {
    throw new ModelFileError(`${file}: corrupt E2E-Soft agent file (duplicate vocabulary entries)`);
  }
  const vn = m.valueNgrams;
  const okIds = (ids: unknown): boolean => Array.isArray(ids) && ids.every((x) => Number.isInteger(x) && x >= 0 && x < vocab.size);
  if (!Array.isArray(vn) || (vn.length !== 0 && (vn.length !== M || !vn.every((slot, j) => Array.isArray(slot) && slot.length === m.values?.[j] && slot.every(okIds))))) {
    throw new ModelFileError(`${file}: corrupt E2E-Soft agent file (bad value n-grams)`);
  }
  const valueNgrams = vn.length === 0 ? undefined : vn.map((slot) => slot.map((ids) => Int32Array.from(ids)));
  if (m.residual !== undefined && typeof m.residual !== 'boolean') throw new ModelFileError(`${file}: corrupt E2E-Soft agent file (bad residual flag)`);
  const tracker = new NeuralTracker({ vocab: vocab.size, values: m.values, embed: m.embed as number, hidden: m.trackerHidden as number, ...(valueNgrams ? { valueNgrams } : {}), ...(m.residual ? { residual: true } : {}) });
  const policy = new PolicyNet(FEATURE_SIZE, m.hidden as number, POLICY_ACTIONS);
  for (const p of [...tracker.params, ...policy.params]) p.data.set(tensorOf(c, p.name, p.shape, file));
  return { meta: m as E2eMeta, parts: { vocab, tracker, policy } };
}

/**
 * Reads an E2E-Soft agent file written by `saveE2e`; a missing, corrupt or other model file
 * throws a ModelFileError.
 *
 * @example
 * ```ts
 * import { loadE2e, E2eAgent, InfoBotEnv, agentContext } from 'dialogym/infobot';
 * const { parts } = loadE2e('policies/infobot/e2e-soft-small.dgm');
 * const agent = new E2eAgent(agentContext(new InfoBotEnv({ split: 'small' })), parts);
 * ```
 */
export function loadE2e(file: string): LoadedE2e {
  return e2eFromContent(readModelFile(file), file);
}
