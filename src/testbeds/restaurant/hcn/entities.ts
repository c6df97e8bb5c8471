/**
 * HCN entity tracking (Williams et al. 2017, §2: "entity extraction" and "entity tracking").
 *
 * `HcnLexicon` maps tokens to entity types, read from a KB: restaurant names get the type
 * `name`, every token of an attribute value gets the attribute's name (`R_cuisine` → `cuisine`).
 * Because the lexicon comes from the KB given at run time, entities never seen in training (the
 * OOV test sets) are recognised like any other.
 *
 * `trackDialog` replays a dialog history and keeps what the templates need: the values the user
 * gave per type, the results of the last api_call (KB-result turns), the restaurants the bot has
 * proposed since that call, and the restaurant in focus.
 */
import type { Turn } from '../../../core/dialog.js';
import type { KbFact } from '../../../formats/babi.js';
import { attrType } from '../../../rankers/match-type.js';
import { ModelFileError } from '../../../core/errors.js';
import { bestRated } from '../rules/state.js';

/** Entity type of a restaurant name. */
export const NAME_TYPE = 'name';
/** Attributes not recognised in text (numbers such as ratings would clash with ordinary words). */
const UNRECOGNISED = new Set(['rating']);

export { attrType };

/** JSON key of the aliases in `HcnLexicon.toJSON` (`token=value` strings). */
const ALIAS_KEY = '@alias';
/** JSON key of the value tokens no KB restaurant has. */
const UNSERVED_KEY = '@unserved';

export class HcnLexicon {
  private readonly typeOf = new Map<string, string>();
  /** Tokens standing for another value (`moderately` → `moderate`), learned from training dialogs. */
  private readonly aliasOf = new Map<string, string>();
  /** Value tokens typed from the training dialogs (api_call arguments) that no KB restaurant has. */
  private readonly notInKb = new Set<string>();
  /** Restaurant attributes of the KB (name → type → value); run time only, not in model files. */
  private readonly attrs = new Map<string, Map<string, string>>();

  constructor(entries: Iterable<readonly [string, string]> = []) {
    for (const [w, t] of entries) this.add(w, t);
  }

  /** Adds a token (the first type given wins). */
  add(token: string, type: string): void {
    if (token.length > 0 && !this.typeOf.has(token)) this.typeOf.set(token, type);
  }

  /** Adds a value token that no KB restaurant has (an api_call argument unknown to the KB). */
  addUnserved(token: string, type: string): void {
    if (token.length === 0 || this.typeOf.has(token)) return;
    this.typeOf.set(token, type);
    this.notInKb.add(token);
  }

  /** A restaurant's attributes in the KB (undefined when the KB given at run time lacks it). */
  attributes(name: string): ReadonlyMap<string, string> | undefined {
    return this.attrs.get(name);
  }

  /**
   * The KB's request attributes: types recognised in text whose values many restaurants share
   * (cuisine, price, `R_restrictions` …: at least 2 values, at most one per 10 restaurants), not
   * those that single one restaurant out (phone, address). Empty without KB attributes.
   */
  sharedTypes(): string[] {
    const values = new Map<string, Set<string>>();
    for (const a of this.attrs.values())
      for (const [t, v] of a) {
        let s = values.get(t);
        if (!s) values.set(t, (s = new Set()));
        s.add(v);
      }
    const recognised = new Set(this.typeOf.values());
    return [...values]
      .filter(([t, s]) => t !== NAME_TYPE && recognised.has(t) && s.size >= 2 && s.size * 10 <= this.attrs.size)
      .map(([t]) => t)
      .sort();
  }

  /** Whether a value (canonical token) is one no KB restaurant has. */
  unserved(value: string): boolean {
    return this.notInKb.has(value);
  }

  /** Makes `token` a way of saying `value` (a known, non-name token); ignored when the token is typed already. */
  addAlias(token: string, value: string): void {
    const t = this.typeOf.get(value);
    if (token.length === 0 || this.typeOf.has(token) || t === undefined || t === NAME_TYPE) return;
    this.typeOf.set(token, t);
    this.aliasOf.set(token, this.aliasOf.get(value) ?? value);
  }

  /** The value a token stands for (itself unless an alias). */
  canonical(token: string): string {
    return this.aliasOf.get(token) ?? token;
  }

  /** The aliases, token → value. */
  get aliases(): ReadonlyMap<string, string> {
    return this.aliasOf;
  }

  /** Names first (so a name is never taken for a value), then every value token. */
  static fromFacts(facts: readonly KbFact[]): HcnLexicon {
    const lex = new HcnLexicon();
    for (const f of facts) lex.add(f.entity, NAME_TYPE);
    for (const f of facts) {
      const t = attrType(f.attr);
      let a = lex.attrs.get(f.entity);
      if (!a) lex.attrs.set(f.entity, (a = new Map()));
      if (!a.has(t)) a.set(t, f.value);
      if (UNRECOGNISED.has(t)) continue;
      for (const w of f.value.split(/\s+/)) lex.add(w, t);
    }
    return lex;
  }

