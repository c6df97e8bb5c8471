/**
 * AirDialogue scorer (the paper's Section 5 reward and its exact-match variant).
 *
 * scaled: name = character-level F1 of the normalised names; flight = 1 − (min distance from the
 * predicted flight to a correct flight) / (max distance between any database flight and a correct
 * flight), with the paper's per-feature flight distance; action = exact status match;
 * total = 0.2·name + 0.5·flight + 0.3·action.
 * exact: name = mean of first-name and last-name exact (case-insensitive) matches; flight = 1 when
 * the predicted flight is one of the correct ones (or both are empty); action = status match.
 */
import { DialogymError } from '../../core/errors.js';
import type { Action, Flight, KbLine } from '../../formats/airdialogue.js';
import { MONTHS } from '../../formats/airdialogue.js';
import { AIRLINE_TYPES } from './facts.js';

/**
 * Weights of the scaled and exact totals: name 0.2, flight 0.5, action 0.3.
 *
 * @example
 * ```ts
 * import { WEIGHTS } from 'dialogym/airdialogue';
 * const total = WEIGHTS.name * 1 + WEIGHTS.flight * 0.5 + WEIGHTS.action * 1; // 0.75
 * ```
 */
export const WEIGHTS = { name: 0.2, flight: 0.5, action: 0.3 } as const;

/**
 * The three score components and their weighted total, each in [0, 1].
 *
 * @example
 * ```ts
 * import type { Components } from 'dialogym/airdialogue';
 * const c: Components = { name: 1, flight: 0.5, action: 1, total: 0.75 };
 * ```
 */
export interface Components {
  name: number;
  flight: number;
  action: number;
  total: number;
}

/**
 * The score of one action: the scaled components (the paper's reward) and `exact`, the
 * exact-match variant (module description above).
 *
 * @example
 * ```ts
 * import { scoreAction, type Score } from 'dialogym/airdialogue';
 * import { readAirDialogue } from 'dialogym';
 * const [ex] = readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json');
 * const s: Score = scoreAction(ex!.data.action, ex!.data.expected_action, ex!.kb);
 * console.log(s.total, s.exact.total);
 * ```
 */
export interface Score extends Components {
  exact: Components;
}

// ---------------------------------------------------------------------------------------------
// name

const PUNCT = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/**
 * A name as the scorer compares it (SQuAD's normalisation): lower case, punctuation removed,
 * articles (a/an/the) removed, whitespace collapsed.
 *
 * @example
 * ```ts
 * import { normalizeAnswer } from 'dialogym/airdialogue';
 * normalizeAnswer('  The Emily-Edwards. '); // 'emilyedwards'
 * ```
 */
