/**
 * A worker thread holding some of a chat's sessions (see `worker-pool.ts`): on its first request
 * (`init`) it opens the chat itself (`openChat`: its testbed's descriptor's `chat` with the same
 * plain options, e.g. the restaurant's model and KB), then answers the pool's requests one at a
 * time. Answers are JSON texts serialised here, so the main thread only writes them out.
 */
import { workerData } from 'node:worker_threads';
import { poolTask } from '../core/pool-worker.js';
import { openChat } from './chat-routes.js';
import { declareTestbeds } from '../testbeds/index.js';
import { ChatSessions, type SessionStoreOptions } from './chat-sessions.js';

export interface WorkerInit {
  /** The testbed whose chat the workers open. */
  readonly testbed: string;
  /** The options of its chat (plain data: `ChatEntry.open`). */
  readonly options: unknown;
  readonly store: Pick<SessionStoreOptions, 'maxSessions' | 'idleMs'>;
}

export type WorkerRequest =
  | { readonly op: 'init' | 'size' | 'sweep' | 'clear' }
  | { readonly op: 'create'; readonly prefix: string; readonly body: unknown }
  | { readonly op: 'answer'; readonly id: string; readonly name: string; readonly body: unknown }
  | { readonly op: 'delete'; readonly id: string };

const init = workerData as WorkerInit;
// A thread starts with nothing declared: the testbeds' declarations (their models: a chat's model names) as in the main thread.
declareTestbeds();
let store: ChatSessions | undefined;

export default poolTask<WorkerRequest, string | number | boolean>(async (m) => {
  store ??= new ChatSessions(await openChat(init.testbed, init.options), init.store);
  switch (m.op) {
    case 'init':
      return true;
    case 'create':
      return JSON.stringify(store.create(m.body, m.prefix).conversation.opened());
    case 'size':
      return store.size;
    case 'sweep':
      return store.sweep();
    case 'clear':
      store.clear();
      return true;
    case 'delete':
      return store.delete(m.id);
    case 'answer':
      return JSON.stringify(store.get(m.id).answer(m.name, m.body));
  }
});
