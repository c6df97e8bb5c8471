/**
 * The list of testbeds: one line per testbed folder (its descriptor, `<name>/testbed.ts`). The root
 * API (`src/index.ts`: `import 'dialogym'` loads them all) and the CLI go through it; they fill the
 * generic registries from it — the LLM sections (`declareLlmSection`, src/llm/prompts.ts), `envs` (each testbed's ids, declared at once, their code imported when
 * loaded), the runs (`declareRuns`: what `loadRun` and `dialogym merge` find), `agents` (the agent families, which play the environments of the testbeds that name
 * them) and `models` — so the agents registry and the servers see every testbed without knowing
 * any. Nothing registers itself when imported. Only this module, `src/index.ts`, `src/cli/` and
 * `src/serve/` (a testbed's chat: its descriptor's `chat`) import the list (`.dependency-cruiser.cjs`).
 */
import { ConfigError } from '../core/errors.js';
import { declareEnvs, envs, loadEnv } from '../env/env.js';
import { agents } from '../agents/registry.js';
import { declareLlmSection, loadLlmSections } from '../llm/prompts.js';
import { declareRuns } from '../runs/index.js';
import { declareKb } from '../runs/kb.js';
import { declareTurnLimit } from '../env/turn-limit.js';
import { declareModelList } from '../rankers/model-lists.js';
import type { Testbed } from './testbed.js';

/**
 * Every testbed, in the order listings show them: one line each, its descriptor (light: names and
 * lazy entry points). Its type names each descriptor's module, so the declarations of `dialogym`
 * reach the descriptors' typed env ids (`EnvTypes`).
 */
export const TESTBEDS = [
  (await import('./restaurant/testbed.js')).restaurant,
  (await import('./dstc6/testbed.js')).dstc6,
  (await import('./infobot/testbed.js')).infobot,
  (await import('./airdialogue/testbed.js')).airdialogue,
];

let declared = false;
const owner = new Map<string, Testbed>();

/**
 * Declares every testbed's environment ids in `envs`, its models in `models` (names, descriptions:
 * `loadModels` loads their code), its runs (`loadRun`) and how a turn limit reaches its
 * environments (`turnLimitOf`), once; their code is not imported.
 */
export function declareTestbeds(): void {
  if (declared) return;
  declared = true;
  for (const t of TESTBEDS as readonly Testbed[]) {
    declareEnvs(t.envs, t.entry);
    if (t.llm) declareLlmSection(t.envs.map((e) => e.id), { testbed: t.name, ...t.llm });
    if (t.runs) declareRuns(t.runs);
    if (t.turnLimit) declareTurnLimit(t.envs.map((e) => e.id), t.turnLimit);
    if (t.kb) declareKb(t.name, t.envs.map((e) => e.id), t.kb);
    if (t.models) declareModelList(t.models);
    for (const e of t.envs) owner.set(e.id, t);
  }
}

/** The testbed an environment id belongs to, or undefined for an id no testbed declares (your own). */
export function testbedOf(envId: string): Testbed | undefined {
  declareTestbeds();
  return owner.get(envId);
}

/** The testbed named `name` (a ConfigError listing the names otherwise). */
export function testbedNamed(name: string): Testbed {
  const t = TESTBEDS.find((x) => x.name === name);
  if (!t) throw new ConfigError(`unknown testbed '${name}' (testbeds: ${TESTBEDS.map((x) => x.name).join(', ')})`);
  return t;
}

const loaded = new Map<string, Promise<void>>();

/** Loads the code of testbed `t`'s models (declared by `declareTestbeds`). */
async function loadModels1(t: Testbed): Promise<void> {
  if (!t.models) return;
  declareTestbeds();
  await (await import('../rankers/registry.js')).loadModels(t.models.models.map((m) => m.name));
}

/** Registers agent family `family` (once): defined by one testbed, playing the environments of every testbed that names it. */
async function loadAgentFamily(family: string): Promise<void> {
  const definer = TESTBEDS.find((x) => x.agentFamily === family && x.agents);
  if (!definer?.agents) return;
  // A family's agents may be models of its testbed (the restaurant agents: any response model).
  await loadModels1(definer);
  const f = await definer.agents.load();
  if (agents.has(family)) return;
  const played = new Set(TESTBEDS.filter((x) => x.agentFamily === family).flatMap((x) => x.envs.map((e) => e.id)));
  agents.register(family, definer.agents.description, { plays: (envId) => played.has(envId), names: () => f.names(), load: (name, options) => f.load(name, options) });
}

/**
 * Loads testbeds (every one by default): their environments' code (so `make` builds them), their
 * models, the agent family that plays their environments and their LLM sections' views. Idempotent; `import 'dialogym'`
 * does it for all.
 */
export async function loadTestbeds(names: readonly string[] = TESTBEDS.map((t) => t.name)): Promise<void> {
  declareTestbeds();
  await Promise.all(
    names.map((name) => {
      const t = testbedNamed(name);
      let p = loaded.get(name);
      if (!p) {
        p = (async () => {
          const first = t.envs[0];
          await Promise.all([first ? loadEnv(first.id) : undefined, loadModels1(t), t.agentFamily ? loadAgentFamily(t.agentFamily) : undefined, loadLlmSections(t.envs.map((e) => e.id))]);
        })();
        loaded.set(name, p);
      }
      return p;
    }),
  );
}

/**
 * Loads the testbed of environment `envId` (see `loadTestbeds`); an id no testbed declares is
 * looked up in `envs` (a ConfigError listing the known ids when unknown there too).
 */
export async function loadTestbedOf(envId: string): Promise<Testbed | undefined> {
  const t = testbedOf(envId);
  if (t) await loadTestbeds([t.name]);
  else envs.get(envId);
  return t;
}
