/**
 * Tokenisation of AirDialogue for the learned agents, after the paper's preprocessing
 * (google/airdialogue `airdialogue/prepro/tokenize_lib.py`):
 *
 * - utterances: lower-cased words; the original runs nltk's sentence and word tokenizers
 *   (tokenize_lib.py `do_tokenize`, ≈l.215); dialogym splits into runs of letters/digits and
 *   single punctuation marks, which agrees with nltk on this domain's text except for clitics
 *   (`it's` → `it ' s` here, `it 's` there).
 * - a dialogue is one token stream: `<t1>` opens a customer turn, `<t2>` an agent turn, the last
 *   turn ends with `<eod>` and the other speaker's marker (`process_dialogue`, ≈l.210-235).
 * - contexts: the customer's intent as 15 fields and each flight as 13 fields in the order of
 *   `tokenize_intent` (≈l.138) / `tokenize_one_flight` (≈l.33), plus the
 *   reservation flag. Where the original writes a tag token per field and value (`<a1_DFW>`),
 *   dialogym keeps the value as a plain word (`dfw`) and the field as a separate id, so a context
 *   token and the same word in the dialogue share one embedding (which is what lets a pointer copy
 *   a flight number or a name from the dialogue).
 * - vocabulary: words seen at least `minCount` times (the original's `frequency_cutoff`,
 *   `write_vocabulary`, tokenize_lib.py ≈l.370), after the special tokens; the rest map to `<unk>`.
 */
import type { Flight, Intent, KbLine } from '../../../formats/airdialogue.js';

/** Special tokens: padding/none, unknown word, customer turn, agent turn, end of dialogue. */
export const PAD = '<pad>';
export const UNK = '<unk>';
export const T1 = '<t1>';
export const T2 = '<t2>';
export const EOD = '<eod>';
const SPECIALS = [PAD, UNK, T1, T2, EOD] as const;

/** Intent fields in `tokenize_intent` order (tokenize_lib.py ≈l.138). */
export const INTENT_FIELDS = ['a1', 'a2', 'm1', 'm2', 'd1', 'd2', 't1', 't2', 'nm1', 'nm2', 'cl', 'pr', 'cn', 'al', 'gl'] as const;
/** Flight fields in `tokenize_one_flight` order (tokenize_lib.py ≈l.33). */
export const FLIGHT_FIELDS = ['a1', 'a2', 'm1', 'm2', 'd1', 'd2', 'tn1', 'tn2', 'cl', 'pr', 'cn', 'al', 'fl'] as const;
/** All field names (intent fields, flight-only fields, `res`): the field embedding table's rows. */
export const FIELDS: readonly string[] = [...new Set<string>([...INTENT_FIELDS, ...FLIGHT_FIELDS, 'res'])];

const WORD = /[a-z0-9]+|[^\sa-z0-9]/g;

/** Lower-cased word tokens of one utterance. */
export function tokenizeText(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** A dialogue as one token stream with, per token, who speaks (0 customer, 1 agent). */
export interface DialogueTokens {
  readonly tokens: readonly string[];
  readonly speaker: Uint8Array;
}

/**
 * The dialogue stream: `<t1> words…` per customer turn, `<t2> words…` per agent turn, the last
 * turn followed by `<eod>` and the other side's marker. Turns are `customer: …` / `agent: …`
 * strings as in the data files (a turn without either prefix counts as the customer's).
 */
export function dialogueTokens(turns: readonly string[]): DialogueTokens {
  const tokens: string[] = [];
  const spk: number[] = [];
  turns.forEach((turn, i) => {
    const agent = turn.startsWith('agent:');
    const text = agent ? turn.slice(6) : turn.startsWith('customer:') ? turn.slice(9) : turn;
    const s = agent ? 1 : 0;
    tokens.push(agent ? T2 : T1);
    spk.push(s);
    for (const w of tokenizeText(text)) {
      tokens.push(w);
      spk.push(s);
    }
    if (i === turns.length - 1) {
      tokens.push(EOD, agent ? T1 : T2);
      spk.push(s, s);
    }
  });
  return { tokens, speaker: Uint8Array.from(spk) };
}

/** A context token: its word and its field (index into `FIELDS`). */
export interface ContextToken {
  readonly word: string;
  readonly field: number;
}

const fieldId = (f: string): number => FIELDS.indexOf(f);

/** The customer's context: the 15 intent fields (absent ones as `all`, as `get_full_intent`, tokenize_lib.py ≈l.112). */
export function intentTokens(intent: Intent): ContextToken[] {
  const [first = '', last = ''] = intent.name.trim().split(/\s+/);
  const values = [
    intent.departure_airport,
    intent.return_airport,
    intent.departure_month,
    intent.return_month,
    intent.departure_day,
    intent.return_day,
    intent.departure_time ?? 'all',
    intent.return_time ?? 'all',
    first,
    last,
    intent.class ?? 'all',
    String(intent.max_price),
    String(intent.max_connections ?? 2),
    intent.airline_preference ?? 'all',
    intent.goal,
  ];
  return values.map((v, i) => ({ word: v.toLowerCase(), field: fieldId(INTENT_FIELDS[i] as string) }));
}

/** One flight's 13 context tokens. */
export function flightTokens(f: Flight): ContextToken[] {
  const values = [
    f.departure_airport,
    f.return_airport,
    f.departure_month,
    f.return_month,
    f.departure_day,
    f.return_day,
    String(f.departure_time_num),
    String(f.return_time_num),
    f.class,
    String(f.price),
    String(f.num_connections),
    f.airline,
    String(f.flight_number),
  ];
  return values.map((v, i) => ({ word: v.toLowerCase(), field: fieldId(FLIGHT_FIELDS[i] as string) }));
}

/** The reservation flag token (`has_res` / `no_res`, tokenize_lib.py ≈l.62). */
export function reservationToken(kb: KbLine): ContextToken {
  return { word: kb.reservation === 0 ? 'no_res' : 'has_res', field: fieldId('res') };
}

/**
 * A word ↔ id map: the special tokens first (`<pad>` = 0, `<unk>` = 1, `<t1>`, `<t2>`, `<eod>`),
 * then the words in the order given. Unknown words map to `<unk>`.
 */
export class Vocab {
  private readonly index = new Map<string, number>();
  readonly words: readonly string[];

  constructor(words: readonly string[]) {
    const all = [...SPECIALS, ...words.filter((w) => !(SPECIALS as readonly string[]).includes(w))];
    this.words = all;
    all.forEach((w, i) => this.index.set(w, i));
  }

  get size(): number {
    return this.words.length;
  }

  id(word: string): number {
    return this.index.get(word) ?? 1;
  }

  has(word: string): boolean {
    return this.index.has(word);
  }

  /**
   * Counts words over token lists; keeps those seen `minCount` times or more (sorted by count,
   * then alphabetically, so the same data gives the same vocabulary).
   */
  static build(lists: Iterable<readonly string[]>, minCount = 1): Vocab {
    const counts = new Map<string, number>();
    for (const l of lists) for (const w of l) counts.set(w, (counts.get(w) ?? 0) + 1);
    const kept = [...counts].filter(([, c]) => c >= minCount).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return new Vocab(kept.map(([w]) => w));
  }
}
