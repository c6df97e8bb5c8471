/**
 * Response patterns for the task-6 (DSTC2) rule-based baseline, learned from a training file.
 *
 * The rules (dstc2.ts) decide WHAT to say: an act key such as `offer:VDV` or `inform:phone`
 * and the values it may mention (restaurant name and attributes, or the constraints). HOW it is
 * said comes from the training data: every training bot turn is delexicalised with the values the
 * rules would have used at that point, and each key keeps its most frequent pattern.
 */
import type { Dialog, Turn } from '../../../core/dialog.js';

/** Values a pattern may mention (`{name}`, `{cuisine}`, `{phone}`, …). */
export type PatternValues = Readonly<Record<string, string>>;

/** A decision of the rules: a literal utterance (api_call) or a pattern key with its values. */
export type Decision =
  | { readonly literal: string }
  | { readonly key: string; readonly values: PatternValues };

export interface PatternTable {
  /** key → patterns, most frequent first (ties: first seen). */
  readonly byKey: ReadonlyMap<string, readonly string[]>;
  /** How the bot writes a restaurant name (`the cow pizza kitchen and bar`), when not as in the KB. */
  readonly nameForms: ReadonlyMap<string, string>;
}

/** Placeholder order: the name first (restaurant names contain cuisine words), then long values. */
const ORDER = ['name', 'phone', 'address', 'post_code', 'cuisine', 'location', 'price'];

function replaceWord(text: string, word: string, by: string): string {
  if (word === '') return text;
  const t = ` ${text} `;
  const w = ` ${word} `;
  if (!t.includes(w)) return text;
  return t.split(w).join(` ${by} `).slice(1, -1);
}

/** Replaces the given values by `{slot}` placeholders; also reports the name's written form. */
export function delexicalise(text: string, values: PatternValues): { pattern: string; nameForm?: string } {
  let s = text;
  let nameForm: string | undefined;
  const keys = Object.keys(values).sort((a, b) => rank(a) - rank(b));
  for (const k of keys) {
    const v = values[k] as string;
    if (k === 'name') {
      const spaced = v.replace(/_/g, ' ');
      if (v.includes('_') && ` ${s} `.includes(` ${spaced} `)) {
        s = replaceWord(s, spaced, '{name}');
        nameForm = spaced;
        continue;
      }
    }
    s = replaceWord(s, v, `{${k}}`);
  }
  return nameForm !== undefined ? { pattern: s, nameForm } : { pattern: s };
}

function rank(k: string): number {
  const i = ORDER.indexOf(k);
  return i < 0 ? ORDER.length : i;
}

/** The placeholders a pattern uses. */
export function placeholders(pattern: string): string[] {
  return [...pattern.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
}

/** Fills a pattern; undefined when a placeholder has no value. */
export function fill(pattern: string, values: PatternValues, nameForms?: ReadonlyMap<string, string>): string | undefined {
  let missing = false;
  const out = pattern.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = values[k];
    if (v === undefined) {
      missing = true;
      return '';
    }
    return k === 'name' ? (nameForms?.get(v) ?? v) : v;
  });
  return missing ? undefined : out;
}

/**
 * Learns the pattern table: `decide(history)` is the rules' decision before each training bot
 * turn; the bot turn, delexicalised with the decision's values, is counted under its key.
 */
export function learnPatterns(train: readonly Dialog[], decide: (history: readonly Turn[]) => Decision): PatternTable {
  const counts = new Map<string, Map<string, number>>();
  const forms = new Map<string, Map<string, number>>();
  for (const d of train) {
    d.turns.forEach((t, i) => {
      if (t.speaker !== 'bot') return;
      const dec = decide(d.turns.slice(0, i));
      if ('literal' in dec) return;
      const { pattern, nameForm } = delexicalise(t.text, dec.values);
      // Counted under the key and under its family (`offer:VDV` → `offer`), the fallback for keys
      // the training data never reached.
      const family = dec.key.split(':')[0] as string;
      for (const k of family === dec.key ? [dec.key] : [dec.key, family]) {
        let m = counts.get(k);
        if (!m) counts.set(k, (m = new Map()));
        m.set(pattern, (m.get(pattern) ?? 0) + 1);
      }
      const name = dec.values['name'];
      if (name !== undefined) {
        let f = forms.get(name);
        if (!f) forms.set(name, (f = new Map()));
        if (pattern.includes('{name}')) f.set(nameForm ?? name, (f.get(nameForm ?? name) ?? 0) + 1);
      }
    });
  }
  const byKey = new Map<string, string[]>();
  for (const [k, m] of counts) byKey.set(k, [...m].sort((a, b) => b[1] - a[1]).map(([p]) => p));
  const nameForms = new Map<string, string>();
  for (const [name, m] of forms) {
    const best = [...m].sort((a, b) => b[1] - a[1])[0];
    if (best && best[0] !== name) nameForms.set(name, best[0]);
  }
  return { byKey, nameForms };
}
