/**
 * Data of the learned AirDialogue agents: "synthesized" splits played by dialogym's templated
 * simulator (rule customer vs rule agent, contexts from the context generator; the paper's
 * synthesized data set, §5) in-domain and in the two out-of-domain settings, the conversion of
 * any AirDialogue example (generated or the real data) into token streams and context tokens, and
 * the compact store the trainers keep examples in (`LearnedStore`: the real training set has
 * 321,459 dialogues, too many to keep as objects).
 */
import { createRng } from '../../../core/rng.js';
import type { Action, AirExample } from '../../../formats/airdialogue.js';
import { agentPolicies } from '../policies.js';
import { AirDialogueEnv, episodeSeed, episodeToLines, selfPlayEpisode } from '../env.js';
import { OOD_PRIORS } from '../facts.js';
import type { ContextOptions } from '../context.js';
import { dialogueTokens, FIELDS, FLIGHT_FIELDS, flightTokens, INTENT_FIELDS, intentTokens, reservationToken, type ContextToken, type DialogueTokens } from './tokens.js';

/**
 * In-domain (0) or one of dialogym's two out-of-domain settings for the paper's Table 10 (1, 2;
 * see `synthesizeSplits`).
 *
 * @example
 * ```ts
 * import { synthesizeSplits, type OodSetting } from 'dialogym/airdialogue';
 * const ood: OodSetting = 2;
 * const { test } = synthesizeSplits({ train: 0, dev: 0, test: 100, ood });
 * ```
 */
export type OodSetting = 0 | 1 | 2;

/**
 * The context-generator options of an OOD setting. dialogym's two settings: 1 = the customers'
 * goals and reservations drawn from other priors (uniform goals, a reservation 70% of the time),
 * same names and airports; 2 = those priors plus names and airports never seen in training.
 */
export function oodContext(ood: OodSetting): ContextOptions {
  if (ood === 1) return { priors: OOD_PRIORS };
  if (ood === 2) return { ood: true };
  return {};
}

/**
 * Options of `synthesizeSplits`: split sizes (defaults 2000 / 200 / 200), run seed, context setting.
 *
 * @example
 * ```ts
 * import type { SplitOptions } from 'dialogym/airdialogue';
 * const o: SplitOptions = { train: 1000, dev: 200, test: 200, seed: 1, ood: 0 };
 * ```
 */
export interface SplitOptions {
  train?: number;
  dev?: number;
  test?: number;
  seed?: number;
  ood?: OodSetting;
  onEpisode?: (done: number, total: number) => void;
}

/**
 * Synthesized train / dev / test splits: each split is its own stream of simulator episodes (rule
 * customer vs rule agent; split seeds derived from `seed`), every episode as an AirDialogue
 * example (data + KB line). `ood` 1 draws goals and reservations from other priors (uniform
 * goals, a reservation 70% of the time); 2 adds names and airports never seen in-domain.
 *
 * @example
 * ```ts
 * import { formatAirLines, writeFileAtomic } from 'dialogym';
 * import { synthesizeSplits } from 'dialogym/airdialogue';
 * const { train } = synthesizeSplits({ train: 500, dev: 50, test: 50, seed: 1 });
 * writeFileAtomic('out/train_data.json', formatAirLines(train.map((e) => e.data)));
 * writeFileAtomic('out/train_kb.json', formatAirLines(train.map((e) => e.kb)));
 * ```
 */
export function synthesizeSplits(o: SplitOptions = {}): { train: AirExample[]; dev: AirExample[]; test: AirExample[] } {
  const sizes = { train: o.train ?? 2000, dev: o.dev ?? 200, test: o.test ?? 200 };
  const total = sizes.train + sizes.dev + sizes.test;
  let done = 0;
  const split = (name: 'train' | 'dev' | 'test'): AirExample[] => {
    const runSeed = createRng(o.seed ?? 0).fork(`split:${name}`).int(0x7fffffff);
    return synthesize(sizes[name], runSeed, o.ood ?? 0, () => o.onEpisode?.(++done, total));
  };
  return { train: split('train'), dev: split('dev'), test: split('test') };
}

/** `n` simulator episodes of run `seed` as AirDialogue examples (line numbers from 1). */
export function synthesize(n: number, seed: number, ood: OodSetting = 0, onEpisode?: () => void): AirExample[] {
  const env = new AirDialogueEnv({ context: oodContext(ood) });
  const rules = agentPolicies.get('rules');
  const out: AirExample[] = [];
  for (let i = 0; i < n; i++) {
    const e = selfPlayEpisode(env, rules, episodeSeed(seed, i));
    const { data, kb } = episodeToLines(e, createRng(seed).fork(`timestamps:${i}`));
    out.push({ line: i + 1, data, kb });
    onEpisode?.();
  }
  return out;
}

