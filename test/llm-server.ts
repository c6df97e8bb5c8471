/**
 * A local OpenAI-compatible Chat Completions server for the tests and the bench (no network).
 *
 * It rejects what the real API rejects — a missing model, unknown request arguments, unknown
 * roles, a `tool` message that answers no `tool_calls` id of the assistant message before it, an
 * assistant's `tool_calls` left unanswered, malformed tool calls, tool parameters that are not a
 * JSON Schema (ajv, draft 2020-12) of an object, a temperature out of [0, 2] — with a 400 and the
 * API's error body. A valid request is answered by one of dialogym's own agents playing the dialog
 * it rebuilds from the messages, as docs/llm.md's mapping describes it: the rule bot when the tools
 * hold `api_call` (restaurant and DSTC6 envs; the system message's `## Context` holds KB lines shown
 * before the dialog), the AirDialogue rule agent when they hold `book` (the context holds the
 * reservation and the flight table), KB-InfoBot's Rule-Soft agent when they hold `request` and
 * `inform` (the context holds the movie table; the agent's KB is rebuilt from it, its vocabulary the
 * values the table shows, its split from the number of rows). It replays the agent over the whole conversation and counts
 * every earlier assistant message that is not what the agent said (`mismatches`): a faithful
 * mapping gives none, and the success of the agent in process.
 *
 * Faults can be injected per request (`faults(n)`, n = 1, 2, …): an HTTP status with `Retry-After`
 * / `retry-after-ms`, a delay, or a body cut in the middle — and the misbehaviour of real servers:
 * a reply of another shape (`mutate`: the completion changed before it is sent), a body that is not
 * JSON (`raw`), a body trickled a byte at a time (`trickleMs`), headers then silence (`stall`), a
 * content padded to any size and streamed without being held (`padBytes`).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Turn } from '../src/core/dialog.js';
import { createRng, hashString, type Rng } from '../src/core/rng.js';
import type { Flight, Intent, KbLine, Month } from '../src/formats/airdialogue.js';
import type { ToolSpec } from '../src/env/env.js';
import { createRulesBot } from '../src/testbeds/restaurant/rules/rules.js';
import { agentPolicies, customerPolicies, type AgentMove } from '../src/testbeds/airdialogue/policies.js';
import '../src/testbeds/airdialogue/customer.js'; // registers AIR_CUSTOMER
import { PRICE_ANY } from '../src/testbeds/airdialogue/facts.js';
import { BABI_LANGUAGE } from '../src/testbeds/restaurant/online/babi.js';
import { fill, NO_MORE_UPDATES, REQUEST_OPENERS, SLOT_PHRASES, UPDATE_OPENERS } from '../src/testbeds/restaurant/patterns.js';
import type { CliRun } from './cli.js';
import { cliPath } from './shared-data.js';
import { ANSWERS as DSTC6_ANSWERS, FRIEND_PREFIXES, SLOT_PHRASES as DSTC6_SLOT_PHRASES, fillPattern } from '../src/testbeds/dstc6/patterns-dstc6.js';
import { MISSING, MovieKb } from '../src/testbeds/infobot/movie-kb.js';
import { M, REWARDS, SLOTS, SPLITS, SPLIT_SPECS } from '../src/testbeds/infobot/slots.js';
import { ValueIndex } from '../src/testbeds/infobot/tracker.js';
import { RuleAgent } from '../src/testbeds/infobot/agents/rule-agents.js';
import type { InfoBotAction } from '../src/testbeds/infobot/acts.js';

/** The AirDialogue customer policy the test LLM user plays (airdialogue-v2's). */
const AIR_CUSTOMER = 'lexicon';

/** A fault injected into one request. */
export interface Fault {
  /** Answer with this HTTP status (and an error body) instead of a completion. */
  readonly status?: number;
  /** `Retry-After` header (seconds, or an HTTP date). */
  readonly retryAfter?: string;
  /** `retry-after-ms` header. */
  readonly retryAfterMs?: number;
  /** Wait this long before answering. */
  readonly delayMs?: number;
  /** Send the headers and half the body, then cut the connection. */
  readonly truncate?: boolean;
  /** Send the headers, then nothing (the connection stays open until the client gives up). */
  readonly stall?: boolean;
  /** Send the body one byte every `trickleMs` ms. */
  readonly trickleMs?: number;
  /** Answer with this body (an HTML page, nothing, …) instead of the completion. */
  readonly raw?: { readonly body: string; readonly status?: number; readonly contentType?: string };
  /** The body sent instead of the completion (any JSON value: the reply shapes real servers send). */
  readonly mutate?: (completion: Json) => unknown;
  /** Append this many bytes (`x`) to the reply's text, streamed in 64 KiB chunks, never held whole. */
  readonly padBytes?: number;
}

