/**
 * What the bag-of-words rankers (embeddings, memn2n) share: the KB types of their match features
 * (replaced with `useKb`), and their prepared candidate lists, cached per list array and brought
 * up to date after the weights changed (`touch`).
 */
import { ConfigError } from '../core/errors.js';
import type { KbTypes } from './match-type.js';

export abstract class BowRanker<E extends { version: number }> {
  abstract readonly config: { readonly matchType: boolean };
  /** Bumped whenever parameters change (invalidates cached candidate matrices). */
  protected version = 0;
  /** KB types for match features (replace with `useKb`). */
  kb: KbTypes | undefined;
  private cands = new WeakMap<readonly string[], E>();

  /** Throws a ConfigError naming `kind` for match-type features without KB types. */
  protected constructor(kind: string, matchType: boolean, kb: KbTypes | undefined) {
    this.kb = kb;
    if (matchType && !kb) throw new ConfigError(`${kind}: match-type features need KB types`);
  }

  /** Uses other KB types for match features (e.g. a test set's KB); types unseen in training are ignored. */
  useKb(kb: KbTypes): void {
    if (!this.config.matchType) return;
    this.kb = kb;
    this.cands = new WeakMap();
  }

  /** Call after changing parameters in place. */
  touch(): void {
    this.version++;
  }

  /** The candidate list prepared (`prepare`, once per array) and brought up to the current weights (`refresh`). */
  candidates(list: readonly string[]): E {
    let e = this.cands.get(list);
    if (!e) {
      e = this.prepare(list);
      this.cands.set(list, e);
    }
    if (e.version !== this.version) {
      this.refresh(e);
      e.version = this.version;
    }
    return e;
  }

  /** A new entry for `list` (its `version` −1: `refresh` fills it). */
  protected abstract prepare(list: readonly string[]): E;
  /** Recomputes the entry's weight-dependent parts. */
  protected abstract refresh(e: E): void;
}
