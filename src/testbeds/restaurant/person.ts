/**
 * What a person sees of the online restaurant environments (bAbI tasks 1–5 and DSTC6 Track 1, the
 * `person` hook of their family; `env/person.ts`): the user's goal as a card (what to ask for, what
 * to change after the first search, which options there are, what to ask once booked), what the
 * simulated user does now (from the -v2 envs' `info.userAct`), the KB lines the agent has seen as
 * tables, and the end in words. The goal and act texts are also what the LLM user is told
 * (`restaurantLlmView`, the descriptors' LLM section: its goal section and its `[Now: …]` lines),
 * so both say the same.
 */
import type { Turn } from '../../core/dialog.js';
import { detailInWords } from '../../env/detail-words.js';
import type { EndedEpisode, GoalCard, PersonView, ViewSection } from '../../env/person.js';
import type { LlmView } from '../../llm/prompts.js';

/** How a slot is named in words. */
export const SLOT_WORDS: Readonly<Record<string, string>> = {
  cuisine: 'cuisine',
  location: 'location',
  number: 'number of people',
  price: 'price range',
  atmosphere: 'atmosphere',
  restrictions: 'dietary restrictions',
};

type Call = Readonly<Record<string, string>>;

function callWords(call: Call, slots: readonly string[]): string {
  return slots.map((s) => `${SLOT_WORDS[s] ?? s} ${call[s]}`).join(', ');
}

/** The -v2 user goal (`info.goal`) as `goalJson` writes it. */
interface GoalJson {
  task?: number;
  first?: Call;
  final?: Call;
  request?: string[];
  updates?: string[];
  shown?: string[];
  restaurant?: string | null;
  info?: string[];
}

/**
 * The restaurant user's goal (`info.goal` of the -v2 envs) as lines: the task, what it wants
 * (or the restaurant it books, task 4), what its first request mentions, what it changes after the
 * first search, the options already found (task 3) and what it asks once booked.
 */
export function restaurantGoalLines(goal: unknown): string[] {
  const g = (goal ?? {}) as GoalJson;
  const first = g.first ?? {};
  const slots = Object.keys(first).filter((s) => first[s] !== undefined && first[s] !== '');
  const lines = [`task: ${g.task ?? '?'}`];
  if (g.task === 4 && g.restaurant) lines.push(`you want a table at ${g.restaurant}`);
  else {
    lines.push(`you want a restaurant with: ${callWords(first, slots)}`);
    if ((g.request ?? []).length > 0) lines.push(`in your first request you mention: ${(g.request ?? []).map((s) => SLOT_WORDS[s] ?? s).join(', ')}`);
    if ((g.updates ?? []).length > 0) lines.push(`after the assistant's first search you change: ${(g.updates ?? []).map((s) => `${SLOT_WORDS[s] ?? s} to ${g.final?.[s]}`).join(', ')}`);
  }
  if ((g.shown ?? []).length > 0) lines.push(`the assistant already found: ${(g.shown ?? []).join(', ')}`);
  if ((g.info ?? []).length > 0) lines.push(`once booked you ask for: ${(g.info ?? []).map((k) => (k === 'phone' ? 'the phone number' : 'the address')).join(' and ')}`);
  return lines;
}

/** The restaurant user's goal (`info.goal` of the -v2 envs) as the lines of the LLM user's goal section (`- ` before each of `restaurantGoalLines`). */
export function restaurantGoalText(goal: unknown): string {
  return restaurantGoalLines(goal)
    .map((l) => `- ${l}`)
    .join('\n');
}

/**
 * What the restaurant user does this turn (`info.userAct` of the -v2 envs) as an instruction, or
 * undefined when the environment tells none (`{ act: 'answer', slot: 'price', value: 'cheap' }`:
 * 'answer that the price range you want is cheap.').
 */
export function restaurantActText(act: unknown): string | undefined {
  const a = act as { act?: string; slot?: string; value?: string; slots?: Call; name?: string; kind?: string } | undefined;
  switch (a?.act) {
    case 'greet':
      return 'greet the assistant (nothing more yet).';
    case 'request':
      return `ask for a table: say you want ${callWords(a.slots ?? {}, Object.keys(a.slots ?? {})) || 'a restaurant'}, and nothing else yet.`;
    case 'book at':
      return `ask to book a table at ${a.name}.`;
    case 'answer':
      return `answer that the ${SLOT_WORDS[a.slot ?? ''] ?? a.slot} you want is ${a.value}.`;
    case 'update':
      return `change your request: you now want ${SLOT_WORDS[a.slot ?? ''] ?? a.slot} ${a.value} instead.`;
    case 'no more updates':
      return 'say there is nothing else to change.';
    case 'accept':
      return 'accept this option.';
    case 'reject':
      return 'decline this option (you need not say why).';
    case 'ask info':
      return `ask for the ${a.kind === 'phone' ? 'phone number' : 'address'} of the restaurant.`;
    case 'thanks':
      return 'thank the assistant.';
    case 'no thanks':
      return 'say you need nothing else.';
    case 'not understood':
      return 'say you did not understand what the assistant meant.';
    case 'hesitate':
      return 'hesitate or think aloud for a moment, without answering yet.';
    case 'repeat':
      return 'say again what you said last.';
    default:
      return undefined;
  }
}

const TASK_TITLES: Readonly<Record<number, string>> = {
  1: 'Ask for a restaurant table',
  2: 'Ask for a table, then change your request',
  3: 'Choose among the options found',
  4: 'Book a table and get its details',
  5: 'Book a table: the whole conversation',
};

