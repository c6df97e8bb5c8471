/**
 * What an LLM agent and the LLM user are told (docs/llm.md). Each testbed says it in the `llm`
 * section of its descriptor (`src/testbeds/<t>/testbed.ts`), which the list of testbeds declares
 * here for its env ids (`declareLlmSection`): the shipped prompt files (`prompts/<file>` at the
 * package root; `--system-prompt` / `--user-prompt` replace them) and how the testbed words an
 * episode for a model (its `LlmView`, loaded lazily with the testbed's code):
 *
 * - the agent's context under `## Context`, from the first observation (`view.context`; by
 *   default the KB lines the observation holds, `kb`, one per line, none when it holds none);
 * - the LLM user's goal under `## Your goal`, from the reset's `info.goal` (`view.goal`);
 * - what the user does now, `[Now: …]`, from each turn's `info.userAct` (`view.act`), after what
 *   the agent said since (`view.agentTurn`; by default `Assistant: <text>`).
 *
 * Generic: it names no testbed and imports none; every testbed's wording comes through its section.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, errorText, optionName } from '../core/errors.js';
import { systemMessage } from './conversation.js';

/**
 * How a testbed words its episodes for a language model (the `view` of its `LlmSection`). Each part
 * is optional: without `context`, the first observation's `kb` lines are the context; without
 * `goal`, the user's goal is shown as JSON; without `act`, the user's turns say only what the agent
 * said, each turn as `Assistant: <text>` unless `agentTurn` words it.
 *
 * @example
 * ```ts
 * import type { LlmView } from 'dialogym';
 * const view: LlmView = { context: () => 'The user asks for one of: apple, river.', goal: (g) => `- the word: ${String(g)}` };
 * ```
 */
export interface LlmView {
  /** The agent's context of an episode from its first observation, or undefined for none. */
  readonly context?: (envId: string, observation: unknown) => string | undefined;
  /** The LLM user's goal section (the lines under `## Your goal`) from the environment's `info.goal`. */
  readonly goal?: (goal: unknown) => string;
  /** What the user does this turn, from `info.userAct`, as an instruction; undefined when the environment tells none. */
  readonly act?: (userAct: unknown) => string | undefined;
  /** One turn of the agent as the LLM user reads it (default `Assistant: <text>`; the restaurant's shows an `api_call` as a search). */
  readonly agentTurn?: (text: string) => string;
  /** The LLM agent's system prompt itself, for a testbed that keeps it in its code rather than in `prompts/` (the section's `prompt` file wins). */
  readonly prompt?: string;
}

/**
 * What an LLM agent and the LLM user are told about the environments of a testbed: its
 * descriptor's `llm` section, declared by the list of testbeds for each of its env ids.
 *
 * @example
 * ```ts
 * import type { LlmSection } from 'dialogym';
 * const s: LlmSection = { testbed: 'airdialogue', prompt: 'airdialogue.md', userPrompt: 'user-airdialogue.md', view: async () => ({ context: () => undefined }) };
 * ```
 */
export interface LlmSection {
  /** The testbed (its folder name). */
  readonly testbed: string;
  /** The LLM agent's system prompt, `prompts/<prompt>` (or the view's `prompt`). */
  readonly prompt?: string;
  /** The LLM user's system prompt, `prompts/<userPrompt>`, where the testbed has an LLM user. */
  readonly userPrompt?: string;
  /**
   * How the testbed words an episode (`LlmView`): the view itself, or its lazy entry point
   * (`() => import(…)`, loaded by `loadLlmSections`, as `import 'dialogym'` does).
   */
  readonly view?: LlmView | (() => Promise<LlmView>);
}

const sections = new Map<string, LlmSection>();
/** The lazy views loaded (or being loaded), by their entry point (a section copied for other ids shares its loaded view). */
const views = new Map<() => Promise<LlmView>, LlmView | Promise<LlmView>>();

/**
 * Declares the LLM section of environments `envIds` (the list of testbeds does, from each
 * descriptor; an environment of your own may, to get a testbed's shipped prompt and wording).
 *
 * @example
 * ```ts
 * import { declareLlmSection, llmSectionOf } from 'dialogym';
 * declareLlmSection(['my-restaurant-v0'], { ...llmSectionOf('restaurant-task5-v2')! });
 * ```
 */
