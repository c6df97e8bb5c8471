/**
 * The AirDialogue chat of `dialogym serve --airdialogue model.dgm`, as the chat backend the server
 * mounts (`ChatBackend`, src/testbeds/testbed.ts): a JSON API over `AirChat` conversations with the
 * learned models, and the web page at `/airdialogue` (`web/`: airdialogue.html, .js, .css).
 *
 *   GET    /api/airdialogue                       {model, vocabulary, sessions, restaurant?}   (restaurant: '/' when the restaurant chat is hosted too)
 *   POST   /api/airdialogue/sessions              {role, seed?, ood?} → 201 {id, role, seed, context, turns, end}
 *   POST   /api/airdialogue/sessions/:id/messages {text} → {turns, end}   (the person's turn, the model's answer)
 *   POST   /api/airdialogue/sessions/:id/action   {status, name?, flight?} → {turns, end}   (playing the agent)
 *   POST   /api/airdialogue/sessions/:id/finish   → {turns, end}   (playing the customer: the agent acts now)
 *   GET    /api/airdialogue/sessions/:id          {id, role, seed, context, turns, end}
 *   DELETE /api/airdialogue/sessions/:id          204
 *
 * Bodies are checked against `schemas/serve-airdialogue-request.schema.json`; every error is one
 * line of JSON `{error}` from the server's error handler (400 bad body, 404 unknown session, 503
 * too many sessions). The sessions live in the HTTP thread; each keeps its models' GRU states.
 */
import { InputError, InternalError } from '../../../core/errors.js';
import { checkSchema } from '../../../formats/schema.js';
import { chatPageFiles, chatWebDir, type ChatBackend, type ChatEntry, type ChatRoute } from '../../testbed.js';
import { loadAirModels, type AirModels } from '../learned/train.js';
import { AirChat, type AirChatRole } from './chat.js';

/** Options of the AirDialogue chat (`airdialogueChat.open`). */
export interface AirChatServeOptions {
  /** The model file (`airdialogue train`); shown by `GET /api/airdialogue`. */
  readonly model: string;
  /** The models, when read already (default: read from `model`). */
  readonly models?: AirModels;
  /** Longest kept message in characters (default 500). */
  readonly maxTextLength?: number;
  /** Utterances after which a dialogue ends unscored (default 40). */
  readonly maxTurns?: number;
}

const API = '/api/airdialogue';
const ROUTES: readonly ChatRoute[] = [
  { method: 'GET', path: API, does: 'info' },
  { method: 'POST', path: `${API}/sessions`, does: 'create' },
  { method: 'POST', path: `${API}/sessions/:id/messages`, does: 'answer', op: 'message' },
  { method: 'POST', path: `${API}/sessions/:id/action`, does: 'answer', op: 'action' },
  // Playing the customer: the person asks the learned agent to act now (no body needed).
  { method: 'POST', path: `${API}/sessions/:id/finish`, does: 'answer', op: 'finish' },
  { method: 'GET', path: `${API}/sessions/:id`, does: 'answer', op: 'view' },
  { method: 'DELETE', path: `${API}/sessions/:id`, does: 'delete' },
];

const FILES = chatPageFiles(['/airdialogue', '/airdialogue.html'], 'airdialogue.html', 'airdialogue.js', 'airdialogue.css');
const WEB_DIR = chatWebDir(import.meta.url);

function checked<T>(def: 'session' | 'message' | 'action', body: unknown): T {
  const issue = checkSchema('serve-airdialogue-request', body, `#/$defs/${def}`);
  if (issue) throw new InputError(issue.path === '' && !issue.reason.startsWith('missing') && !issue.reason.startsWith('unknown') ? `body must be a JSON object (${def})` : issue.reason);
  return body as T;
}

type Start = { role: AirChatRole; seed?: number; ood?: 0 | 1 | 2 };

/** The AirDialogue chat over the learned models (module description). */
export function airChatBackend(o: AirChatServeOptions): ChatBackend {
  const models = o.models ?? loadAirModels(o.model);
  let nextSeed = 0;
  return {
    routes: ROUTES,
    files: FILES,
    webDir: WEB_DIR,
    banner: `AirDialogue models ${o.model}`,
    info: (sessions) => ({ model: o.model, vocabulary: models.vocab.size, sessions }),
    startOptions: (body) => checked<Start>('session', body ?? {}),
    start(id, options) {
      const b = options as Start;
      const chat = new AirChat(models, {
        role: b.role,
        seed: b.seed ?? nextSeed++,
        ood: b.ood ?? 0,
        ...(o.maxTextLength !== undefined ? { maxTextLength: o.maxTextLength } : {}),
        ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}),
      });
      return {
        opened: () => ({ id, ...chat.view() }),
        answer(op, body) {
          switch (op) {
            case 'message':
              return chat.say(checked<{ text: string }>('message', body).text);
            case 'action': {
              const a = checked<{ status: string; name?: string; flight?: number }>('action', body);
              return chat.act({ status: a.status, name: a.name ?? '', flight: a.flight === undefined ? [] : [a.flight] });
            }
            case 'finish':
              return chat.finishNow();
            case 'view':
              return { id, ...chat.view() };
            default:
              throw new InternalError(`AirDialogue chat: no request '${op}'`);
          }
        },
      };
    },
    close() {},
  };
}

/** The entry point the descriptor's `chat` loads. */
export const airdialogueChat: ChatEntry<AirChatServeOptions> = { open: airChatBackend };