/** The goal card of a restaurant or DSTC6 episode (see the module description). */
function goalCard(info: Readonly<Record<string, unknown>>): GoalCard {
  const task = typeof info['task'] === 'number' ? info['task'] : undefined;
  const title = `${TASK_TITLES[task ?? 0] ?? 'Restaurant booking'}${task !== undefined ? ` (task ${task})` : ''}`;
  if (info['goal'] === undefined) return { title, lines: ['This environment (a -v1 one) does not tell the user’s goal: its -v2 twin does (same tasks, same seeds).'] };
  const lines = restaurantGoalLines(info['goal']).slice(1); // the task is in the title
  if (task === 3 || task === 5) lines.push('the assistant proposes restaurants one at a time: accept or decline each one as the hint says');
  return { title, lines: [...lines, 'Say it in your own words; the hint under the dialog says what to do at each turn.'] };
}

/** `text` with its first letter in upper case. */
function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** One KB line (`name R_field value`; DSTC6: `r_field`) as [restaurant, field, value], or undefined for another line (`api_call no result`). */
function kbFact(line: string): [string, string, string] | undefined {
  const m = /^(\S+) [Rr]_(\S+)(?: (.*))?$/.exec(line);
  return m ? [m[1] as string, m[2] as string, m[3] ?? ''] : undefined;
}

/** The KB lines as a table: a row per restaurant (in order of appearance), a column per field (in order of appearance). */
function kbTable(title: string, lines: readonly string[]): ViewSection {
  const columns: string[] = [];
  const rows = new Map<string, Map<string, string>>();
  for (const line of lines) {
    const f = kbFact(line);
    if (!f) continue;
    const [name, field, value] = f;
    if (!columns.includes(field)) columns.push(field);
    let row = rows.get(name);
    if (!row) rows.set(name, (row = new Map()));
    row.set(field, value);
  }
  if (rows.size === 0) return { kind: 'text', title, lines: ['no restaurant matches'] };
  return { kind: 'table', title, columns: ['name', ...columns], rows: [...rows].map(([name, row]) => [name, ...columns.map((c) => row.get(c) ?? '')]) };
}

/**
 * What a person playing the agent sees besides the dialog: each block of KB lines in the history
 * as a table (the restaurants shown before the dialog, task 3 and 4; the results of each
 * `api_call`, the latest first).
 */
function agentView(observation: unknown): readonly ViewSection[] {
  const history = ((observation as { history?: unknown } | null)?.history ?? []) as readonly Turn[];
  if (!Array.isArray(history)) return [];
  const blocks: { title: string; lines: string[] }[] = [];
  let calls = 0;
  let dialogStarted = false;
  let prev: Turn | undefined;
  for (const t of history) {
    if (t.speaker === 'kb') {
      if (prev?.speaker !== 'kb') blocks.push({ title: dialogStarted ? `Results of search ${calls}` : 'Restaurants found before the dialog', lines: [] });
      (blocks[blocks.length - 1] as { lines: string[] }).lines.push(t.text);
    } else {
      dialogStarted = true;
      if (t.speaker === 'bot' && t.text.startsWith('api_call')) calls++;
    }
    prev = t;
  }
  return blocks.reverse().map((b) => kbTable(b.title, b.lines));
}

/** A failure reason of the restaurant envs in words (docs/restaurant-contract.md, "Reward and failures"). */
const FAILURE_WORDS: Readonly<Record<string, string>> = {
  'invalid api_call': 'an api_call that does not parse',
  'unknown option': 'a proposed restaurant that was not among the search results',
  'option not matching the goal': "a proposed restaurant that does not match the user's request",
  'option order': 'a proposed restaurant rated below another one not yet proposed',
  information: 'a wrong phone number or address',
  api_call: "the last search was not the user's final request",
  'no api_call': 'the conversation ended without a search',
  'max turns': 'the conversation reached its turn limit',
};

/** An ended restaurant or DSTC6 episode in words. */
function outcome(e: EndedEpisode): readonly string[] {
  const booked = typeof e.info['booked'] === 'string' ? [`Booked: ${e.info['booked']}.`] : [];
  if (e.success) return ['Success: the conversation reached the user’s goal.', ...booked];
  const reason = e.failure ?? 'failed';
  const lines = [`Failure: ${FAILURE_WORDS[reason] ?? reason}.`];
  const why = detailInWords(e.detail);
  if (why !== undefined) lines.push(`Why: ${why}.`);
  return [...lines, ...booked];
}

/**
 * The person view of the restaurant and DSTC6 environments (module description above).
 *
 * @example
 * ```ts
 * import { make, envPersonView } from 'dialogym';
 * const { info } = make('restaurant-task5-v2').reset({ seed: 1 });
 * envPersonView('restaurant-task5-v2')?.goalCard(info).lines;
 * ```
 */
export const restaurantPersonView: PersonView = {
  goalCard,
  userHint(info) {
    const t = restaurantActText(info['userAct']);
    return t === undefined ? undefined : capital(t);
  },
  agentView,
  outcome,
};

/**
 * How the restaurant and DSTC6 environments are worded for a language model (the `view` of their
 * descriptors' LLM section, src/llm/prompts.ts): the LLM agent's context is the default, the KB
 * lines shown before the dialog (task 3's options, task 4's restaurant); the LLM user's goal is
 * `restaurantGoalText`, its `[Now: …]` line `restaurantActText`, and an `api_call` of the agent
 * reads as a search.
 *
 * @example
 * ```ts
 * restaurantLlmView.agentTurn?.('api_call italian rome two cheap'); // '(The assistant searches its database.)'
 * ```
 */
export const restaurantLlmView: LlmView = {
  goal: restaurantGoalText,
  act: restaurantActText,
  agentTurn: (text) => (text.startsWith('api_call') ? '(The assistant searches its database.)' : `Assistant: ${text}`),
};
