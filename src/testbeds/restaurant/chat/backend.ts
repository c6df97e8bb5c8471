/**
 * The restaurant chat of `dialogym serve --model <name|model.dgm>`, as the chat backend the server
 * mounts (`ChatBackend`, src/testbeds/testbed.ts): a JSON API over `Session`s (any response model
 * answering a person, api_calls run on the KB) and the web page at `/` (`web/`: index.html, app.js, style.css).
 *
 *   GET    /api/health                   {status, model, kb, sessions, airdialogue?} (the server's: this chat's `info`, the other chats' pages)
 *   GET    /api/kb                       {restaurants, cities, cuisines, prices, partySizes, example} (kb-hint.ts)
 *   POST   /api/sessions                 201 {id}
 *   POST   /api/sessions/:id/messages    {text} → {replies:[{text, kind, explanation?}], explanation}
 *   GET    /api/sessions/:id             {id, createdAt, turns:[{speaker, text, read?, explanation?}]} (read: what the models read)
 *   DELETE /api/sessions/:id             204
 *
 * Bad bodies are InputErrors (the server answers 400 with the message); the message body is
 * checked against `schemas/serve-message-request.schema.json`, the hint against
 * `schemas/serve-kb-hint.schema.json` (what the web page relies on). The conversations may live on
 * worker threads: `restaurantChat.open` takes plain options, so each worker opens its own model and KB.
 */
import { InputError, InternalError } from '../../../core/errors.js';
import { checkSchema } from '../../../formats/schema.js';
import type { ModelFileContent } from '../../../formats/model-file.js';
import { chatPageFiles, chatWebDir, type ChatBackend, type ChatEntry, type ChatRoute } from '../../testbed.js';
import type { ChatModel } from './chat-model.js';
import { kbHint, type KbHint } from './kb-hint.js';
import { Session, type SessionKb, type SessionOptions } from './session.js';
import { setupBot, type BotSetupOptions } from './setup.js';

/** Options of the restaurant chat (`restaurantChat.open`): the model and KB (`setupBot`), and the sessions'. */
export interface RestaurantChatOptions extends BotSetupOptions, SessionOptions {
  /** The model file's decoded content when the caller has read it already (`setupBot`; not for worker threads). */
  readonly content?: ModelFileContent;
}

/** What the chat runs: the model and the KB (`BotSetup`, or any model and KB). */
export interface RestaurantBot {
  readonly model: ChatModel;
  readonly kb: SessionKb;
  /** Where the KB came from (the server's banner). */
  readonly kbSource?: string;
  close?(): void;
}

const ROUTES: readonly ChatRoute[] = [
  { method: 'GET', path: '/api/kb', does: 'ask', op: 'kb' },
  { method: 'POST', path: '/api/sessions', does: 'create' },
  { method: 'POST', path: '/api/sessions/:id/messages', does: 'answer', op: 'message' },
  { method: 'GET', path: '/api/sessions/:id', does: 'answer', op: 'view' },
  { method: 'DELETE', path: '/api/sessions/:id', does: 'delete' },
];

const FILES = chatPageFiles(['/', '/index.html'], 'index.html', 'app.js', 'style.css');
const WEB_DIR = chatWebDir(import.meta.url);

/** The text of a message request (`{"text": "..."}`), or an InputError saying what is wrong. */
function messageText(body: unknown): string {
  // schemas/serve-message-request.schema.json; the server has already bounded the size and parsed the JSON.
  const issue = checkSchema('serve-message-request', body);
  if (issue) {
    throw new InputError(
      issue.reason.startsWith('unknown field')
        ? `${issue.reason}: the body is {"text": "..."}`
        : issue.path === '' && !issue.reason.startsWith('missing')
          ? 'body must be a JSON object {"text": "..."}'
          : 'text must be a string',
    );
  }
  return (body as { text: string }).text;
}

/**
 * The restaurant chat of `bot` (module description). `hint`: what `GET /api/kb` says (default: the
 * KB's `kbHint`), made on first use and checked against its schema (an InternalError when invalid).
 */
export function restaurantChatBackend(bot: RestaurantBot, o: SessionOptions & { readonly hint?: () => KbHint } = {}): ChatBackend {
  const sessionOpts: SessionOptions = {
    ...(o.maxTextLength !== undefined ? { maxTextLength: o.maxTextLength } : {}),
    ...(o.maxBotTurns !== undefined ? { maxBotTurns: o.maxBotTurns } : {}),
    ...(o.resultOrder ? { resultOrder: o.resultOrder } : {}),
    ...(o.maxResults !== undefined ? { maxResults: o.maxResults } : {}),
  };
  const makeHint = o.hint ?? (() => kbHint(bot.kb.store));
  let hint: KbHint | undefined;
  return {
    routes: ROUTES,
    files: FILES,
    webDir: WEB_DIR,
    banner: `model ${bot.model.name}`,
    ...(bot.kbSource !== undefined ? { details: [`KB ${bot.kbSource}`] } : {}),
    info: (sessions) => ({ model: bot.model.name, kb: { dialect: bot.kb.dialect.name }, sessions }),
    ask(op) {
      if (op !== 'kb') throw new InternalError(`restaurant chat: no request '${op}'`);
      if (!hint) {
        const h = makeHint();
        const issue = checkSchema('serve-kb-hint', h);
        if (issue) throw new InternalError(`KB hint: ${issue.reason}`);
        hint = h;
      }
      return hint;
    },
    startOptions(b) {
      // No options: a body, when sent, is {} (anything else would be ignored without a word).
      if (b !== undefined && b !== null && (typeof b !== 'object' || Array.isArray(b) || Object.keys(b).length > 0)) throw new InputError('POST /api/sessions takes no body (or {})');
      return undefined;
    },
    start(id, _options, now) {
      const s = new Session(id, bot.model, bot.kb, sessionOpts, now);
      return {
        opened: () => ({ id }),
        answer(op, body) {
          if (op === 'message') return s.send(messageText(body));
          if (op === 'view') return s.transcript();
          throw new InternalError(`restaurant chat: no request '${op}'`);
        },
      };
    },
    close: () => bot.close?.(),
  };
}

/** The entry point the descriptor's `chat` loads: the model and KB of `setupBot`, then the chat. */
export const restaurantChat: ChatEntry<RestaurantChatOptions> = {
  open(o) {
    const { content, ...setup } = o;
    return restaurantChatBackend(setupBot(setup, content), o);
  },
};
