/** Word ↔ id maps for the bag-of-words models (unknown words map to −1 and are skipped). */
import { tokenize } from '../core/text.js';

/**
 * A word ↔ id map for the bag-of-words models: ids are given in order of `add`, from 0;
 * `encode(text)` gives the ids of the known tokens of a text (unknown ones are dropped, `id`
 * gives −1 for them).
 *
 * @example
 * ```ts
 * import { WordVocab } from 'dialogym/rankers';
 * const vocab = new WordVocab(['hello', 'world']);
 * vocab.addText('hello there');
 * vocab.encode('hello unknown there'); // [0, 2]
 * vocab.size;                          // 3
 * ```
 */
export class WordVocab {
  private readonly index = new Map<string, number>();
  readonly words: string[] = [];

  constructor(words: Iterable<string> = []) {
    for (const w of words) this.add(w);
  }

  get size(): number {
    return this.words.length;
  }

  /** Adds a word (no-op when present) and returns its id. */
  add(w: string): number {
    let id = this.index.get(w);
    if (id === undefined) {
      id = this.words.length;
      this.index.set(w, id);
      this.words.push(w);
    }
    return id;
  }

  addText(text: string): void {
    for (const t of tokenize(text)) this.add(t);
  }

  /** Id of `w`, or −1 when unknown. */
  id(w: string): number {
    return this.index.get(w) ?? -1;
  }

  has(w: string): boolean {
    return this.index.has(w);
  }

  /** Ids of known tokens of `text` (unknown tokens dropped); with `bigrams`, then the ids of its known bigrams (`bigramWord`). */
  encode(text: string, bigrams = false): number[] {
    const out: number[] = [];
    const tokens = tokenize(text);
    for (const t of tokens) {
      const id = this.index.get(t);
      if (id !== undefined) out.push(id);
    }
    if (bigrams) {
      for (let i = 0; i + 1 < tokens.length; i++) {
        const id = this.index.get(bigramWord(tokens[i] as string, tokens[i + 1] as string));
        if (id !== undefined) out.push(id);
      }
    }
    return out;
  }

  /** Adds the bigrams of adjacent tokens of `text` (as `bigramWord`s). */
  addBigrams(text: string): void {
    const tokens = tokenize(text);
    for (let i = 0; i + 1 < tokens.length; i++) this.add(bigramWord(tokens[i] as string, tokens[i + 1] as string));
  }
}

/**
 * The vocabulary word standing for the bigram `a b` (tokens never hold a space, so it cannot
 * clash with a word).
 *
 * @example
 * ```ts
 * import { WordVocab, bigramWord } from 'dialogym/rankers';
 * const v = new WordVocab(['book', 'a', 'table', bigramWord('a', 'table')]);
 * v.encode('book a table', true); // [0, 1, 2, 3]
 * ```
 */
export function bigramWord(a: string, b: string): string {
  return `${a} ${b}`;
}

/** A per-string cache of encodings (dialog files repeat the same lines a lot). */
export class EncodeCache {
  private readonly cache = new Map<string, Int32Array>();
  constructor(
    private readonly vocab: WordVocab,
    private readonly limit = 200_000,
    /** Also the ids of known bigrams. */
    private readonly bigrams = false,
  ) {}

  encode(text: string): Int32Array {
    let ids = this.cache.get(text);
    if (!ids) {
      ids = Int32Array.from(this.vocab.encode(text, this.bigrams));
      if (this.cache.size >= this.limit) this.cache.clear();
      this.cache.set(text, ids);
    }
    return ids;
  }
}
