/**
 * One conversation: the model, the history (its memory) and the KB. A user turn goes in; the bot
 * answers, and when it says `api_call …` the session runs the call on the KB and appends the
 * result lines to the history exactly as the datasets do (`name R_attr value`, one `kb` turn per
 * line), then lets the bot go on after a `<SILENCE>` user turn, until it waits for the user.
 *
 * User text is normalised, not refused: the models read `canonicalRestaurantText` of it (lower case,
 * emoji and punctuation dropped, digits as words, safe synonyms such as `moderately priced` →
 * `moderate`); the transcript keeps what the person wrote. Only an empty message (nothing
 * readable) and one over the length limit are errors.
 */
import type { Turn } from '../../../core/dialog.js';
import { InputError } from '../../../core/errors.js';
import type { KbStore } from '../kb.js';
import { answerApiCall, NO_RESULT, type KbDialect } from '../kb-dialects.js';
import type { ChatModel, Conversation } from './chat-model.js';
import type { Explanation } from './explanation.js';
import { canonicalRestaurantText } from '../synonyms.js';
import { botContinues } from './turn-taking.js';

export interface SessionKb {
  readonly store: KbStore;
  readonly dialect: KbDialect;
}

export interface SessionOptions {
  /** Most bot turns per user turn (a guard against a model that never yields; default 8). */
  readonly maxBotTurns?: number;
  /** Longest user message in characters; longer ones are cut to it (default 500). */
  readonly maxTextLength?: number;
  /** Order of KB results (default by decreasing rating) and how many at most (default all). */
  readonly resultOrder?: 'rating' | 'kb';
  readonly maxResults?: number;
}

export const SESSION_DEFAULTS = { maxBotTurns: 8, maxTextLength: 500 } as const;

export type ReplyKind = 'utterance' | 'api_call' | 'kb';

export interface Reply {
  readonly text: string;
  readonly kind: ReplyKind;
  /** Bot turns only: why the model said it. */
  readonly explanation?: Explanation;
}

export interface TurnResult {
  readonly replies: Reply[];
  /** The explanation of the last bot turn. */
  readonly explanation: Explanation | null;
}

export class Session {
  readonly id: string;
  readonly model: ChatModel;
  readonly kb: SessionKb;
  readonly createdAt: number;
  lastActive: number;
  private readonly opts: Required<Pick<SessionOptions, 'maxBotTurns' | 'maxTextLength'>> & SessionOptions;
  private turns: Turn[] = [];
  /** The model's state for this conversation (kept between turns; new on reset). */
  private conversation: Conversation;
  private explanations: (Explanation | null)[] = [];
  /** Per history turn: what the person wrote, for user turns whose text the models read differently. */
  private written: (string | undefined)[] = [];
  private last: Explanation | null = null;

  constructor(id: string, model: ChatModel, kb: SessionKb, opts: SessionOptions = {}, now = Date.now()) {
    this.id = id;
    this.model = model;
    this.kb = kb;
    this.opts = { ...SESSION_DEFAULTS, ...opts };
    this.createdAt = now;
    this.lastActive = now;
    this.conversation = model.conversation();
  }

  /** The history so far (user, bot and kb turns, with the `<SILENCE>` turns). */
  get history(): readonly Turn[] {
    return this.turns;
  }

  /** The explanation of the last bot turn (null before the bot spoke). */
  get lastExplanation(): Explanation | null {
    return this.last;
  }

  /** Per history turn: the explanation of bot turns, null for the others. */
  get turnExplanations(): readonly (Explanation | null)[] {
    return this.explanations;
  }

  /**
   * The conversation as the API's `GET /api/sessions/:id` returns it: `text` is what was said (for
   * a user turn, what the person wrote); `read` is what the models read, when it differs.
   */
  transcript(): { id: string; createdAt: string; turns: { speaker: Turn['speaker']; text: string; read?: string; explanation?: Explanation }[] } {
    const ex = this.explanations;
    return {
      id: this.id,
      createdAt: new Date(this.createdAt).toISOString(),
      turns: this.turns.map((t, i) => {
        const e = ex[i];
        const w = this.written[i];
        return { speaker: t.speaker, text: w ?? t.text, ...(w !== undefined ? { read: t.text } : {}), ...(e ? { explanation: e } : {}) };
      }),
    };
  }

  reset(): void {
    this.turns = [];
    this.explanations = [];
    this.written = [];
    this.last = null;
    this.conversation = this.model.conversation();
  }

  private push(t: Turn, e: Explanation | null = null, written?: string): void {
    this.turns.push(t);
    this.explanations.push(e);
    this.written.push(written);
  }

  /** One user turn in, the bot's turns (and KB results) out. */
  send(typed: string, now = Date.now()): TurnResult {
    if (typeof typed !== 'string') throw new InputError('text must be a string');
    // People's text is normalised, not refused: a message over the limit is cut to it (as the
    // AirDialogue chat does), never inside a surrogate pair; the transcript keeps what was read.
    const max = this.opts.maxTextLength;
    const text = typed.length <= max ? typed : typed.slice(0, max - (/[\uD800-\uDBFF]/.test(typed[max - 1] ?? '') ? 1 : 0));
    let user = canonicalRestaurantText(text);
    if (user === '') throw new InputError(text.trim() === '' ? 'text is empty' : 'text is empty once emoji and punctuation are dropped');
    if (user === '<silence>') user = this.kb.dialect.silence;
    this.lastActive = now;
    const written = text.trim();
    this.push({ speaker: 'user', text: user }, null, written !== user ? written : undefined);
    const replies: Reply[] = [];
    for (let i = 0; i < this.opts.maxBotTurns; i++) {
      const a = this.conversation.answer(this.turns);
      this.push({ speaker: 'bot', text: a.text }, a.explanation);
      this.last = a.explanation;
      const isCall = a.text.startsWith('api_call ');
      replies.push({ text: a.text, kind: isCall ? 'api_call' : 'utterance', explanation: a.explanation });
      let kbLines = 0;
      if (isCall) {
        const ans = answerApiCall(this.kb.store, this.kb.dialect, a.text, {
          ...(this.opts.resultOrder ? { order: this.opts.resultOrder } : {}),
          ...(this.opts.maxResults !== undefined ? { maxResults: this.opts.maxResults } : {}),
        });
        // A malformed call (wrong number of arguments) finds nothing, like a call without match.
        const lines = ans.ok ? ans.lines : [NO_RESULT];
        kbLines = lines.length;
        for (const l of lines) {
          this.push({ speaker: 'kb', text: l });
          replies.push({ text: l, kind: 'kb' });
        }
      }
      if (!botContinues(a.text, kbLines) || i + 1 === this.opts.maxBotTurns) break;
      this.push({ speaker: 'user', text: this.kb.dialect.silence });
    }
    return { replies, explanation: this.last };
  }
}
