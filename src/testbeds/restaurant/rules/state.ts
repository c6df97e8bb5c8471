/**
 * Dialog state tracking for the rule-based restaurant bot: replays a history (user, bot and KB
 * turns) and keeps what the bot needs to decide its next turn — the user's goal (slot values,
 * with updates), the slot question pending, api_calls issued, the KB results seen, options
 * proposed/rejected, the restaurant booked, the info being asked for.
 */
import type { Turn } from '../../../core/dialog.js';
import { closedSlotOf, understand, type InfoKind, type Slot, type SlotValues, type UserAct } from './nlu.js';
import { dialectOfBotText, readBotAct, type BotAct, type Dialect } from './phrases.js';

/** A restaurant read from KB-result turns (`name R_attr value`, any case of `R_`). */
export interface KbEntry {
  readonly name: string;
  /** Attribute values by lower-case attribute name without the `r_` prefix (`phone`, `rating`, …). */
  readonly attrs: Map<string, string>;
  /** Position of the restaurant's first KB line in the history (order of appearance). */
  readonly order: number;
}

export interface DialogState {
  /** Dialect read from the history (undefined when nothing tells bAbI and DSTC6 apart). */
  dialect: Dialect | undefined;
  /** The user's current goal. */
  readonly slots: SlotValues;
  /** Values the user typed in pattern slots or the bot/KB named, by value: a lexicon for bare values. */
  readonly lexicon: Map<string, Slot>;
  /** The KB's cuisines and locations, when the bot was given a KB (`RulesOptions.kb`): the free reading's vocabulary. */
  readonly vocab: ReadonlyMap<string, Slot>;
  /** Whether the restrictions slot is in use (DSTC6 tst3/tst4); undefined = no evidence either way. */
  restrictions: boolean | undefined;
  greeted: boolean;
  requested: boolean;
  /** The slot question the bot asked last and the user has not answered yet. */
  asked: Slot | undefined;
  apiCalls: number;
  /** True between the first api_call and the next search (the user may update slots). */
  updating: boolean;
  /** Every restaurant seen in KB turns. */
  readonly kb: Map<string, KbEntry>;
  /** The restaurants of the current result set (after the last api_call, or all if none). */
  results: string[];
  /** Restaurants of the current result set already proposed, in order. */
  proposed: string[];
  /** The last api_call found nothing (its KB turn is `api_call no result`). */
  noResult: boolean;
  /** The option most recently put in front of the user (proposed or recalled). */
  current: string | undefined;
  /** The restaurant being reserved (accepted option or `book a table at X`). */
  booked: string | undefined;
  /** The info the user is checking with a friend (DSTC6). */
  consulting: InfoKind | undefined;
  /** Last act of the bot, and the last user act. */
  lastBot: BotAct | undefined;
  lastUser: UserAct | undefined;
}

const KB_LINE = /^(\S+) [rR]_(\w+) (.+)$/;

/** The state before any turn (start of a dialog); `vocab`: the KB's cuisines and locations. */
export function emptyState(vocab: ReadonlyMap<string, Slot> = new Map()): DialogState {
  return {
    dialect: undefined,
    slots: {},
    lexicon: new Map(),
    vocab,
    restrictions: undefined,
    greeted: false,
    requested: false,
    asked: undefined,
    apiCalls: 0,
    updating: false,
    kb: new Map(),
    results: [],
    proposed: [],
    noResult: false,
    current: undefined,
    booked: undefined,
    consulting: undefined,
    lastBot: undefined,
    lastUser: undefined,
  };
}

function learn(st: DialogState, slots: SlotValues): void {
  for (const [slot, value] of Object.entries(slots) as [Slot, string][]) {
    if (closedSlotOf(value) === undefined) st.lexicon.set(value, slot);
    if (slot === 'restrictions') st.restrictions = true;
  }
}

/**
 * The slot a bare value fills: its closed set, else what the dialog already called it, else the
 * slot the bot just asked for.
 */
export function slotOfBareValue(st: DialogState, value: string): Slot | undefined {
  return closedSlotOf(value) ?? st.lexicon.get(value) ?? st.asked;
}

/** Applies a user act's slot values to the goal. */
export function userSlots(st: DialogState, act: UserAct): SlotValues | undefined {
  if (act.kind === 'inform' || act.kind === 'request') return act.slots;
  if (act.kind === 'inform-bare') {
    const slot = slotOfBareValue(st, act.value);
    return slot ? { [slot]: act.value } : undefined;
  }
  return undefined;
}

/**
 * What a context-free act means after the bot's last turn: a `no` (or a bare yes) to a proposed
 * option rejects (accepts) it, a `no` to `is there anything i can help you with` (or after `you're
 * welcome`) ends the dialog,
 * a `no thanks` (or `no, something else`) to `is there anything else to update` is a no, and a
 * second booking request only informs.
 */
export function inContext(st: DialogState, act: UserAct): UserAct {
  const b = st.lastBot?.kind;
  const option = b === 'propose' || b === 'recall';
  if (act.kind === 'no' && option) return { kind: 'reject' };
  if (act.kind === 'no' && (b === 'anything-else' || b === 'welcome')) return { kind: 'bye' };
  if (act.kind === 'bye' && b === 'updated') return { kind: 'no' }; // `no thanks` to `anything else to update`
  // `no, something else` to `anything else to update` after an update: no more updates, search again
  // with them (not the next option of the old search; after `no restaurant matching` it stays a reject)
  const updated = st.lastUser?.kind === 'inform' || st.lastUser?.kind === 'inform-bare';
  if (act.kind === 'reject' && b === 'updated' && updated) return { kind: 'no' };
  if (act.kind === 'yes' && option) return { kind: 'accept', which: 'current' };
  if (act.kind === 'request' && st.requested && Object.keys(act.slots).length > 0) return { kind: 'inform', slots: act.slots, update: st.updating };
  return act;
}

