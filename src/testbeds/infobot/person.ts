/**
 * What a person sees of the KB-InfoBot environments (the `person` hook of their family;
 * `env/person.ts`), as in the paper's human evaluation (§6.5): the target movie with the values the
 * user knows, several candidate values for some slots (`info.candidates`), what the simulated user
 * says now (`info.userSaid`: the slot it gives and the value as it says it, or that it does not
 * know), the agent's movie table (the split's KB as the environment builds it by default, missing
 * values empty: what dialogym's InfoBot agents and the LLM agent see; `inform` takes its row
 * numbers), and the end in words with the target's rank.
 */
import { detailInWords } from '../../env/detail-words.js';
import type { EndedEpisode, GoalCard, PersonView, ViewSection } from '../../env/person.js';
import type { LlmView } from '../../llm/prompts.js';
import type { SlotValue, UserAct } from './acts.js';
import { splitKbs } from './generate.js';
import type { MovieKb } from './movie-kb.js';
import { REWARDS, SLOTS, splitOfEnvId, type Slot, type SplitName } from './slots.js';
import { renderAction } from './chat.js';
import type { InfoBotAction } from './acts.js';

/** How a slot is named in words. */
const SLOT_WORDS: Readonly<Record<string, string>> = {
  actor: 'actor',
  critic_rating: 'critic rating',
  genre: 'genre',
  mpaa_rating: 'MPAA rating',
  director: 'director',
  release_year: 'release year',
};

export function slotWords(slot: string): string {
  return SLOT_WORDS[slot] ?? slot;
}

/** "A, B and C". */
function joinWords(ps: readonly string[]): string {
  return ps.length <= 1 ? ps.join('') : `${ps.slice(0, -1).join(', ')} and ${ps[ps.length - 1]}`;
}

/** The goal card: the target movie, what the user knows of it, with candidates where it is unsure. */
function goalCard(info: Readonly<Record<string, unknown>>): GoalCard {
  const goal = (info['goal'] ?? {}) as { title?: string; known?: Record<string, string> };
  const candidates = (info['candidates'] ?? {}) as Record<string, readonly string[]>;
  // The list's heading ends the first line (a line of its own would read as one more remembered value).
  const lines = [`The movie you look for: ${goal.title ?? '(unknown)'}. What you remember of it:`];
  for (const slot of SLOTS) {
    const v = goal.known?.[slot];
    if (v === undefined) continue;
    const c = candidates[slot];
    lines.push(c !== undefined && c.length > 1 ? `${slotWords(slot)}: one of ${c.join(' / ')} (you are not sure which)` : `${slotWords(slot)}: ${v}`);
  }
  lines.push('You know nothing else about it. Start by giving some of these; answer the agent’s questions in your own words, and say so when you do not know.');
  return { title: 'Find a movie', lines };
}

/**
 * The value of `slot` a person is told to give: the card's, never the simulated user's word for it
 * (`said`, which carries the simulator's noise — a cut name, a near year: the person supplies their
 * own). That is the value the user remembers (one of the candidates, for a slot the card gives
 * several for), except that a slot with candidates keeps `said` when it is one of them (the unsure
 * user naming another candidate); without the goal in `info` (a step's info alone), `said`.
 */
function cardValue(info: Readonly<Record<string, unknown>>, slot: string, said: string): string {
  const candidates = ((info['candidates'] ?? {}) as Record<string, readonly string[]>)[slot];
  if (candidates !== undefined && candidates.includes(said)) return said;
  return ((info['goal'] ?? {}) as { known?: Record<string, string> }).known?.[slot] ?? said;
}

/**
 * What the simulated user does now, in words (`info.userSaid`: its act), or undefined when the
 * environment does not tell; the values are the goal card's (`info.goal`, `info.candidates` of the
 * reset, merged into the step's info by the caller).
 */
export function infoBotUserHint(info: Readonly<Record<string, unknown>>): string | undefined {
  const a = info['userSaid'] as UserAct | undefined;
  switch (a?.act) {
    case 'open':
      return `Ask for a movie, giving ${joinWords(a.informs.map((x: SlotValue) => `the ${slotWords(x.slot)} “${cardValue(info, x.slot, x.value)}”`))}.`;
    case 'inform':
      return `Answer that the ${slotWords(a.slot)} is “${cardValue(info, a.slot, a.value)}”.`;
    case 'dont-know':
      return `Say you do not know the ${slotWords(a.slot)}.`;
    case 'thanks':
      return 'Thank the agent: your movie is among its results.';
    case 'deny':
      return 'Say that your movie is not among its results.';
    default:
      return undefined;
  }
}

const agentKbs = new Map<SplitName, MovieKb>();

/** The agent's KB of a split as the environment builds it by default (built once per split). */
function agentKb(split: SplitName): MovieKb {
  let kb = agentKbs.get(split);
  if (kb === undefined) agentKbs.set(split, (kb = splitKbs(split, 1).incomplete));
  return kb;
}

/** The agent's movie table: the row number `inform` takes, the title, a column per slot (missing values empty). */
export function movieTable(kb: MovieKb): { columns: string[]; rows: string[][] } {
  const rows: string[][] = [];
  for (let i = 0; i < kb.n; i++) {
    const r = kb.row(i);
    rows.push([String(i), kb.titles[i] as string, ...SLOTS.map((s) => r[s] ?? '')]);
  }
  return { columns: ['row', 'title', ...SLOTS], rows };
}