  type(token: string): string | undefined {
    return this.typeOf.get(token);
  }

  /** A copy without these tokens (words that are KB entities but mostly ordinary words, e.g. a restaurant called `ask`). */
  without(tokens: Iterable<string>): HcnLexicon {
    const drop = new Set(tokens);
    const out = new HcnLexicon([...this.typeOf].filter(([w]) => !drop.has(w) && !this.aliasOf.has(w)));
    for (const w of this.notInKb) if (!drop.has(w)) out.notInKb.add(w);
    for (const [w, v] of this.aliasOf) if (!drop.has(w)) out.addAlias(w, v);
    for (const [n, a] of this.attrs) out.attrs.set(n, a);
    return out;
  }

  get size(): number {
    return this.typeOf.size;
  }

  /** A copy with the entries of `other` added (this lexicon's types win; aliases of both kept). */
  merged(other: HcnLexicon): HcnLexicon {
    const out = new HcnLexicon([...this.typeOf].filter(([w]) => !this.aliasOf.has(w)));
    for (const w of this.notInKb) out.notInKb.add(w);
    for (const e of other.typeOf) {
      if (other.aliasOf.has(e[0])) continue;
      // A value another KB lacks stays unserved only if this lexicon does not know it either.
      if (other.notInKb.has(e[0]) && !this.typeOf.has(e[0])) out.notInKb.add(e[0]);
      out.add(e[0], e[1]);
    }
    for (const [w, v] of this.aliasOf) out.addAlias(w, v);
    for (const [w, v] of other.aliasOf) out.addAlias(w, v);
    for (const [n, a] of this.attrs) out.attrs.set(n, a);
    for (const [n, a] of other.attrs) if (!out.attrs.has(n)) out.attrs.set(n, a);
    return out;
  }

  /** Compact JSON: type → tokens, and `@alias` → `token=value`. */
  toJSON(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [w, t] of this.typeOf) if (!this.aliasOf.has(w)) (out[t] ??= []).push(w);
    if (this.aliasOf.size > 0) out[ALIAS_KEY] = [...this.aliasOf].map(([w, v]) => `${w}=${v}`);
    if (this.notInKb.size > 0) out[UNSERVED_KEY] = [...this.notInKb];
    return out;
  }

  static fromJSON(j: unknown): HcnLexicon {
    if (typeof j !== 'object' || j === null || Array.isArray(j)) throw new ModelFileError('lexicon: expected an object');
    const lex = new HcnLexicon();
    // Names first, as in fromFacts; aliases last.
    const entries = Object.entries(j as Record<string, unknown>).sort(([a], [b]) => (a === NAME_TYPE ? -1 : b === NAME_TYPE ? 1 : 0));
    for (const [t, ws] of entries) {
      if (!Array.isArray(ws)) throw new ModelFileError(`lexicon: type ${t} is not a list`);
      if (t !== ALIAS_KEY && t !== UNSERVED_KEY) for (const w of ws) lex.add(String(w), t);
    }
    const unserved = (j as Record<string, unknown>)[UNSERVED_KEY];
    if (Array.isArray(unserved)) for (const w of unserved) if (lex.typeOf.has(String(w))) lex.notInKb.add(String(w));
    const aliases = (j as Record<string, unknown>)[ALIAS_KEY];
    if (Array.isArray(aliases))
      for (const a of aliases) {
        const [w, v] = String(a).split('=');
        if (w !== undefined && v !== undefined) lex.addAlias(w, v);
      }
    return lex;
  }
}

/** What the tracker knows before a bot turn. */
export interface TrackerState {
  /** The latest value the user gave per entity type (`cuisine` → `italian`). */
  readonly slots: Map<string, string>;
  /** Entity types mentioned in the last user turn (since the last bot turn). */
  readonly turnTypes: Set<string>;
  /** Restaurant attributes read from KB-result turns (name → type → value). */
  readonly restaurants: Map<string, Map<string, string>>;
  /** The current result set: restaurants of the KB turns after the last api_call (or all, with no call). */
  results: string[];
  /** Restaurants of the current result set the bot has named, in order. */
  proposed: string[];
  /** The restaurant most recently named by the user or the bot. */
  current: string | undefined;
  /** Whether the user named a restaurant in the last user turn. */
  userNamed: boolean;
  apiCalls: number;
  /** KB turns since the last bot turn, and whether none of them was a result (`api_call no result`). */
  kbThisTurn: number;
  emptyResult: boolean;
  /** Bot turns so far. */
  botTurns: number;
  /** The last user utterance since the last bot turn ('' when none). */
  userText: string;
}

export function emptyTracker(): TrackerState {
  return {
    slots: new Map(),
    turnTypes: new Set(),
    restaurants: new Map(),
    results: [],
    proposed: [],
    current: undefined,
    userNamed: false,
    apiCalls: 0,
    kbThisTurn: 0,
    emptyResult: false,
    botTurns: 0,
    userText: '',
  };
}

const KB_LINE = /^(\S+) [rR]_(\w+) (.+)$/;

