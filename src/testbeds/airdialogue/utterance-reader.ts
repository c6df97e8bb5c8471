/**
 * How the `airdialogue-v2` customer reads an agent turn: the turn is normalised (lower case,
 * contractions expanded, fillers dropped, split into sentences), each sentence is matched against
 * the lexicon's cue phrases (`lexicon.ts`, longest phrase first), and the cues become acts — a
 * question about a topic (with its direction for airports, dates and times), an open question, a
 * general "requirements" question, a proposal, or a weak act (goal, greeting, wait, closing) read
 * only when nothing else is. Letter case, punctuation inside a sentence, contractions, filler
 * words and word order do not change the read.
 */
import { AIR_ACTS, AIR_CUES, AIR_FILLERS, AIR_MONEY_WORDS, NOT_UNDERSTOOD, type AirAct, type CueKind } from './lexicon.js';

const LABEL: ReadonlyMap<AirAct, string> = new Map(AIR_ACTS.map((a) => [a.act, a.label]));

/**
 * What the customer read in one agent turn: its acts (in `AIR_ACTS` order; empty when nothing was
 * understood), the flight number proposed (if any) and the `info.read` label.
 *
 * @example
 * ```ts
 * import { readAgentTurn, type AirRead } from 'dialogym/airdialogue';
 * const r: AirRead = readAgentTurn('What is your budget? And your name?');
 * r.acts;  // ['name', 'budget']
 * r.label; // 'ask(name) + ask(budget)'
 * ```
 */
export interface AirRead {
  readonly acts: readonly AirAct[];
  readonly flight: number | null;
  readonly label: string;
}

/** One bit per cue kind (cue kinds of a sentence are a bit set). */
const KIND: Readonly<Record<CueKind, number>> = Object.fromEntries(Object.keys(AIR_CUES).map((k, i) => [k, 1 << i])) as Record<CueKind, number>;

interface Cue {
  readonly words: readonly string[];
  readonly kinds: number;
}

/** Cue phrases by first word, longest first; a phrase listed under several kinds marks them all. */
const CUE_INDEX: ReadonlyMap<string, readonly Cue[]> = (() => {
  const byPhrase = new Map<string, number>();
  for (const [kind, phrases] of Object.entries(AIR_CUES) as Array<[CueKind, readonly string[]]>) {
    for (const p of phrases) byPhrase.set(p, (byPhrase.get(p) ?? 0) | KIND[kind]);
  }
  const index = new Map<string, Cue[]>();
  for (const [phrase, kinds] of byPhrase) {
    const words = phrase.split(' ');
    const first = words[0] as string;
    index.set(first, [...(index.get(first) ?? []), { words, kinds }]);
  }
  for (const cues of index.values()) cues.sort((a, b) => b.words.length - a.words.length);
  return index;
})();

const FILLERS = new Set(AIR_FILLERS);
const MONEY = new Set(AIR_MONEY_WORDS);
const FLIGHT_WORDS = new Set(AIR_CUES.flightWord.flatMap((p) => p.split(' ')));
/** The end-of-sentence word of cue phrases (`to $`). */
const END = '$';

const APOSTROPHES = /[\u2018\u2019\u02bc`\u00b4]/g;
const HAS_APOSTROPHE = /[\u2018\u2019\u02bc`\u00b4]/;
const CONTRACTION = /([a-z]+)'([a-z]+)\b/g;
/** Words a following "'s" turns into "<word> is" (elsewhere it is a possessive, dropped). */
const IS_WORDS = new Set(['it', 'that', 'what', 'where', 'when', 'who', 'how', 'there', 'here', 'he', 'she']);
const NOT_WORDS: Readonly<Record<string, string>> = { can: 'can not', won: 'will not', shan: 'shall not', ain: 'is not' };
const SUFFIX_WORDS: Readonly<Record<string, string>> = { re: 'are', ve: 'have', ll: 'will', d: 'would', m: 'am' };

