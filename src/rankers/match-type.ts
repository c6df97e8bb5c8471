/**
 * Match-type features (Bordes et al. 2017, §4.5): each KB attribute (R_cuisine, R_location, …) is
 * a type; a candidate gets the type word of T when one of its words has type T and that word also
 * occurs in the dialog so far. Entities never seen in training (OOV) then still match by type.
 */
import type { KbFact } from '../formats/babi.js';
import type { Turn } from '../core/dialog.js';
import { tokenize } from '../core/text.js';

/** The type's plain name: `R_cuisine` → `cuisine`. */
export function attrType(attr: string): string {
  return attr.replace(/^[rR]_/, '').toLowerCase();
}

/**
 * Entity types for match-type features (bAbI dialog paper §4.5): a map word → KB attribute
 * (`R_cuisine`, `R_location`, …). Build it from KB facts with `KbTypes.fromFacts`; pass it as
 * `TrainData.kb`, or to `loadModel` to score with another KB (e.g. the OOV test set's). A word
 * listed under several attributes keeps the first.
 *
 * @example
 * ```ts
 * import { KbTypes } from 'dialogym/rankers';
 * import { readBabiKb } from 'dialogym';
 * const kb = KbTypes.fromFacts(readBabiKb('data/dialog-bAbI-tasks/dialog-babi-kb-all.txt').facts);
 * kb.type('italian'); // 'R_cuisine'
 * kb.types;           // ['R_address', 'R_cuisine', 'R_location', …]
 * ```
 */
export class KbTypes {
  /** word → type name (the KB attribute, e.g. `R_cuisine`). */
  private readonly typeOf = new Map<string, string>();
  /** Sorted type names. */
  readonly types: string[];

  /** The KB facts these types were read from (`fromFacts`), for models that need whole entities (hcn). */
  readonly facts: readonly KbFact[] | undefined;

  constructor(entries: Iterable<readonly [string, string]>, facts?: readonly KbFact[]) {
    this.facts = facts;
    for (const [w, t] of entries) if (!this.typeOf.has(w)) this.typeOf.set(w, t);
    this.types = [...new Set(this.typeOf.values())].sort();
  }

  /** Types from KB facts: every token of every attribute value gets the attribute as its type. */
  static fromFacts(facts: readonly KbFact[]): KbTypes {
    const entries: [string, string][] = [];
    for (const f of facts) for (const t of tokenize(f.value)) entries.push([t, f.attr]);
    return new KbTypes(entries, facts);
  }

  type(word: string): string | undefined {
    return this.typeOf.get(word);
  }

  get size(): number {
    return this.typeOf.size;
  }

  entries(): [string, string][] {
    return [...this.typeOf.entries()];
  }

  /** The feature word standing for a type in model vocabularies. */
  static featureWord(type: string): string {
    return `#type:${type}`;
  }

  /** For each candidate, its typed words as [word, type] pairs (empty for most candidates). */
  typedWords(candidates: readonly string[]): (readonly (readonly [string, string])[])[] {
    return candidates.map((c) => {
      const out: [string, string][] = [];
      for (const w of tokenize(c)) {
        const t = this.typeOf.get(w);
        if (t !== undefined) out.push([w, t]);
      }
      return out;
    });
  }
}

/** The set of words said so far in a dialog (all speakers, KB lines included). */
export function contextWords(history: readonly Turn[]): Set<string> {
  const s = new Set<string>();
  for (const t of history) for (const w of tokenize(t.text)) s.add(w);
  return s;
}

/** The distinct types of a candidate's typed words that also occur in `context`. */
export function matchedTypes(typed: readonly (readonly [string, string])[], context: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const [w, t] of typed) if (context.has(w) && !out.includes(t)) out.push(t);
  return out;
}
