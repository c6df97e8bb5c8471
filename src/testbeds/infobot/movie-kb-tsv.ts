/**
 * The official KB file format (`db.txt`, `incomplete_db_0.20.txt`): TAB-separated, a header line whose
 * first column names the head (`movie`) and whose other columns are slot names, then one line per
 * movie `name<TAB>v1<TAB>v2…`; missing values are `UNK`. Columns may come in any order (they are
 * re-mapped to the official slot order); extra columns are ignored.
 */
import { FormatError, errorText, optionName } from '../../core/errors.js';
import { writeFileAtomic } from '../../core/files.js';
import { MISSING, MovieKb } from './movie-kb.js';
import { basename } from 'node:path';
import { ConfigError } from '../../core/errors.js';
import { M, SLOTS, SPLIT_SPECS, SPLITS, type SplitName } from './slots.js';
import { FILE_KINDS, parseAs, readTextAs } from '../../formats/sniff.js';
import { excerpt } from '../../core/text.js';

/**
 * How a missing value is written in the KB files (`UNK`).
 *
 * @example
 * ```ts
 * import { UNK, formatKbTsv, splitKbs } from 'dialogym/infobot';
 * formatKbTsv(splitKbs('small', 1).incomplete).includes(UNK); // true
 * ```
 */
export const UNK = 'UNK';
/**
 * Name of the head (movie title) column written in the header of KB files.
 *
 * @example
 * ```ts
 * import { HEAD_COLUMN, SLOTS } from 'dialogym/infobot';
 * [HEAD_COLUMN, ...SLOTS].join('\t'); // the header line
 * ```
 */
export const HEAD_COLUMN = 'movie';

/**
 * Serialises a movie KB in the official TAB-separated layout: header `movie<TAB>actor<TAB>
 * critic_rating<TAB>genre<TAB>mpaa_rating<TAB>director<TAB>release_year`, then one line per movie,
 * missing values written `UNK`; every line ends in `\n`. Exported from `dialogym` as
 * `formatMovieKbTsv`.
 *
 * @example
 * ```ts
 * import { formatMovieKbTsv, parseMovieKbTsv } from 'dialogym';
 * const kb = parseMovieKbTsv('movie\tactor\tcritic_rating\tgenre\tmpaa_rating\tdirector\trelease_year\nalien\tsigourney weaver\t8.5\tscifi\tr\tridley scott\t1979\n', 'db.txt');
 * formatMovieKbTsv(kb).split('\n')[1]; // 'alien\tsigourney weaver\t8.5\tscifi\tr\tridley scott\t1979'
 * ```
 */
export function formatKbTsv(kb: MovieKb): string {
  const lines = [[HEAD_COLUMN, ...SLOTS].join('\t')];
  for (let i = 0; i < kb.n; i++) {
    const row = [kb.titles[i] as string];
    for (let j = 0; j < M; j++) row.push(kb.value(i, j) ?? UNK);
    lines.push(row.join('\t'));
  }
  return lines.join('\n') + '\n';
}

/**
 * Writes a movie KB as a TSV file (`formatMovieKbTsv`), atomically; parent folders are created,
 * file-system errors pass through. Exported from `dialogym` as `writeMovieKbTsv`.
 *
 * @example
 * ```ts
 * import { writeMovieKbTsv } from 'dialogym';
 * import { splitKbs } from 'dialogym/infobot';
 * const { full, incomplete } = splitKbs('medium', 1);
 * writeMovieKbTsv('out/imdb-M/db.txt', full);
 * writeMovieKbTsv('out/imdb-M/incomplete_db_0.20.txt', incomplete);
 * ```
 */
export function writeKbTsv(file: string, kb: MovieKb): void {
  writeFileAtomic(file, formatKbTsv(kb));
}

