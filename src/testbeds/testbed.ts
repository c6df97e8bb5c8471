/**
 * What a testbed declares about itself: its descriptor, `src/testbeds/<name>/testbed.ts`, one per
 * testbed folder, listed once in `src/testbeds/index.ts` (the list the root API, the CLI, the agents
 * registry and the servers go through). A descriptor is light: names, descriptions and lazy entry
 * points (`() => import(…)`); the code of a testbed is imported only when one of its environments,
 * agents or models is loaded. docs/extending.md walks through writing one.
 */
import { existsSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EnvDeclaration, EnvDefinition } from '../env/env.js';
import type { AgentFamily } from '../agents/registry.js';
import type { LlmSection } from '../llm/prompts.js';
import type { ModelList } from '../rankers/model-entry.js';
import type { RunEntries } from '../runs/index.js';
import type { KbFile } from '../runs/kb.js';

/**
 * The agents of a testbed in the `agents` registry: the family's name and description, and its lazy
 * entry point (the family's `names` and `load`; which environments it plays comes from the
 * testbeds that name it as their `agentFamily`).
 */
export interface TestbedAgents {
  readonly description: string;
  readonly load: () => Promise<TestbedAgentFamily>;
}

/** An agent family as a testbed defines it: `names` and `load` of `AgentFamily` (`plays` comes from the list). */
export type TestbedAgentFamily = Omit<AgentFamily, 'plays'>;

/**
 * A route of a testbed's chat, as data the server (`dialogym serve`, src/serve/server.ts) mounts:
 * `info` says what the chat is (`ChatBackend.info`, and the other chats the server hosts: testbed
 * name → page); `create` starts a conversation (201 and its `opened` view); `delete` ends the
 * conversation `:id` (204); `ask` answers `op` of the chat itself (`ChatBackend.ask`); `answer`
 * answers `op` of the conversation `:id` (`ChatConversation.answer`). An unknown or expired `:id`
 * is a 404 before the body is read; the handlers throw `InputError` (400) for a bad body.
 */
export type ChatRoute =
  | { readonly method: 'GET' | 'POST' | 'DELETE'; readonly path: string; readonly does: 'info' | 'create' | 'delete' }
  | { readonly method: 'GET' | 'POST' | 'DELETE'; readonly path: string; readonly does: 'ask' | 'answer'; readonly op: string };

/** A static file of a chat's page: its URL path, the file in the chat's web folder (`ChatBackend.webDir`), its content type. */
export interface ChatFile {
  readonly path: string;
  readonly file: string;
  readonly type: string;
}

/**
 * The folder of a chat's page files: `web/` beside the chat module at `moduleUrl`
 * (`import.meta.url`), in the package's `src/` when the module runs from `dist/src/` (tsc does not
 * copy the pages).
 */
export function chatWebDir(moduleUrl: string): string {
  const here = dirname(fileURLToPath(moduleUrl));
  const built = `${sep}dist${sep}src${sep}`;
  const at = here.lastIndexOf(built);
  const candidates = [join(here, 'web'), ...(at < 0 ? [] : [join(here.slice(0, at) + `${sep}src${sep}` + here.slice(at + built.length), 'web')])];
  return candidates.find((d) => existsSync(d)) ?? (candidates[candidates.length - 1] as string);
}

/** The files of a chat's page: its HTML at each of `paths`, its script and its style sheet (each at `/<file>`). */
export function chatPageFiles(paths: readonly string[], html: string, script: string, style: string): ChatFile[] {
  return [
    ...paths.map((path) => ({ path, file: html, type: 'text/html; charset=utf-8' })),
    { path: `/${script}`, file: script, type: 'text/javascript; charset=utf-8' },
    { path: `/${style}`, file: style, type: 'text/css; charset=utf-8' },
  ];
}

/** One conversation of a chat (its id is the server's): the answers of its requests, as JSON values. */
export interface ChatConversation {
  /** What the request that created it answers (its id, and what the person sees first). */
  opened(): unknown;
  /** The answer to request `op` of the conversation (`ChatRoute` `answer`) with the JSON `body` (undefined without one). */
  answer(op: string, body: unknown): unknown;
}

/**
 * A testbed's chat with a person, opened (`TestbedChat.load` → `open`): its routes and page as
 * data, and its conversations. It knows nothing of HTTP: the server keeps the sessions (ids, the
 * idle time, the limit), maps the errors (`InputError` 400, `SessionNotFoundError` 404,
 * `CapacityError` 503) and serves the files.
 */
