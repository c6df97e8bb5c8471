/**
 * What a testbed declares about itself: its descriptor, `src/testbeds/<name>/testbed.ts`, one per
 * testbed folder, listed once in `src/testbeds/index.ts` (the list the root API, the CLI, the agents
 * registry and the servers go through). A descriptor is light: names, descriptions and lazy entry
 * points (`() => import(…)`); the code of a testbed is imported only when one of its environments,
 * agents or models is loaded. docs/extending.md walks through writing one.
 */
import type { EnvDeclaration, EnvDefinition } from '../env/env.js';
import type { AgentFamily } from '../agents/registry.js';
import type { LlmSection } from '../llm/prompts.js';
import type { ModelDefinition } from '../rankers/registry.js';
import type { RunEntries } from '../runs/index.js';
import type { KbFile } from '../runs/kb.js';

/**
 * The agents of a testbed in the `agents` registry: the family's name and description, and its lazy
 * entry point (the family's `names` and `load`; which environments it plays comes from the
 * testbeds that name it as their `agentFamily`).
 */
export interface TestbedAgents {
  readonly description: string;
  readonly load: () => Promise<TestbedAgentFamily>;
}

/** An agent family as a testbed defines it: `names` and `load` of `AgentFamily` (`plays` comes from the list). */
export type TestbedAgentFamily = Omit<AgentFamily, 'plays'>;

/** One testbed (see the module description). `A`: what its entry point reads of each declaration (any testbed's by default). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Testbed<A = any> {
  /** Its folder under `src/testbeds/`. */
  readonly name: string;
  /** One line: what it is (the paper, the domain). */
  readonly title: string;
  /** Its environment ids with descriptions and the arguments its entry point defines each from. */
  readonly envs: readonly EnvDeclaration<A>[];
  /**
   * The lazy entry point of its environments: imports the code and returns how each declaration is
   * defined — its family (`EnvFamily`: the options and their schema, the dataset export, the
   * person view) and its builder.
   */
  readonly entry: () => Promise<(decl: EnvDeclaration<A>) => EnvDefinition>;
  /** The family of the `agents` registry that plays its environments (`restaurant` for DSTC6's). */
  readonly agentFamily?: string;
  /** The agent family it defines, under `agentFamily`'s name. */
  readonly agents?: TestbedAgents;
  /** Response models it adds to the `models` registry (lazy). */
  readonly models?: () => Promise<readonly ModelDefinition[]>;
  /**
   * How the turn limit (`evaluate --max-turns`, `maxTurns` agent turns) reaches its environments
   * when they have one of their own: the options that set it (the restaurant's and DSTC6's
   * `maxTurns`, which report the failure detail; AirDialogue's counts utterances of both sides;
   * KB-InfoBot's is its user simulator's). Without it, the generic wrapper (`TurnLimit`,
   * src/env/turn-limit.ts) truncates the episodes.
   */
  readonly turnLimit?: (maxTurns: number) => Readonly<Record<string, unknown>>;
  /**
   * How a KB file reaches its environments (`evaluate`'s `kb`, `--kb`), if it reads one: the
   * environment option that takes the KB, and the reader of the file (lazy: imports its code).
   */
  readonly kb?: KbFile;
  /**
   * Its runs (what its CLI verbs compute, as library functions: `defineRun`, src/runs/run.ts), by
   * id, each a lazy entry point to its module (`<name>/runs/<run>.ts`): `loadRun(id)` finds them,
   * `dialogym merge` finishes their shards.
   */
  readonly runs?: RunEntries;
  /** Its CLI subcommands: `dialogym <verb> …` (the verb's module, src/cli/commands/<verb>.ts, is imported only when run). */
  readonly cli?: { readonly verb: string };
  /**
   * Its LLM section (`LlmSection`, src/llm/prompts.ts): the LLM agent's system prompt
   * (`prompts/<prompt>`), the LLM user's (`prompts/<userPrompt>`) where it has one, and its `view`,
   * lazy (`() => import(…)`): how it words an episode for a model — the agent's context, the user's
   * goal, what the user does now (`LlmView`).
   */
  readonly llm?: Omit<LlmSection, 'testbed'>;
}

/**
 * Builds a descriptor (typed: the declarations' `args` are what the entry point reads).
 *
 * @example
 * ```ts
 * const toy = testbed({ name: 'toy', title: 'a toy', envs: [], entry: async () => () => { throw new Error('none'); } });
 * ```
 */
export function testbed<A>(t: Testbed<A>): Testbed<A> {
  return t;
}