export function normalizeAnswer(s: string): string {
  let t = '';
  for (const ch of s.toLowerCase()) if (!PUNCT.has(ch)) t += ch;
  t = t.replace(/(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu, ' ');
  return t.split(/\s+/u).filter((w) => w !== '').join(' ');
}

/**
 * Character-level F1 between two names (after `normalizeAnswer`; spaces count as characters);
 * 0 when no character is shared (so also for two empty names).
 *
 * @example
 * ```ts
 * import { nameF1 } from 'dialogym/airdialogue';
 * nameF1('Emily Edwards', 'emily edwards'); // 1
 * nameF1('Emily', 'Emily Edwards');         // ≈ 0.56
 * ```
 */
export function nameF1(pred: string, truth: string): number {
  const p = [...normalizeAnswer(pred)];
  const t = [...normalizeAnswer(truth)];
  const counts = new Map<string, number>();
  for (const c of t) counts.set(c, (counts.get(c) ?? 0) + 1);
  let same = 0;
  for (const c of p) {
    const n = counts.get(c) ?? 0;
    if (n > 0) {
      same++;
      counts.set(c, n - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / p.length;
  const recall = same / t.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * Mean of first-name and last-name exact matches (case-insensitive, split on single spaces).
 *
 * @example
 * ```ts
 * import { nameExact } from 'dialogym/airdialogue';
 * nameExact('emily edwards', 'Emily Edwards'); // 1
 * nameExact('Emily Smith', 'Emily Edwards');   // 0.5
 * ```
 */
export function nameExact(pred: string, truth: string): number {
  const p = pred.toLowerCase().split(' ');
  const t = truth.toLowerCase().split(' ');
  const eq = (i: number) => ((p[i] ?? '').trim() === (t[i] ?? '').trim() ? 1 : 0);
  return (eq(0) + eq(1)) / 2;
}

// ---------------------------------------------------------------------------------------------
// flight distance

/** Upper bounds for the numeric features normalised against a fixed range. */
const UPPER = { month: 12, day: 31, hour: 24, connections: 2 } as const;

function bounded(a: number, b: number, upper: number): number {
  return Math.min(1, Math.abs(a - b) / upper);
}

/** |a − b| relative to the smaller of the two, capped at 1 (used for price). */
function relative(a: number, b: number): number {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  if (lo === 0) return hi === 0 ? 0 : 1;
  return Math.min(1, Math.abs(hi - lo) / lo);
}

function monthNum(m: string): number {
  return (MONTHS as readonly string[]).indexOf(m) + 1;
}

/**
 * The paper's flight distance in [0, 1]: mean over 12 features (airports, months, days, hours,
 * class, price, connections, airline cost type) of a per-feature deviation in [0, 1].
 *
 * @example
 * ```ts
 * import { readAirKb } from 'dialogym';
 * import { flightDistance } from 'dialogym/airdialogue';
 * const { kb } = readAirKb('data/airdialogue/dev_kb.json')[0]!;
 * flightDistance(kb[0]!, kb[0]!); // 0
 * flightDistance(kb[0]!, kb[1]!); // in (0, 1]
 * ```
 */
export function flightDistance(a: Flight, b: Flight): number {
  let s = 0;
  s += a.departure_airport !== b.departure_airport ? 1 : 0;
  s += a.return_airport !== b.return_airport ? 1 : 0;
  s += bounded(monthNum(a.departure_month), monthNum(b.departure_month), UPPER.month);
  s += bounded(monthNum(a.return_month), monthNum(b.return_month), UPPER.month);
  s += bounded(Number(a.departure_day), Number(b.departure_day), UPPER.day);
  s += bounded(Number(a.return_day), Number(b.return_day), UPPER.day);
  s += bounded(a.departure_time_num, b.departure_time_num, UPPER.hour);
  s += bounded(a.return_time_num, b.return_time_num, UPPER.hour);
  s += a.class !== b.class ? 1 : 0;
  s += relative(a.price, b.price);
  s += bounded(a.num_connections, b.num_connections, UPPER.connections);
  s += AIRLINE_TYPES[a.airline] !== AIRLINE_TYPES[b.airline] ? 1 : 0;
  return s / 12;
}

/**
 * Scaled flight distance in [0, 1] (0 = a correct flight). A prediction must be exactly one
 * database flight; no flight is correct only when no flight is expected. `1 −` this is the
 * scaled flight component.
 *
 * @example
 * ```ts
 * import { readAirKb } from 'dialogym';
 * import { scaledFlightDistance } from 'dialogym/airdialogue';
 * const kb = readAirKb('data/airdialogue/dev_kb.json')[0]!;
 * scaledFlightDistance([1000], [1000], kb); // 0
 * scaledFlightDistance([], [1000], kb);     // 1
 * ```
 */
export function scaledFlightDistance(pred: readonly number[], truth: readonly number[], kb: KbLine): number {
  if (truth.length === 0) return pred.length === 0 ? 0 : 1;
  if (pred.length !== 1) return 1;
  const p = pred[0] as number;
  const byNumber = new Map<number, Flight>();
  for (const f of kb.kb) byNumber.set(f.flight_number, f);
  const pf = byNumber.get(p);
  if (!pf) return 1;
  if (truth.includes(p)) return 0;
  let maxAll = 0;
  let minPred = Infinity;
  for (const t of truth) {
    const tf = byNumber.get(t);
    if (!tf) continue;
    for (const f of kb.kb) {
      if (f.flight_number === t) continue;
      const d = flightDistance(f, tf);
      if (d > maxAll) maxAll = d;
      if (f.flight_number === p && d < minPred) minPred = d;
    }
  }
  if (minPred === Infinity) return 1;
  if (maxAll === 0) return minPred === 0 ? 0 : 1;
  return Math.min(1, minPred / maxAll);
}

/**
 * 1 when the predicted flight is one of the correct ones (or both lists are empty), else 0.
 *
 * @example
 * ```ts
 * import { flightExact } from 'dialogym/airdialogue';
 * flightExact([1003], [1003, 1017]); // 1
 * flightExact([], []);               // 1
 * flightExact([1003, 1017], [1003]); // 0: one flight expected
 * ```
 */
export function flightExact(pred: readonly number[], truth: readonly number[]): number {
  if (truth.length === 0) return pred.length === 0 ? 1 : 0;
  return pred.length === 1 && truth.includes(pred[0] as number) ? 1 : 0;
}

function total(c: Omit<Components, 'total'>): number {
  return WEIGHTS.name * c.name + WEIGHTS.flight * c.flight + WEIGHTS.action * c.action;
}

/**
 * Scores one predicted action against the expected action, given the agent's database (scaled
 * and exact, see the module description). Never throws.
 *
 * @example
 * ```ts
 * import { scoreAction } from 'dialogym/airdialogue';
 * import { readAirDialogue } from 'dialogym';
 * const [ex] = readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json');
 * scoreAction({ status: 'book', name: 'Emily Edwards', flight: [1027] }, ex!.data.expected_action, ex!.kb).total;
 * ```
 */
export function scoreAction(pred: Action, expected: Action, kb: KbLine): Score {
  const name = nameF1(pred.name, expected.name);
  const flight = 1 - scaledFlightDistance(pred.flight, expected.flight, kb);
  const action = pred.status.trim() === expected.status.trim() ? 1 : 0;
  const ex = { name: nameExact(pred.name, expected.name), flight: flightExact(pred.flight, expected.flight), action };
  return { name, flight, action, total: total({ name, flight, action }), exact: { ...ex, total: total(ex) } };
}

/**
 * The perfect score: every component 1, scaled and exact (the official human mode gives it to
 * `correct_sample: true` lines).
 *
 * @example
 * ```ts
 * import { perfectScore, addScore, emptyScoreSum } from 'dialogym/airdialogue';
 * const sum = addScore(emptyScoreSum(), perfectScore());
 * ```
 */
export function perfectScore(): Score {
  const one = { name: 1, flight: 1, action: 1, total: 1 };
  return { ...one, exact: { ...one } };
}

// ---------------------------------------------------------------------------------------------
// aggregation (mergeable sums)

/**
 * Running sums of scores (`n` scores added), built with `emptyScoreSum` / `addScore` /
 * `mergeScoreSums` and turned into means by `scoreReport`.
 *
 * @example
 * ```ts
 * import { emptyScoreSum, addScore, perfectScore, scoreReport, type ScoreSum } from 'dialogym/airdialogue';
 * let sum: ScoreSum = emptyScoreSum();
 * sum = addScore(sum, perfectScore());
 * scoreReport(sum).total; // 1
 * ```
 */
export interface ScoreSum {
  /** Scores added. */
  n: number;
  name: number;
  flight: number;
  action: number;
  total: number;
  exact: Components;
}

/**
 * A `ScoreSum` of no scores.
 *
 * @example
 * ```ts
 * import { emptyScoreSum, scoreReport } from 'dialogym/airdialogue';
 * scoreReport(emptyScoreSum()).dialogs; // 0
 * ```
 */
export function emptyScoreSum(): ScoreSum {
  return { n: 0, name: 0, flight: 0, action: 0, total: 0, exact: { name: 0, flight: 0, action: 0, total: 0 } };
}

/**
 * A new `ScoreSum` with one more score added (the input is not modified).
 *
 * @example
 * ```ts
 * import { addScore, emptyScoreSum, scoreAction } from 'dialogym/airdialogue';
 * import { readAirDialogue } from 'dialogym';
 * let sum = emptyScoreSum();
 * for (const ex of readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json')) sum = addScore(sum, scoreAction(ex.data.action, ex.data.expected_action, ex.kb));
 * ```
 */
export function addScore(s: ScoreSum, x: Score): ScoreSum {
  return {
    n: s.n + 1,
    name: s.name + x.name,
    flight: s.flight + x.flight,
    action: s.action + x.action,
    total: s.total + x.total,
    exact: { name: s.exact.name + x.exact.name, flight: s.exact.flight + x.exact.flight, action: s.exact.action + x.exact.action, total: s.exact.total + x.exact.total },
  };
}

/**
 * The sum of two `ScoreSum`s (e.g. from two workers).
 *
 * @example
 * ```ts
 * import { mergeScoreSums, emptyScoreSum, addScore, perfectScore } from 'dialogym/airdialogue';
 * const both = mergeScoreSums(addScore(emptyScoreSum(), perfectScore()), emptyScoreSum()); // n = 1
 * ```
 */
export function mergeScoreSums(a: ScoreSum, b: ScoreSum): ScoreSum {
  return {
    n: a.n + b.n,
    name: a.name + b.name,
    flight: a.flight + b.flight,
    action: a.action + b.action,
    total: a.total + b.total,
    exact: { name: a.exact.name + b.exact.name, flight: a.exact.flight + b.exact.flight, action: a.exact.action + b.exact.action, total: a.exact.total + b.exact.total },
  };
}

/**
 * Mean scores in the JSON shape the CLI prints: scaled components, `exact` components, and the
 * number of dialogs.
 *
 * @example
 * ```ts
 * import { selfPlay, type ScoreReport } from 'dialogym/airdialogue';
 * const r: ScoreReport = selfPlay({ n: 10 });
 * console.log(JSON.stringify(r));
 * ```
 */
export interface ScoreReport extends Components {
  exact: Components;
  dialogs: number;
}

/**
 * Mean scores of a `ScoreSum` (all 0 for an empty sum).
 *
 * @example
 * ```ts
 * import { scoreReport, addScore, emptyScoreSum, perfectScore } from 'dialogym/airdialogue';
 * scoreReport(addScore(emptyScoreSum(), perfectScore())); // { name: 1, flight: 1, action: 1, total: 1, exact: {…}, dialogs: 1 }
 * ```
 */
export function scoreReport(s: ScoreSum): ScoreReport {
  const m = (x: number) => (s.n === 0 ? 0 : x / s.n);
  return {
    name: m(s.name),
    flight: m(s.flight),
    action: m(s.action),
    total: m(s.total),
    exact: { name: m(s.exact.name), flight: m(s.exact.flight), action: m(s.exact.action), total: m(s.exact.total) },
    dialogs: s.n,
  };
}

/**
 * The official "human" mode: each line's human `action` against its `expected_action`, lines
 * marked `correct_sample: true` counting as perfect.
 *
 * @example
 * ```ts
 * import { readAirDialogue } from 'dialogym';
 * import { scoreHuman } from 'dialogym/airdialogue';
 * const report = scoreHuman(readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json'));
 * console.log(report.total, report.dialogs);
 * ```
 */
export function scoreHuman(examples: Iterable<{ data: { action: Action; expected_action: Action; correct_sample?: boolean }; kb: KbLine }>): ScoreReport {
  let s = emptyScoreSum();
  for (const ex of examples) s = addScore(s, ex.data.correct_sample === true ? perfectScore() : scoreAction(ex.data.action, ex.data.expected_action, ex.kb));
  return scoreReport(s);
}

/**
 * Scores predicted actions against the expected actions of the examples, aligned by index.
 * `preds` must have one action per example: a missing one throws a DialogymError naming it.
 *
 * @example
 * ```ts
 * import { readAirDialogue, readAirPredictions } from 'dialogym';
 * import { scorePredictions } from 'dialogym/airdialogue';
 * const examples = readAirDialogue('data/airdialogue/dev_data.json', 'data/airdialogue/dev_kb.json');
 * const report = scorePredictions(examples, readAirPredictions('out/predictions.jsonl'));
 * ```
 */
export function scorePredictions(examples: ReadonlyArray<{ data: { expected_action: Action }; kb: KbLine }>, preds: readonly Action[]): ScoreReport {
  return scorePredicted(
    examples.map((example, i) => {
      const pred = preds[i];
      if (pred === undefined) throw new DialogymError(`no predicted action for example ${i + 1} (${preds.length} predictions for ${examples.length} examples)`);
      return { example, pred };
    }),
  );
}

/**
 * Scores each example's predicted action against its expected action: any iterable of pairs
 * (the stream `airPredictedExamples` gives, one pair in memory at a time).
 *
 * @example
 * ```ts
 * import { airPredictedExamples } from 'dialogym';
 * import { scorePredicted } from 'dialogym/airdialogue';
 * const report = scorePredicted(airPredictedExamples('dev_data.json', 'dev_kb.json', 'out/predictions.jsonl'));
 * console.log(report.total, report.dialogs);
 * ```
 */
export function scorePredicted(pairs: Iterable<{ example: { data: { expected_action: Action }; kb: KbLine }; pred: Action }>): ScoreReport {
  let s = emptyScoreSum();
  for (const { example, pred } of pairs) s = addScore(s, scoreAction(pred, example.data.expected_action, example.kb));
  return scoreReport(s);
}