/** An example as the learned models read it. */
export interface LearnedExample {
  /** Line of the example in its data file (1-based). */
  readonly line: number;
  /** The dialogue token stream. */
  readonly dialogue: DialogueTokens;
  /** Customer context: the 15 intent tokens. */
  readonly intent: readonly ContextToken[];
  /** Agent context: 13 tokens per flight. */
  readonly flights: readonly (readonly ContextToken[])[];
  /** Agent context: the reservation flag. */
  readonly reservation: ContextToken;
  /** Flight numbers of the KB, in order. */
  readonly flightNumbers: readonly number[];
  /** The final state written in the dialogue (the data line's `action`): the state model's target. */
  readonly action: Action;
  /** The source example (absent when rebuilt from a `LearnedStore`, which keeps only what the models read). */
  readonly source?: AirExample;
}

/** Converts an AirDialogue example into token streams and context tokens. */
export function toLearned(ex: AirExample): LearnedExample {
  return {
    line: ex.line,
    dialogue: dialogueTokens(ex.data.dialogue ?? []),
    intent: intentTokens(ex.data.intent),
    flights: ex.kb.kb.map(flightTokens),
    reservation: reservationToken(ex.kb),
    flightNumbers: ex.kb.kb.map((f) => f.flight_number),
    action: ex.data.action,
    source: ex,
  };
}

// ---------------------------------------------------------------------------------------------
// the compact store

/**
 * Examples as the trainers read them, one at a time: `readonly LearnedExample[]` or a
 * `LearnedStore` (or a range of one).
 *
 * @example
 * ```ts
 * import { LearnedStore, type LearnedSet } from 'dialogym/airdialogue';
 * import { airExamples } from 'dialogym';
 * const set: LearnedSet = LearnedStore.from(airExamples('dev_data.json', 'dev_kb.json'));
 * console.log(set.length, set.get(0).intent.length); // …, 15
 * ```
 */
export interface LearnedSet {
  readonly length: number;
  get(i: number): LearnedExample;
}

/**
 * Examples as a LearnedSet: a set as it is; an array converted once and kept as objects (for small sets).
 *
 * @example
 * ```ts
 * import { readAirDialogue } from 'dialogym';
 * import { learnedSetOf } from 'dialogym/airdialogue';
 * const dev = learnedSetOf(readAirDialogue('dev_data.json', 'dev_kb.json'));
 * ```
 */
export function learnedSetOf(examples: readonly AirExample[] | readonly LearnedExample[] | LearnedSet): LearnedSet {
  if (!Array.isArray(examples)) return examples as LearnedSet;
  const learned = (examples as readonly (AirExample | LearnedExample)[]).map((e) => ('dialogue' in e ? e : toLearned(e)));
  return { length: learned.length, get: (i) => learned[i]! };
}

/** A growable typed array (amortised appends). */
class Grow<T extends Int32Array | Uint8Array> {
  size = 0;
  constructor(public data: T) {}
  push(v: number): void {
    if (this.size === this.data.length) {
      const d = new (this.data.constructor as new (n: number) => T)(this.data.length * 2);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.size++] = v;
  }
  /** Drops the unused capacity. */
  trim(): void {
    if (this.size < this.data.length) this.data = this.data.slice(0, this.size) as T;
  }
}

const ints = (): Grow<Int32Array> => new Grow(new Int32Array(1024));

/**
 * Examples kept compactly for training: every word (dialogue tokens, context values, action
 * fields) interned once and stored as an id in typed arrays — about 2.5 KB per example of the
 * real data, against some 20 KB as a parsed `AirExample` with its `LearnedExample` (30
 * flight objects and 390 context-token objects). `get(i)` rebuilds the `LearnedExample` the models
 * read (without `source`); `range` is a view of consecutive examples (a dev part).
 *
 * @example
 * ```ts
 * import { airExamples } from 'dialogym';
 * import { LearnedStore, trainAirModels } from 'dialogym/airdialogue';
 * const store = LearnedStore.from(airExamples('train_data.json', 'train_kb.json', { maxLines: 20000 }));
 * const cut = store.length - Math.round(store.length / 10);
 * const { models } = trainAirModels(store.range(0, cut), store.range(cut, store.length), { epochs: 2 });
 * ```
 */
