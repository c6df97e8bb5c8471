/**
 * Trained KB-InfoBot policies as model files (`*.dgm`, the versioned format of `formats/model-file.ts`):
 * model `infobot-policy`, metadata (agent name, KB access, split and seeds it was trained on, network
 * sizes, tracker update, training options and figures, the learning curve) and the network tensors.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, ModelFileError, errorText, optionName } from '../../../core/errors.js';
import { userDataDir } from '../../../core/files.js';
import { readModelFile, tensorOf, writeModelFile } from '../../../formats/model-file.js';
import { PolicyNet } from './policy-net.js';
import type { CurvePoint, RlTrainResult } from './reinforce.js';
import { FEATURE_SIZE, HARD_BINS_FEATURE_SIZE, POLICY_ACTIONS, rlAccess, type HardCountInput } from './rl-agent.js';
import type { KbAccess } from './rule-agents.js';
import type { SplitName } from '../slots.js';

/**
 * The model name in the header of KB-InfoBot RL policy files.
 *
 * @example
 * ```ts
 * import { readModelFile } from 'dialogym';
 * import { POLICY_MODEL } from 'dialogym/infobot';
 * readModelFile('policies/infobot/rl-soft-medium.dgm').model === POLICY_MODEL; // true
 * ```
 */
export const POLICY_MODEL = 'infobot-policy';
/** Version of the summary features of No-KB, Soft-KB and E2E policies (and of Hard-KB policies with
 * the log-scaled match count, `hardCount: 'log'`); a policy with an unknown version cannot be used.
 *
 * @example
 * ```ts
 * import { FEATURES_VERSION, loadPolicy } from 'dialogym/infobot';
 * loadPolicy('policies/infobot/rl-soft-medium.dgm').meta.features === FEATURES_VERSION; // true (else loadPolicy throws)
 * ```
 */
export const FEATURES_VERSION = 'summary-v1';
/** Version of the summary features of Hard-KB policies with the official match-count bins
 * (`hardCount: 'bins'`, HARD_BINS_FEATURE_SIZE inputs). `loadPolicy` reads both versions.
 *
 * @example
 * ```ts
 * import { HARD_BINS_FEATURES_VERSION, loadPolicy } from 'dialogym/infobot';
 * loadPolicy('policies/infobot/rl-hard-large.dgm').meta.features === HARD_BINS_FEATURES_VERSION; // true
 * ```
 */
export const HARD_BINS_FEATURES_VERSION = 'summary-v1-hard-bins';

/** The feature versions a policy file may carry: version → input size and Hard-KB count input. */
const VERSIONS: Readonly<Record<string, { size: number; hardCount: HardCountInput; hardOnly: boolean }>> = {
  [FEATURES_VERSION]: { size: FEATURE_SIZE, hardCount: 'log', hardOnly: false },
  [HARD_BINS_FEATURES_VERSION]: { size: HARD_BINS_FEATURE_SIZE, hardCount: 'bins', hardOnly: true },
};

/**
 * The metadata of a policy file: agent and KB access, feature version and network sizes, the
 * split and seeds it was trained on, training figures and the learning curve.
 *
 * @example
 * ```ts
 * import { loadPolicy, type PolicyMeta } from 'dialogym/infobot';
 * const meta: PolicyMeta = loadPolicy('policies/infobot/rl-soft-medium.dgm').meta;
 * console.log(meta.agent, meta.split, meta.bestValidReward);
 * ```
 */
export interface PolicyMeta {
  agent: string;
  access: KbAccess;
  features: string;
  inputSize: number;
  hidden: number;
  actions: number;
  split: SplitName;
  kbSeed: number;
  seed: number;
  imitation: number;
  episodes: number;
  bestValidReward: number;
  bestEpisodes: number;
  curve: CurvePoint[];
  /**
   * The tracker count update C the policy was trained with (`RL_UPDATE`, the official RL agents');
   * absent in files written before it was kept, whose policies were trained with the rule agent's C
   * (`RULE_DEFAULTS`), which `policyAgent` then uses.
   */
  update?: number;
  /** The training options that are not above (absent in files written before they were kept). */
  recipe?: PolicyRecipe;
}

/**
 * The training options of a policy file besides its sizes, seeds and dialog counts (`PolicyMeta.recipe`).
 *
 * @example
 * ```ts
 * import { loadPolicy, type PolicyRecipe } from 'dialogym/infobot';
 * const r: PolicyRecipe | undefined = loadPolicy('policies/infobot/rl-nokb-large.dgm').meta.recipe;
 * ```
 */
export type PolicyRecipe = Pick<RlTrainResult['options'], 'imitationLr' | 'imitationBatch' | 'batch' | 'lr' | 'rmspropEps' | 'clip' | 'entropyBonus' | 'discount' | 'expertInformAfterHeard' | 'expertAccess' | 'validateEvery' | 'validationEpisodes'>;

