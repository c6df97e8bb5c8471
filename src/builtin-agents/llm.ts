/**
 * What an LLM agent is told about dialogym's testbeds (docs/llm.md): the shipped system prompt of
 * each family (`prompts/<family>.md` at the package root, replaced by `--system-prompt <file>`) and
 * the context the environment gives the agent, appended to it under `## Context`:
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
import { ConfigError } from '../core/errors.js';
import type { KbLine } from '../formats/airdialogue.js';
import { InfoBotEnv } from '../testbeds/infobot/env.js';
import { SLOTS } from '../testbeds/infobot/slots.js';
import { systemMessage } from '../llm/conversation.js';

/** The folder of the shipped prompts (`prompts/` at the package root, beside `dist/`). */
export const PROMPT_DIR: string = fileURLToPath(new URL('../../../prompts/', import.meta.url));

/** The testbed families with a shipped prompt. */
export const PROMPT_FAMILIES = ['restaurant', 'dstc6', 'airdialogue', 'infobot'] as const;
export type PromptFamily = (typeof PROMPT_FAMILIES)[number];

/** The family of an environment id, or undefined for another environment. */
export function promptFamily(envId: string): PromptFamily | undefined {
  return PROMPT_FAMILIES.find((f) => envId.startsWith(`${f}-`));
}

const prompts = new Map<string, string>();

/** The shipped prompt of an environment's family; a ConfigError for an environment without one. */
export function shippedPrompt(envId: string): string {
  const family = promptFamily(envId);
  if (family === undefined) throw new ConfigError(`${envId}: no shipped LLM prompt for this environment (give one with --system-prompt <file>)`);
  let p = prompts.get(family);
  if (p === undefined) {
    p = readFileSync(`${PROMPT_DIR}${family}.md`, 'utf8');
    prompts.set(family, p);
  }
  return p;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
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
  const lines = [kb.reservation === 0 ? 'The customer has no reservation.' : `The customer's reservation: flight ${kb.reservation}.`, ''];
  lines.push('| flight | airline | from | to | departure | return | class | connections | price |', '|---|---|---|---|---|---|---|---|---|');
  for (const f of kb.kb) {
    lines.push(`| ${f.flight_number} | ${f.airline} | ${f.departure_airport} | ${f.return_airport} | ${f.departure_month} ${f.departure_day}, ${pad2(f.departure_time_num)}:00 | ${f.return_month} ${f.return_day}, ${pad2(f.return_time_num)}:00 | ${f.class} | ${f.num_connections} | ${f.price} |`);
  }
  return lines.join('\n');
}

const movieTables = new Map<string, string>();

/** The KB-InfoBot agent's movie table of `infobot-<split>-*` (built once per id). */
export function movieContext(envId: string): string {
  let t = movieTables.get(envId);
  if (t !== undefined) return t;
  const split = /^infobot-([a-z]+)-v\d+$/.exec(envId)?.[1];
  if (split === undefined) throw new ConfigError(`${envId}: not a KB-InfoBot environment id (infobot-<split>-v1)`);
  const kb = new InfoBotEnv({ split }).kb;
  const lines = [`| row | title | ${SLOTS.join(' | ')} |`, `|---|---|${SLOTS.map(() => '---|').join('')}`];
  for (let i = 0; i < kb.n; i++) {
    const r = kb.row(i);
    lines.push(`| ${i} | ${kb.titles[i]} | ${SLOTS.map((s) => r[s] ?? '').join(' | ')} |`);
  }
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
  const family = promptFamily(envId);
  if (family === 'airdialogue') {
    const c = o.context as KbLine | undefined;
    return c && Array.isArray(c.kb) ? flightContext(c) : undefined;
  }
  if (family === 'infobot') return movieContext(envId);
  const lines = Array.isArray(o.kb) ? o.kb.filter((l): l is string => typeof l === 'string') : [];
  return lines.length > 0 ? lines.join('\n') : undefined;
}

/**
 * The system message of the episode an LLM agent starts with `request` (turn 0): the prompt
 * (`prompt`, else the testbed's shipped one) and the episode's context.
 */
export function llmSystemMessage(request: { readonly env: string; readonly observation: unknown }, prompt?: string): string {
  return systemMessage(prompt ?? shippedPrompt(request.env), episodeContext(request.env, request.observation));
}