export class LearnedStore implements LearnedSet {
  private readonly words: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly lines = ints();
  /** Dialogue token ids and speakers; example i's are tokenStart[i] … tokenStart[i + 1] − 1. */
  private readonly tokens = ints();
  private readonly speakers = new Grow(new Uint8Array(1024));
  private readonly tokenStart = ints();
  /** 15 intent value ids per example. */
  private readonly intents = ints();
  /** Flight value ids (13 a flight) and numbers; example i's flights are flightStart[i] … flightStart[i + 1] − 1. */
  private readonly flightWords = ints();
  private readonly flightNumbers = ints();
  private readonly flightStart = ints();
  /** Reservation flag word, action status and name ids; the action's flights from actionStart[i]. */
  private readonly reservations = ints();
  private readonly statuses = ints();
  private readonly names = ints();
  private readonly actionFlights = ints();
  private readonly actionStart = ints();

  constructor() {
    this.tokenStart.push(0);
    this.flightStart.push(0);
    this.actionStart.push(0);
  }

  /** A store of `examples` (trimmed). */
  static from(examples: Iterable<AirExample>): LearnedStore {
    const store = new LearnedStore();
    for (const ex of examples) store.add(ex);
    store.trim();
    return store;
  }

  /** Drops the arrays' unused capacity (after the last `add`; a later `add` grows them again). */
  trim(): void {
    for (const g of this.arrays()) g.trim();
  }

  private arrays(): Grow<Int32Array | Uint8Array>[] {
    return [this.lines, this.tokens, this.speakers, this.tokenStart, this.intents, this.flightWords, this.flightNumbers, this.flightStart, this.reservations, this.statuses, this.names, this.actionFlights, this.actionStart];
  }

  get length(): number {
    return this.lines.size;
  }

  /** Distinct words kept (dialogue, context and action words). */
  get distinctWords(): number {
    return this.words.length;
  }

  /** Bytes held by the typed arrays (their capacity: after `trim`, what is used), for reports. */
  get bytes(): number {
    return this.arrays().reduce((a, g) => a + g.data.byteLength, 0);
  }

  private id(word: string): number {
    let id = this.index.get(word);
    if (id === undefined) {
      id = this.words.length;
      this.words.push(word);
      this.index.set(word, id);
    }
    return id;
  }

  /** Appends an example. */
  add(ex: AirExample): void {
    const l = toLearned(ex);
    this.lines.push(l.line);
    l.dialogue.tokens.forEach((w, t) => {
      this.tokens.push(this.id(w));
      this.speakers.push(l.dialogue.speaker[t]!);
    });
    this.tokenStart.push(this.tokens.size);
    for (const t of l.intent) this.intents.push(this.id(t.word));
    l.flights.forEach((f, k) => {
      for (const t of f) this.flightWords.push(this.id(t.word));
      this.flightNumbers.push(l.flightNumbers[k]!);
    });
    this.flightStart.push(this.flightNumbers.size);
    this.reservations.push(this.id(l.reservation.word));
    this.statuses.push(this.id(l.action.status));
    this.names.push(this.id(l.action.name));
    for (const n of l.action.flight) this.actionFlights.push(n);
    this.actionStart.push(this.actionFlights.size);
  }

  /** Example i as the models read it (what `toLearned` gives, without `source`). */
  get(i: number): LearnedExample {
    const w = this.words;
    const tokens = this.tokens.data;
    const from = this.tokenStart.data[i]!;
    const to = this.tokenStart.data[i + 1]!;
    const words: string[] = new Array<string>(to - from);
    for (let t = from; t < to; t++) words[t - from] = w[tokens[t]!]!;
    const context = (ids: Int32Array, at: number, fields: readonly string[]): ContextToken[] => fields.map((f, k) => ({ word: w[ids[at + k]!]!, field: FIELDS.indexOf(f) }));
    const flights: ContextToken[][] = [];
    const numbers: number[] = [];
    for (let f = this.flightStart.data[i]!; f < this.flightStart.data[i + 1]!; f++) {
      flights.push(context(this.flightWords.data, f * FLIGHT_FIELDS.length, FLIGHT_FIELDS));
      numbers.push(this.flightNumbers.data[f]!);
    }
    return {
      line: this.lines.data[i]!,
      dialogue: { tokens: words, speaker: this.speakers.data.slice(from, to) },
      intent: context(this.intents.data, i * INTENT_FIELDS.length, INTENT_FIELDS),
      flights,
      reservation: { word: w[this.reservations.data[i]!]!, field: FIELDS.indexOf('res') },
      flightNumbers: numbers,
      action: { status: w[this.statuses.data[i]!]!, name: w[this.names.data[i]!]!, flight: Array.from(this.actionFlights.data.subarray(this.actionStart.data[i]!, this.actionStart.data[i + 1]!)) },
    };
  }

  /** Examples from … to − 1 as a LearnedSet (a view: nothing is copied). */
  range(from: number, to: number): LearnedSet {
    if (from < 0 || to > this.length || from > to) throw new RangeError(`LearnedStore.range(${from}, ${to}) of ${this.length} examples`);
    return { length: to - from, get: (i) => this.get(from + i) };
  }
}
