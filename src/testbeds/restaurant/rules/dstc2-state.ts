/**
 * Dialog state for the task-6 (DSTC2) rule-based baseline: the user's constraints on cuisine,
 * location and price, what the bot last asked, the last api_call and its KB results, and the
 * restaurants the bot has put forward. Rebuilt from the history at every turn (no hidden memory).
 */
import type { Turn } from '../../../core/dialog.js';
import {
  DONTCARE,
  DSTC2_SLOTS,
  parseApiCall,
  parseKbLine,
  understand,
  type Dstc2Lexicon,
  type Dstc2Slot,
  type SlotValues,
  type UserFrame,
} from './dstc2-lexicon.js';

/** What a bot turn did, read off its wording. */
export type BotKind = 'greet' | 'ask' | 'call' | 'offer' | 'no-result' | 'bye' | 'other';

export interface BotMove {
  readonly kind: BotKind;
  /** The slot asked about (`ask`). */
  readonly slot?: Dstc2Slot;
  /** The restaurant named (`offer`, which also covers answers about a named restaurant). */
  readonly restaurant?: string;
}

export interface KbResult {
  readonly name: string;
  readonly rating: number;
  readonly facts: Readonly<Record<string, string>>;
}

export interface Dstc2State {
  /** The user's constraints so far (a value or DONTCARE per slot; absent = never said). */
  readonly goal: SlotValues;
  /** The user turns (frames) in order. */
  readonly users: readonly UserFrame[];
  readonly lastUser?: UserFrame;
  readonly lastBot?: BotMove;
  /** Slots the bot asked about before its first api_call, in order. */
  readonly asked: readonly Dstc2Slot[];
  /** The last api_call's slots (DONTCARE for placeholders), if one was made. */
  readonly call?: SlotValues;
  readonly calls: number;
  /** Results of the last api_call (in file order) and whether it returned `no result`. */
  readonly results: readonly KbResult[];
  readonly noResult: boolean;
  /** True when the last thing in the history is the api_call's answer (the bot must react to it). */
  readonly resultsPending: boolean;
  /** Restaurants the bot named since the last api_call, in order. */
  readonly proposed: readonly string[];
  /** The restaurant under discussion (last one the bot named). */
  readonly current?: string;
  /** Number of bot turns so far. */
  readonly botTurns: number;
}

const ASK_PATTERNS: readonly [Dstc2Slot, RegExp][] = [
  ['cuisine', /\bkind of food\b|\bwhat food\b|\btype of food would\b/i],
  ['location', /\bpart of town do you\b|\bwhat area\b|\bwhich part of town\b/i],
  ['price', /\bprice range\?$|\bcheap , moderate , or expensive\b/i],
];

/** Restaurant names as the bot writes them (underscored or spaced), longest first. */
export function namePatterns(lex: Dstc2Lexicon): readonly [string, string][] {
  const cached = nameCache.get(lex);
  if (cached) return cached;
  const out: [string, string][] = [];
  for (const n of lex.restaurants.keys()) {
    out.push([n, n]);
    if (n.includes('_')) out.push([n.replace(/_/g, ' '), n]);
  }
  out.sort((a, b) => b[0].length - a[0].length);
  nameCache.set(lex, out);
  return out;
}
const nameCache = new WeakMap<Dstc2Lexicon, [string, string][]>();

/** The restaurant a bot utterance names (known names first, else a leading `x_y` token), if any. */
export function restaurantIn(text: string, lex: Dstc2Lexicon): string | undefined {
  const t = ` ${text} `;
  for (const [form, name] of namePatterns(lex)) if (t.includes(` ${form} `)) return name;
  const m = /^(\w+_\w+) (is|serves)\b/.exec(text.trim());
  return m ? (m[1] as string) : undefined;
}

/** Classifies a bot utterance. */
export function readBotTurn(text: string, lex: Dstc2Lexicon): BotMove {
  const s = text.trim();
  if (s.startsWith('api_call')) return { kind: 'call' };
  if (/^hello\b.*welcome/i.test(s)) return { kind: 'greet' };
  if (/^you are welcome$/i.test(s)) return { kind: 'bye' };
  if (/\bthere is no\b/i.test(s)) return { kind: 'no-result' };
  for (const [slot, re] of ASK_PATTERNS) if (re.test(s) && !restaurantIn(s, lex)) return { kind: 'ask', slot };
  const r = restaurantIn(s, lex);
  if (r) return { kind: 'offer', restaurant: r };
  return { kind: 'other' };
}