/**
 * A policy read back by `loadPolicy`: its metadata and its network.
 *
 * @example
 * ```ts
 * import { loadPolicy, RlAgent, InfoBotEnv, agentContext, type LoadedPolicy } from 'dialogym/infobot';
 * const p: LoadedPolicy = loadPolicy('policies/infobot/rl-soft-medium.dgm');
 * const agent = new RlAgent(agentContext(new InfoBotEnv({ split: 'medium' })), p.meta.access, p.net);
 * ```
 */
export interface LoadedPolicy {
  readonly meta: PolicyMeta;
  readonly net: PolicyNet;
  /** How the policy reads the Hard-KB match count (from `meta.features`; `log` for the other accesses). */
  readonly hardCount: HardCountInput;
}

/** Writes a trained policy (deterministic: the same training gives a byte-identical file).
 *
 * @example
 * ```ts
 * import { trainRlPolicy, savePolicy, rlTrainOptions } from 'dialogym/infobot';
 * const r = trainRlPolicy(rlTrainOptions({ agent: 'rl-soft', split: 'small', episodes: 2000 }));
 * savePolicy('out/policies/rl-soft-small.dgm', r);
 * ```
 */
export function savePolicy(file: string, r: RlTrainResult): void {
  const o = r.options;
  const access = rlAccess(o.agent) as KbAccess;
  const meta: PolicyMeta = {
    agent: o.agent,
    access,
    features: access === 'hard' && r.net.inputSize === HARD_BINS_FEATURE_SIZE ? HARD_BINS_FEATURES_VERSION : FEATURES_VERSION,
    inputSize: r.net.inputSize,
    hidden: r.net.hiddenSize,
    actions: r.net.actions,
    split: o.split,
    kbSeed: o.kbSeed,
    seed: o.seed,
    imitation: o.imitation,
    episodes: o.episodes,
    bestValidReward: r.bestValidReward,
    bestEpisodes: r.bestEpisodes,
    curve: r.curve,
    ...(r.update !== undefined ? { update: r.update } : {}),
    recipe: {
      imitationLr: o.imitationLr,
      imitationBatch: o.imitationBatch,
      batch: o.batch,
      lr: o.lr,
      rmspropEps: o.rmspropEps,
      clip: o.clip,
      entropyBonus: o.entropyBonus,
      discount: o.discount,
      // Infinity (rl-soft's expert) has no JSON: written as null, read back as Infinity.
      expertInformAfterHeard: o.expertInformAfterHeard,
      expertAccess: o.expertAccess,
      validateEvery: o.validateEvery,
      validationEpisodes: o.validationEpisodes,
    },
  };
  writeModelFile(file, { model: POLICY_MODEL, meta, tensors: r.net.params.map((p) => ({ name: p.name, shape: p.shape, data: p.data })) });
}

/**
 * Reads a policy file written by `savePolicy`: either feature version (`FEATURES_VERSION`, or
 * `HARD_BINS_FEATURES_VERSION` for rl-hard). A file of another model, bad metadata, an unknown
 * feature version, sizes that do not fit it or bad tensors throw a ModelFileError.
 *
 * @example
 * ```ts
 * import { loadPolicy } from 'dialogym/infobot';
 * const { meta, net } = loadPolicy('policies/infobot/rl-hard-large.dgm');
 * ```
 */
export function loadPolicy(file: string): LoadedPolicy {
  const c = readModelFile(file);
  if (c.model !== POLICY_MODEL) throw new ModelFileError(`${file}: a '${c.model}' model, not a KB-InfoBot policy (${POLICY_MODEL})`);
  const meta = c.meta as Partial<PolicyMeta> | null;
  if (!meta || typeof meta !== 'object' || typeof meta.agent !== 'string' || rlAccess(meta.agent) === null) {
    throw new ModelFileError(`${file}: corrupt policy file (bad metadata)`);
  }
  // Sizes are checked before the network is allocated; the figures must be numbers.
  if (!Number.isInteger(meta.hidden) || (meta.hidden as number) < 1 || (meta.hidden as number) > 4096) throw new ModelFileError(`${file}: corrupt policy file (meta.hidden ${JSON.stringify(meta.hidden)} is not an integer in [1, 4096])`);
  // A policy never validated (validateEvery 0) has bestValidReward NaN, written as null.
  if (meta.bestValidReward === null) meta.bestValidReward = NaN;
  if (meta.recipe !== undefined && (typeof meta.recipe !== 'object' || meta.recipe === null)) throw new ModelFileError(`${file}: corrupt policy file (meta.recipe is not an object)`);
  if (meta.recipe && meta.recipe.expertInformAfterHeard === null) meta.recipe.expertInformAfterHeard = Infinity;
  if (meta.update !== undefined && !(typeof meta.update === 'number' && meta.update > 0)) throw new ModelFileError(`${file}: corrupt policy file (meta.update ${JSON.stringify(meta.update)} is not a positive number)`);
  for (const k of ['kbSeed', 'seed', 'imitation', 'episodes', 'bestValidReward', 'bestEpisodes'] as const) {
    if (meta[k] !== undefined && typeof meta[k] !== 'number') throw new ModelFileError(`${file}: corrupt policy file (meta.${k} ${JSON.stringify(meta[k])} is not a number)`);
  }
  const access = rlAccess(meta.agent) as KbAccess;
  const version = typeof meta.features === 'string' && Object.hasOwn(VERSIONS, meta.features) ? VERSIONS[meta.features] : undefined;
  if (!version || (version.hardOnly && access !== 'hard') || meta.inputSize !== version.size || meta.actions !== POLICY_ACTIONS) {
    const known = Object.entries(VERSIONS).map(([v, x]) => `'${v}' (${x.size}, ${POLICY_ACTIONS}${x.hardOnly ? ', rl-hard only' : ''})`);
    throw new ModelFileError(`${file}: ${meta.agent} policy built for features '${String(meta.features)}' (${String(meta.inputSize)} inputs, ${String(meta.actions)} actions); this version reads ${known.join(' or ')}`);
  }
  const net = new PolicyNet(version.size, meta.hidden as number, POLICY_ACTIONS);
  for (const p of net.params) p.data.set(tensorOf(c, p.name, p.shape, file));
  return { meta: { ...(meta as PolicyMeta), access }, net, hardCount: version.hardCount };
}

