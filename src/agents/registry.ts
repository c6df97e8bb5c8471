/**
 * The `agents` registry: dialogym's own agents by name, as `envs` holds the environments and
 * `models` the response models. An entry is a family of agents that plays a family of
 * environments (the restaurant and DSTC6 envs, AirDialogue, KB-InfoBot); the families are
 * defined by the testbeds (`testbeds/<t>/agents.ts`) and registered from the list of testbeds.
 * `createAgent(name)` gives one agent that answers each request with the agent of that name of the
 * family playing the request's environment (`rules` is the rule bot on the restaurant envs and the
 * rule policy on AirDialogue).
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../core/errors.js';
import { Registry } from '../core/registry.js';
import type { Agent, AgentAction } from './agent.js';
import type { AgentRequest } from './protocol.js';

/**
 * Options of a built-in agent (restaurant models: the KB whose entities a learned model
 * recognises, the candidates a ranking model picks from).
 *
 * @example
 * ```ts
 * import { createAgent, type AgentOptions } from 'dialogym';
 * const opts: AgentOptions = { candidates: 'dialog-babi-candidates.txt' };
 * const agent = createAgent('tfidf', opts);
 * ```
 */
export interface AgentOptions {
  /** KB text file whose entities a learned model recognises (bAbI/DSTC6 text KB). */
  readonly kb?: string;
  /** Candidates file (ranking models). */
  readonly candidates?: string;
}

/**
 * One entry of the {@link agents} registry: a family of agents for a family of environments.
 *
 * @example
 * ```ts
 * import { agents, type AgentFamily } from 'dialogym';
 * const family: AgentFamily = agents.get('airdialogue');
 * console.log(family.plays('airdialogue-v1'), family.names());
 * ```
 */
export interface AgentFamily {
  /** Whether its agents play environment `envId`. */
  plays(envId: string): boolean;
  /** The names of its agents (listings; a family may also take files, e.g. model files). */
  names(): readonly string[];
  /**
   * Loads agent `name` — files are read once, here, so a bad file fails at once — and returns a
   * maker of fresh agents (one per lane of a run); undefined when `name` is none of its agents.
   */
  load(name: string, options: AgentOptions): (() => Agent) | undefined;
}

/**
 * dialogym's own agents, one entry per family of environments (`restaurant`: restaurant-* and
 * dstc6-*; `airdialogue`; `infobot`); `import 'dialogym'` fills it.
 *
 * @example
 * ```ts
 * import { agents } from 'dialogym';
 * for (const family of agents) console.log(family, agents.get(family).names().join(', '));
 * ```
 */
export const agents = new Registry<AgentFamily>('agent family');

/**
 * Every built-in player by family and name: the one table each family's player modules fill (the
 * KB-InfoBot agents, table `infobot`; AirDialogue's agent and customer policies, tables
 * `airdialogue` and `airdialogue` / `customer`; the restaurant's are the response models, `models`,
 * adopted as table `restaurant`). A testbed's public tables (`infobotAgents`,
 * `agentPolicies`, `customerPolicies`) are these tables under their old names, and its entry of
 * {@link agents} lists the same table, so a name has one home. A role other than `agent` names the
 * other side of a dialog (AirDialogue's customers).
 *
 * @example
 * ```ts
 * import { players } from 'dialogym';
 * import 'dialogym/airdialogue';
 * players.names('airdialogue'); // ['rules']
 * players.names('airdialogue', 'customer'); // ['lexicon', 'rules']
 * ```
 */
export class Players {
  private readonly tables = new Map<string, Registry<unknown>>();

  private static key(family: string, role: string): string {
    return role === 'agent' ? family : `${family}/${role}`;
  }

  /**
   * The table of family `family`'s players in role `role` (made the first time, its errors naming
   * `kind`: `unknown <kind> '<name>'`); every later call returns the same table.
   */
  table<F>(family: string, kind: string, role = 'agent'): Registry<F> {
    const key = Players.key(family, role);
    let t = this.tables.get(key);
    if (!t) {
      t = new Registry<unknown>(kind);
      this.tables.set(key, t);
    }
    return t as Registry<F>;
  }

  /**
   * Makes `registry` the table of family `family`'s players in role `role` (a family whose players
   * live in a registry of a generic layer: the restaurant's are the response models, `models`).
   * A ConfigError when the family already has another table there.
   */
  adopt<F>(family: string, registry: Registry<F>, role = 'agent'): void {
    const key = Players.key(family, role);
    const t = this.tables.get(key);
    if (t === undefined) this.tables.set(key, registry as Registry<unknown>);
    else if (t !== (registry as Registry<unknown>)) throw new ConfigError(`player family '${key}' has a table already`);
  }

