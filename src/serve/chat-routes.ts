/**
 * A testbed's chat on a server: the routes its backend declares as data (`ChatRoute`,
 * src/testbeds/testbed.ts) mounted on a fastify app over the conversations of a `SessionBackend`,
 * and the files of its page. The chat is found through the testbeds' descriptors (`openChat`: a
 * descriptor's `chat` section and its lazy entry point), so the server names no testbed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ConfigError, InternalError } from '../core/errors.js';
import { testbedNamed } from '../testbeds/index.js';
import type { ChatBackend, TestbedChat } from '../testbeds/testbed.js';
import { ChatSessions, localSessions, sessionNotFound, type JsonBody, type SessionBackend, type SessionStoreOptions } from './chat-sessions.js';
import { withTextLimit } from './web-page.js';

/** The content security policy of the chat pages. */
export const CHAT_PAGE_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

/** The default longest message of the pages' message box, and of the chats (`maxTextLength`). */
export const DEFAULT_MAX_TEXT = 500;

/** The chat section of testbed `testbed`'s descriptor (a ConfigError naming the testbeds that have one otherwise). */
export function chatOf(testbed: string): TestbedChat {
  const t = testbedNamed(testbed);
  if (!t.chat) throw new ConfigError(`testbed '${testbed}' has no chat`);
  return t.chat;
}

/** Opens testbed `testbed`'s chat with `options` (its chat module's options: the model, …). */
export async function openChat(testbed: string, options: unknown): Promise<ChatBackend> {
  return (await chatOf(testbed).load()).open(options);
}

/** Options of `registerChat`: where the conversations live (default: in this thread, `SessionStoreOptions`), the page, the links. */
export interface ChatRoutesOptions extends SessionStoreOptions {
  /** Where the conversations live (default: this thread, `localSessions` with the store options). */
  readonly sessions?: SessionBackend;
  /** Folder of the server's pages (its shared `dom.js`); a chat's own files are in its `webDir` when it has one. */
  readonly webDir: string;
  /** Longest message the pages' message box takes (default 500). */
  readonly maxTextLength?: number;
  /** The other chats the server hosts, testbed name → page (its `info` route adds them: the pages link to each other). */
  readonly others?: Readonly<Record<string, string>>;
  /** How often idle sessions are swept (default 60 s). */
  readonly sweepMs?: number;
}

/** Sends a JSON body (`JsonBody`). */
export function sendJson(reply: FastifyReply, body: JsonBody): FastifyReply {
  return 'json' in body ? reply.type('application/json; charset=utf-8').send(body.json) : reply.send(body.value);
}

/** Mounts `chat` (its routes over its conversations, its page) on `app` before it listens; closing the app closes the conversations. */
export function registerChat(app: FastifyInstance, chat: ChatBackend, o: ChatRoutesOptions): void {
  const sessions = o.sessions ?? localSessions(new ChatSessions(chat, o));
  type Req = { Params: { id?: string }; Body: unknown };
  for (const r of chat.routes) {
    const id = (params: { id?: string }): string => {
      if (params.id === undefined) throw new InternalError(`chat route ${r.method} ${r.path}: no :id`);
      return params.id;
    };
    app.route<Req>({
      method: r.method,
      url: r.path,
      handler: async (req, reply) => {
        switch (r.does) {
          case 'info':
            return { ...chat.info(await sessions.size()), ...o.others };
          case 'create':
            return sendJson(reply.code(201), await sessions.create(req.body));
          case 'delete':
            if (!(await sessions.delete(id(req.params)))) throw sessionNotFound(id(req.params));
            return reply.code(204).send();
          case 'ask':
            if (!chat.ask) throw new InternalError(`chat route ${r.method} ${r.path}: the chat answers no request`);
            return chat.ask(r.op);
          case 'answer':
            return sendJson(reply, await sessions.answer(id(req.params), r.op, req.body));
        }
      },
    });
  }
  for (const f of chat.files) {
    const file = join(chat.webDir ?? o.webDir, f.file);
    if (!existsSync(file)) continue;
    const body = f.type.startsWith('text/html') ? withTextLimit(readFileSync(file), o.maxTextLength ?? DEFAULT_MAX_TEXT) : readFileSync(file);
    app.get(f.path, async (_req, reply) => reply.type(f.type).header('content-security-policy', CHAT_PAGE_CSP).send(body));
  }
  const timer = setInterval(() => sessions.sweep(), o.sweepMs ?? 60_000);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await sessions.close();
  });
}