/** Options of the test server. */
export interface LlmServerOptions {
  /** The fault of request n (1-based, counting every request received). */
  readonly faults?: (n: number) => Fault | undefined;
}

/** A running test server. */
export interface LlmTestServer {
  /** Base URL (`http://127.0.0.1:<port>/v1`), as `--llm-url` takes it. */
  readonly url: string;
  /** Requests received, answered with a completion, rejected (their error messages), replay mismatches, and the body bytes the faults wrote (raw, mutated, trickled, padded). */
  readonly stats: { requests: number; answered: number; rejected: string[]; mismatches: string[]; bytesSent: number };
  close(): Promise<void>;
}

export type Json = Record<string, unknown>;

const KNOWN_ARGUMENTS = new Set([
  'model', 'messages', 'tools', 'tool_choice', 'parallel_tool_calls', 'temperature', 'top_p', 'n', 'stop', 'max_tokens',
  'max_completion_tokens', 'presence_penalty', 'frequency_penalty', 'logit_bias', 'logprobs', 'top_logprobs', 'user', 'seed',
  'response_format', 'stream', 'stream_options', 'metadata', 'store', 'reasoning_effort', 'service_tier', 'modalities',
  'prediction', 'audio', 'web_search_options', 'verbosity', 'prompt_cache_key', 'safety_identifier',
]);
const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

interface SchemaChecker {
  validateSchema(s: unknown): boolean;
  errorsText(e?: unknown): string;
  errors?: unknown;
}
let ajv: SchemaChecker | undefined;
/** Schemas already checked (the same tools come with every request of a run), by their JSON: the problem or ''. */
const checked = new Map<string, string>();

/** What ajv (draft 2020-12) finds wrong with a tool's parameters as a JSON Schema, or ''. */
function schemaProblem(p: unknown): string {
  const key = JSON.stringify(p);
  let problem = checked.get(key);
  if (problem === undefined) {
    if (!ajv) {
      const { Ajv2020 } = createRequire(import.meta.url)('ajv/dist/2020') as { Ajv2020: new (o: object) => SchemaChecker };
      ajv = new Ajv2020({ strict: false });
    }
    problem = p === null || typeof p !== 'object' || Array.isArray(p) ? 'not a JSON Schema object' : ajv.validateSchema(p) ? '' : ajv.errorsText(ajv.errors);
    checked.set(key, problem);
  }
  return problem;
}

function isText(c: unknown): boolean {
  if (typeof c === 'string') return true;
  return Array.isArray(c) && c.length > 0 && c.every((p) => p !== null && typeof p === 'object' && (p as Json)['type'] === 'text' && typeof (p as Json)['text'] === 'string');
}

function textOf(c: unknown): string {
  if (typeof c === 'string') return c;
  return Array.isArray(c) ? c.map((p) => String((p as Json)['text'])).join('') : '';
}

