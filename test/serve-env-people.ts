/**
 * Scripted people of the `serve --env` tests (test/serve-env*.test.ts): what a person playing the
 * agent sends, from what the page shows (the dialog, the agent's view, the tools), reasoning as
 * the testbeds' rule agents do.
 */
import assert from 'node:assert/strict';
import type { Rng } from '../src/core/rng.js';
import type { Turn } from '../src/core/dialog.js';
import type { ToolCall, ToolSpec } from '../src/env/env.js';
import type { GoalCard, ViewSection } from '../src/env/person.js';
import type { SessionState } from '../src/serve/env-session.js';
import { createRulesBot } from '../src/testbeds/restaurant/rules/rules.js';
import { agentPolicies, type AgentSession } from '../src/testbeds/airdialogue/policies.js';
import type { Flight, KbLine, Month } from '../src/formats/airdialogue.js';

/** What the person sends, from the state the page shows. */
export type Person = (s: SessionState) => string | ToolCall;

/** An agent-side participant of a testbed (`src/testbeds/<t>/testing/person-agent.ts`): the agent view, the dialog and the tools → text or a tool call. */
export type AgentSide = (view: readonly ViewSection[], dialog: ReadonlyArray<{ speaker: 'user' | 'agent'; text: string }>, tools: readonly ToolSpec[]) => string | ToolCall;

/** An agent-side participant playing on the session state (the page's view, its dialog without the KB lines, its forms). */
export function agentSidePerson(side: AgentSide): Person {
  return (s) => side(s.agentView ?? [], s.turns.filter((t): t is typeof t & { speaker: 'user' | 'agent' } => t.speaker !== 'kb'), s.tools ?? []);
}

/** A user-side participant of a testbed (`src/testbeds/<t>/testing/person-user.ts`): from its seeded stream, the goal card, the hint and the agent's last words → what the person says. */
export type UserSide = (rng: Rng) => (card: GoalCard, hint: string | undefined, agentSaid: string) => string;

/** A user-side participant playing on the session state (its goal card, the hint, the agent's last turn). */
export function userSidePerson(side: UserSide, rng: Rng): Person {
  const say = side(rng);
  return (s) => say(s.goalCard as GoalCard, s.hint, [...s.turns].reverse().find((t) => t.speaker === 'agent')?.text ?? '');
}

/** One request of the `serve --env` API (fastify's inject or a real HTTP call): the status and the JSON body. */
export type EnvApiCall = (method: 'GET' | 'POST', url: string, body?: unknown) => Promise<{ status: number; json: Record<string, unknown> }>;

/** One dialog through the API: a new session, then the person's turns until it ends; the session id, the final state and the person's turn count. */
export async function playEnvDialog(call: EnvApiCall, person: Person): Promise<{ id: string; state: SessionState; turns: number }> {
  const created = await call('POST', '/api/env/sessions', {});
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const id = created.json['id'] as string;
  let state = created.json['state'] as SessionState;
  let turns = 0;
  while (state.waiting !== 'ended') {
    if (state.waiting === 'other') {
      state = (await call('GET', `/api/env/sessions/${id}?wait=1`)).json['state'] as SessionState;
      continue;
    }
    assert.ok(turns++ < 200, 'the dialog ends');
    // A turn where the simulated user says nothing new (`wordless`): the scripted person lets it pass, as the simulated user does.
    const input = state.wordless ? '' : person(state);
    const r = await call('POST', `/api/env/sessions/${id}/send`, typeof input === 'string' ? { text: input } : input);
    assert.equal(r.status, 200, JSON.stringify(r.json));
    state = r.json['state'] as SessionState;
  }
  return { id, state, turns };
}

/**
 * A person playing the restaurant agent with the rule bot's reasoning over what the page shows: the
 * dialog (the datasets' `<SILENCE>` put back where the agent spoke twice), the api_call made
 * through its form (each argument picked among the form's options).
 */
export function restaurantAgentPerson(): Person {
  const bot = createRulesBot({ dialect: 'babi', restrictions: false });
  return (s) => {
    const history: Turn[] = [];
    let last: 'user' | 'agent' | undefined;
    for (const t of s.turns) {
      if (t.speaker === 'agent' && last === 'agent') history.push({ speaker: 'user', text: '<SILENCE>' });
      history.push({ speaker: t.speaker === 'agent' ? 'bot' : t.speaker, text: t.text });
      if (t.speaker !== 'kb') last = t.speaker;
    }
    if (last === 'agent') history.push({ speaker: 'user', text: '<SILENCE>' });
    const said = bot.respond(history);
    const m = /^api_call (.*)$/.exec(said);
    if (!m) return said;
    const form = s.tools?.find((t) => t.function.name === 'api_call');
    assert.ok(form, 'the api_call form');
    const props = form.function.parameters['properties'] as Record<string, { enum: string[] }>;
    const values = (m[1] as string).split(' ');
    return { tool: 'api_call', arguments: Object.fromEntries(Object.keys(props).map((k, i) => [k, (props[k] as { enum: string[] }).enum.find((v) => v === values[i]) ?? 'none'])) };
  };
}

/** The agent's context read back off the page's view: the reservation line and the flight table. */
function contextOf(view: readonly ViewSection[]): KbLine {
  const res = view.find((v) => v.title === 'Reservation');
  const table = view.find((v) => v.kind === 'table');
  assert.ok(res && res.kind === 'text' && table && table.kind === 'table', JSON.stringify(view).slice(0, 200));
  const reservation = Number(/flight (\d+)/.exec(res.lines.join(' '))?.[1] ?? 0);
  const when = (cell: string): [Month, string, number] => {
    const m = /^(\w+) (\d+), (\d+):00$/.exec(cell);
    assert.ok(m, cell);
    return [m[1] as Month, m[2] as string, Number(m[3])];
  };
  const kb: Flight[] = table.rows.map((r) => {
    const [flight, airline, from, to, dep, ret, cls, connections, price] = r as string[];
    const [dm, dd, dt] = when(dep as string);
    const [rm, rd, rt] = when(ret as string);
    return { flight_number: Number(flight), airline: airline as string, departure_airport: from as string, return_airport: to as string, departure_month: dm, departure_day: dd, departure_time_num: dt, return_month: rm, return_day: rd, return_time_num: rt, class: cls as Flight['class'], num_connections: Number(connections), price: Number(price) };
  });
  return { kb, reservation };
}

/** A person playing the AirDialogue agent with the rule agent's reasoning over the page: the customer's last words, the table; the final act through its form. */
export function airAgentPerson(rng: Rng): Person {
  let agent: AgentSession | undefined;
  return (s) => {
    agent ??= agentPolicies.get('rules')(contextOf(s.agentView ?? []), rng);
    const customer = [...s.turns].reverse().find((t) => t.speaker === 'user')?.text ?? '';
    const move = agent.respond(customer);
    if (!move.action) return move.utterance;
    const { status, name, flight } = move.action;
    assert.ok(s.tools?.some((t) => t.function.name === status), status);
    return { tool: status, arguments: { name, ...(flight.length > 0 ? { flight: flight[0] } : {}), utterance: move.utterance } };
  };
}

