/**
 * scikit-learn-compatible text vectorisers, as the official DSTC6 scripts use them:
 * `CountVectorizer()` (vocabulary figures of dataset_walker.py) and `TfidfVectorizer()`
 * (baseline_tfidf.py), both with default settings:
 * - analyzer: lower-case the text, tokens = every match of `(?u)\b\w\w+\b` (maximal runs of ≥ 2
 *   Unicode word characters; a word character is a letter, a number or `_`, as in Python's `re`);
 * - vocabulary: every token of the fitted documents, indexed in sorted (code point) order;
 * - idf = ln((1 + n) / (1 + df)) + 1 (smooth_idf), tf = raw counts, rows l2-normalised.
 *
 * Floating-point operations follow scipy/sklearn's order (see `TfidfVectorizer`), so scores that
 * are equal in the original are equal here, which matters for tie-breaking.
 */

/** A non-ASCII word character (Python's `\w` = letters, numbers, underscore). */
const UNICODE_WORD = /[\p{L}\p{N}_]/u;

/** Whether UTF-16 unit `c` (at `i` in `s`) starts a word character; astral chars are tested as pairs. */
function isWordAt(s: string, i: number, c: number): boolean {
  if (c < 0x80) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || (c >= 65 && c <= 90);
  if (c >= 0xd800 && c <= 0xdbff) return UNICODE_WORD.test(s.slice(i, i + 2));
  if (c >= 0xdc00 && c <= 0xdfff) return false;
  return UNICODE_WORD.test(s[i] as string);
}

/** Calls `emit` for each token of sklearn's default analyzer: lower-case, runs of ≥ 2 word characters. */
export function forEachSklearnToken(text: string, emit: (token: string) => void): void {
  const s = text.toLowerCase();
  const n = s.length;
  let i = 0;
  while (i < n) {
    let c = s.charCodeAt(i);
    if (!isWordAt(s, i, c)) {
      i++;
      continue;
    }
    const start = i;
    let chars = 0;
    while (i < n) {
      c = s.charCodeAt(i);
      if (!isWordAt(s, i, c)) break;
      const w = c >= 0xd800 && c <= 0xdbff ? 2 : 1;
      i += w;
      chars++;
    }
    if (chars >= 2) emit(s.slice(start, i));
  }
}

/** sklearn's default analyzer: lower-case, then tokens of ≥ 2 word characters. */
export function sklearnTokens(text: string): string[] {
  const out: string[] = [];
  forEachSklearnToken(text, (t) => out.push(t));
  return out;
}

/** Python's string ordering (by code point; JS `<` compares UTF-16 units, which differs past U+FFFF). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs === ys) return x - y;
    return xs ? 1 : -1; // a surrogate (code point ≥ U+10000) sorts after any BMP unit
  }
  return a.length - b.length;
}

/** The sorted vocabulary of `CountVectorizer().fit(docs)` (optionally minus stop words). */
export function countVectorizerVocabulary(docs: Iterable<string>, stopWords?: ReadonlySet<string>): string[] {
  const seen = new Set<string>();
  for (const d of docs) for (const t of sklearnTokens(d)) if (!stopWords?.has(t)) seen.add(t);
  return [...seen].sort(compareCodePoints);
}

/**
 * A sparse row: `idx[k]` is a vocabulary index, `val[k]` its weight. Entries are kept in the order
 * scipy holds them (not necessarily sorted), because sums are taken in that order.
 */
export interface SparseRow {
  readonly idx: Int32Array;
  readonly val: Float64Array;
}

/** sklearn's `inplace_csr_row_normalize_l2`: sum of squares in storage order, then divide. */
function normalizeL2(val: Float64Array): void {
  let sum = 0;
  for (let k = 0; k < val.length; k++) sum += (val[k] as number) * (val[k] as number);
  if (sum === 0) return;
  const norm = Math.sqrt(sum);
  for (let k = 0; k < val.length; k++) val[k] = (val[k] as number) / norm;
}

/**
 * `TfidfVectorizer()` with default settings. Storage order mirrors sklearn 1.x + scipy:
 * - fitted documents: CountVectorizer sorts each row by first-appearance id, then the idf product
 *   (`X * diag(idf)`, scipy's csr_matmat) reverses it: rows hold terms in decreasing order of
 *   first appearance in the corpus;
 * - transformed documents: rows sorted by vocabulary index, reversed by the idf product.
 */
export class TfidfVectorizer {
  private constructor(
    /** term → column (sorted order). */
    readonly vocabulary: ReadonlyMap<string, number>,
    readonly idf: Float64Array,
  ) {}