/** What the real API answers a request with (its 400 message), or undefined for a valid request. */
export function requestProblem(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'We could not parse the JSON body of your request.';
  const b = body as Json;
  for (const k of Object.keys(b)) if (!KNOWN_ARGUMENTS.has(k)) return `Unrecognized request argument supplied: ${k}`;
  if (typeof b['model'] !== 'string' || b['model'] === '') return 'you must provide a model parameter';
  const t = b['temperature'];
  if (t !== undefined && (typeof t !== 'number' || t < 0 || t > 2)) return `Invalid 'temperature': must be a number between 0 and 2, got ${JSON.stringify(t)}.`;
  if (b['stream'] === true) return 'this test server does not stream';
  const tools = b['tools'];
  if (tools !== undefined) {
    if (!Array.isArray(tools) || tools.length === 0) return "Invalid 'tools': empty array. Expected an array with minimum length 1.";
    for (const [i, tool] of tools.entries()) {
      const f = (tool as Json | null)?.['function'] as Json | undefined;
      if ((tool as Json | null)?.['type'] !== 'function' || !f || typeof f !== 'object') return `Invalid value for 'tools[${i}]': expected a function tool {type: "function", function: {...}}.`;
      if (typeof f['name'] !== 'string' || !TOOL_NAME.test(f['name'])) return `Invalid 'tools[${i}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`;
      if (f['description'] !== undefined && typeof f['description'] !== 'string') return `Invalid type for 'tools[${i}].function.description': expected a string.`;
      const p = f['parameters'];
      if (p !== undefined) {
        const problem = schemaProblem(p);
        if (problem !== '') return `Invalid schema for function '${f['name']}': ${problem}.`;
        if ((p as Json)['type'] !== 'object') return `Invalid schema for function '${f['name']}': schema must be a JSON Schema of 'type: "object"', got 'type: "${String((p as Json)['type'])}"'.`;
      }
    }
  }
  const messages = b['messages'];
  if (!Array.isArray(messages) || messages.length === 0) return "Invalid 'messages': empty array. Expected an array with minimum length 1.";
  let open: Set<string> | undefined; // tool_call ids of the last assistant message not yet answered
  for (const [i, m] of messages.entries()) {
    if (m === null || typeof m !== 'object') return `Invalid type for 'messages[${i}]': expected an object.`;
    const msg = m as Json;
    const role = msg['role'];
    if (typeof role !== 'string' || !ROLES.has(role)) return `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`;
    if (role !== 'tool' && open !== undefined && open.size > 0) {
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`;
    }
    if (role === 'tool') {
      const id = msg['tool_call_id'];
      if (typeof id !== 'string') return `Missing required parameter: 'messages[${i}].tool_call_id'.`;
      if (open === undefined || !open.has(id)) return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";
      open.delete(id);
      if (!isText(msg['content'])) return `Invalid type for 'messages[${i}].content': expected one of a string or array of objects.`;
      continue;
    }
    open = undefined;
    if (role === 'assistant') {
      const calls = msg['tool_calls'];
      if (calls !== undefined && calls !== null) {
        if (!Array.isArray(calls) || calls.length === 0) return `Invalid 'messages[${i}].tool_calls': empty array. Expected an array with minimum length 1.`;
        open = new Set();
        for (const [j, c] of calls.entries()) {
          const cc = c as Json | null;
          const f = cc?.['function'] as Json | undefined;
          if (typeof cc?.['id'] !== 'string' || cc['type'] !== 'function' || !f || typeof f['name'] !== 'string' || typeof f['arguments'] !== 'string') return `Invalid 'messages[${i}].tool_calls[${j}]': expected {id, type: "function", function: {name, arguments: string}}.`;
          open.add(cc['id']);
        }
        if (msg['content'] !== null && msg['content'] !== undefined && !isText(msg['content'])) return `Invalid type for 'messages[${i}].content': expected a string or null.`;
      } else if (!isText(msg['content'])) return `Invalid value for 'messages[${i}].content': expected a string, got ${msg['content'] === null ? 'null' : typeof msg['content']}.`;
    } else if (!isText(msg['content'])) return `Invalid type for 'messages[${i}].content': expected one of a string or array of objects.`;
  }
  if (open !== undefined && open.size > 0) return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`;
  return undefined;
}

/** The assistant message the server answers with. */
interface Answer {
  readonly content: string | null;
  readonly tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
}

/** The context part of the system message (after `## Context`), or ''. */
function contextOf(messages: readonly Json[]): string {
  const sys = messages[0]?.['role'] === 'system' ? textOf(messages[0]['content']) : '';
  const at = sys.indexOf('\n## Context\n');
  return at < 0 ? '' : sys.slice(at + '\n## Context\n'.length).trim();
}

function callId(messages: readonly Json[]): string {
  return `call_${messages.filter((m) => m['role'] === 'assistant').length}`;
}

function argsOf(call: unknown): Json {
  return JSON.parse(String(((call as Json)['function'] as Json)['arguments'])) as Json;
}

/** The restaurant envs: the rule bot on the dialog rebuilt from the messages. */
function answerRestaurant(messages: readonly Json[], tools: readonly ToolSpec[], mismatches: string[]): Answer {
  const slots = Object.keys((tools.find((t) => t.function.name === 'api_call')?.function.parameters['properties'] ?? {}) as object);
  const history: Turn[] = contextOf(messages).split('\n').filter((l) => l !== '').map((text) => ({ speaker: 'kb', text }));
  const bot = createRulesBot({ dialect: slots.includes('atmosphere') ? 'dstc6' : 'babi', restrictions: slots.includes('restrictions') });
  for (const m of messages.slice(1)) {
    const role = m['role'];
    if (role === 'user') history.push({ speaker: 'user', text: textOf(m['content']) });
    else if (role === 'tool') {
      const c = textOf(m['content']);
      if (c !== 'ok') for (const line of c.split('\n')) history.push({ speaker: 'kb', text: line });
    } else if (role === 'assistant') {
      const said = bot.respond(history);
      const calls = m['tool_calls'] as unknown[] | undefined;
      const text = calls && calls.length > 0 ? ['api_call', ...slots.map((s) => String(argsOf(calls[0])[s]))].join(' ') : textOf(m['content']);
      if (said !== text) mismatches.push(`turn ${history.length}: the bot says ${JSON.stringify(said)}, the conversation has ${JSON.stringify(text.slice(0, 200))}`);
      history.push({ speaker: 'bot', text });
    }
  }
  const said = bot.respond(history);
  if (!said.startsWith('api_call ')) return { content: said };
  const words = said.split(' ').slice(1);
  const args: Record<string, string> = {};
  slots.forEach((s, i) => {
    if (words[i] !== undefined) args[s] = words[i] as string;
  });
  return { content: null, tool_calls: [{ id: callId(messages), type: 'function', function: { name: 'api_call', arguments: JSON.stringify(args) } }] };
}

/** The flight table and reservation of the AirDialogue context, as docs/llm.md shows them. */
function kbLineOf(context: string): KbLine {
  const lines = context.split('\n');
  const res = /flight (\d+)/.exec(lines.find((l) => /reservation/i.test(l)) ?? '');
  const kb: Flight[] = [];
  for (const l of lines) {
    const cells = l.split('|').map((c) => c.trim());
    if (cells.length < 10 || !/^\d+$/.test(cells[1] ?? '')) continue;
    const [, number, airline, from, to, dep, ret, cls, conn, price] = cells as string[];
    const when = (s: string): [Month, string, number] => {
      const w = /^(\S+) (\d+), (\d+):00$/.exec(s as string);
      if (!w) throw new Error(`bad date ${s}`);
      return [w[1] as Month, w[2] as string, Number(w[3])];
    };
    const [dm, dd, dt] = when(dep as string);
    const [rm, rd, rt] = when(ret as string);
    kb.push({ airline: airline as string, class: cls as Flight['class'], departure_airport: from as string, departure_day: dd, departure_month: dm, departure_time_num: dt, flight_number: Number(number), num_connections: Number(conn), price: Number(String(price).replace(/^\$/, '')), return_airport: to as string, return_day: rd, return_month: rm, return_time_num: rt });
  }
  return { kb, reservation: res ? Number(res[1]) : 0 };
}

function moveAnswer(move: AgentMove, messages: readonly Json[]): Answer {
  if (!move.action) return { content: move.utterance };
  const a = move.action;
  const args: Record<string, unknown> = { name: a.name, ...(a.flight.length > 0 ? { flight: a.flight[0] } : {}), utterance: move.utterance };
  return { content: null, tool_calls: [{ id: callId(messages), type: 'function', function: { name: a.status, arguments: JSON.stringify(args) } }] };
}

/** AirDialogue: the rule agent on the customer's utterances, its context parsed from the system message. */
function answerAirDialogue(messages: readonly Json[], mismatches: string[]): Answer {
  const context = contextOf(messages);
  const agent = agentPolicies.get('rules')(kbLineOf(context), createRng(hashString(context)).fork('agent'));
  let move: AgentMove | undefined;
  let turn = 0;
  for (const m of messages.slice(1)) {
    if (m['role'] === 'user') move = agent.respond(textOf(m['content']));
    else if (m['role'] === 'assistant' && move) {
      const want = JSON.stringify(move.action ? null : move.utterance);
      const got = JSON.stringify(m['content'] ?? null);
      if (want !== got) mismatches.push(`turn ${turn}: the agent says ${want}, the conversation has ${got.slice(0, 200)}`);
      turn++;
      move = undefined;
    }
  }
  if (!move) throw new Error('the conversation does not end with a customer message');
  return moveAnswer(move, messages);
}

const movieKbs = new Map<string, MovieKb>();

/**
 * The agent's movie KB of a KB-InfoBot context (the markdown table of the testbed's LLM view, infobot/person.ts: `row`,
 * `title`, then a column per slot, missing values empty): what the model sees, so the vocabulary of
 * a slot is the values its column shows, sorted (as the generated KBs' are). Built once per context.
 */
function movieKbOf(context: string): MovieKb {
  let kb = movieKbs.get(context);
  if (kb !== undefined) return kb;
  const lines = context.split('\n').filter((l) => l.startsWith('|'));
  const cellsOf = (l: string): string[] => l.slice(1, l.endsWith('|') ? -1 : undefined).split('|').map((c) => c.trim());
  const header = cellsOf(lines[0] ?? '');
  const at = SLOTS.map((slot) => header.indexOf(slot));
  if (header[0] !== 'row' || header[1] !== 'title' || at.some((i) => i < 0)) throw new Error(`the context has no movie table (header ${JSON.stringify(lines[0] ?? '')})`);
  const rows = lines.slice(2).map(cellsOf);
  rows.forEach((r, i) => {
    if (r[0] !== String(i) || r.length !== header.length) throw new Error(`movie table row ${i}: ${JSON.stringify(r.join(' | ').slice(0, 80))}`);
  });
  const vocab = at.map((c) => [...new Set(rows.map((r) => r[c] as string).filter((v) => v !== ''))].sort());
  const index = vocab.map((v) => new Map(v.map((x, k) => [x, k])));
  const cells = new Int32Array(rows.length * M);
  rows.forEach((r, i) => at.forEach((c, j) => (cells[i * M + j] = r[c] === '' ? MISSING : (index[j]?.get(r[c] as string) as number))));
  kb = new MovieKb(rows.map((r) => r[1] as string), vocab, cells);
  movieKbs.set(context, kb);
  return kb;
}

/** An InfoBot action as the assistant message's tool call (name, arguments as JSON). */
function infoBotCall(a: InfoBotAction): { name: string; arguments: string } {
  return a.act === 'request' ? { name: 'request', arguments: JSON.stringify({ slot: a.slot }) } : { name: 'inform', arguments: JSON.stringify({ results: a.results }) };
}

/**
 * KB-InfoBot: the Rule-Soft agent (its split's thresholds) on the user's utterances, its KB the
 * context's movie table; its ties broken by a stream seeded from the context and the first user
 * message, so that every request of a conversation replays the same agent.
 */
function answerInfoBot(messages: readonly Json[], mismatches: string[]): Answer {
  const context = contextOf(messages);
  const kb = movieKbOf(context);
  const split = SPLITS.find((s) => SPLIT_SPECS[s].movies === kb.n) ?? 'medium';
  const agent = new RuleAgent({ kb, full: kb, index: new ValueIndex(kb.vocab), split, successMaxRank: REWARDS.successMaxRank }, 'soft');
  const first = messages.find((m) => m['role'] === 'user');
  agent.begin(createRng(hashString(`${context}#${textOf(first?.['content'])}`)).fork('agent'));
  let action: InfoBotAction | undefined;
  let turn = 0;
  for (const m of messages.slice(1)) {
    if (m['role'] === 'user') action = agent.act(textOf(m['content']));
    else if (m['role'] === 'assistant' && action) {
      const want = infoBotCall(action);
      const call = (m['tool_calls'] as unknown[] | undefined)?.[0];
      const got = call === undefined ? { name: '', arguments: JSON.stringify(textOf(m['content'])) } : { name: String(((call as Json)['function'] as Json)['name']), arguments: JSON.stringify(argsOf(call)) };
      if (want.name !== got.name || want.arguments !== got.arguments) mismatches.push(`turn ${turn}: the agent calls ${want.name}${want.arguments}, the conversation has ${got.name}${got.arguments.slice(0, 200)}`);
      turn++;
      action = undefined;
    }
  }
  if (!action) throw new Error('the conversation does not end with a user message');
  return { content: null, tool_calls: [{ id: callId(messages), type: 'function', function: infoBotCall(action) }] };
}

/** The goal section of an LLM user's system message (`## Your goal`), as `label → value`. */
function userGoal(messages: readonly Json[]): Map<string, string> | undefined {
  const sys = messages[0]?.['role'] === 'system' ? textOf(messages[0]['content']) : '';
  const at = sys.indexOf('\n## Your goal\n');
  if (at < 0) return undefined;
  const goal = new Map<string, string>();
  for (const line of sys.slice(at).split('\n')) {
    const m = /^- ([^:]+): (.*)$/.exec(line);
    if (m) goal.set(m[1] as string, m[2] as string);
  }
  return goal;
}

/** The AirDialogue customer's intent from the goal lines of docs/llm.md's LLM user prompt. */
function intentOf(g: Map<string, string>): Intent {
  const get = (k: string): string => {
    const v = g.get(k);
    if (v === undefined) throw new Error(`the user goal has no "${k}"`);
    return v;
  };
  const code = (v: string): string => v.split(' ')[0] as string;
  const [dm, dd] = get('departure date').split(' ') as [Month, string];
  const [rm, rd] = get('return date').split(' ') as [Month, string];
  const want = get('you want to');
  const intent: Intent = { name: get('your name'), goal: want.startsWith('book') ? 'book' : want.startsWith('change') ? 'change' : 'cancel', departure_airport: code(get('from')), return_airport: code(get('to')), departure_month: dm, departure_day: dd, return_month: rm, return_day: rd, max_price: PRICE_ANY };
  const budget = /at most (\d+)/.exec(get('budget'));
  if (budget) intent.max_price = Number(budget[1]);
  const conn = get('connections');
  if (conn !== 'any') intent.max_connections = conn.startsWith('none') ? 0 : Number(/\d+/.exec(conn)?.[0]);
  if (get('class') !== 'any') intent.class = get('class') as Intent['class'];
  if (get('departure time') !== 'any') intent.departure_time = get('departure time') as Intent['departure_time'];
  if (get('return time') !== 'any') intent.return_time = get('return time') as Intent['return_time'];
  if (get('airline') !== 'any') intent.airline_preference = 'normal-cost';
  return intent;
}

/** The LLM user of AirDialogue: the template customer of the intent in its goal, on the agent's words (`Assistant: …` lines). */
function answerAirCustomer(messages: readonly Json[], goal: Map<string, string>): Answer {
  const customer = customerPolicies.get(AIR_CUSTOMER)(intentOf(goal), createRng(hashString(textOf(messages[0]?.['content']))).fork('customer'));
  let said = '';
  for (const m of messages.slice(1)) {
    if (m['role'] !== 'user') continue;
    const agent = textOf(m['content'])
      .split('\n')
      .filter((l) => l.startsWith('Assistant: '))
      .map((l) => l.slice('Assistant: '.length))
      .join(' ');
    said = agent === '' ? customer.open() : customer.respond(agent);
  }
  return { content: said };
}

/** A slot of a restaurant api_call (DSTC6's six). */
type CallSlot = keyof typeof DSTC6_ANSWERS;

const SLOT_OF: Readonly<Record<string, CallSlot>> = { cuisine: 'cuisine', location: 'location', 'number of people': 'number', 'price range': 'price', atmosphere: 'atmosphere', 'dietary restrictions': 'restrictions' };

/** `cuisine thai, number of people two` → the slots and values (the goal's and the instructions' wording, llm/prompts.ts and the testbed's LLM view). */
function slotValues(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split(', ')) {
    const at = part.lastIndexOf(' ');
    const slot = SLOT_OF[part.slice(0, at)];
    if (slot !== undefined) out[slot] = part.slice(at + 1);
  }
  return out;
}

/** The DSTC6 user's wording of a slot value (its patterns without the second value `Y`). */
function dstc6Phrase(rng: Rng, patterns: readonly string[], value: string): string {
  return fillPattern(rng.pick(patterns.filter((p) => !/\bY\b/.test(p))), { X: value, F: rng.pick(FRIEND_PREFIXES) });
}

/**
 * The LLM user of the restaurant and DSTC6 envs: the template user's words (the bAbI user's
 * language, the DSTC6 patterns when its goal has an atmosphere) for the act its last message tells
 * (`[Now: …]`, as llm/prompts.ts words the environment's `info.userAct`).
 */
function answerRestaurantUser(messages: readonly Json[], goal: Map<string, string>): Answer {
  const last = textOf(messages.at(-1)?.['content']);
  const now = /\[Now: (.*)\]$/.exec(last)?.[1];
  if (now === undefined) throw new Error(`the user is not told what to do: ${JSON.stringify(last.slice(-80))}`);
  const dstc6 = (goal.get('you want a restaurant with') ?? '').includes('atmosphere');
  const rng = createRng(hashString(`${textOf(messages[0]?.['content'])}#${messages.length}`));
  const lang = BABI_LANGUAGE;
  const answerOf = (slot: CallSlot, value: string): string => (dstc6 ? dstc6Phrase(rng, DSTC6_ANSWERS[slot], value) : lang.answer(rng, slot, value).text);
  const phraseOf = (slot: CallSlot, value: string): string => (dstc6 ? dstc6Phrase(rng, DSTC6_SLOT_PHRASES[slot], value) : fill(rng.pick(SLOT_PHRASES[slot as keyof typeof SLOT_PHRASES]), value));
  let m: RegExpExecArray | null;
  let said: string;
  if (now.startsWith('greet')) said = lang.greeting(rng);
  else if ((m = /^ask for a table: say you want (.*), and nothing else yet\.$/.exec(now))) said = [rng.pick(REQUEST_OPENERS), ...Object.entries(slotValues(m[1] as string)).map(([s, v]) => phraseOf(s as CallSlot, v))].join(' ');
  else if ((m = /^ask to book a table at (.*)\.$/.exec(now))) said = lang.bookAt(rng, m[1] as string);
  else if ((m = /^answer that the (.*) you want is (.*)\.$/.exec(now))) said = answerOf(SLOT_OF[m[1] as string] as CallSlot, m[2] as string);
  else if ((m = /^change your request: you now want (.*) instead\.$/.exec(now))) {
    const [slot, value] = Object.entries(slotValues(m[1] as string))[0] as [CallSlot, string];
    said = `${rng.pick(UPDATE_OPENERS)} ${phraseOf(slot, value)}`;
  } else if (now.startsWith('say there is nothing else to change')) said = NO_MORE_UPDATES;
  else if (now.startsWith('accept')) said = lang.accept(rng);
  else if (now.startsWith('decline')) said = lang.reject(rng).text;
  else if ((m = /^ask for the (phone number|address)/.exec(now))) said = lang.askInfo(rng, m[1] === 'address' ? 'address' : 'phone').text;
  else if (now.startsWith('thank')) said = lang.thanks(rng);
  else if (now.startsWith('say you need nothing else')) said = lang.noThanks(rng);
  else if (now.startsWith('say you did not understand')) said = 'sorry what do you mean';
  else if (now.startsWith('hesitate')) said = `${rng.pick(FRIEND_PREFIXES)}, let me think`;
  else if (now.startsWith('say again what you said last')) said = textOf([...messages].reverse().find((x) => x['role'] === 'assistant')?.['content']);
  else throw new Error(`unknown instruction: ${now}`);
  return { content: said };
}

function answer(b: Json, mismatches: string[]): Answer {
  const messages = b['messages'] as Json[];
  const goal = userGoal(messages);
  if (goal?.has('your name')) return answerAirCustomer(messages, goal);
  if (goal !== undefined) return answerRestaurantUser(messages, goal);
  const tools = (b['tools'] ?? []) as ToolSpec[];
  const names = tools.map((t) => t.function.name);
  if (names.includes('api_call')) return answerRestaurant(messages, tools, mismatches);
  if (names.includes('book')) return answerAirDialogue(messages, mismatches);
  if (names.includes('request') && names.includes('inform')) return answerInfoBot(messages, mismatches);
  return { content: `I can play the restaurant, AirDialogue and KB-InfoBot agents only (tools: ${names.join(', ') || 'none'})` };
}

/** A token count for the accounting: one per 4 characters, at least 1. */
function tokens(s: string): number {
  return Math.max(1, Math.ceil(s.length / 4));
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Sends `text` one byte every `ms` ms (until the client hangs up). */
function trickle(res: ServerResponse, text: string, ms: number, stats: { bytesSent: number }): void {
  const bytes = Buffer.from(text);
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
  res.flushHeaders();
  let i = 0;
  const timer = setInterval(() => {
    if (i >= bytes.length || res.destroyed) {
      clearInterval(timer);
      if (!res.destroyed) res.end();
      return;
    }
    res.write(bytes.subarray(i, ++i));
    stats.bytesSent++;
  }, ms);
  res.on('close', () => clearInterval(timer));
}

/** The completion with `pad` bytes of `x` after its text, streamed in 64 KiB chunks with back-pressure. */
async function sendPadded(res: ServerResponse, completion: Json, pad: number, stats: { bytesSent: number }): Promise<void> {
  const MARK = '\u0001PAD\u0001';
  const choice = (completion['choices'] as Json[])[0] as Json;
  const message = choice['message'] as Json;
  const withMark = { ...completion, choices: [{ ...choice, message: { ...message, content: `${String(message['content'] ?? '')}${MARK}` } }] };
  const [head, tail] = JSON.stringify(withMark).split(JSON.stringify(MARK).slice(1, -1)) as [string, string];
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(head) + pad + Buffer.byteLength(tail)) });
  const write = (chunk: string | Buffer): Promise<boolean> =>
    new Promise((resolve) => {
      if (res.destroyed) return resolve(false);
      stats.bytesSent += Buffer.byteLength(chunk);
      if (res.write(chunk)) return resolve(true);
      const done = (): void => {
        res.off('drain', done);
        res.off('close', done);
        resolve(!res.destroyed);
      };
      res.on('drain', done);
      res.on('close', done);
    });
  const CHUNK = Buffer.alloc(64 * 1024, 'x');
  if (!(await write(head))) return;
  for (let left = pad; left > 0; left -= CHUNK.length) if (!(await write(left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left)))) return;
  if (await write(tail)) res.end();
}

