/**
 * Trained KB-InfoBot policies as model files (`*.dgm`, the versioned format of `formats/model-file.ts`):
 * model `infobot-policy`, metadata (agent name, KB access, split and seeds it was trained on, network
 * sizes, tracker update, training options and figures, the learning curve) and the network tensors.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, ModelFileError } from '../../../core/errors.js';
import { userDataDir } from '../../../core/files.js';
import { readModelFile, tensorOf, writeModelFile } from '../../../formats/model-file.js';
import { PolicyNet } from './policy-net.js';
import type { CurvePoint, RlTrainResult } from './reinforce.js';
import { FEATURE_SIZE, POLICY_ACTIONS, rlAccess } from './rl-agent.js';
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
/** Version of the summary features; a policy with another version cannot be used.
 *
 * @example
 * ```ts
 * import { FEATURES_VERSION, loadPolicy } from 'dialogym/infobot';
 * loadPolicy('policies/infobot/rl-soft-medium.dgm').meta.features === FEATURES_VERSION; // true (else loadPolicy throws)
 * ```
 */
export const FEATURES_VERSION = 'summary-v1';

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
}

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
  const meta: PolicyMeta = {
    agent: o.agent,
    access: rlAccess(o.agent) as KbAccess,
    features: FEATURES_VERSION,
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
  };
  writeModelFile(file, { model: POLICY_MODEL, meta, tensors: r.net.params.map((p) => ({ name: p.name, shape: p.shape, data: p.data })) });
}

/**
 * Reads a policy file written by `savePolicy`. A file of another model, bad metadata, another
 * feature version or bad tensors throws a ModelFileError.
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
  for (const k of ['kbSeed', 'seed', 'imitation', 'episodes', 'bestValidReward', 'bestEpisodes'] as const) {
    if (meta[k] !== undefined && typeof meta[k] !== 'number') throw new ModelFileError(`${file}: corrupt policy file (meta.${k} ${JSON.stringify(meta[k])} is not a number)`);
  }
  if (meta.features !== FEATURES_VERSION || meta.inputSize !== FEATURE_SIZE || meta.actions !== POLICY_ACTIONS) {
    throw new ModelFileError(`${file}: policy built for features '${String(meta.features)}' (${String(meta.inputSize)} inputs, ${String(meta.actions)} actions); this version uses '${FEATURES_VERSION}' (${FEATURE_SIZE}, ${POLICY_ACTIONS})`);
  }
  const net = new PolicyNet(FEATURE_SIZE, meta.hidden as number, POLICY_ACTIONS);
  for (const p of net.params) p.data.set(tensorOf(c, p.name, p.shape, file));
  return { meta: { ...(meta as PolicyMeta), access: rlAccess(meta.agent) as KbAccess }, net };
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
  throw new ConfigError(`agent '${agent}' needs a trained policy: run dialogym infobot train --agent ${agent} --split ${split} (writes ${target}), or pass --agent <policy.dgm>`);
}
