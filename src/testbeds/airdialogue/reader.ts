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

interface Cue {
  readonly words: readonly string[];
  readonly kinds: readonly CueKind[];
}

/** Cue phrases by first word, longest first; a phrase listed under several kinds marks them all. */
const CUE_INDEX: ReadonlyMap<string, readonly Cue[]> = (() => {
  const byPhrase = new Map<string, CueKind[]>();
  for (const [kind, phrases] of Object.entries(AIR_CUES) as Array<[CueKind, readonly string[]]>) {
    for (const p of phrases) byPhrase.set(p, [...(byPhrase.get(p) ?? []), kind]);
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

/** Written forms rewritten before tokens are cut (abbreviations whose dots are not sentence ends). */
const REWRITES: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u2018\u2019\u02bc`\u00b4]/g, "'"],
  [/\be\.\s?g\./g, ' for example '],
  [/\bi\.\s?e\./g, ' that is '],
  [/\b([ap])\.m\./g, '$1m'],
  [/\b(mr|mrs|ms|dr)\./g, '$1'],
  [/\bno\.?\s*#?\s*(?=\d{4}\b)/g, 'number '],
  [/#\s*(?=\d)/g, 'number '],
  [/(\d),(\d{3})\b/g, '$1$2'],
  [/\$/g, ' dollars '],
  [/\bcan't\b|\bcannot\b/g, 'can not'],
  [/\bwon't\b/g, 'will not'],
  [/\bshan't\b/g, 'shall not'],
  [/n't\b/g, ' not'],
  [/'re\b/g, ' are'],
  [/'ve\b/g, ' have'],
  [/'ll\b/g, ' will'],
  [/'d\b/g, ' would'],
  [/'m\b/g, ' am'],
  [/\blet's\b/g, 'let us'],
  [/\b(it|that|what|where|when|who|how|there|here|he|she)'s\b/g, '$1 is'],
  [/'s\b/g, ''],
];

/** Contractions written without an apostrophe. */
const BARE_CONTRACTIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['whats', ['what', 'is']],
  ['wheres', ['where', 'is']],
  ['whens', ['when', 'is']],
  ['hows', ['how', 'is']],
  ['thats', ['that', 'is']],
  ['dont', ['do', 'not']],
  ['doesnt', ['does', 'not']],
  ['didnt', ['did', 'not']],
  ['cant', ['can', 'not']],
  ['im', ['i', 'am']],
  ['youre', ['you', 'are']],
  ['wanna', ['want', 'to']],
  ['gonna', ['going', 'to']],
]);

/**
 * An agent turn as the reader sees it: its sentences, each a list of words (lower case,
 * contractions expanded, fillers dropped).
 *
 * @example
 * ```ts
 * import { normalizeAgentTurn } from 'dialogym/airdialogue';
 * normalizeAgentTurn("OK, so what's your budget? Thanks!"); // [['what', 'is', 'your', 'budget'], ['thanks']]
 * ```
 */
export function normalizeAgentTurn(text: string): string[][] {
  let t = text.toLowerCase();
  for (const [re, to] of REWRITES) t = t.replace(re, to);
  const out: string[][] = [];
  for (const sentence of t.split(/[.?!;\n]+/)) {
    const words: string[] = [];
    for (const w of sentence.match(/[a-z0-9]+/g) ?? []) {
      if (FILLERS.has(w)) continue;
      const expanded = BARE_CONTRACTIONS.get(w);
      if (expanded) words.push(...expanded);
      else words.push(w);
    }
    if (words.length > 0) out.push(words);
  }
  return out;
}

interface SentenceCues {
  readonly kinds: ReadonlySet<CueKind>;
  readonly flights: readonly number[];
}

function sentenceCues(words: readonly string[]): SentenceCues {
  const kinds = new Set<CueKind>();
  const flights: number[] = [];
  const n = words.length;
  const at = (i: number): string => (i < n ? (words[i] as string) : i === n ? END : '');
  for (let i = 0; i < n; ) {
    const w = words[i] as string;
    let matched = 0;
    for (const cue of CUE_INDEX.get(w) ?? []) {
      let ok = true;
      for (let j = 1; j < cue.words.length && ok; j++) ok = at(i + j) === cue.words[j];
      if (ok) {
        for (const k of cue.kinds) kinds.add(k);
        matched = cue.words.length;
        break;
      }
    }
    if (matched > 0) {
      i += Math.min(matched, n - i);
      continue;
    }
    if (w.length === 4 && /^\d{4}$/.test(w) && !MONEY.has(at(i - 1)) && !MONEY.has(at(i + 1))) {
      for (let j = Math.max(0, i - 3); j < i; j++) {
        if (FLIGHT_WORDS.has(words[j] as string)) {
          flights.push(Number(w));
          break;
        }
      }
    }
    i++;
  }
  return { kinds, flights };
}

/** The act of a directed topic: outbound only, return only, or both (both directions or none). */
function directed(k: ReadonlySet<CueKind>, out: CueKind, back: CueKind, acts: readonly [AirAct, AirAct, AirAct]): AirAct {
  const o = k.has(out);
  const b = k.has(back);
  return o && !b ? acts[0] : b && !o ? acts[1] : acts[2];
}

const PREF_TOPICS = ['time', 'budget', 'connections', 'class', 'airline'] as const;
/** Weak acts in the order one is chosen when a turn has only weak acts. */
const WEAK_PRIORITY: readonly AirAct[] = ['goal', 'wait', 'greet', 'close'];
/** Acts an act's answer already holds. */
const COVERS: ReadonlyArray<readonly [AirAct, readonly AirAct[]]> = [
  ['open', ['route', 'origin', 'destination', 'dates', 'departure date', 'return date', 'requirements', 'times', 'departure time', 'return time', 'budget', 'connections', 'class', 'airline']],
  ['requirements', ['times', 'departure time', 'return time', 'budget', 'connections', 'class', 'airline']],
  ['route', ['origin', 'destination']],
  ['dates', ['departure date', 'return date']],
  ['times', ['departure time', 'return time']],
];
/** Pairs that together are the act that covers both. */
const PAIRS: ReadonlyArray<readonly [AirAct, AirAct, AirAct]> = [
  ['origin', 'destination', 'route'],
  ['departure date', 'return date', 'dates'],
  ['departure time', 'return time', 'times'],
];
const ORDER: ReadonlyMap<AirAct, number> = new Map(AIR_ACTS.map((a, i) => [a.act, i]));
const LABEL: ReadonlyMap<AirAct, string> = new Map(AIR_ACTS.map((a) => [a.act, a.label]));

/**
 * Reads an agent turn into acts with the lexicon (module description above). Never throws; a
 * turn with no act reads as `not understood`.
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
  const sentences = normalizeAgentTurn(text).map(sentenceCues);
  let flight: number | null = null;
  let proposal = false;
  for (const s of sentences) {
    if (flight === null && s.flights.length > 0) flight = s.flights[0] as number;
    if (s.flights.length > 0 || s.kinds.has('propose')) proposal = true;
  }
  const strong = new Set<AirAct>();
  const weak = new Set<AirAct>();
  for (const { kinds: k } of sentences) {
    if (k.has('name')) strong.add('name');
    for (const w of ['goal', 'greet', 'wait', 'close'] as const) if (k.has(w)) weak.add(w);
    // a proposal states the flight's features: its topic words are not questions
    if (proposal) continue;
    if (k.has('open')) strong.add('open');
    const prefs = PREF_TOPICS.filter((t) => k.has(t));
    const general = k.has('requirements') && (k.has('examples') || prefs.length === 0 || prefs.length >= 3);
    if (general) strong.add('requirements');
    else {
      if (k.has('time')) strong.add(directed(k, 'travelOut', 'travelBack', ['departure time', 'return time', 'times']));
      for (const t of ['budget', 'connections', 'class', 'airline'] as const) if (k.has(t)) strong.add(t);
    }
    if (k.has('airport')) strong.add(directed(k, 'airportOut', 'airportBack', ['origin', 'destination', 'route']));
    if (k.has('date')) strong.add(directed(k, 'travelOut', 'travelBack', ['departure date', 'return date', 'dates']));
  }
  if (proposal) strong.add('propose');
  for (const [a, b, both] of PAIRS) {
    if (strong.has(a) && strong.has(b)) strong.add(both);
  }
  for (const [act, covered] of COVERS) {
    if (strong.has(act)) for (const c of covered) strong.delete(c);
  }
  let acts: AirAct[];
  if (strong.size > 0) acts = [...strong].sort((a, b) => (ORDER.get(a) as number) - (ORDER.get(b) as number));
  else {
    const w = WEAK_PRIORITY.find((a) => weak.has(a));
    acts = w ? [w] : [];
  }
  const label = acts.length === 0 ? NOT_UNDERSTOOD : acts.map((a) => (a === 'propose' ? (flight === null ? 'propose' : `propose(${flight})`) : (LABEL.get(a) as string))).join(' + ');
  return { acts, flight, label };
}