function expandContraction(_m: string, word: string, suffix: string): string {
  if (suffix === 't') return NOT_WORDS[word] ?? (word.endsWith('n') ? `${word.slice(0, -1)} not` : word);
  if (suffix === 's') return word === 'let' ? 'let us' : IS_WORDS.has(word) ? `${word} is` : word;
  const w = SUFFIX_WORDS[suffix];
  return w === undefined ? `${word} ${suffix}` : `${word} ${w}`;
}

/** Contractions written without an apostrophe, and the two-letter abbreviations `e.g.`, `i.e.` once read. */
const EXPANSIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['whats', ['what', 'is']],
  ['wheres', ['where', 'is']],
  ['whens', ['when', 'is']],
  ['hows', ['how', 'is']],
  ['thats', ['that', 'is']],
  ['dont', ['do', 'not']],
  ['doesnt', ['does', 'not']],
  ['didnt', ['did', 'not']],
  ['cant', ['can', 'not']],
  ['cannot', ['can', 'not']],
  ['im', ['i', 'am']],
  ['youre', ['you', 'are']],
  ['wanna', ['want', 'to']],
  ['gonna', ['going', 'to']],
  ['eg', ['for', 'example']],
  ['ie', ['that', 'is']],
]);
/** Words whose following dot is an abbreviation's, not a sentence end. */
const TITLES = new Set(['mr', 'mrs', 'ms', 'dr', 'no']);
/** `e.g.`, `i.e.`, `a.m.`, `p.m.`: a letter, a dot, a letter, a dot. */
const LETTER_PAIRS = new Set(['eg', 'ie', 'am', 'pm']);

const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** `.`, `?`, `!`, `;`, new line. */
const isSentenceEnd = (c: number): boolean => c === 46 || c === 63 || c === 33 || c === 59 || c === 10;

/**
 * An agent turn as the reader sees it: its sentences, each a list of words (lower case,
 * contractions expanded, fillers dropped; `$` is the word `dollars`, `#` and `no.` before a number
 * the word `number`; the dots of `e.g.`, `i.e.`, `a.m.`, `p.m.`, `mr.`, `dr.` … end no sentence).
 *
 * @example
 * ```ts
 * import { normalizeAgentTurn } from 'dialogym/airdialogue';
 * normalizeAgentTurn("OK, so what's your budget? Thanks!"); // [['what', 'is', 'your', 'budget'], ['thanks']]
 * ```
 */