export interface ChatBackend {
  /** Its HTTP API (`ChatRoute`). */
  readonly routes: readonly ChatRoute[];
  /** Its page: the files and the folder they are in (default: the server's web folder). */
  readonly files: readonly ChatFile[];
  readonly webDir?: string;
  /** Its name (the model) in a server's banner line, and details said after it in parentheses (the KB). */
  readonly banner: string;
  readonly details?: readonly string[];
  /** What it says of itself with `sessions` live conversations (its `info` route; `GET /api/health` when its page is `/`). */
  info(sessions: number): Record<string, unknown>;
  /** The answer to request `op` of the chat itself (`ChatRoute` `ask`). */
  ask?(op: string): unknown;
  /** The options of a new conversation from the create request's body (an `InputError` when it is wrong). */
  startOptions(body: unknown): unknown;
  /** A new conversation `id` with those options, started at time `now` (ms). */
  start(id: string, options: unknown, now: number): ChatConversation;
  /** Releases what it holds (a KB file). */
  close(): void;
}

/** What a testbed's chat module exports: opens the chat from its options (`open(options)`; plain data, so a worker thread can open its own). */
export interface ChatEntry<O = unknown> {
  open(options: O): ChatBackend;
}

/**
 * A testbed's chat with its own models (`dialogym serve`): where its page is, what people call it,
 * and the lazy entry point of its code. A chat whose page is `/` may say what the server answers in
 * its place when it is not hosted but another chat is (`absent`: its API paths answer a 404 naming
 * the hosted chat, `GET /api/health` adds `health`).
 */
export interface TestbedChat {
  /** The path of its page (`/` for the server's root). */
  readonly page: string;
  /** Its name for people (`the AirDialogue chat is at /airdialogue`). */
  readonly label: string;
  readonly absent?: { readonly what: string; readonly paths: readonly string[]; readonly health: Readonly<Record<string, unknown>> };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly load: () => Promise<ChatEntry<any>>;
}

/** One testbed (see the module description). `A`: what its entry point reads of each declaration (any testbed's by default). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Testbed<A = any> {
  /** Its folder under `src/testbeds/`. */
  readonly name: string;
  /** One line: what it is (the paper, the domain). */
  readonly title: string;
  /** Its environment ids with descriptions and the arguments its entry point defines each from. */
  readonly envs: readonly EnvDeclaration<A>[];
  /**
   * The lazy entry point of its environments: imports the code and returns how each declaration is
   * defined — its family (`EnvFamily`: the options and their schema, the dataset export, the
   * person view) and its builder.
   */
  readonly entry: () => Promise<(decl: EnvDeclaration<A>) => EnvDefinition>;
  /** The family of the `agents` registry that plays its environments (`restaurant` for DSTC6's). */
  readonly agentFamily?: string;
  /** The agent family it defines, under `agentFamily`'s name. */
  readonly agents?: TestbedAgents;
  /**
   * Response models it adds to the `models` registry, declared light (`ModelList`): their names,
   * descriptions and what each does, seen by every listing once the list declares the testbeds;
   * their code, the module's export, loaded by `loadModels`.
   */
  readonly models?: ModelList;
  /**
   * How the turn limit (`evaluate --max-turns`, `maxTurns` agent turns) reaches its environments
   * when they have one of their own: the options that set it (the restaurant's and DSTC6's
   * `maxTurns`, which report the failure detail; AirDialogue's counts utterances of both sides;
   * KB-InfoBot's is its user simulator's). Without it, the generic wrapper (`TurnLimit`,
   * src/env/turn-limit.ts) truncates the episodes.
   */
  readonly turnLimit?: (maxTurns: number) => Readonly<Record<string, unknown>>;
  /**
   * How a KB file reaches its environments (`evaluate`'s `kb`, `--kb`), if it reads one: the
   * environment option that takes the KB, and the reader of the file (lazy: imports its code).
   */
  readonly kb?: KbFile;
  /**
   * Its runs (what its CLI verbs compute, as library functions: `defineRun`, src/runs/run.ts), by
   * id, each a lazy entry point to its module (`<name>/runs/<run>.ts`): `loadRun(id)` finds them,
   * `dialogym merge` finishes their shards.
   */
  readonly runs?: RunEntries;
  /** Its CLI subcommands: `dialogym <verb> …` (the verb's module, src/cli/commands/<verb>.ts, is imported only when run). */
  readonly cli?: { readonly verb: string };
  /**
   * Its LLM section (`LlmSection`, src/llm/prompts.ts): the LLM agent's system prompt
   * (`prompts/<prompt>`), the LLM user's (`prompts/<userPrompt>`) where it has one, and its `view`,
   * lazy (`() => import(…)`): how it words an episode for a model — the agent's context, the user's
   * goal, what the user does now (`LlmView`).
   */
  readonly llm?: Omit<LlmSection, 'testbed'>;
  /** Its chat with its own models, served by `dialogym serve` (`TestbedChat`). */
  readonly chat?: TestbedChat;
}

/**
 * Builds a descriptor (typed: the declarations' `args` are what the entry point reads).
 *
 * @example
 * ```ts
 * const toy = testbed({ name: 'toy', title: 'a toy', envs: [], entry: async () => () => { throw new Error('none'); } });
 * ```
 */
export function testbed<A>(t: Testbed<A>): Testbed<A> {
  return t;
}