const movieTables = new Map<string, string>();

/**
 * The KB-InfoBot LLM agent's context of `infobot-<split>-*`: its movie table in markdown (the
 * split's KB as the environment builds it by default, missing values as empty cells; row index
 * first — `inform` takes row indices), built once per id.
 *
 * @example
 * ```ts
 * movieContext('infobot-small-v1').split('\n')[0]; // '| row | title | actor | critic_rating | genre | mpaa_rating | director | release_year |'
 * ```
 */
export function movieContext(envId: string): string {
  let t = movieTables.get(envId);
  if (t !== undefined) return t;
  const table = movieTable(agentKb(splitOfEnvId(envId)));
  const lines = [`| ${table.columns.join(' | ')} |`, `|${table.columns.map(() => '---|').join('')}`];
  for (const row of table.rows) lines.push(`| ${row.join(' | ')} |`);
  t = lines.join('\n');
  movieTables.set(envId, t);
  return t;
}

/**
 * How the KB-InfoBot environments are worded for a language model (the `view` of the descriptor's
 * LLM section, src/llm/prompts.ts): the LLM agent's context is the movie table (`movieContext`);
 * there is no LLM user.
 *
 * @example
 * ```ts
 * infoBotLlmView.context?.('infobot-small-v1', {})?.split('\n').length; // 279
 * ```
 */
export const infoBotLlmView: LlmView = { context: (envId) => movieContext(envId) };

/** The failure reasons in words, to a person who played the user and to one who played the agent. */
const FAILURE_WORDS: Readonly<Record<'user' | 'agent', Readonly<Record<string, string>>>> = {
  user: {
    'max turns': 'the agent did not inform its results within the turn limit',
    'target not in results': 'the movie is not among the agent’s results',
    'target ranked too low': `the movie is not among the agent’s first ${REWARDS.successMaxRank} results`,
  },
  agent: {
    'max turns': 'you did not inform your results within the turn limit',
    'target not in results': 'the user’s movie is not among your results',
    'target ranked too low': `the user’s movie is not among your first ${REWARDS.successMaxRank} results`,
  },
};

/** The InfoBot action of an agent's action (a tool call or the environment's action object); undefined for another shape. */
function infoBotActionOf(a: unknown): InfoBotAction | undefined {
  const o = a as { tool?: unknown; arguments?: Record<string, unknown>; act?: unknown; slot?: unknown; results?: unknown } | null;
  if (typeof o !== 'object' || o === null) return undefined;
  const isSlot = (x: unknown): x is Slot => (SLOTS as readonly unknown[]).includes(x);
  if (o.tool === 'request' && isSlot(o.arguments?.['slot'])) return { act: 'request', slot: o.arguments['slot'] };
  if (o.tool === 'inform' && Array.isArray(o.arguments?.['results'])) return { act: 'inform', results: o.arguments['results'] as number[] };
  if (o.act === 'request' && isSlot(o.slot)) return a as InfoBotAction;
  if (o.act === 'inform' && Array.isArray(o.results)) return a as InfoBotAction;
  return undefined;
}

/** An ended KB-InfoBot episode in words (to the user or to the agent): success or failure, why, and the target's rank. */
function outcome(e: EndedEpisode): readonly string[] {
  const rank = e.info['rank'];
  const agent = e.role === 'agent';
  const failed = FAILURE_WORDS[agent ? 'agent' : 'user'][e.failure ?? ''] ?? e.failure ?? (agent ? 'you did not find the user’s movie' : 'the agent did not find your movie');
  const lines = [e.success ? (agent ? 'Success: you found the user’s movie.' : 'Success: the agent found your movie.') : `Failure: ${failed}.`];
  if (!e.success) {
    const why = detailInWords(e.detail);
    if (why !== undefined) lines.push(`Why: ${why}.`);
  }
  if (typeof rank === 'number') {
    const [movie, list] = agent ? ['The user’s movie', 'your list'] : ['Your movie', 'the agent’s list'];
    lines.push(rank >= 0 ? `${movie} is result ${rank + 1} of ${list} (it must be among the first ${REWARDS.successMaxRank}).` : `${movie} is not in ${list}.`);
  }
  return lines;
}

/**
 * The person view of `infobot-<split>-v1` (module description above).
 *
 * @example
 * ```ts
 * import { make, envPersonView } from 'dialogym';
 * const { info } = make('infobot-medium-v1').reset({ seed: 1 });
 * envPersonView('infobot-medium-v1')?.goalCard(info).lines; // ['The movie you look for: …', …]
 * ```
 */
export function infoBotPersonView(split: SplitName): PersonView {
  return {
    goalCard,
    userHint: infoBotUserHint,
    agentView(): readonly ViewSection[] {
      const t = movieTable(agentKb(split));
      return [{ kind: 'table', title: 'Movies (inform takes row numbers, best first)', columns: t.columns, rows: t.rows }];
    },
    agentSaid(action): string | undefined {
      const a = infoBotActionOf(action);
      if (a === undefined) return undefined;
      const kb = agentKb(split);
      // Row numbers outside the agent's KB stay numbers (the environment refuses them in its own words).
      if (a.act === 'inform' && a.results.some((i) => !Number.isSafeInteger(i) || i < 0 || i >= kb.n)) return undefined;
      return renderAction(a, kb);
    },
    outcome,
  };
}