export function normalizeAgentTurn(text: string): string[][] {
  let t = text.toLowerCase();
  if (t.includes("'") || HAS_APOSTROPHE.test(t)) t = t.replace(APOSTROPHES, "'").replace(CONTRACTION, expandContraction);
  const out: string[][] = [];
  let words: string[] = [];
  const push = (w: string): void => {
    if (FILLERS.has(w)) return;
    const expanded = EXPANSIONS.get(w);
    if (expanded) words.push(...expanded);
    else words.push(w);
  };
  const n = t.length;
  for (let i = 0; i < n; ) {
    const c = t.charCodeAt(i);
    if (isWordChar(c)) {
      let j = i + 1;
      while (j < n && isWordChar(t.charCodeAt(j))) j++;
      let w = t.slice(i, j);
      // 1,000 is one number
      while (isDigit(c) && j + 3 < n && t.charCodeAt(j) === 44 && isDigit(t.charCodeAt(j + 1)) && isDigit(t.charCodeAt(j + 2)) && isDigit(t.charCodeAt(j + 3)) && !(j + 4 < n && isWordChar(t.charCodeAt(j + 4)))) {
        w += t.slice(j + 1, j + 4);
        j += 4;
      }
      // e.g. / i.e. / a.m. / p.m.: the letter after the dot joins the letter before it
      if (j - i === 1 && t.charCodeAt(j) === 46) {
        let k = j + 1;
        if (k < n && t.charCodeAt(k) === 32) k++;
        if (k + 1 < n && isWordChar(t.charCodeAt(k)) && t.charCodeAt(k + 1) === 46 && LETTER_PAIRS.has(w + t[k])) {
          w += t[k];
          j = k + 2;
        }
      }
      if (w.length === 4 && words[words.length - 1] === 'no' && /^\d{4}$/.test(w)) words[words.length - 1] = 'number';
      push(w);
      i = j;
      // the dot after a title, or after "no" before a number, ends no sentence
      if (i < n && t.charCodeAt(i) === 46 && TITLES.has(w) && (w !== 'no' || /^\.\s*#?\s*\d/.test(t.slice(i, i + 6)))) i++;
      continue;
    }
    if (isSentenceEnd(c)) {
      if (words.length > 0) out.push(words);
      words = [];
    } else if (c === 36) words.push('dollars');
    else if (c === 35) words.push('number');
    i++;
  }
  if (words.length > 0) out.push(words);
  return out;
}

interface SentenceCues {
  /** The cue kinds of the sentence (`KIND` bits). */
  readonly kinds: number;
  readonly flights: readonly number[];
}

const NO_FLIGHTS: readonly number[] = [];

function sentenceCues(words: readonly string[]): SentenceCues {
  let kinds = 0;
  let flights: number[] | null = null;
  const n = words.length;
  const at = (i: number): string => (i < n ? (words[i] as string) : i === n ? END : '');
  for (let i = 0; i < n; ) {
    const w = words[i] as string;
    let matched = 0;
    const cues = CUE_INDEX.get(w);
    if (cues !== undefined) {
      for (const cue of cues) {
        let ok = true;
        for (let j = 1; j < cue.words.length && ok; j++) ok = at(i + j) === cue.words[j];
        if (ok) {
          kinds |= cue.kinds;
          matched = cue.words.length;
          break;
        }
      }
    }
    if (matched > 0) {
      i += Math.min(matched, n - i);
      continue;
    }
    if (w.length === 4 && /^\d{4}$/.test(w) && !MONEY.has(at(i - 1)) && !MONEY.has(at(i + 1))) {
      for (let j = Math.max(0, i - 3); j < i; j++) {
        if (FLIGHT_WORDS.has(words[j] as string)) {
          (flights ??= []).push(Number(w));
          break;
        }
      }
    }
    i++;
  }
  return { kinds, flights: flights ?? NO_FLIGHTS };
}

/** One bit per act, in `AIR_ACTS` order (the order acts are answered in). */
const ACT: Readonly<Record<AirAct, number>> = Object.fromEntries(AIR_ACTS.map((a, i) => [a.act, 1 << i])) as Record<AirAct, number>;
const bits = (acts: readonly AirAct[]): number => acts.reduce((m, a) => m | ACT[a], 0);

/** The act of a directed topic: outbound only, return only, or both (both directions or none). */
function directed(k: number, out: number, back: number, acts: readonly [AirAct, AirAct, AirAct]): number {
  const o = (k & out) !== 0;
  const b = (k & back) !== 0;
  return ACT[o && !b ? acts[0] : b && !o ? acts[1] : acts[2]];
}

const PREF_TOPICS = KIND.time | KIND.budget | KIND.connections | KIND.class | KIND.airline;
const WEAK_KINDS = KIND.goal | KIND.greet | KIND.wait | KIND.close;
/** Weak acts in the order one is chosen when a turn has only weak acts. */
const WEAK_PRIORITY: readonly AirAct[] = ['goal', 'wait', 'greet', 'close'];
/** Acts an act's answer already holds. */
const COVERS: ReadonlyArray<readonly [number, number]> = [
  [ACT.open, bits(['route', 'origin', 'destination', 'dates', 'departure date', 'return date', 'requirements', 'times', 'departure time', 'return time', 'budget', 'connections', 'class', 'airline'])],
  [ACT.requirements, bits(['times', 'departure time', 'return time', 'budget', 'connections', 'class', 'airline'])],
  [ACT.route, bits(['origin', 'destination'])],
  [ACT.dates, bits(['departure date', 'return date'])],
  [ACT.times, bits(['departure time', 'return time'])],
];
/** Pairs that together are the act that covers both. */
const PAIRS: ReadonlyArray<readonly [number, number]> = [
  [bits(['origin', 'destination']), ACT.route],
  [bits(['departure date', 'return date']), ACT.dates],
  [bits(['departure time', 'return time']), ACT.times],
];

function bitCount(x: number): number {
  let n = 0;
  for (let v = x; v !== 0; v &= v - 1) n++;
  return n;
}

/**
 * Reads an agent turn into acts with the lexicon (module description above). Never throws; a
 * turn with no act reads as `not understood`. The read is frozen: the reads of up to 1,024 recent
 * distinct turns are kept and given again for the same text.
 *
 * @example
 * ```ts
 * import { readAgentTurn } from 'dialogym/airdialogue';
 * readAgentTurn('Do you have any connection limit?').label;         // 'ask(connections)'
 * readAgentTurn('When do you want to leave?').label;                // 'ask(departure date)'
 * readAgentTurn('I found flight 1012. Shall I book it?').flight;    // 1012
 * readAgentTurn('Purple monkeys?').label;                           // 'not understood'
 * ```
 */
export function readAgentTurn(text: string): AirRead {
  let read = RECENT.get(text);
  if (read === undefined) {
    if (RECENT.size >= RECENT_MAX) RECENT.clear();
    read = readUncached(text);
    RECENT.set(text, read);
  }
  return read;
}

/** Reads of recent turns (agents repeat their wordings; a read depends on the text alone). */
const RECENT = new Map<string, AirRead>();
const RECENT_MAX = 1024;

function readUncached(text: string): AirRead {
  const sentences = normalizeAgentTurn(text).map(sentenceCues);
  let flight: number | null = null;
  let proposal = false;
  for (const s of sentences) {
    if (flight === null && s.flights.length > 0) flight = s.flights[0] as number;
    if (s.flights.length > 0 || (s.kinds & KIND.propose) !== 0) proposal = true;
  }
  let strong = 0;
  let weak = 0;
  for (const { kinds: k } of sentences) {
    if (k & KIND.name) strong |= ACT.name;
    weak |= k & WEAK_KINDS;
    // a proposal states the flight's features: its topic words are not questions
    if (proposal) continue;
    if (k & KIND.open) strong |= ACT.open;
    const prefs = bitCount(k & PREF_TOPICS);
    const general = (k & KIND.requirements) !== 0 && ((k & KIND.examples) !== 0 || prefs === 0 || prefs >= 3);
    if (general) strong |= ACT.requirements;
    else {
      if (k & KIND.time) strong |= directed(k, KIND.travelOut, KIND.travelBack, ['departure time', 'return time', 'times']);
      if (k & KIND.budget) strong |= ACT.budget;
      if (k & KIND.connections) strong |= ACT.connections;
      if (k & KIND.class) strong |= ACT.class;
      if (k & KIND.airline) strong |= ACT.airline;
    }
    if (k & KIND.airport) strong |= directed(k, KIND.airportOut, KIND.airportBack, ['origin', 'destination', 'route']);
    if (k & KIND.date) strong |= directed(k, KIND.travelOut, KIND.travelBack, ['departure date', 'return date', 'dates']);
  }
  if (proposal) strong |= ACT.propose;
  for (const [pair, both] of PAIRS) if ((strong & pair) === pair) strong |= both;
  for (const [act, covered] of COVERS) if (strong & act) strong &= ~covered;
  const acts: AirAct[] = [];
  if (strong !== 0) {
    for (const a of AIR_ACTS) if (strong & ACT[a.act]) acts.push(a.act);
  } else {
    const w = WEAK_PRIORITY.find((a) => (weak & KIND[a as 'goal' | 'greet' | 'wait' | 'close']) !== 0);
    if (w !== undefined) acts.push(w);
  }
  const label = acts.length === 0 ? NOT_UNDERSTOOD : acts.map((a) => (a === 'propose' ? (flight === null ? 'propose' : `propose(${flight})`) : (LABEL.get(a) as string))).join(' + ');
  return Object.freeze({ acts: Object.freeze(acts), flight, label });
}
