/**
 * What an LLM agent is told about dialogym's testbeds (docs/llm.md): the shipped system prompt of
 * each testbed (its descriptor's `llm` section, `prompts/<file>` at the package root, replaced by
 * `--system-prompt <file>`; the list of testbeds declares the sections, `llmSectionOf`) and the
 * context the environment gives the agent (the section's `context`), appended under `## Context`:
 *
 * - `restaurant-*` / `dstc6-*` (and any environment whose first observation has `kb` lines): the
 *   KB lines in the history before the dialog starts (task 3's shown options, task 4's booked
 *   restaurant), one per line; none for the other tasks;
 * - `airdialogue-*`: the customer's reservation and the agent's flight table (`flightContext`);
 * - `infobot-<split>-*`: the agent's movie table (the split's KB as the environment builds it by
 *   default, missing values as empty cells; row index first — `inform` takes row indices).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, errorText, optionName } from '../core/errors.js';
import type { KbLine } from '../formats/airdialogue.js';
import { airGoalText, flightCells, FLIGHT_COLUMNS, reservationText } from '../testbeds/airdialogue/person.js';
import { restaurantActText, restaurantGoalText } from '../testbeds/restaurant/person.js';
import { InfoBotEnv } from '../testbeds/infobot/env.js';
import { splitOfEnvId } from '../testbeds/infobot/slots.js';
import { llmSectionOf } from '../agents/registry.js';
import { movieTable } from '../testbeds/infobot/person.js';
import { systemMessage } from '../llm/conversation.js';

/** The folder of the shipped prompts (`prompts/` at the package root, beside `dist/`). */
export const PROMPT_DIR: string = fileURLToPath(new URL('../../../prompts/', import.meta.url));

/** The testbed whose LLM section (its descriptor's `llm`) covers an environment id, or undefined for another environment. */
export function promptFamily(envId: string): string | undefined {
  return llmSectionOf(envId)?.testbed;
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

/** The shipped prompt of an environment's testbed (its descriptor's `llm.prompt`); a ConfigError for an environment without one. */
export function shippedPrompt(envId: string): string {
  const section = llmSectionOf(envId);
  if (section === undefined) throw new ConfigError(errorText`${envId}: no shipped LLM prompt for this environment (give one with ${optionName('systemPrompt')} <file>)`);
  return promptFile(section.prompt);
}

/**
 * The AirDialogue context: the reservation line, then the flight table (markdown; times as `h:00`).
 *
 * @example
 * ```ts
 * flightContext({ reservation: 0, kb: [flight] });
 * // "The customer has no reservation.\n\n| flight | airline | from | to | departure | return | class | connections | price |\n|---|…\n| 1000 | Frontier | MCO | EWR | Jan 2, 17:00 | Jan 3, 13:00 | economy | 1 | 100 |"
 * ```
 */
export function flightContext(kb: KbLine): string {
  const lines = [reservationText(kb), ''];
  lines.push(`| ${FLIGHT_COLUMNS.join(' | ')} |`, `|${FLIGHT_COLUMNS.map(() => '---|').join('')}`);
  for (const f of kb.kb) lines.push(`| ${flightCells(f).join(' | ')} |`);
  return lines.join('\n');
}

const movieTables = new Map<string, string>();

/** The KB-InfoBot agent's movie table of `infobot-<split>-*` (built once per id). */
export function movieContext(envId: string): string {
  let t = movieTables.get(envId);
  if (t !== undefined) return t;
  const table = movieTable(new InfoBotEnv({ split: splitOfEnvId(envId) }).kb);
  const lines = [`| ${table.columns.join(' | ')} |`, `|${table.columns.map(() => '---|').join('')}`];
  for (const row of table.rows) lines.push(`| ${row.join(' | ')} |`);
  t = lines.join('\n');
  movieTables.set(envId, t);
  return t;
}

/**
 * The context of an episode from its first observation (see the module description), or
 * undefined when the environment gives none.
 */
export function episodeContext(envId: string, obs0: unknown): string | undefined {
  const o = (obs0 ?? {}) as { kb?: unknown; context?: unknown };
  const context = llmSectionOf(envId)?.context ?? 'kb';
  if (context === 'flights') {
    const c = o.context as KbLine | undefined;
    return c && Array.isArray(c.kb) ? flightContext(c) : undefined;
  }
  if (context === 'movies') return movieContext(envId);
  const lines = Array.isArray(o.kb) ? o.kb.filter((l): l is string => typeof l === 'string') : [];
  return lines.length > 0 ? lines.join('\n') : undefined;
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
  const file = llmSectionOf(envId)?.userPrompt;
  if (file === undefined) throw new ConfigError(`${envId}: no LLM user for this environment (the LLM user plays the restaurant, DSTC6 and AirDialogue envs)`);
  return promptFile(file);
}

/**
 * The LLM user's system message of an episode: its prompt (`prompt`, else the shipped one,
 * `prompts/user-<testbed>.md`) and its goal (`info.goal`) under `## Your goal`. A ConfigError when
 * the environment tells no goal (the -v1 envs) or has no LLM user.
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
  const goal = llmSectionOf(turn.env)?.context === 'flights' ? airGoalText(turn.goal) : restaurantGoalText(turn.goal);
  return `${(prompt ?? shippedUserPrompt(turn.env)).trimEnd()}\n\n## Your goal\n\n${goal}`;
}

/**
 * The message that prompts one turn of the LLM user: what the agent said since the user last spoke
 * (`Assistant: …` lines; a restaurant `api_call` shown as a search), or that the user speaks first;
 * then what it does now, where the environment tells it (`[Now: …]`, from `info.userAct`).
 *
 * @example
 * ```ts
 * import { llmUserPrompt } from 'dialogym';
 * llmUserPrompt({ turn: 1, history: [{ speaker: 'user', text: 'hi' }, { speaker: 'bot', text: 'where should it be' }], info: { userAct: { act: 'answer', slot: 'location', value: 'rome' } } });
 * // 'Assistant: where should it be\n\n[Now: answer that the location you want is rome.]'
 * ```
 */
export function llmUserPrompt(turn: { readonly turn: number; readonly history: ReadonlyArray<{ readonly speaker: string; readonly text: string }>; readonly info: Readonly<Record<string, unknown>> }): string {
  const h = turn.history;
  let from = h.length;
  while (from > 0 && h[from - 1]?.speaker !== 'user') from--;
  const said = h
    .slice(from)
    .filter((t) => t.speaker === 'bot')
    .map((t) => (t.text.startsWith('api_call') ? '(The assistant searches its database.)' : `Assistant: ${t.text}`));
  const parts = [said.length > 0 ? said.join('\n') : turn.turn === 0 ? '(The conversation starts: you speak first.)' : '(The assistant says nothing.)'];
  const now = restaurantActText(turn.info['userAct']);
  if (now !== undefined) parts.push(`[Now: ${now}]`);
  return parts.join('\n\n');
}