export function declareLlmSection(envIds: readonly string[], section: LlmSection): void {
  for (const id of envIds) sections.set(id, section);
}

/**
 * The LLM section of environment `envId`, or undefined for an environment no testbed gives one.
 *
 * @example
 * ```ts
 * import { llmSectionOf } from 'dialogym';
 * llmSectionOf('infobot-small-v1')?.prompt; // 'infobot.md'
 * ```
 */
export function llmSectionOf(envId: string): LlmSection | undefined {
  return sections.get(envId);
}

/** Loads the view of `section` (once). */
async function loadView(section: LlmSection): Promise<void> {
  const v = section.view;
  if (typeof v !== 'function') return;
  let p = views.get(v);
  if (p === undefined) {
    p = v();
    views.set(v, p);
    p.then(
      (view) => views.set(v, view),
      () => views.delete(v),
    );
  }
  await p;
}

/**
 * Loads the views of the LLM sections declared (of `envIds` only, when given): each testbed's
 * wording of its episodes is code of the testbed, imported here. `import 'dialogym'` loads them
 * all; call it after declaring a section with a lazy view of your own.
 *
 * @example
 * ```ts
 * import { loadLlmSections, llmSystemMessage } from 'dialogym';
 * await loadLlmSections(['infobot-small-v1']);
 * llmSystemMessage({ env: 'infobot-small-v1', observation: {} }); // the prompt, then the movie table
 * ```
 */
export async function loadLlmSections(envIds?: readonly string[]): Promise<void> {
  const wanted = envIds === undefined ? [...sections.values()] : envIds.map((id) => sections.get(id)).filter((s): s is LlmSection => s !== undefined);
  await Promise.all([...new Set(wanted)].map(loadView));
}

/** The view of an environment's section (empty for an environment without one); a ConfigError while a lazy view is not loaded. */
function viewOf(envId: string): LlmView {
  const section = sections.get(envId);
  const v = section?.view;
  if (section === undefined || v === undefined) return {};
  if (typeof v !== 'function') return v;
  const loaded = views.get(v);
  if (loaded === undefined || loaded instanceof Promise) throw new ConfigError(`${envId}: the LLM section of testbed ${section.testbed} is not loaded yet (await loadLlmSections() first; import 'dialogym' does)`);
  return loaded;
}

/** The folder of the shipped prompts (`prompts/` at the package root, beside `dist/`). */
export const PROMPT_DIR: string = fileURLToPath(new URL('../../../prompts/', import.meta.url));

/** The testbed whose LLM section (its descriptor's `llm`) covers an environment id, or undefined for another environment. */
export function promptFamily(envId: string): string | undefined {
  return sections.get(envId)?.testbed;
}

const prompts = new Map<string, string>();

/** A shipped prompt file (`prompts/<file>`), read once. */
function promptFile(file: string): string {
  let p = prompts.get(file);
  if (p === undefined) {
    p = readFileSync(`${PROMPT_DIR}${file}`, 'utf8');
    prompts.set(file, p);
  }
  return p;
}

/** The shipped prompt of an environment's testbed (its descriptor's `llm.prompt`, else its view's); a ConfigError for an environment without one. */
export function shippedPrompt(envId: string): string {
  const file = sections.get(envId)?.prompt;
  if (file !== undefined) return promptFile(file);
  const text = sections.has(envId) ? viewOf(envId).prompt : undefined;
  if (text === undefined) throw new ConfigError(errorText`${envId}: no shipped LLM prompt for this environment (give one with ${optionName('systemPrompt')} <file>)`);
  return text;
}