  get size(): number {
    return this.idf.length;
  }

  /** Fits on `docs` and returns the vectoriser with the l2-normalised tf-idf rows of `docs`. */
  static fitTransform(docs: readonly string[]): { vectorizer: TfidfVectorizer; rows: SparseRow[] } {
    // Pass 1: first-appearance ids and per-document counts (ids ascending = sklearn's sort_indices).
    const firstId = new Map<string, number>();
    const terms: string[] = [];
    const docIds: Int32Array[] = [];
    const docCounts: Float64Array[] = [];
    let counts = new Float64Array(1024); // by first-appearance id; zero between documents
    const touched: number[] = [];
    const add = (t: string): void => {
      let id = firstId.get(t);
      if (id === undefined) {
        id = terms.length;
        firstId.set(t, id);
        terms.push(t);
        if (id >= counts.length) {
          const grown = new Float64Array(counts.length * 2);
          grown.set(counts);
          counts = grown;
        }
      }
      if (counts[id] === 0) touched.push(id);
      counts[id] = (counts[id] as number) + 1;
    };
    for (const doc of docs) {
      touched.length = 0;
      forEachSklearnToken(doc, add);
      const ids = Int32Array.from(touched).sort();
      docIds.push(ids);
      docCounts.push(Float64Array.from(ids, (id) => counts[id] as number));
      for (const id of touched) counts[id] = 0;
    }
    // Sorted vocabulary and the first-appearance id → column map.
    const order = terms.map((_, i) => i).sort((a, b) => compareCodePoints(terms[a] as string, terms[b] as string));
    const column = new Int32Array(terms.length);
    const vocabulary = new Map<string, number>();
    order.forEach((id, col) => {
      column[id] = col;
      vocabulary.set(terms[id] as string, col);
    });
    // Document frequencies and smooth idf.
    const df = new Float64Array(terms.length);
    for (const ids of docIds) {
      for (const id of ids) {
        const col = column[id] as number;
        df[col] = (df[col] as number) + 1;
      }
    }
    const n = docs.length + 1;
    const idf = Float64Array.from(df, (d) => Math.log(n / (d + 1)) + 1);
    const vectorizer = new TfidfVectorizer(vocabulary, idf);
    // Rows: reversed first-appearance order, tf * idf, l2.
    const rows = docIds.map((ids, r): SparseRow => {
      const c = docCounts[r] as Float64Array;
      const len = ids.length;
      const idx = new Int32Array(len);
      const val = new Float64Array(len);
      for (let k = 0; k < len; k++) {
        const col = column[ids[len - 1 - k] as number] as number;
        idx[k] = col;
        val[k] = (c[len - 1 - k] as number) * (idf[col] as number);
      }
      normalizeL2(val);
      return { idx, val };
    });
    return { vectorizer, rows };
  }

  /** The l2-normalised tf-idf row of one document (unknown terms ignored). */
  transform(doc: string): SparseRow {
    const counts = new Map<number, number>();
    forEachSklearnToken(doc, (t) => {
      const col = this.vocabulary.get(t);
      if (col !== undefined) counts.set(col, (counts.get(col) ?? 0) + 1);
    });
    const cols = Int32Array.from(counts.keys()).sort();
    const len = cols.length;
    const idx = new Int32Array(len);
    const val = new Float64Array(len);
    for (let k = 0; k < len; k++) {
      const col = cols[len - 1 - k] as number;
      idx[k] = col;
      val[k] = (counts.get(col) as number) * (this.idf[col] as number);
    }
    normalizeL2(val);
    return { idx, val };
  }
}

/**
 * Dot products of one row with several rows, summed in `row`'s storage order (scipy's
 * csr_matmat: for each stored term of the left row, add its products into the outputs).
 * `scratch` is a zero-filled buffer of the vocabulary size (left zero-filled on return).
 */
export function sparseDots(row: SparseRow, others: readonly SparseRow[], scratch: Float64Array): Float64Array {
  const out = new Float64Array(others.length);
  for (let c = 0; c < others.length; c++) {
    const o = others[c] as SparseRow;
    if (o.idx.length === 0) continue;
    for (let k = 0; k < o.idx.length; k++) scratch[o.idx[k] as number] = o.val[k] as number;
    let s = 0;
    for (let k = 0; k < row.idx.length; k++) {
      const v = scratch[row.idx[k] as number] as number;
      if (v !== 0) s += (row.val[k] as number) * v;
    }
    for (let k = 0; k < o.idx.length; k++) scratch[o.idx[k] as number] = 0;
    out[c] = s;
  }
  return out;
}
