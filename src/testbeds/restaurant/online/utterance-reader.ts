/**
 * How the -v2 user reads an agent utterance into an act, with the lexicon of `lexicon.ts` (its
 * header gives the order of the steps) and the KB's restaurant names, phone numbers and
 * addresses. Letter case, punctuation, contractions, filler words and word order do not change
 * what is read.
 */
import { normaliseChatText } from '../chat-text.js';
import type { Restaurant } from '../kb.js';
import { ACTS, BOOKING_CUES, CONTRACTIONS, DATASET_OPENINGS, FILLERS, QUESTION_FORM, RECALL_CUES, SLOT_CUES, type AgentAct } from './lexicon.js';
import type { CallSlot, InfoKind } from './goal.js';

/**
 * What the -v2 user read in an agent utterance (`UtteranceReader.read`).
 *
 * @example
 * ```ts
 * import { UtteranceReader, type Reading } from 'dialogym/restaurant';
 * const r: Reading = new UtteranceReader([]).read('How many people will be joining?');
 * console.log(r.act, r.slot); // ask number
 * ```
 */
export interface Reading {
  readonly act: AgentAct | 'not understood';
  /** `ask`: the slot asked for. */
  readonly slot?: CallSlot;
  /** `propose` / `recall`: the KB restaurant named (absent: a dataset-worded proposal of a name the KB does not have). */
  readonly name?: string;
  /** `propose`: worded as a booking (a booking cue is there). */
  readonly booking?: boolean;
  /** `inform`: the KB phone numbers / addresses given (empty: a dataset-worded information with a value the KB does not have). */
  readonly values?: readonly string[];
  /** `inform`: what the first value is. */
  readonly kind?: InfoKind;
  /** `propose` / `inform` without a KB entity: the words after the dataset's opening. */
  readonly said?: string;
}

/**
 * How `info.read` writes a reading: `ask(location)`, `propose(resto_…)`, `inform(phone)`, `not understood`, …
 *
 * @example
 * ```ts
 * import { UtteranceReader, readLabel } from 'dialogym/restaurant';
 * readLabel(new UtteranceReader([]).read("You're welcome, goodbye!")); // 'close'
 * ```
 */
export function readLabel(r: Reading): string {
  switch (r.act) {
    case 'ask':
      return `ask(${r.slot as string})`;
    case 'propose':
    case 'recall':
      return `${r.act}(${r.name ?? '?'})`;
    case 'inform':
      return `inform(${r.kind ?? '?'})`;
    default:
      return r.act;
  }
}

const FILLER_SET = new Set(FILLERS);
const SUFFIXES: ReadonlyArray<readonly [string, string]> = [
  ["n't", ' not'],
  ["'re", ' are'],
  ["'m", ' am'],
  ["'ll", ' will'],
  ["'ve", ' have'],
  ["'d", ' would'],
  ["'s", ' is'],
];

