/**
 * The live sessions of a server: created on demand up to a limit, dropped after an idle time.
 * Session ids are random UUIDs from node:crypto (unguessable; they are capabilities, not part of
 * any reproducible output, so they do not come from the seeded Rng).
 */
import { randomUUID } from 'node:crypto';
import { CapacityError } from '../core/errors.js';
import type { ChatModel } from '../testbeds/restaurant/chat/chat-model.js';
import { Session, type SessionKb, type SessionOptions } from './session.js';

export { CapacityError };

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

export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly maxSessions: number;
  private readonly idleMs: number;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(
    private readonly model: ChatModel,
    private readonly kb: SessionKb,
    private readonly sessionOpts: SessionOptions = {},
    opts: SessionStoreOptions = {},
  ) {
    this.maxSessions = opts.maxSessions ?? SESSION_STORE_DEFAULTS.maxSessions;
    this.idleMs = opts.idleMs ?? SESSION_STORE_DEFAULTS.idleMs;
    this.now = opts.now ?? Date.now;
    this.newId = opts.newId ?? randomUUID;
  }

  get size(): number {
    return this.sessions.size;
  }

  create(): Session {
    this.sweep();
    if (this.sessions.size >= this.maxSessions) throw new CapacityError(`too many sessions (${this.maxSessions}); try again later`);
    const s = new Session(this.newId(), this.model, this.kb, this.sessionOpts, this.now());
    this.sessions.set(s.id, s);
    return s;
  }

  /** The live session `id` (touching it), or undefined when unknown or expired. */
  get(id: string): Session | undefined {
    const s = this.sessions.get(id);
    if (!s) return undefined;
    const now = this.now();
    if (now - s.lastActive > this.idleMs) {
      this.sessions.delete(id);
      return undefined;
    }
    s.lastActive = now;
    return s;
  }

  delete(id: string): boolean {
    return this.sessions.delete(id);
  }

  /** Drops idle sessions; returns how many. */
  sweep(): number {
    const now = this.now();
    let n = 0;
    for (const [id, s] of this.sessions)
      if (now - s.lastActive > this.idleMs) {
        this.sessions.delete(id);
        n++;
      }
    return n;
  }

  clear(): void {
    this.sessions.clear();
  }
}