function applyUser(st: DialogState, heard: UserAct): void {
  const act = inContext(st, heard);
  st.lastUser = act;
  const slots = userSlots(st, act);
  if (slots) {
    learn(st, slots);
    Object.assign(st.slots, slots);
    if (st.asked && slots[st.asked] !== undefined) st.asked = undefined;
  }
  switch (act.kind) {
    case 'greet':
      st.greeted = true;
      break;
    case 'request':
      st.requested = true;
      break;
    case 'request-at':
      st.requested = true;
      st.booked = act.restaurant;
      break;
    case 'accept':
      st.booked = act.which === 'newest' ? st.proposed[st.proposed.length - 1] ?? st.current : st.current;
      break;
    case 'consult-info':
      st.consulting = act.info;
      break;
    default:
      break;
  }
}

function applyBot(st: DialogState, text: string): void {
  const act = readBotAct(text);
  st.dialect ??= dialectOfBotText(text);
  st.lastBot = act;
  switch (act.kind) {
    case 'ask':
      st.asked = act.slot;
      if (act.slot === 'restrictions') st.restrictions = true;
      if (act.slot === 'atmosphere') st.dialect = 'dstc6';
      break;
    case 'api-call': {
      st.apiCalls++;
      st.updating = true;
      st.asked = undefined;
      // The call states the goal the bot acted on; it also types its values for later bare mentions.
      learn(st, act.slots);
      Object.assign(st.slots, act.slots);
      if (Object.keys(act.slots).length >= 5) st.dialect = 'dstc6';
      if (act.slots.restrictions !== undefined) st.restrictions = true;
      else if (act.slots.atmosphere !== undefined) st.restrictions = false;
      st.results = [];
      st.proposed = [];
      st.current = undefined;
      st.noResult = false;
      break;
    }
    case 'search':
      st.updating = false;
      st.asked = undefined;
      break;
    case 'propose':
    case 'recall':
      st.current = act.restaurant;
      if (act.kind === 'propose' && !st.proposed.includes(act.restaurant)) st.proposed.push(act.restaurant);
      break;
    case 'info':
      if (act.info === st.consulting) st.consulting = undefined;
      break;
    default:
      break;
  }
}

function applyKb(st: DialogState, text: string, order: number): void {
  const m = KB_LINE.exec(text.trim());
  if (!m) {
    if (text.trim() === 'api_call no result') st.noResult = true;
    return;
  }
  const name = m[1] as string;
  const attr = (m[2] as string).toLowerCase();
  const value = m[3] as string;
  if (m[2]?.startsWith('r_')) st.dialect ??= 'dstc6';
  let e = st.kb.get(name);
  if (!e) {
    e = { name, attrs: new Map(), order };
    st.kb.set(name, e);
  }
  e.attrs.set(attr, value);
  if (!st.results.includes(name)) st.results.push(name);
  if (attr === 'cuisine' || attr === 'location') st.lexicon.set(value, attr);
}

/**
 * Applies turn `t`, the history's turn number `i`, to the state in place: `trackState` is this
 * over every turn, so a caller that keeps a state may apply new turns as they come.
 */
export function applyTurn(st: DialogState, t: Turn, i: number): void {
  if (t.speaker === 'kb') applyKb(st, t.text, i);
  else if (t.speaker === 'bot') applyBot(st, t.text);
  else {
    if (t.text === '<silence>') st.dialect ??= 'dstc6';
    else if (t.text === '<SILENCE>') st.dialect ??= 'babi';
    // Without a KB vocabulary the bot also guesses open values by their cue words (`in <word>`, `<word> food`).
    applyUser(st, understand(t.text, (w) => st.vocab.get(w) ?? st.lexicon.get(w), st.vocab.size === 0));
  }
}

/** Replays a history into a dialog state (`vocab` as in `emptyState`). */
export function trackState(history: readonly Turn[], vocab?: ReadonlyMap<string, Slot>): DialogState {
  const st = emptyState(vocab);
  history.forEach((t, i) => applyTurn(st, t, i));
  return st;
}

/** Numeric rating of a KB entry (missing → -Infinity). */
export function ratingOf(e: KbEntry | undefined): number {
  const r = e?.attrs.get('rating');
  const n = r === undefined ? NaN : Number(r);
  return Number.isFinite(n) ? n : -Infinity;
}

/**
 * The best-rated of `names` by `rating` (first seen on ties, so an unrated one, −∞, only when
 * nothing better is left), passing over those `skip` names; undefined when none is left. How the
 * rule bot and HCN's tracker pick the next restaurant to propose.
 */
export function bestRated(names: Iterable<string>, rating: (name: string) => number, skip: (name: string) => boolean = () => false): string | undefined {
  let best: string | undefined;
  let bestRating = -Infinity;
  for (const name of names) {
    if (skip(name)) continue;
    const r = rating(name);
    if (best === undefined || r > bestRating) {
      best = name;
      bestRating = r;
    }
  }
  return best;
}
