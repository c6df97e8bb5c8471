/**
 * Scripted participants: the participant's side of each session is played by the environment's
 * simulated user, the assigned agent by its transport, one episode of the study's environment per
 * session through the episode runner (`evaluate`), every turn written to the store as it happens
 * and the session finished with the environment's judgement. What a study with people would store,
 * without people: for tests, for a dry run of a study before it meets people, and for the report's
 * simulated-user baseline.
 *
 * A participant's session left open by an interrupted run (a crash, `kill -9`) cannot be resumed
 * by a scripted participant (the episode's state died with the process): it is marked abandoned
 * and the participant plays a new one in its place.
 */
import { evaluate, type EpisodeRecord } from '../evaluation/evaluate.js';
import type { AgentConnection, AgentTransport } from '../agents/agent.js';
import type { AgentRequest } from '../agents/protocol.js';
import { ConfigError } from '../core/errors.js';
import type { AgentSpec, StudyQuestion } from './config.js';
import { openStudyAgent } from './agents.js';
import { MAX_TURN_CHARS, type StudyStore } from './store.js';

/**
 * Options of {@link simulateStudy}.
 *
 * @example
 * ```ts
 * import { StudyStore, simulateStudy, type SimulateOptions } from 'dialogym';
 * const o: SimulateOptions = { participants: ['p1', 'p2'], answer: (_q, rec) => (rec.success ? 5 : 2) };
 * await simulateStudy(StudyStore.open('my-study'), o);
 * ```
 */
export interface SimulateOptions {
  /** The participants played (labels); default all, in creation order. */
  readonly participants?: readonly string[];
  /** Per-turn reply timeout of the agents, ms (default 5,000). */
  readonly timeoutMs?: number;
  /** Opens an agent's transport (default `openStudyAgent` with `llmSystem`). */
  readonly open?: (spec: AgentSpec) => Promise<AgentTransport>;
  /** The system message of an LLM agent's episode (`llm` specs; dialogym's: `llmSystemMessage`). */
  readonly llmSystem?: (request: AgentRequest) => string;
  /** The scripted answer to a question after a session (default: questions left unanswered). */
  readonly answer?: (question: StudyQuestion, record: EpisodeRecord) => string | number;
  /** Called after each finished session. */
  readonly onSession?: (s: { readonly participant: string; readonly number: number; readonly done: number }) => void;
  /** Stop after this many sessions finished by this call (default: every participant's all). */
  readonly maxSessions?: number;
}

/**
 * What {@link simulateStudy} did.
 *
 * @example
 * ```ts
 * import { StudyStore, simulateStudy, type SimulateResult } from 'dialogym';
 * const r: SimulateResult = await simulateStudy(StudyStore.open('my-study'), { maxSessions: 10 });
 * console.log(r.finished, r.abandoned);
 * ```
 */
export interface SimulateResult {
  /** Sessions finished by this call. */
  readonly finished: number;
  /** Open sessions of an earlier run marked abandoned. */
  readonly abandoned: number;
}

/** A stored copy of a turn's content: as is, or a marker when its JSON is longer than the store keeps. */
function bounded(x: unknown): unknown {
  const json = JSON.stringify(x ?? null);
  return json.length <= MAX_TURN_CHARS - 100 ? (x ?? null) : { truncated: true, chars: json.length };
}

/** `transport` with each request's observation and each reply written to session `sessionId` as they pass. */
function recording(transport: AgentTransport, store: StudyStore, sessionId: number): AgentTransport {
  return {
    name: transport.name,
    connect(lane: number): AgentConnection {
      const conn = transport.connect(lane);
      return {
        async send(req, timeoutMs) {
          store.addTurn(sessionId, 'user', bounded(req.observation));
          const reply = await conn.send(req, timeoutMs);
          store.addTurn(sessionId, 'agent', bounded(reply));
          return reply;
        },
        close: () => conn.close(),
      };
    },
  };
}

/**
 * Plays the remaining sessions of the study's participants (module description), round-robin
 * across participants (one session each in turn, as people would come and go), and returns how
 * many it finished. Needs people to play the user (role `user`); the environments and dialogym's
 * agents must be registered (`import 'dialogym'`).
 *
 * @example
 * ```ts
 * import 'dialogym';
 * import { StudyStore, simulateStudy } from 'dialogym';
 * const store = StudyStore.open('my-study');
 * console.log(await simulateStudy(store)); // { finished: 160, abandoned: 0 }
 * store.close();
 * ```
 */
export async function simulateStudy(store: StudyStore, o: SimulateOptions = {}): Promise<SimulateResult> {
  const config = store.config;
  if (config.role !== 'user') throw new ConfigError('scripted participants play the user: this study has people play the agent (role "agent")');
  const labels = o.participants ?? store.participantLabels();
  const ids: number[] = [];
  for (const label of labels) {
    const p = store.participantByLabel(label);
    if (!p) throw new ConfigError(`no participant ${label} in this study (participants: ${store.participantLabels().join(', ')})`);
    ids.push(p.id);
  }
  // Refused while a server (or another simulation) holds the study; the sessions a dead run left open are abandoned.
  const claim = store.claim('simulate');
  const abandoned = claim.abandoned;
  const transports = new Map<string, AgentTransport>();
  const open = o.open ?? ((spec: AgentSpec) => openStudyAgent(spec, { seed: config.seed, ...(o.llmSystem ? { llmSystem: o.llmSystem } : {}) }));
  let finished = 0;
  const limit = o.maxSessions ?? Infinity;
  try {
    for (let more = true; more && finished < limit; ) {
      more = false;
      for (const id of ids) {
        if (finished >= limit || store.closed) break;
        const p = store.participantByLabel(labels[ids.indexOf(id)] as string);
        if (!p || p.finished >= config.sessionsPerParticipant) continue;
        more = true;
        const s = store.startSession(id);
        const spec = store.agentOf(s.id);
        let transport = transports.get(spec.label);
        if (!transport) {
          transport = await open(spec);
          transports.set(spec.label, transport);
        }
        const { records } = await evaluate(config.env, recording(transport, store, s.id), { episodes: 1, seed: s.seed, envOptions: config.envOptions, timeoutMs: o.timeoutMs ?? 5000 });
        const rec = records[0] as EpisodeRecord;
        store.finishSession(s.id, { success: rec.success, reward: rec.reward, turns: rec.turns, failure: rec.failure }, { ...rec, episode: s.id - 1, agent: spec.label, participant: p.label, session: s.number });
        for (const q of config.questions) if (o.answer) store.answer(s.id, q.id, o.answer(q, rec));
        finished++;
        o.onSession?.({ participant: p.label, number: s.number, done: finished });
      }
    }
  } finally {
    claim.release();
    await Promise.all([...transports.values()].map((t) => t.close?.()));
  }
  return { finished, abandoned };
}