  /** Whether family `family` has a player `name` in role `role`. */
  has(family: string, name: string, role = 'agent'): boolean {
    return this.tables.get(Players.key(family, role))?.has(name) ?? false;
  }

  /** Player `name` of family `family` in role `role` (a ConfigError naming the known ones otherwise). */
  get<F>(family: string, name: string, role = 'agent'): F {
    const t = this.tables.get(Players.key(family, role));
    if (!t) throw new ConfigError(`unknown player family '${family}'${role === 'agent' ? '' : ` (role ${role})`} (families: ${this.families().join(', ') || 'none'})`);
    return t.get(name) as F;
  }

  /** The names of family `family`'s players in role `role`, sorted (none for a family with no table). */
  names(family: string, role = 'agent'): string[] {
    return this.tables.get(Players.key(family, role))?.names() ?? [];
  }

  /** The tables, as `family` or `family/role`, sorted. */
  families(): string[] {
    return [...this.tables.keys()].sort();
  }
}

/**
 * dialogym's players by family and name (see {@link Players}).
 *
 * @example
 * ```ts
 * import { players } from 'dialogym';
 * players.families(); // ['airdialogue', 'airdialogue/customer', 'infobot', 'restaurant']
 * players.has('infobot', 'rule-soft'); // true
 * ```
 */
export const players = new Players();

/**
 * Every agent name of every family of {@link agents}, sorted, once each.
 *
 * @example
 * ```ts
 * import { agentNames } from 'dialogym';
 * console.log(agentNames().includes('rules')); // true
 * ```
 */
export function agentNames(): string[] {
  return [...new Set(agents.list().flatMap((e) => e.factory.names()))].sort();
}

/** Why `name` names no agent (`name: unknown agent (agents: …)` / `no such file`), or undefined when it names one or an existing file. */
export function agentNameProblem(name: string): string | undefined {
  if (existsSync(name) || agentNames().includes(name)) return undefined;
  const what = /[/\\.]/.test(name) ? 'no such file' : 'unknown agent';
  return `${name}: ${what} (agents: ${agentNames().join(', ')}, or a model file)`;
}

/**
 * A maker of agents named `name` (see the module description): each call gives a fresh agent, so
 * the lanes of a concurrent run keep their episodes apart. Files are loaded once, at once.
 * Throws a ConfigError when no family knows `name`.
 *
 * @example
 * ```ts
 * import { evaluate, loadAgent } from 'dialogym';
 * const rules = loadAgent('rules');
 * const { summary } = await evaluate('restaurant-task5-v1', rules, { episodes: 40, concurrency: 4 });
 * console.log(summary.success); // 1
 * ```
 */
export function loadAgent(name: string, options: AgentOptions = {}): () => Agent {
  const makers: Array<{ family: string; plays: (envId: string) => boolean; make: () => Agent }> = [];
  for (const e of agents.list()) {
    const make = e.factory.load(name, options);
    if (make) makers.push({ family: e.name, plays: (id) => e.factory.plays(id), make });
  }
  if (makers.length === 0) throw new ConfigError(agentNameProblem(name) ?? `${name}: not an agent of any environment family (agents: ${agentNames().join(', ')})`);
  return () => {
    const live = new Map<string, Agent>();
    return {
      name,
      act(req: AgentRequest): AgentAction | Promise<AgentAction> {
        const m = makers.find((x) => x.plays(req.env));
        if (!m) {
          const families = agents.list().filter((e) => e.factory.plays(req.env));
          const names = families.flatMap((e) => e.factory.names());
          throw new ConfigError(`${name}: not an agent of ${req.env}${names.length > 0 ? ` (its agents: ${names.join(', ')})` : ''}`);
        }
        let a = live.get(m.family);
        if (!a) {
          a = m.make();
          live.set(m.family, a);
        }
        return a.act(req);
      },
    };
  };
}

/**
 * One of dialogym's own agents by name (`rules`, a response model name or model file, an
 * AirDialogue policy, a KB-InfoBot agent or policy file), for any environment its families play.
 * Throws a ConfigError for an unknown name or a bad file.
 *
 * @example
 * ```ts
 * import { createAgent, evaluate } from 'dialogym';
 * const { summary } = await evaluate('dstc6-task5-tst3-v1', createAgent('rules'), { episodes: 10, trials: 2 });
 * console.log(summary.passK); // [1, 1]
 * ```
 */
export function createAgent(name: string, options: AgentOptions = {}): Agent {
  return loadAgent(name, options)();
}
