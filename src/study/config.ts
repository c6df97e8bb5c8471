/**
 * A study's configuration (schemas/study-config.schema.json): the environment, the agents compared
 * — any kind: one of dialogym's agents by name or model file, an agent process, an HTTP endpoint,
 * a language model — the side people play, how many participants and sessions, the questions
 * asked after each dialog. Read from JSON (validated with the project's ajv setup; a fault is one
 * line naming the file and the field) or built from the CLI's words, and normalised: every default
 * filled in, every agent a typed {@link AgentSpec} with a unique label.
 */
import { FormatError } from '../core/errors.js';
import { readTextFile } from '../core/files.js';
import { checkSchema } from '../formats/schema.js';
import { parseJsonText } from '../formats/json-text.js';

/**
 * How to reach one agent of a study: dialogym's own (`builtin`: a name such as `rl-soft` or a model
 * file), a process speaking the agent protocol on stdio (`cmd`), an HTTP endpoint (`url`), or a
 * language model behind an OpenAI-compatible endpoint (`llm`).
 *
 * @example
 * ```ts
 * import { openStudyAgent, type AgentSpec } from 'dialogym';
 * const spec: AgentSpec = { kind: 'cmd', label: 'mine', command: 'python3 my_agent.py' };
 * const transport = await openStudyAgent(spec);
 * ```
 */
export type AgentSpec =
  | { readonly kind: 'builtin'; readonly label: string; readonly name: string }
  | { readonly kind: 'cmd'; readonly label: string; readonly command: string }
  | { readonly kind: 'url'; readonly label: string; readonly url: string }
  | { readonly kind: 'llm'; readonly label: string; readonly model: string; readonly llmUrl?: string; readonly llmKeyEnv?: string };

/**
 * A question asked after each dialog: a rating from `min` to `max`, or free text.
 *
 * @example
 * ```ts
 * import { studyConfig, type StudyQuestion } from 'dialogym';
 * const q: StudyQuestion | undefined = studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft'], questions: [{ id: 'ease', text: 'How easy?' }] }).questions[0];
 * console.log(q?.type, q?.min, q?.max); // rating 1 5
 * ```
 */
export interface StudyQuestion {
  readonly id: string;
  readonly text: string;
  readonly type: 'rating' | 'text';
  readonly min: number;
  readonly max: number;
}

/** The side people play: the user (against the assigned agent) or the agent (against the simulated user). */
export type StudyRole = 'user' | 'agent';

/**
 * A study's configuration with every default filled in (what `study.json` of a study folder holds).
 *
 * @example
 * ```ts
 * import { studyConfig, type StudyConfig } from 'dialogym';
 * const c: StudyConfig = studyConfig({ env: 'infobot-medium-v1', agents: ['rl-hard', 'rl-soft'], participants: 4 });
 * console.log(c.role, c.sessionsPerParticipant, c.seed); // user 20 1
 * ```
 */
export interface StudyConfig {
  readonly title: string;
  readonly env: string;
  readonly envOptions: Readonly<Record<string, unknown>>;
  /** The agents compared; with role `agent`, the one pseudo-agent `people` (the participants). */
  readonly agents: readonly AgentSpec[];
  readonly role: StudyRole;
  readonly participants: number;
  readonly sessionsPerParticipant: number;
  readonly seed: number;
  readonly questions: readonly StudyQuestion[];
  /** Whether a participant playing the user sees the hint (what the simulated user would say now); false: unguided people. */
  readonly hints: boolean;
}

/** The label of the group a study's sessions fall in when people play the agent. */
export const PEOPLE = 'people';

/** Longest text answer to a question, in characters. */
export const MAX_ANSWER_CHARS = 2000;

type RawAgent = string | { label?: string; agent?: string; cmd?: string; url?: string; llm?: string; llmUrl?: string; llmKeyEnv?: string };
interface RawConfig {
  title?: string;
  env: string;
  envOptions?: Record<string, unknown>;
  agents?: RawAgent[];
  role?: StudyRole;
  participants?: number;
  sessionsPerParticipant?: number;
  seed?: number;
  questions?: Array<{ id: string; text: string; type?: 'rating' | 'text'; min?: number; max?: number }>;
  hints?: boolean;
}

/** The label of a built-in agent named by a name or a model file: its base name without extension. */
function labelOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const bare = base.replace(/\.[A-Za-z0-9]+$/, '');
  const clean = bare.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 40);
  return clean === '' ? 'agent' : clean;
}

const WAYS = ['agent', 'cmd', 'url', 'llm'] as const;

function specOf(a: RawAgent, i: number, where: string): AgentSpec {
  if (typeof a === 'string') return { kind: 'builtin', label: labelOf(a.trim()), name: a.trim() };
  const ways = WAYS.filter((w) => a[w] !== undefined);
  if (ways.length !== 1) throw new FormatError(where, undefined, `agents[${i}]: give exactly one of agent, cmd, url, llm${ways.length > 1 ? `, got ${ways.join(' and ')}` : ''}`);
  if (a.llm === undefined && (a.llmUrl !== undefined || a.llmKeyEnv !== undefined)) throw new FormatError(where, undefined, `agents[${i}]: ${a.llmUrl !== undefined ? 'llmUrl' : 'llmKeyEnv'} is an option of an llm agent`);
  if (a.agent !== undefined) return { kind: 'builtin', label: a.label ?? labelOf(a.agent.trim()), name: a.agent.trim() };
  if (a.label === undefined) throw new FormatError(where, undefined, `agents[${i}]: missing "label" (the agent's name in the report)`);
  const label = a.label;
  if (a.cmd !== undefined) return { kind: 'cmd', label, command: a.cmd };
  if (a.url !== undefined) return { kind: 'url', label, url: a.url };
  return { kind: 'llm', label, model: a.llm as string, ...(a.llmUrl !== undefined ? { llmUrl: a.llmUrl } : {}), ...(a.llmKeyEnv !== undefined ? { llmKeyEnv: a.llmKeyEnv } : {}) };
}

