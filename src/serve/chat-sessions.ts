/**
 * The live conversations of a testbed's chat (`ChatBackend`, src/testbeds/testbed.ts) on a
 * server: created on demand up to a limit, dropped after an idle time, found by id. Session ids
 * are random UUIDs from node:crypto (unguessable; they are capabilities, not part of any
 * reproducible output, so they do not come from the seeded Rng). `SessionBackend` is where the
 * conversations live: in the server's thread (`localSessions`) or on worker threads
 * (`startWorkerPool`, worker-pool.ts); both answer the same calls, the workers with bodies already
 * serialised as JSON (a worker serialises on its own core).
 */
import { randomUUID } from 'node:crypto';
import { CapacityError, SessionNotFoundError } from '../core/errors.js';
import type { ChatBackend, ChatConversation } from '../testbeds/testbed.js';

export interface SessionStoreOptions {
  /** Most live sessions (default 1,000). */
  readonly maxSessions?: number;
  /** A session unused for this long is dropped (default 30 min). */
  readonly idleMs?: number;
  /** Clock (tests). */
  readonly now?: () => number;
  /** Session ids (tests); default random UUIDs. */
  readonly newId?: () => string;
}

export const SESSION_STORE_DEFAULTS = { maxSessions: 1000, idleMs: 30 * 60_000 } as const;

/** The 404 of an unknown or expired session `id`. */
export function sessionNotFound(id: string): SessionNotFoundError {
  return new SessionNotFoundError(`unknown or expired session: ${id.slice(0, 64)}`);
}

/** The conversations of one chat in this thread (module description). */
export class ChatSessions {
  private readonly live = new Map<string, { readonly conversation: ChatConversation; last: number }>();
  private readonly maxSessions: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(
    private readonly chat: ChatBackend,
    opts: SessionStoreOptions = {},
  ) {
    this.maxSessions = opts.maxSessions ?? SESSION_STORE_DEFAULTS.maxSessions;
    this.idleMs = opts.idleMs ?? SESSION_STORE_DEFAULTS.idleMs;
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? randomUUID;
  }

  get size(): number {
    return this.live.size;
  }

  /**
   * A new conversation from a create request's `body` (checked first: an InputError), its id
   * `prefix` + a new id; a CapacityError when the store is full.
   */
  create(body: unknown, prefix = ''): { readonly id: string; readonly conversation: ChatConversation } {
    const options = this.chat.startOptions(body);
    this.sweep();
    if (this.live.size >= this.maxSessions) throw new CapacityError(`too many sessions (${this.maxSessions}); try again later`);
    const id = prefix + this.newId();
    const now = this.now();
    const conversation = this.chat.start(id, options, now);
    this.live.set(id, { conversation, last: now });
    return { id, conversation };
  }

  /** The live conversation `id` (touching it); a SessionNotFoundError when unknown or expired. */
  get(id: string): ChatConversation {
    const s = this.live.get(id);
    const now = this.now();
    if (!s || now - s.last > this.idleMs) {
      this.live.delete(id);
      throw sessionNotFound(id);
    }
    s.last = now;
    return s.conversation;
  }

  delete(id: string): boolean {
    return this.live.delete(id);
  }

  /** Drops idle conversations; returns how many. */
  sweep(): number {
    const now = this.now();
    let n = 0;
    for (const [id, s] of this.live)
      if (now - s.last > this.idleMs) {
        this.live.delete(id);
        n++;
      }
    return n;
  }

  clear(): void {
    this.live.clear();
  }
}

/** A JSON body: an object to serialise, or a JSON text already serialised. */
export type JsonBody = { readonly json: string } | { readonly value: unknown };

/** Where a chat's conversations live (module description). */
export interface SessionBackend {
  /** Live sessions. */
  size(): Promise<number>;
  /** A new conversation from the create request's body: what the request answers (InputError, CapacityError). */
  create(body: unknown): Promise<JsonBody>;
  /** Request `op` of conversation `id` (InputError for a bad body, SessionNotFoundError). */
  answer(id: string, op: string, body: unknown): Promise<JsonBody>;
  /** False when there was no such session. */
  delete(id: string): Promise<boolean>;
  sweep(): void;
  close(): Promise<void>;
}

/** The conversations in this thread. */
export function localSessions(sessions: ChatSessions): SessionBackend {
  return {
    size: async () => sessions.size,
    create: async (body) => ({ value: sessions.create(body).conversation.opened() }),
    answer: async (id, op, body) => ({ value: sessions.get(id).answer(op, body) }),
    delete: async (id) => sessions.delete(id),
    sweep: () => void sessions.sweep(),
    close: async () => sessions.clear(),
  };
}