function expand(token: string): string {
  const whole = CONTRACTIONS[token];
  if (whole !== undefined) return whole;
  if (!token.includes("'")) return token;
  for (const [suffix, out] of SUFFIXES) if (token.endsWith(suffix) && token.length > suffix.length) return token.slice(0, -suffix.length) + out;
  return token.replace(/'/g, '');
}

/**
 * The words an utterance is read from: normalised (`normaliseChatText`), contractions written
 * out, hyphenated words split (`gluten-free` → `gluten free`), filler words dropped.
 * `Ok, so... what's your budget?` → `['what', 'is', 'your', 'budget']`.
 */
export function contentWords(text: string): { words: string[]; fillers: number } {
  const words: string[] = [];
  let fillers = 0;
  for (const raw of normaliseChatText(text).split(' ')) {
    if (raw.length === 0) continue;
    for (const w of expand(raw).split(/[ -]/)) {
      if (FILLER_SET.has(w)) fillers++;
      else if (w.length > 0) words.push(w);
    }
  }
  return { words, fillers };
}

/** What a cue tells when all its words are there. */
type CueGroup =
  | { readonly kind: 'act'; readonly act: AgentAct; readonly tier: number; readonly rank: number }
  | { readonly kind: 'slot'; readonly slot: CallSlot }
  | { readonly kind: 'recall' | 'booking' | 'request' };

/** A cue compiled: its distinct words (all must be present) and what it tells. */
interface Cue {
  readonly words: readonly string[];
  readonly group: CueGroup;
}

/** Every cue of the lexicon, and the cues each word is in (a cue is found by counting its words). */
const CUES: Cue[] = [];
const CUES_BY_WORD = new Map<string, number[]>();

function addCues(phrases: readonly string[], group: CueGroup): void {
  for (const phrase of phrases) {
    const words = [...new Set(contentWords(phrase).words)];
    if (words.length === 0) continue;
    const id = CUES.push({ words, group }) - 1;
    for (const w of words) {
      const ids = CUES_BY_WORD.get(w);
      if (ids) ids.push(id);
      else CUES_BY_WORD.set(w, [id]);
    }
  }
}

ACTS.forEach((a, rank) => {
  if (a.act !== 'recall' && a.act !== 'reserve') addCues(a.cues, { kind: 'act', act: a.act, tier: a.tier, rank });
});
const RESERVE = ACTS.findIndex((a) => a.act === 'reserve');
addCues(BOOKING_CUES, { kind: 'act', act: 'reserve', tier: (ACTS[RESERVE] as (typeof ACTS)[number]).tier, rank: RESERVE });
for (const slot of Object.keys(SLOT_CUES) as CallSlot[]) addCues(SLOT_CUES[slot], { kind: 'slot', slot });
addCues(RECALL_CUES, { kind: 'recall' });
addCues(QUESTION_FORM.requests, { kind: 'request' });
const ASK_RANK = ACTS.findIndex((a) => a.act === 'ask');
const QUESTION_WORDS = new Set<string>(QUESTION_FORM.questionWords);
const OPENERS = new Set<string>(QUESTION_FORM.openers);
const SMALL_WORDS = new Set<string>(QUESTION_FORM.smallWords);
const OPEN_PROPOSE = contentWords(DATASET_OPENINGS.propose).words;
const OPEN_INFORM = contentWords(DATASET_OPENINGS.inform).words;

/** Word counts per cue while one utterance is read (reset after it). */
const counts = new Uint8Array(CUES.length);

/** The cues whose words are all in `words`, and the position of each word's first use. */
function foundCues(words: readonly string[]): { found: Cue[]; first: Map<string, number> } {
  const first = new Map<string, number>();
  const touched: number[] = [];
  const found: Cue[] = [];
  words.forEach((w, i) => {
    if (first.has(w)) return;
    first.set(w, i);
    for (const id of CUES_BY_WORD.get(w) ?? []) {
      if (counts[id] === 0) touched.push(id);
      const n = ((counts[id] as number) + 1) as number;
      counts[id] = n;
      const cue = CUES[id] as Cue;
      if (n === cue.words.length) found.push(cue);
    }
  });
  for (const id of touched) counts[id] = 0;
  return { found, first };
}

/** A cue found for an act: the act, its tier, the cue's length and the act's rank. */
interface Found {
  readonly act: AgentAct;
  readonly tier: number;
  readonly length: number;
  readonly rank: number;
  readonly slot?: CallSlot;
}

/** Whether `a` beats `b`: a task act over a social one, then the longer cue, then the earlier act. */
function beats(a: Found, b: Found | undefined): boolean {
  return b === undefined || a.tier < b.tier || (a.tier === b.tier && (a.length > b.length || (a.length === b.length && a.rank < b.rank)));
}

/** Whether `words` has `seq` at position `at`. */
function hasAt(words: readonly string[], seq: readonly string[], at = 0): boolean {
  if (at + seq.length > words.length) return false;
  for (let i = 0; i < seq.length; i++) if (words[at + i] !== seq[i]) return false;
  return true;
}

/** The words of each slot's cues (`Cheap, moderate or expensive?` is nothing but price cues and small words). */
const SLOT_WORDS = new Map<CallSlot, ReadonlySet<string>>(
  (Object.keys(SLOT_CUES) as CallSlot[]).map((slot) => [slot, new Set(SLOT_CUES[slot].flatMap((c) => contentWords(c).words))]),
);

const SUBJECTS = new Set<string>(QUESTION_FORM.subjects);
const QUANTIFIERS = new Set<string>(QUESTION_FORM.quantifiers);
const ANY_SLOT_WORD = new Set([...SLOT_WORDS.values()].flatMap((ws) => [...ws]));

/**
 * Where the question starts: its first question word, or an opening word — the first word, or a
 * later one followed by a subject (`Italian, noted. Do you …`) or, for a quantifier, by a slot
 * cue word (`Noted. Any allergies?`); -1 when there is none.
 */
function questionStart(words: readonly string[]): number {
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (QUESTION_WORDS.has(w)) return i;
    if (!OPENERS.has(w)) continue;
    const next = words[i + 1];
    if (i === 0 || (next !== undefined && (SUBJECTS.has(next) || (QUANTIFIERS.has(w) && ANY_SLOT_WORD.has(next))))) return i;
  }
  return -1;
}

/**
 * The slot asked for, when the utterance has a question form, and the cue's length. The question
 * starts at its first question word, request or opening word (`questionStart`): a cue from there
 * on beats one before it (`Italian food, lovely. Where would you like to eat?` asks where: the
 * words before the question repeat what the agent heard), then the longest cue, then the one
 * named first.
 */