/** Starts the test server on a free port of 127.0.0.1 (module description above). */
export async function startLlmTestServer(opts: LlmServerOptions = {}): Promise<LlmTestServer> {
  const stats = { requests: 0, answered: 0, rejected: [] as string[], mismatches: [] as string[], bytesSent: 0 };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      send(res, 404, { error: { message: `Unknown request URL: ${req.method} ${req.url}`, type: 'invalid_request_error', param: null, code: 'unknown_url' } });
      return;
    }
    const n = ++stats.requests;
    const fault = opts.faults?.(n);
    if (fault?.delayMs) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault?.status !== undefined) {
      const h: Record<string, string> = {};
      if (fault.retryAfter !== undefined) h['retry-after'] = fault.retryAfter;
      if (fault.retryAfterMs !== undefined) h['retry-after-ms'] = String(fault.retryAfterMs);
      send(res, fault.status, { error: { message: fault.status === 429 ? 'Rate limit reached for requests' : 'The server had an error while processing your request.', type: fault.status === 429 ? 'requests' : 'server_error', param: null, code: null } }, h);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = null;
    }
    const problem = requestProblem(body);
    if (problem !== undefined) {
      stats.rejected.push(problem);
      send(res, 400, { error: { message: problem, type: 'invalid_request_error', param: null, code: null } });
      return;
    }
    const b = body as Json;
    const a = answer(b, stats.mismatches);
    const said = a.content ?? a.tool_calls?.map((c) => c.function.name + c.function.arguments).join('') ?? '';
    const completion = {
      id: `chatcmpl-${createHash('sha256').update(raw).digest('hex').slice(0, 24)}`,
      object: 'chat.completion',
      created: 1_700_000_000,
      model: b['model'],
      choices: [{ index: 0, message: { role: 'assistant', content: a.content, ...(a.tool_calls ? { tool_calls: a.tool_calls } : {}), refusal: null }, logprobs: null, finish_reason: a.tool_calls ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: tokens(raw), completion_tokens: tokens(said), total_tokens: 0 },
      system_fingerprint: null,
    };
    completion.usage.total_tokens = completion.usage.prompt_tokens + completion.usage.completion_tokens;
    stats.answered++;
    if (fault?.raw) {
      const text = fault.raw.body;
      stats.bytesSent += Buffer.byteLength(text);
      res.writeHead(fault.raw.status ?? 200, { 'content-type': fault.raw.contentType ?? 'text/html; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
      return;
    }
    if (fault?.stall) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
      return;
    }
    const sent = fault?.mutate ? fault.mutate(completion) : completion;
    if (fault?.padBytes !== undefined) {
      await sendPadded(res, completion, fault.padBytes, stats);
      return;
    }
    if (fault?.trickleMs !== undefined) {
      trickle(res, JSON.stringify(sent), fault.trickleMs, stats);
      return;
    }
    if (fault?.mutate) {
      const text = JSON.stringify(sent) ?? '';
      stats.bytesSent += Buffer.byteLength(text);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      res.end(text);
      return;
    }
    if (fault?.truncate) {
      const text = JSON.stringify(completion);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
      res.write(text.slice(0, Math.floor(text.length / 2)), () => setTimeout(() => res.destroy(), 5));
      return;
    }
    send(res, 200, completion);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, { error: { message: `test server: ${e instanceof Error ? e.message : String(e)}`, type: 'server_error', param: null, code: null } });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs `f` with a test server started with `opts`, closed after it whatever happens. */
export async function withLlmServer<T>(opts: LlmServerOptions, f: (s: LlmTestServer) => Promise<T>): Promise<T> {
  const s = await startLlmTestServer(opts);
  try {
    return await f(s);
  } finally {
    await s.close();
  }
}

/** `dialogym <args>` in a child process without blocking this one (the test server answers it), with its wall time. */
export function cliAsync(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<CliRun & { ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [cliPath, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    c.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    c.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    c.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: performance.now() - t0 }));
  });
}
