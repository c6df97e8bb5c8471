/**
 * A worker thread holding some of the server's sessions (see `worker-pool.ts`): on its first
 * request (`init`) it loads the model and opens the KB itself (`setupBot`), then answers the
 * pool's requests one at a time. Replies are JSON texts serialised here, so the main thread only
 * writes them out.
 */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../core/pool-worker.js';
import { SessionNotFoundError } from './backend.js';
import { SessionStore } from './sessions.js';
import { setupBot, type BotSetupOptions } from './setup.js';
import type { SessionOptions } from './session.js';
import type { SessionStoreOptions } from './sessions.js';

export interface WorkerInit {
  readonly setup: BotSetupOptions;
  readonly session: SessionOptions;
  readonly store: Pick<SessionStoreOptions, 'maxSessions' | 'idleMs'>;
}

export type WorkerRequest =
  | { readonly op: 'init' | 'create' | 'size' | 'sweep' | 'clear' }
  | { readonly op: 'send'; readonly id: string; readonly text: string }
  | { readonly op: 'transcript' | 'delete'; readonly id: string };

const init = workerData as WorkerInit;
let store: SessionStore | undefined;
let model = '';

export default poolTask<WorkerRequest, string | number | boolean>((m) => {
  if (!store) {
    const bot = setupBot(init.setup);
    store = new SessionStore(bot.model, bot.kb, init.session, init.store);
    model = bot.model.name;
  }
  switch (m.op) {
    case 'init':
      return model;
    case 'create':
      return store.create().id;
    case 'size':
      return store.size;
    case 'sweep':
      return store.sweep();
    case 'clear':
      store.clear();
      return true;
    case 'delete':
      return store.delete(m.id);
    case 'send':
    case 'transcript': {
      const s = store.get(m.id);
      if (!s) throw new SessionNotFoundError(m.id);
      return JSON.stringify(m.op === 'send' ? s.send(m.text) : s.transcript());
    }
  }
});