/** Whether a token names a restaurant (KB lexicon or a KB-result turn of this dialog). */
export function isName(st: TrackerState, lex: HcnLexicon, token: string): boolean {
  return st.restaurants.has(token) || lex.type(token) === NAME_TYPE;
}

/** Lower-cased tokens of a user utterance, punctuation split off (`madrid,` → `madrid` `,`). */
export function userTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/([,.!?;:])(?=\s|$)/g, ' $1')
    .split(/\s+/)
    .filter((t) => t.length > 0);
}

/** An entity mention in a user turn. */
export interface Mention {
  /** Token position in the turn. */
  readonly index: number;
  readonly token: string;
  readonly type: string;
  /** 0 for the first mention of its type in the turn, 1 for the second, … */
  readonly ordinal: number;
}

/** Decides whether a mention sets its slot (a learned model: `hcn-commit`); absent = every mention. */
export type MentionFilter = (delexTokens: readonly string[], m: Mention) => boolean;

/** Tokens with entities replaced by their type placeholder (`<cuisine>`, `<name>`). */
export function delexicaliseTokens(tokens: readonly string[], lex: HcnLexicon, st: TrackerState): string[] {
  return tokens.map((w) => {
    if (isName(st, lex, w)) return `<${NAME_TYPE}>`;
    const t = lex.type(w);
    return t === undefined ? w : `<${t}>`;
  });
}

/** The entity mentions of a turn, from its tokens and their delexicalised form. */
export function mentionsOf(tokens: readonly string[], delex: readonly string[]): Mention[] {
  const out: Mention[] = [];
  const count = new Map<string, number>();
  tokens.forEach((token, index) => {
    const d = delex[index] as string;
    if (d === token || !d.startsWith('<') || !d.endsWith('>')) return;
    const type = d.slice(1, -1);
    const ordinal = count.get(type) ?? 0;
    count.set(type, ordinal + 1);
    out.push({ index, token, type, ordinal });
  });
  return out;
}

/** A restaurant named without KB-result turns of its own: its attributes come from the KB. */
function fromKb(st: TrackerState, lex: HcnLexicon, name: string): void {
  if (st.restaurants.has(name)) return;
  const a = lex.attributes(name);
  if (a) st.restaurants.set(name, new Map(a));
}

/** Updates the state with one turn. */
export function trackTurn(st: TrackerState, lex: HcnLexicon, turn: Turn, keep?: MentionFilter): void {
  if (turn.speaker === 'kb') {
    st.kbThisTurn++;
    const m = KB_LINE.exec(turn.text.trim());
    if (!m) {
      if (st.kbThisTurn === 1 || st.emptyResult) st.emptyResult = true;
      return;
    }
    st.emptyResult = false;
    const name = m[1] as string;
    let attrs = st.restaurants.get(name);
    if (!attrs) st.restaurants.set(name, (attrs = new Map()));
    attrs.set(attrType(m[2] as string), (m[3] as string).trim());
    if (!st.results.includes(name)) st.results.push(name);
    return;
  }
  if (turn.speaker === 'user') {
    st.userText = turn.text;
    st.turnTypes.clear();
    st.userNamed = false;
    const toks = userTokens(turn.text);
    const delex = delexicaliseTokens(toks, lex, st);
    const committed = new Set<string>();
    for (const m of mentionsOf(toks, delex)) {
      if (m.type === NAME_TYPE) {
        fromKb(st, lex, m.token);
        st.current = m.token;
        st.userNamed = true;
        st.turnTypes.add(NAME_TYPE);
        continue;
      }
      // The first kept mention of a type in a turn wins (`x, and keep y for another day`).
      if (committed.has(m.type) || (keep && !keep(delex, m))) continue;
      committed.add(m.type);
      st.slots.set(m.type, lex.canonical(m.token));
      st.turnTypes.add(m.type);
    }
    return;
  }
  // Bot turn: an api_call starts a new result set; named restaurants become proposed/current.
  const words = turn.text.split(' ');
  if (words[0] === 'api_call') {
    st.apiCalls++;
    st.results = [];
    st.proposed = [];
  } else {
    for (const w of words) {
      if (!isName(st, lex, w)) continue;
      fromKb(st, lex, w);
      st.current = w;
      if (!st.proposed.includes(w)) st.proposed.push(w);
    }
  }
  st.botTurns++;
  st.userText = '';
  st.turnTypes.clear();
  st.userNamed = false;
  st.kbThisTurn = 0;
  st.emptyResult = false;
}

/** Numeric rating of a restaurant (−∞ when unknown). */
export function ratingOf(st: TrackerState, name: string): number {
  const r = Number(st.restaurants.get(name)?.get('rating'));
  return Number.isFinite(r) ? r : -Infinity;
}

/** The best-rated result not yet proposed (first seen on ties), or undefined. */
export function nextProposal(st: TrackerState): string | undefined {
  return bestRated(st.results, (name) => ratingOf(st, name), (name) => st.proposed.includes(name));
}
