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
import type { Action, Flight, KbLine } from '../../formats/airdialogue.js';
import { MONTHS } from '../../formats/airdialogue.js';
import { AIRLINE_TYPES } from './facts.js';

export const WEIGHTS = { name: 0.2, flight: 0.5, action: 0.3 } as const;

export interface Components {
  name: number;
  flight: number;
  action: number;
  total: number;
}

export interface Score extends Components {
  exact: Components;
}

// ---------------------------------------------------------------------------------------------
// name

const PUNCT = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

/** Lower case, punctuation removed, articles (a/an/the) removed, whitespace collapsed. */
export function normalizeAnswer(s: string): string {
  let t = '';
  for (const ch of s.toLowerCase()) if (!PUNCT.has(ch)) t += ch;
  t = t.replace(/(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu, ' ');
  return t.split(/\s+/u).filter((w) => w !== '').join(' ');
}

/** Character-level F1 between two names (after normalisation; spaces count as characters). */
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

/** Mean of first-name and last-name exact matches (case-insensitive, split on single spaces). */
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
 * database flight; no flight is correct only when no flight is expected.
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

/** 1 when the predicted flight is correct (or both are empty), else 0. */
export function flightExact(pred: readonly number[], truth: readonly number[]): number {
  if (truth.length === 0) return pred.length === 0 ? 1 : 0;
  return pred.length === 1 && truth.includes(pred[0] as number) ? 1 : 0;
}

function total(c: Omit<Components, 'total'>): number {
  return WEIGHTS.name * c.name + WEIGHTS.flight * c.flight + WEIGHTS.action * c.action;
}

/** Scores one predicted action against the expected action, given the agent's database. */
export function scoreAction(pred: Action, expected: Action, kb: KbLine): Score {
  const name = nameF1(pred.name, expected.name);
  const flight = 1 - scaledFlightDistance(pred.flight, expected.flight, kb);
  const action = pred.status.trim() === expected.status.trim() ? 1 : 0;
  const ex = { name: nameExact(pred.name, expected.name), flight: flightExact(pred.flight, expected.flight), action };
  return { name, flight, action, total: total({ name, flight, action }), exact: { ...ex, total: total(ex) } };
}

/** The perfect score (the official human mode gives it to `correct_sample: true` lines). */
export function perfectScore(): Score {
  const one = { name: 1, flight: 1, action: 1, total: 1 };
  return { ...one, exact: { ...one } };
}

// ---------------------------------------------------------------------------------------------
// aggregation (mergeable sums)

export interface ScoreSum {
  n: number;
  name: number;
  flight: number;
  action: number;
  total: number;
  exact: Components;
}

export function emptyScoreSum(): ScoreSum {
  return { n: 0, name: 0, flight: 0, action: 0, total: 0, exact: { name: 0, flight: 0, action: 0, total: 0 } };
}

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

/** Mean scores in the JSON shape the CLI prints. */
export interface ScoreReport extends Components {
  exact: Components;
  dialogs: number;
}

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
 */
export function scoreHuman(examples: ReadonlyArray<{ data: { action: Action; expected_action: Action; correct_sample?: boolean }; kb: KbLine }>): ScoreReport {
  let s = emptyScoreSum();
  for (const ex of examples) s = addScore(s, ex.data.correct_sample === true ? perfectScore() : scoreAction(ex.data.action, ex.data.expected_action, ex.kb));
  return scoreReport(s);
}

/** Scores predicted actions (aligned with the examples) against their expected actions. */
export function scorePredictions(examples: ReadonlyArray<{ data: { expected_action: Action }; kb: KbLine }>, preds: readonly Action[]): ScoreReport {
  let s = emptyScoreSum();
  examples.forEach((ex, i) => {
    s = addScore(s, scoreAction(preds[i] as Action, ex.data.expected_action, ex.kb));
  });
  return scoreReport(s);
}