function askedSlot(words: readonly string[], found: readonly Cue[], first: ReadonlyMap<string, number>): { slot: CallSlot; length: number } | undefined {
  let start = questionStart(words);
  for (const c of found) {
    if (c.group.kind !== 'request') continue;
    const at = Math.min(...c.words.map((w) => first.get(w) as number));
    if (start < 0 || at < start) start = at;
  }
  let best: { slot: CallSlot; length: number; at: number; inQuestion: boolean } | undefined;
  for (const c of found) {
    if (c.group.kind !== 'slot') continue;
    const at = Math.min(...c.words.map((w) => first.get(w) as number));
    const inQuestion = start >= 0 && at >= start;
    const better =
      best === undefined ||
      (inQuestion && !best.inQuestion) ||
      (inQuestion === best.inQuestion && (c.words.length > best.length || (c.words.length === best.length && at < best.at)));
    if (better) best = { slot: c.group.slot, length: c.words.length, at, inQuestion };
  }
  if (best === undefined) return undefined;
  const cueWords = SLOT_WORDS.get(best.slot) as ReadonlySet<string>;
  const question = start >= 0 || words.every((w) => cueWords.has(w) || SMALL_WORDS.has(w));
  return question ? { slot: best.slot, length: best.length } : undefined;
}

/** A KB entity: a restaurant name, phone number or address, as words. */
interface Entity {
  readonly words: readonly string[];
  readonly kind: 'name' | InfoKind;
  readonly value: string;
}

/** The KB entities by their first word. */
type EntityIndex = ReadonlyMap<string, readonly Entity[]>;

const indexCache = new WeakMap<readonly Restaurant[], EntityIndex>();

function entityIndex(restaurants: readonly Restaurant[]): EntityIndex {
  const cached = indexCache.get(restaurants);
  if (cached) return cached;
  const index = new Map<string, Entity[]>();
  const add = (value: string, kind: Entity['kind']): void => {
    const words = contentWords(value).words;
    if (words.length === 0) return;
    const first = words[0] as string;
    const list = index.get(first);
    if (list) list.push({ words, kind, value });
    else index.set(first, [{ words, kind, value }]);
  };
  for (const r of restaurants) {
    add(r.name, 'name');
    add(r.phone, 'phone');
    add(r.address, 'address');
  }
  indexCache.set(restaurants, index);
  return index;
}

/** Readings an `UtteranceReader` keeps (then it starts again). */
const MEMO_SIZE = 4096;

/**
 * Reads agent utterances for one KB. Build one per environment (the KB index is cached per
 * restaurants array).
 *
 * @example
 * ```ts
 * import { UtteranceReader, readLabel } from 'dialogym/restaurant';
 * const reader = new UtteranceReader([]);
 * readLabel(reader.read('Which CITY would you like, please?')); // 'ask(location)'
 * ```
 */
export class UtteranceReader {
  private readonly index: EntityIndex;
  /** Readings of utterances already read (agents say the same things again). */
  private readonly memo = new Map<string, Reading>();

  constructor(restaurants: readonly Restaurant[]) {
    this.index = entityIndex(restaurants);
  }

  read(text: string): Reading {
    let r = this.memo.get(text);
    if (r === undefined) {
      if (this.memo.size >= MEMO_SIZE) this.memo.clear();
      r = this.readNew(text);
      this.memo.set(text, r);
    }
    return r;
  }

  private readNew(text: string): Reading {
    const { words, fillers } = contentWords(text);
    if (words.length === 0) return { act: fillers > 0 ? 'ack' : 'not understood' };
    // 1–2: KB entities.
    const values: string[] = [];
    let kind: InfoKind | undefined;
    let name: string | undefined;
    for (let i = 0; i < words.length; i++) {
      const candidates = this.index.get(words[i] as string);
      if (candidates === undefined) continue;
      for (const e of candidates) {
        if (!hasAt(words, e.words, i)) continue;
        if (e.kind === 'name') name ??= e.value;
        else {
          kind ??= e.kind;
          values.push(e.value);
        }
      }
    }
    if (values.length > 0) return { act: 'inform', values, kind };
    const { found, first } = foundCues(words);
    if (name !== undefined) {
      if (found.some((c) => c.group.kind === 'recall')) return { act: 'recall', name };
      return { act: 'propose', name, booking: found.some((c) => c.group.kind === 'act' && c.group.act === 'reserve') };
    }
    // 3: the datasets' openings with an unknown entity.
    if (hasAt(words, OPEN_PROPOSE) && words.length > OPEN_PROPOSE.length) return { act: 'propose', booking: false, said: words.slice(OPEN_PROPOSE.length).join(' ') };
    if (hasAt(words, OPEN_INFORM) && words.length > OPEN_INFORM.length) return { act: 'inform', values: [], said: words.slice(OPEN_INFORM.length).join(' ') };
    // 4: cues.
    let best: Found | undefined;
    const ask = askedSlot(words, found, first);
    if (ask !== undefined) best = { act: 'ask', tier: 1, length: ask.length, rank: ASK_RANK, slot: ask.slot };
    for (const c of found) {
      if (c.group.kind !== 'act') continue;
      const f: Found = { act: c.group.act, tier: c.group.tier, length: c.words.length, rank: c.group.rank };
      if (beats(f, best)) best = f;
    }
    if (best === undefined) return { act: 'not understood' };
    return best.act === 'ask' ? { act: 'ask', slot: best.slot as CallSlot } : { act: best.act };
  }
}