/**
 * Parses a KB file (format in this module's description); `file` names it in errors. Slot
 * vocabularies are sorted; `vocab` (e.g. the full KB's) instead fixes them so that an incomplete
 * copy indexes values the same way (values not in it are appended). A header without every slot
 * column, a row with the wrong number of fields, an empty or repeated movie name, or an empty cell
 * throws a FormatError `file:line: reason`. Exported from `dialogym` as `parseMovieKbTsv`.
 *
 * @example
 * ```ts
 * import { parseMovieKbTsv } from 'dialogym';
 * const kb = parseMovieKbTsv('movie\tactor\tcritic_rating\tgenre\tmpaa_rating\tdirector\trelease_year\nalien\tUNK\t8.5\tscifi\tr\tridley scott\t1979\n', 'db.txt');
 * kb.n;           // 1
 * kb.value(0, 0); // undefined: the actor is UNK
 * ```
 */
export function parseKbTsv(text: string, file: string, vocab?: readonly (readonly string[])[]): MovieKb {
  return parseAs(text, file, ['infobot-kb'], FILE_KINDS['infobot-kb'], (t, f) => kbOfTsv(t, f, vocab));
}

function kbOfTsv(text: string, file: string, vocab?: readonly (readonly string[])[]): MovieKb {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length === 0) throw new FormatError(file, undefined, 'empty file (expected a header line)');
  const header = (lines[0] as string).replace(/\r$/, '').split('\t');
  if (header.length < 2) throw new FormatError(file, 1, `header has ${header.length} column; expected ${HEAD_COLUMN} and the slot names, TAB-separated`);
  const colOf: number[] = [];
  for (let j = 0; j < M; j++) {
    const slot = SLOTS[j] as string;
    const cols = header.map((h, c) => (c > 0 && h.trim() === slot ? c : -1)).filter((c) => c >= 0);
    if (cols.length === 0) throw new FormatError(file, 1, `header lacks slot column '${slot}' (expected ${HEAD_COLUMN}, ${SLOTS.join(', ')})`);
    if (cols.length > 1) throw new FormatError(file, 1, `header repeats slot column '${slot}'`);
    colOf.push(cols[0] as number);
  }
  const vocabs = SLOTS.map((_, j) => [...(vocab?.[j] ?? [])]);
  const index = vocabs.map((v) => new Map(v.map((x, k) => [x, k])));
  const titles: string[] = [];
  const seen = new Map<string, number>();
  const cells: number[] = [];
  for (let l = 1; l < lines.length; l++) {
    const lineNo = l + 1;
    const line = (lines[l] as string).replace(/\r$/, '');
    if (line.trim() === '') throw new FormatError(file, lineNo, 'empty line inside the table');
    const f = line.split('\t');
    if (f.length !== header.length) throw new FormatError(file, lineNo, `${f.length} TAB-separated fields, expected ${header.length} as in the header`);
    const title = (f[0] as string).trim();
    if (title === '') throw new FormatError(file, lineNo, 'empty movie name');
    const prev = seen.get(title);
    if (prev !== undefined) throw new FormatError(file, lineNo, `movie '${excerpt(title)}' already listed on line ${prev}`);
    seen.set(title, lineNo);
    titles.push(title);
    for (let j = 0; j < M; j++) {
      const v = (f[colOf[j] as number] as string).trim();
      if (v === '') throw new FormatError(file, lineNo, `empty value for slot '${SLOTS[j]}' (write ${UNK} for a missing value)`);
      if (v === UNK) {
        cells.push(MISSING);
        continue;
      }
      const idx = index[j] as Map<string, number>;
      let k = idx.get(v);
      if (k === undefined) {
        k = (vocabs[j] as string[]).length;
        (vocabs[j] as string[]).push(v);
        idx.set(v, k);
      }
      cells.push(k);
    }
  }
  if (titles.length === 0) throw new FormatError(file, undefined, 'no movies after the header');
  const kb = new MovieKb(titles, vocabs, Int32Array.from(cells));
  // Without a given vocabulary, index values in sorted order, as generated KBs do.
  return vocab ? kb : kb.canonical();
}