/** A spec in the configuration file's words (`{ label, agent }`, `{ label, cmd }`, …). */
function rawOf(s: AgentSpec): RawAgent {
  switch (s.kind) {
    case 'builtin':
      return { label: s.label, agent: s.name };
    case 'cmd':
      return { label: s.label, cmd: s.command };
    case 'url':
      return { label: s.label, url: s.url };
    case 'llm':
      return { label: s.label, llm: s.model, ...(s.llmUrl !== undefined ? { llmUrl: s.llmUrl } : {}), ...(s.llmKeyEnv !== undefined ? { llmKeyEnv: s.llmKeyEnv } : {}) };
  }
}

/**
 * A normalised configuration in the file's words, every default written out: what `study.json` of
 * a study folder holds, and a valid `--config` file again.
 *
 * @example
 * ```ts
 * import { studyConfig, studyConfigJson } from 'dialogym';
 * const json = studyConfigJson(studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft'] }));
 * studyConfig(json); // the same configuration
 * ```
 */
export function studyConfigJson(c: StudyConfig): Record<string, unknown> {
  return {
    title: c.title,
    env: c.env,
    envOptions: c.envOptions,
    ...(c.role === 'user' ? { agents: c.agents.map(rawOf) } : {}),
    role: c.role,
    participants: c.participants,
    sessionsPerParticipant: c.sessionsPerParticipant,
    seed: c.seed,
    questions: c.questions.map((q) => ({ ...q })),
    ...(c.hints ? {} : { hints: false }),
  };
}

/**
 * Checks a configuration value (as parsed from JSON) and fills in the defaults; `where` names it in
 * errors (a file name). Throws a one-line FormatError `where: field: reason`.
 *
 * @example
 * ```ts
 * import { studyConfig } from 'dialogym';
 * const c = studyConfig({ env: 'infobot-medium-v1', agents: ['rl-soft', { label: 'mine', cmd: 'python3 agent.py' }] });
 * console.log(c.agents.map((a) => a.label), c.sessionsPerParticipant); // ['rl-soft', 'mine'] 20
 * ```
 */
export function studyConfig(value: unknown, where = 'study config'): StudyConfig {
  const issue = checkSchema('study-config', value);
  if (issue) throw new FormatError(where, undefined, issue.reason);
  const raw = value as RawConfig;
  const role = raw.role ?? 'user';
  if (role === 'user' && raw.agents === undefined) throw new FormatError(where, undefined, 'missing "agents" list: people play the user against the agents compared (give at least one)');
  if (role === 'agent' && raw.agents !== undefined) throw new FormatError(where, undefined, 'agents: cannot be given when people play the agent (role "agent")');
  const agents = role === 'agent' ? [{ kind: 'builtin', label: PEOPLE, name: PEOPLE } as const] : (raw.agents ?? []).map((a, i) => specOf(a, i, where));
  const seen = new Map<string, number>();
  agents.forEach((a, i) => {
    const before = seen.get(a.label);
    if (before !== undefined) throw new FormatError(where, undefined, `agents[${i}]: the label "${a.label}" is already agents[${before}]'s; give each agent its own "label"`);
    seen.set(a.label, i);
  });
  const ids = new Set<string>();
  const questions = (raw.questions ?? []).map((q, i) => {
    if (ids.has(q.id)) throw new FormatError(where, undefined, `questions[${i}].id: "${q.id}" is asked twice`);
    ids.add(q.id);
    const type = q.type ?? 'rating';
    const min = q.min ?? 1;
    const max = q.max ?? 5;
    if (type === 'rating' && min >= max) throw new FormatError(where, undefined, `questions[${i}]: min must be below max, got ${min} and ${max}`);
    return { id: q.id, text: q.text, type, min, max };
  });
  return {
    title: raw.title ?? `${raw.env} study`,
    env: raw.env,
    envOptions: raw.envOptions ?? {},
    agents,
    role,
    participants: raw.participants ?? 8,
    sessionsPerParticipant: raw.sessionsPerParticipant ?? 20,
    seed: raw.seed ?? 1,
    questions,
    hints: raw.hints ?? true,
  };
}

/**
 * Reads a study configuration file (JSON): at most 1 MiB, then as {@link studyConfig}; errors
 * name the file (`study.json: agents[1]: …`, `study.json:3: invalid JSON: …`).
 *
 * @example
 * ```ts
 * import { readStudyConfig } from 'dialogym';
 * const config = readStudyConfig('study.json');
 * ```
 */
export function readStudyConfig(file: string): StudyConfig {
  const text = readTextFile(file, { maxBytes: 1024 * 1024 });
  return studyConfig(parseJsonText(text, file), file);
}