/** The first observation's KB lines, one per line (the context of an environment whose view gives none), or undefined. */
function kbLines(obs0: unknown): string | undefined {
  const kb = ((obs0 ?? {}) as { kb?: unknown }).kb;
  const lines = Array.isArray(kb) ? kb.filter((l): l is string => typeof l === 'string') : [];
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/**
 * The context of an episode from its first observation (its testbed's `view.context`, else the KB
 * lines it holds), or undefined when the environment gives none.
 */
export function episodeContext(envId: string, obs0: unknown): string | undefined {
  const context = viewOf(envId).context;
  return context ? context(envId, obs0) : kbLines(obs0);
}

/**
 * The system message of the episode an LLM agent starts with `request` (turn 0): the prompt
 * (`prompt`, else the testbed's shipped one, `prompts/<testbed>.md`) and the episode's context
 * under `## Context` (docs/llm.md). A ConfigError for an environment without a shipped prompt.
 *
 * @example
 * ```ts
 * import { make, llmSystemMessage } from 'dialogym';
 * const { obs } = make('airdialogue-v1').reset({ seed: 1 });
 * console.log(llmSystemMessage({ env: 'airdialogue-v1', observation: obs })); // the prompt, then the flight table
 * ```
 */
export function llmSystemMessage(request: { readonly env: string; readonly observation: unknown }, prompt?: string): string {
  return systemMessage(prompt ?? shippedPrompt(request.env), episodeContext(request.env, request.observation));
}

// ---------------------------------------------------------------------------------------------
// The LLM user (`evaluate --user-llm`): its prompt, its goal, and what it is told each turn.

/** The shipped prompt of the LLM user of an environment's testbed (its descriptor's `llm.userPrompt`, `prompts/user-<testbed>.md`; DSTC6 shares the restaurant one). */
export function shippedUserPrompt(envId: string): string {
  const file = sections.get(envId)?.userPrompt;
  if (file === undefined) throw new ConfigError(`${envId}: no LLM user for this environment (the LLM user plays the restaurant, DSTC6 and AirDialogue envs)`);
  return promptFile(file);
}

/**
 * The LLM user's system message of an episode: its prompt (`prompt`, else the shipped one,
 * `prompts/user-<testbed>.md`) and its goal (`info.goal`, in its testbed's words) under
 * `## Your goal`. A ConfigError when the environment tells no goal (the -v1 envs) or has no LLM user.
 *
 * @example
 * ```ts
 * import { make, llmUserSystemMessage } from 'dialogym';
 * const { info } = make('airdialogue-v1').reset({ seed: 1 });
 * if (info['goal'] !== undefined) console.log(llmUserSystemMessage({ env: 'airdialogue-v1', goal: info['goal'] }));
 * ```
 */
export function llmUserSystemMessage(turn: { readonly env: string; readonly goal: unknown }, prompt?: string): string {
  if (turn.goal === undefined || turn.goal === null) throw new ConfigError(`${turn.env}: the environment tells no user goal (info.goal): the LLM user plays the -v2 restaurant, DSTC6 and AirDialogue envs`);
  const words = viewOf(turn.env).goal;
  const goal = words ? words(turn.goal) : JSON.stringify(turn.goal, null, 2);
  return `${(prompt ?? shippedUserPrompt(turn.env)).trimEnd()}\n\n## Your goal\n\n${goal}`;
}

/**
 * The message that prompts one turn of the LLM user: what the agent said since the user last spoke
 * (`Assistant: …` lines, or its testbed's words: a restaurant `api_call` shown as a search), or that the user speaks first;
 * then what it does now, where the environment tells it (`[Now: …]`, from `info.userAct` in its
 * testbed's words).
 *
 * @example
 * ```ts
 * import { llmUserPrompt } from 'dialogym';
 * llmUserPrompt({ env: 'restaurant-task5-v2', turn: 1, history: [{ speaker: 'user', text: 'hi' }, { speaker: 'bot', text: 'where should it be' }], info: { userAct: { act: 'answer', slot: 'location', value: 'rome' } } });
 * // 'Assistant: where should it be\n\n[Now: answer that the location you want is rome.]'
 * ```
 */
export function llmUserPrompt(turn: { readonly env: string; readonly turn: number; readonly history: ReadonlyArray<{ readonly speaker: string; readonly text: string }>; readonly info: Readonly<Record<string, unknown>> }): string {
  const view = viewOf(turn.env);
  const agentTurn = view.agentTurn ?? ((text: string): string => `Assistant: ${text}`);
  const h = turn.history;
  let from = h.length;
  while (from > 0 && h[from - 1]?.speaker !== 'user') from--;
  const said = h
    .slice(from)
    .filter((t) => t.speaker === 'bot')
    .map((t) => agentTurn(t.text));
  const parts = [said.length > 0 ? said.join('\n') : turn.turn === 0 ? '(The conversation starts: you speak first.)' : '(The assistant says nothing.)'];
  const now = view.act?.(turn.info['userAct']);
  if (now !== undefined) parts.push(`[Now: ${now}]`);
  return parts.join('\n\n');
}