// Per-lexicon memo of utterance readings: a history is re-read at every turn, its texts repeat.
const userMemo = new WeakMap<Dstc2Lexicon, Map<string, UserFrame>>();
const botMemo = new WeakMap<Dstc2Lexicon, Map<string, BotMove>>();
const kbMemo = new WeakMap<Dstc2Lexicon, Map<string, ReturnType<typeof parseKbLine> | null>>();

function memo<T>(store: WeakMap<Dstc2Lexicon, Map<string, T>>, lex: Dstc2Lexicon, text: string, f: () => T): T {
  let m = store.get(lex);
  if (!m) store.set(lex, (m = new Map()));
  let v = m.get(text);
  if (v === undefined) {
    if (m.size > 200_000) m.clear();
    m.set(text, (v = f()));
  }
  return v;
}

/** Builds the state from a history (user, bot and kb turns, as read from a bAbI task-6 file). */
export function trackDstc2(history: readonly Turn[], lex: Dstc2Lexicon): Dstc2State {
  const goal: Record<string, string> = {};
  const users: UserFrame[] = [];
  const asked: Dstc2Slot[] = [];
  let lastBot: BotMove | undefined;
  let call: SlotValues | undefined;
  let calls = 0;
  type Result = { name: string; rating: number; facts: Record<string, string> };
  let results: Result[] = [];
  let byName = new Map<string, Result>();
  let noResult = false;
  let resultsPending = false;
  let proposed: string[] = [];
  let current: string | undefined;
  let botTurns = 0;
  for (const t of history) {
    if (t.speaker === 'kb') {
      if (/^api_call no result$/.test(t.text.trim())) {
        noResult = true;
        resultsPending = true;
        continue;
      }
      const f = memo(kbMemo, lex, t.text, () => parseKbLine(t.text) ?? null);
      if (!f) continue;
      let r = byName.get(f.entity);
      if (!r) {
        results.push((r = { name: f.entity, rating: 0, facts: {} }));
        byName.set(f.entity, r);
      }
      r.facts[f.attr] = f.value;
      if (f.attr === 'rating') r.rating = Number(f.value) || 0;
      resultsPending = true;
    } else if (t.speaker === 'user') {
      const u = memo(userMemo, lex, t.text, () => understand(t.text, lex));
      users.push(u);
      for (const s of DSTC2_SLOTS) {
        const v = u.slots[s];
        if (v !== undefined) goal[s] = v;
      }
      // A bare `dont care` answers the question just asked.
      if (u.bareDontcare && lastBot?.kind === 'ask' && lastBot.slot && u.slots[lastBot.slot] === undefined) goal[lastBot.slot] = DONTCARE;
      if (!u.silence) resultsPending = false;
    } else {
      botTurns++;
      const b = memo(botMemo, lex, t.text, () => readBotTurn(t.text, lex));
      lastBot = b;
      resultsPending = false;
      if (b.kind === 'call') {
        call = parseApiCall(t.text);
        calls++;
        results = [];
        byName = new Map();
        noResult = false;
        proposed = [];
        // The call fixes the constraints as the bot understood them.
        if (call) for (const s of DSTC2_SLOTS) if (call[s] !== undefined) goal[s] = call[s] as string;
      } else if (b.kind === 'ask' && b.slot && calls === 0) {
        asked.push(b.slot);
      } else if (b.kind === 'offer' && b.restaurant) {
        current = b.restaurant;
        if (!proposed.includes(b.restaurant)) proposed.push(b.restaurant);
      }
    }
  }
  const lastUser = users[users.length - 1];
  return {
    goal: goal as SlotValues,
    users,
    ...(lastUser ? { lastUser } : {}),
    ...(lastBot ? { lastBot } : {}),
    asked,
    ...(call ? { call } : {}),
    calls,
    results,
    noResult,
    resultsPending,
    proposed,
    ...(current !== undefined ? { current } : {}),
    botTurns,
  };
}

/** Results not yet proposed, best rating first (file order on ties). */
export function rankedResults(st: Dstc2State): KbResult[] {
  return st.results
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => !st.proposed.includes(r.name))
    .sort((a, b) => b.r.rating - a.r.rating || a.i - b.i)
    .map(({ r }) => r);
}

/** Whether the last user turn changed a constraint of the last api_call. */
export function goalChanged(st: Dstc2State): boolean {
  const call = st.call;
  if (!call || !st.lastUser) return false;
  return DSTC2_SLOTS.some((s) => st.lastUser?.slots[s] !== undefined && st.goal[s] !== call[s]);
}
