/**
 * Where the server's sessions live: in the server's thread (`localBackend`, the default) or spread
 * over worker threads (`WorkerPool` in `worker-pool.ts`), so the models' work uses more than one
 * core while the main thread does HTTP. Both answer the same calls; bodies may come back already
 * serialised as JSON (a worker serialises on its own core).
 */
import { SessionNotFoundError } from '../core/errors.js';
import type { Session } from './session.js';
import type { SessionStore } from './sessions.js';

export { SessionNotFoundError };

/** A JSON body: an object to serialise, or a JSON text already serialised. */
export type JsonBody = { readonly json: string } | { readonly value: unknown };

export interface SessionBackend {
  /** Live sessions. */
  size(): Promise<number>;
  /** A new session's id (CapacityError when full). */
  create(): Promise<string>;
  /** One user turn (InputError for bad text, SessionNotFoundError). */
  send(id: string, text: string): Promise<JsonBody>;
  transcript(id: string): Promise<JsonBody>;
  /** False when there was no such session. */
  delete(id: string): Promise<boolean>;
  sweep(): void;
  close(): Promise<void>;
}

const notFound = (id: string): SessionNotFoundError => new SessionNotFoundError(`unknown or expired session: ${id.slice(0, 64)}`);

/** Sessions in this thread. */
export function localBackend(sessions: SessionStore): SessionBackend {
  const get = (id: string): Session => {
    const s = sessions.get(id);
    if (!s) throw notFound(id);
    return s;
  };
  return {
    size: async () => sessions.size,
    create: async () => sessions.create().id,
    send: async (id, text) => ({ value: get(id).send(text) }),
    transcript: async (id) => ({ value: get(id).transcript() }),
    delete: async (id) => sessions.delete(id),
    sweep: () => void sessions.sweep(),
    close: async () => sessions.clear(),
  };
}

export { notFound as sessionNotFound };