/** Where `infobot train` puts the default policy of an agent and split.
 *
 * @example
 * ```ts
 * import { defaultPolicyFile } from 'dialogym/infobot';
 * defaultPolicyFile('policies/infobot', 'rl-soft', 'medium'); // 'policies/infobot/rl-soft-medium.dgm'
 * ```
 */
export function defaultPolicyFile(dir: string, agent: string, split: SplitName): string {
  return join(dir, `${agent}-${split}.dgm`);
}

/**
 * The folder of the shipped trained policies: `$DIALOGYM_POLICIES`, else `policies/infobot/` of the
 * installed package (in the npm tarball). Read-only package data: training writes to
 * `userPolicyDir()` instead.
 *
 * @example
 * ```ts
 * import { DEFAULT_POLICY_DIR, defaultPolicyFile } from 'dialogym/infobot';
 * defaultPolicyFile(DEFAULT_POLICY_DIR, 'rl-soft', 'medium'); // …/policies/infobot/rl-soft-medium.dgm
 * ```
 */
export const DEFAULT_POLICY_DIR: string = process.env.DIALOGYM_POLICIES ?? fileURLToPath(new URL('../../../../../policies/infobot/', import.meta.url));

/**
 * Where trained policies go by default and are looked for first: `policies/infobot` in the
 * user's dialogym folder (`userDataDir()`: `$DIALOGYM_HOME`, else `~/.cache/dialogym`). The
 * shipped `DEFAULT_POLICY_DIR` is read-only package data: nothing is ever written there.
 *
 * @example
 * ```ts
 * import { userPolicyDir, defaultPolicyFile } from 'dialogym/infobot';
 * defaultPolicyFile(userPolicyDir(), 'rl-soft', 'small'); // ~/.cache/dialogym/policies/infobot/rl-soft-small.dgm
 * ```
 */
export function userPolicyDir(): string {
  return join(userDataDir(), 'policies', 'infobot');
}

/**
 * The default policy file of an agent and split: in `dir` when given, else in `userPolicyDir()`
 * (policies you trained) and then in `DEFAULT_POLICY_DIR` (the shipped ones); undefined when
 * there is none.
 *
 * @example
 * ```ts
 * import { locateDefaultPolicy } from 'dialogym/infobot';
 * locateDefaultPolicy(undefined, 'rl-soft', 'medium'); // the shipped policy unless you trained one
 * ```
 */
export function locateDefaultPolicy(dir: string | undefined, agent: string, split: SplitName): string | undefined {
  const dirs = dir !== undefined ? [dir] : [userPolicyDir(), DEFAULT_POLICY_DIR];
  return dirs.map((d) => defaultPolicyFile(d, agent, split)).find((f) => existsSync(f));
}

/**
 * The default policy file of an agent and split (see `locateDefaultPolicy`), or a ConfigError
 * naming the training command when there is none.
 *
 * @example
 * ```ts
 * import { findDefaultPolicy } from 'dialogym/infobot';
 * const file = findDefaultPolicy(undefined, 'rl-soft', 'medium'); // the shipped policy
 * findDefaultPolicy('out/policies', 'rl-soft', 'medium');        // ConfigError unless trained there
 * ```
 */
export function findDefaultPolicy(dir: string | undefined, agent: string, split: SplitName): string {
  const file = locateDefaultPolicy(dir, agent, split);
  if (file) return file;
  const target = defaultPolicyFile(dir ?? userPolicyDir(), agent, split);
  throw new ConfigError(errorText`agent '${agent}' needs a trained policy: run ${{ run: 'infobot train', options: [['agent', agent], ['split', split]] }} (writes ${target}), or pass ${optionName('agent')} <policy.dgm>`);
}
