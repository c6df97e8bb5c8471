/**
 * A worker thread holding some of the server's sessions (see `worker-pool.ts`): it loads the model
 * and opens the KB itself (`setupBot`), then answers the pool's requests one at a time. Replies
 * are JSON texts serialised here, so the main thread only writes them out.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CapacityError, SessionStore } from './sessions.js';
import { InputError } from './session.js';
import { setupBot, type BotSetupOptions } from './setup.js';
import type { SessionOptions } from './session.js';
import type { SessionStoreOptions } from './sessions.js';

export interface WorkerInit {
  readonly setup: BotSetupOptions;
  readonly session: SessionOptions;
  readonly store: Pick<SessionStoreOptions, 'maxSessions' | 'idleMs'>;
}

export type WorkerRequest = { readonly req: number } & (
  | { readonly op: 'create' | 'size' | 'sweep' | 'clear' }
  | { readonly op: 'send'; readonly id: string; readonly text: string }
  | { readonly op: 'transcript' | 'delete'; readonly id: string }
);

export type WorkerReply =
  | { readonly req: number; readonly ok: true; readonly value: string | number | boolean }
  | { readonly req: number; readonly ok: false; readonly kind: 'input' | 'capacity' | 'not-found' | 'internal'; readonly error: string };

export type WorkerStatus = { readonly ready: true; readonly model: string } | { readonly ready: false; readonly error: string };

const port = parentPort;
if (port) {
  const init = workerData as WorkerInit;
  let store: SessionStore;
  try {
    const bot = setupBot(init.setup);
    store = new SessionStore(bot.model, bot.kb, init.session, init.store);
    port.postMessage({ ready: true, model: bot.model.name } satisfies WorkerStatus);
  } catch (e) {
    port.postMessage({ ready: false, error: e instanceof Error ? e.message : String(e) } satisfies WorkerStatus);
    process.exit(1);
  }
  port.on('message', (m: WorkerRequest) => {
    let reply: WorkerReply;
    try {
      let value: string | number | boolean;
      switch (m.op) {
        case 'create':
          value = store.create().id;
          break;
        case 'size':
          value = store.size;
          break;
        case 'sweep':
          value = store.sweep();
          break;
        case 'clear':
          store.clear();
          value = true;
          break;
        case 'delete':
          value = store.delete(m.id);
          break;
        case 'send':
        case 'transcript': {
          const s = store.get(m.id);
          if (!s) {
            reply = { req: m.req, ok: false, kind: 'not-found', error: m.id };
            port.postMessage(reply);
            return;
          }
          value = JSON.stringify(m.op === 'send' ? s.send(m.text) : s.transcript());
          break;
        }
      }
      reply = { req: m.req, ok: true, value };
    } catch (e) {
      const kind = e instanceof InputError ? 'input' : e instanceof CapacityError ? 'capacity' : 'internal';
      reply = { req: m.req, ok: false, kind, error: e instanceof Error ? e.message.split('\n')[0] as string : String(e) };
    }
    port.postMessage(reply);
  });
}
