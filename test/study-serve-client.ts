/**
 * A scripted participant of `dialogym study serve`, through its HTTP API as the page uses it: it
 * starts (or resumes) a session and, at each of its turns, reads what the page shows — the goal
 * card, the hint, the agent's last words — and types its own sentence (a testbed's scripted person,
 * e.g. `infoBotUserParticipant`), until the environment ends the dialog; then it answers the
 * questions. Used by test/study-serve*.test.ts.
 */
import type { GoalCard, ViewSection } from '../src/env/person.js';
import type { ToolSpec } from '../src/env/env.js';
import { createRng } from '../src/core/rng.js';
import { infoBotUserParticipant } from '../src/testbeds/infobot/testing/person-user.js';
import { splitKbs } from '../src/testbeds/infobot/generate.js';
import type { MovieKb } from '../src/testbeds/infobot/movie-kb.js';

/** What a user-side person types, from the page's goal card, hint and the agent's last words. */
export type Person = (card: GoalCard, hint: string | undefined, agentSaid: string) => string;

let mediumKb: MovieKb | undefined;
/**
 * The KB-InfoBot scripted person of a participant's session (the studies here run
 * infobot-medium-v1): its wording and errors seeded by both; it mixes values up among the medium
 * KB's, as the simulated user does.
 */
export const infoBotPerson = (code: string, session: number): Person => infoBotUserParticipant(createRng(session).fork(`person ${code}`), (mediumKb ??= splitKbs('medium', 1).full));

/** One HTTP answer: status, JSON body and headers. */
export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Headers;
  readonly text: string;
}

/** A request to the study server (`code`: the participant's, in `x-study-code`; `token`: the admin's). */
export async function call(base: string, method: string, path: string, o: { code?: string; token?: string; body?: unknown; raw?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (o.code !== undefined) headers['x-study-code'] = o.code;
  if (o.token !== undefined) headers['authorization'] = `Bearer ${o.token}`;
  let body: string | undefined;
  if (o.raw !== undefined || o.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = o.raw ?? JSON.stringify(o.body);
  }
  const res = await fetch(base + path, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* a page */
  }
  return { status: res.status, body: parsed, headers: res.headers, text };
}

/** The state of a live session as the page gets it. */
export interface PageState {
  readonly waiting: 'person' | 'other' | 'ended';
  readonly goalCard?: GoalCard;
  readonly hint?: string;
  readonly turns: ReadonlyArray<{ speaker: string; text: string }>;
  /** A turn where the simulated user says nothing new (empty text lets it pass). */
  readonly wordless?: boolean;
  readonly outcome?: { success: boolean; lines: string[] };
}

/** Plays one session of participant `code` to its end (a started one is resumed): every answer seen, the last one the finished session. */
export async function playSession(base: string, code: string, o: { answer?: (success: boolean) => number; stopAfterMessages?: number; person?: (session: number) => Person } = {}): Promise<Answer[]> {
  const seen: Answer[] = [];
  let a = await call(base, 'POST', '/api/sessions', { code, body: {} });
  seen.push(a);
  if (a.status !== 201) throw new Error(`start: ${a.status} ${a.text}`);
  const id = a.body['id'] as number;
  // The default person is seeded by the session's id, which fixes its assignment slot (agent and
  // goal): the study's figures then do not depend on how concurrent participants interleave.
  const person = o.person ? o.person(a.body['number'] as number) : infoBotPerson('session', id);
  let sent = 0;
  while (a.body['status'] === 'open') {
    const state = a.body['state'] as PageState;
    if (state.waiting !== 'person') throw new Error(`session ${id}: waiting for ${state.waiting}`);
    if (o.stopAfterMessages !== undefined && sent >= o.stopAfterMessages) return seen;
    const agentSaid = [...state.turns].reverse().find((t) => t.speaker === 'agent')?.text ?? '';
    // A turn where the simulated user says nothing new: the scripted person lets it pass, as the simulated user does.
    const text = state.wordless ? '' : person(state.goalCard ?? { title: '', lines: [] }, state.hint, agentSaid);
    a = await call(base, 'POST', `/api/sessions/${id}/messages`, { code, body: { text } });
    seen.push(a);
    sent++;
    if (a.status !== 200) throw new Error(`session ${id}: ${a.status} ${a.text}`);
  }
  if (o.answer) {
    const outcome = a.body['outcome'] as { success: boolean };
    const r = await call(base, 'POST', `/api/sessions/${id}/answers`, { code, body: { answers: { satisfied: o.answer(outcome.success) } } });
    seen.push(r);
    if (r.status !== 200) throw new Error(`session ${id} answers: ${r.status} ${r.text}`);
  }
  return seen;
}

/** An agent-side person: the agent view, the dialog and the tools on the page → what they send (text or a tool call). */
export type AgentPerson = (view: readonly ViewSection[], dialog: ReadonlyArray<{ speaker: 'user' | 'agent'; text: string }>, tools: readonly ToolSpec[]) => string | { tool: string; arguments: Record<string, unknown> };

/** Plays one session of a study where people play the agent, to its end: the finished session's answer. */
export async function playAgentSession(base: string, code: string, person: AgentPerson): Promise<Answer> {
  let a = await call(base, 'POST', '/api/sessions', { code, body: {} });
  if (a.status !== 201) throw new Error(`start: ${a.status} ${a.text}`);
  const id = a.body['id'] as number;
  while (a.body['status'] === 'open') {
    const state = a.body['state'] as PageState & { agentView: ViewSection[]; tools: ToolSpec[] };
    const dialog = state.turns.filter((t) => t.speaker === 'user' || t.speaker === 'agent') as Array<{ speaker: 'user' | 'agent'; text: string }>;
    const act = person(state.agentView, dialog, state.tools);
    a = await call(base, 'POST', `/api/sessions/${id}/messages`, { code, body: typeof act === 'string' ? { text: act } : act });
    if (a.status !== 200) throw new Error(`session ${id}: ${a.status} ${a.text}`);
  }
  return a;
}

/** Plays every remaining session of participant `code`; returns how many it finished. */
export async function playAll(base: string, code: string, o: { answer?: (success: boolean) => number } = {}): Promise<number> {
  let n = 0;
  for (;;) {
    const me = await call(base, 'GET', '/api/me', { code });
    if (me.status !== 200) throw new Error(`me: ${me.status} ${me.text}`);
    if ((me.body['done'] as number) >= (me.body['total'] as number) || me.body['closed'] === true) return n;
    await playSession(base, code, o);
    n++;
  }
}