/**
 * Reads a KB file (see `parseMovieKbTsv`); a missing or malformed file throws a FormatError.
 * Exported from `dialogym` as `readMovieKbTsv`.
 *
 * @example
 * ```ts
 * import { readMovieKbTsv } from 'dialogym';
 * const full = readMovieKbTsv('data/imdb-M/db.txt');
 * const incomplete = readMovieKbTsv('data/imdb-M/incomplete_db_0.20.txt', full.vocab);
 * ```
 */
export function readKbTsv(file: string, vocab?: readonly (readonly string[])[]): MovieKb {
  return parseKbTsv(readTextAs(file, ['infobot-kb'], FILE_KINDS['infobot-kb']), file, vocab);
}

/** File names of the official layout.
 *
 * @example
 * ```ts
 * import { kbFileNames } from 'dialogym/infobot';
 * kbFileNames(0.2); // { full: 'db.txt', incomplete: 'incomplete_db_0.20.txt' }
 * ```
 */
export function kbFileNames(missing: number): { full: string; incomplete: string } {
  return { full: 'db.txt', incomplete: `incomplete_db_${missing.toFixed(2)}.txt` };
}

/**
 * Reads a full KB and its incomplete copy; the incomplete copy must list the same movies in the same
 * order and agree with the full KB wherever it has a value; otherwise, or for a missing or
 * malformed file, a FormatError.
 *
 * @example
 * ```ts
 * import { readKbPair, kbFileNames } from 'dialogym/infobot';
 * const names = kbFileNames(0.2);
 * const { full, incomplete } = readKbPair(`data/imdb-M/${names.full}`, `data/imdb-M/${names.incomplete}`);
 * ```
 */
export function readKbPair(fullFile: string, incompleteFile: string): { full: MovieKb; incomplete: MovieKb } {
  const full = readKbTsv(fullFile);
  const incomplete = readKbTsv(incompleteFile, full.vocab);
  if (incomplete.n !== full.n) throw new FormatError(incompleteFile, undefined, `${incomplete.n} movies, but ${fullFile} has ${full.n}`);
  for (let i = 0; i < full.n; i++) {
    if (incomplete.titles[i] !== full.titles[i]) throw new FormatError(incompleteFile, i + 2, `movie '${excerpt(incomplete.titles[i] ?? '')}' where ${fullFile} has '${excerpt(full.titles[i] ?? '')}'`);
    for (let j = 0; j < M; j++) {
      const v = incomplete.cell(i, j);
      if (v !== MISSING && v !== full.cell(i, j)) throw new FormatError(incompleteFile, i + 2, `slot '${SLOTS[j]}' is '${excerpt(String(incomplete.value(i, j)))}' but ${fullFile} has '${excerpt(full.value(i, j) ?? UNK)}'`);
    }
  }
  return { full, incomplete };
}

/**
 * The split a KB folder holds: named by the folder (`imdb-M` as in the official layout, or
 * `medium`), else by its number of movies (a generated split's size); `given` (a `--split` flag)
 * must agree. A ConfigError when it cannot be told and nothing is given, or when they disagree.
 *
 * @example
 * ```ts
 * import { splitOfKb } from 'dialogym/infobot';
 * splitOfKb('data/imdb-M', 428);         // 'medium'
 * splitOfKb('out/kb', 277);              // 'small' (the size of a generated small split)
 * splitOfKb('out/mine', 1000, 'large');  // 'large'
 * ```
 */
export function splitOfKb(dir: string, movies: number, given?: SplitName): SplitName {
  const name = basename(dir.replace(/[\\/]+$/, ''));
  const byName = SPLITS.find((s) => name === s || name === SPLIT_SPECS[s].official);
  const bySize = SPLITS.find((s) => SPLIT_SPECS[s].movies === movies);
  const found = byName ?? bySize;
  if (given !== undefined) {
    if (found !== undefined && found !== given) throw new ConfigError(errorText`${optionName('split')} ${given}: the KB folder ${dir} holds the ${found} split (${movies} movies); drop ${optionName('split')} or pass ${optionName('split')} ${found}`);
    return given;
  }
  if (found === undefined) throw new ConfigError(errorText`cannot tell the split of the KB folder ${dir} (${movies} movies, not a generated split's size): pass ${optionName('split')}`);
  return found;
}
