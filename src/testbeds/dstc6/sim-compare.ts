/**
 * Figures comparing a generated DSTC6 file with a real one: mean utterances per entry, the
 * candidate-count histogram, and the delexicalised user utterances (coverage of the real file's
 * distinct ones by the generated file, and the share of generated ones found in the real file).
 */
import { dstc6History, type Dstc6Entry } from '../../formats/dstc6.js';
import { CUISINES, LOCATIONS, NUMBERS, PRICES } from '../restaurant/kb.js';
import { ATMOSPHERES, RESTRICTIONS } from './extended-kb.js';
import { REQUEST_OPENERS } from './patterns-dstc6.js';

const VALUE_TYPES = new Map<string, string>();
for (const v of ['iv', 'oov'] as const) {
  for (const c of CUISINES[v]) VALUE_TYPES.set(c, '<cuisine>');
  for (const l of LOCATIONS[v]) VALUE_TYPES.set(l, '<location>');
}
for (const n of NUMBERS) VALUE_TYPES.set(n, '<number>');
for (const p of PRICES) VALUE_TYPES.set(p, '<price>');
for (const a of ATMOSPHERES) VALUE_TYPES.set(a, '<atmosphere>');
for (const r of RESTRICTIONS) VALUE_TYPES.set(r, '<restrictions>');

const NAME = /^(?:the_)?[a-z]+_[a-z]+_[a-z]+_[a-z]+$/;

/** Replaces slot values and restaurant names/phones/addresses by their type (punctuation kept). */
export function delexDstc6(text: string): string {
  return text
    .split(' ')
    .map((tok) => {
      const m = /^(.*?)([,.]*)$/.exec(tok) as RegExpExecArray;
      const w = m[1] as string;
      const tail = m[2] as string;
      const t = VALUE_TYPES.get(w);
      if (t !== undefined) return t + tail;
      if (w.endsWith('_phone') && NAME.test(w.slice(0, -6))) return '<phone>' + tail;
      if (w.endsWith('_address') && NAME.test(w.slice(0, -8))) return '<address>' + tail;
      if (NAME.test(w)) return '<rest>' + tail;
      return tok;
    })
    .join(' ');
}

const SLOT_UNIT = /^(?:with <cuisine> (?:food|cuisine)|in <location>|for <number>(?: people)?|in a <price> price range|with a <atmosphere> atmosphere|with <restrictions> menu options)/;

/**
 * The units a delexicalised user utterance is composed of: a request (`<opener> <slot phrase>…`)
 * gives its opener and its slot phrases (`may i have a table`, `in <location>`, …), whose order
 * and combination make most requests unique; any other utterance is one unit.
 */
export function userUnits(delexed: string): string[] {
  for (const opener of REQUEST_OPENERS) {
    if (delexed === opener) return [opener];
    if (!delexed.startsWith(opener + ' ')) continue;
    const units = [opener];
    let rest = delexed.slice(opener.length + 1);
    while (rest.length > 0) {
      const m = SLOT_UNIT.exec(rest);
      if (!m || (rest.length > m[0].length && rest[m[0].length] !== ' ')) return [delexed];
      units.push(m[0]);
      rest = rest.slice(m[0].length + 1);
    }
    return units;
  }
  return [delexed];
}

export interface FileFigures {
  readonly entries: number;
  readonly meanUtterances: number;
  /** Share of entries per candidate count. */
  readonly candidateHistogram: ReadonlyMap<number, number>;
  /** Distinct delexicalised user utterances, with counts. */
  readonly userUtterances: ReadonlyMap<string, number>;
  /** The same split into units (see userUnits), with counts. */
  readonly userUnits: ReadonlyMap<string, number>;
}

export function fileFigures(entries: readonly Dstc6Entry[]): FileFigures {
  let utts = 0;
  const hist = new Map<number, number>();
  const users = new Map<string, number>();
  const units = new Map<string, number>();
  for (const e of entries) {
    utts += e.utterances.length;
    hist.set(e.candidates.length, (hist.get(e.candidates.length) ?? 0) + 1);
    for (const t of dstc6History(e.utterances))
      if (t.speaker === 'user') {
        const d = delexDstc6(t.text);
        users.set(d, (users.get(d) ?? 0) + 1);
        for (const u of userUnits(d)) units.set(u, (units.get(u) ?? 0) + 1);
      }
  }
  const n = entries.length || 1;
  for (const [k, v] of hist) hist.set(k, v / n);
  return { entries: entries.length, meanUtterances: utts / n, candidateHistogram: hist, userUtterances: users, userUnits: units };
}

export interface FileComparison {
  readonly real: FileFigures;
  readonly generated: FileFigures;
  /** |gen − real| / real of the mean utterances per entry. */
  readonly utteranceRelDiff: number;
  /** Largest |gen − real| share over candidate-count buckets (0–1). */
  readonly candidateMaxDiff: number;
  /** Share of the real file's distinct delexicalised user utterances that the generated file has. */
  readonly userCoverage: number;
  /** Share of the generated user utterances (counted with repetitions) found in the real file. */
  readonly userPrecision: number;
  /** Same as userPrecision over distinct utterances. */
  readonly userPrecisionDistinct: number;
  /** userCoverage and userPrecision over units (requests split into opener and slot phrases). */
  readonly unitCoverage: number;
  readonly unitPrecision: number;
}

function coverage(real: ReadonlyMap<string, number>, gen: ReadonlyMap<string, number>): { coverage: number; precision: number; precisionDistinct: number } {
  let covered = 0;
  for (const u of real.keys()) if (gen.has(u)) covered++;
  let inReal = 0;
  let total = 0;
  let inRealDistinct = 0;
  for (const [u, c] of gen) {
    total += c;
    if (real.has(u)) {
      inReal += c;
      inRealDistinct++;
    }
  }
  return { coverage: real.size ? covered / real.size : 1, precision: total ? inReal / total : 1, precisionDistinct: gen.size ? inRealDistinct / gen.size : 1 };
}

export function compareFigures(real: FileFigures, generated: FileFigures): FileComparison {
  let candidateMaxDiff = 0;
  for (const k of new Set([...real.candidateHistogram.keys(), ...generated.candidateHistogram.keys()]))
    candidateMaxDiff = Math.max(candidateMaxDiff, Math.abs((real.candidateHistogram.get(k) ?? 0) - (generated.candidateHistogram.get(k) ?? 0)));
  const whole = coverage(real.userUtterances, generated.userUtterances);
  const units = coverage(real.userUnits, generated.userUnits);
  return {
    real,
    generated,
    utteranceRelDiff: Math.abs(generated.meanUtterances - real.meanUtterances) / real.meanUtterances,
    candidateMaxDiff,
    userCoverage: whole.coverage,
    userPrecision: whole.precision,
    userPrecisionDistinct: whole.precisionDistinct,
    unitCoverage: units.coverage,
    unitPrecision: units.precision,
  };
}

export function formatHistogram(h: ReadonlyMap<number, number>): string {
  return [...h.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k}:${(100 * v).toFixed(1)}%`)
    .join(' ');
}
