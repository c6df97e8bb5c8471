/**
 * Synthetic movie KB generator. The original IMDB-derived KB is not public, so dialogym generates one
 * with the statistics of the paper's Table 1 (N movies, largest slot vocabulary) and a realistic
 * shape: people names share first and last names (so tokens are ambiguous), actors, directors and
 * genres follow Zipf-like popularity, ratings cluster around the middle, years favour recent films.
 * Every vocabulary value occurs at least once, so the largest vocabulary is exactly the split's.
 */
import { createRng, type Rng } from '../../core/rng.js';
import { MISSING, MovieKb } from './movie-kb.js';
import { DEFAULT_MISSING, M, SLOTS, splitSpec, type SplitName } from './slots.js';
import { ConfigError, InternalError } from '../../core/errors.js';

const FIRST = (
  'james mary john patricia robert jennifer michael linda william elizabeth david barbara richard susan joseph jessica thomas ' +
  'sarah charles karen daniel nancy matthew lisa anthony betty mark margaret paul sandra steven ashley andrew kimberly joshua ' +
  'emily kenneth donna kevin michelle brian carol george amanda edward melissa ronald deborah timothy stephanie jason rebecca ' +
  'jeffrey laura ryan sharon jacob cynthia gary kathleen nicholas amy eric shirley'
).split(' ');
const LAST = (
  'smith johnson williams brown jones garcia miller davis rodriguez martinez hernandez lopez gonzalez wilson anderson taylor ' +
  'moore jackson martin lee perez thompson white harris sanchez clark ramirez lewis robinson walker young allen king wright ' +
  'scott torres nguyen hill flores green adams nelson baker hall rivera campbell mitchell carter roberts gomez phillips evans ' +
  'turner diaz parker cruz edwards collins reyes stewart morris morales murphy cook rogers gutierrez ortiz morgan cooper peterson ' +
  'bailey reed kelly howard ramos kim cox ward richardson watson brooks chavez wood james bennett gray mendoza ruiz hughes price'
).split(' ');
const GENRES = (
  'drama comedy action thriller romance horror crime adventure animation documentary fantasy mystery family biography ' +
  'history musical war western sport music noir superhero satire suspense'
).split(' ');
const MPAA = ['r', 'pg-13', 'pg', 'g', 'unrated', 'nc-17'];
const MPAA_WEIGHTS = [0.36, 0.3, 0.18, 0.06, 0.07, 0.03];
const ADJ = (
  'silent dark last lost hidden broken golden secret wild quiet burning frozen distant crimson endless final hollow bright ' +
  'fallen savage little forgotten empty perfect strange bitter electric midnight northern restless sacred twisted'
).split(' ');
const NOUN = (
  'river city night road house garden storm heart mountain dream shadow island kingdom letter mirror ocean promise season ' +
  'stranger summer winter harbor empire circle journey legacy signal frontier voyage witness'
).split(' ');

/**
 * Options of `generateMovieKb`.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateMovieKb, type KbGenOptions } from 'dialogym/infobot';
 * const opts: KbGenOptions = { movies: 100, maxVocab: 30, zipf: 0.7 };
 * generateMovieKb(createRng(1), opts).n; // 100
 * ```
 */
export interface KbGenOptions {
  /** Number of movies N. */
  movies: number;
  /** Vocabulary of the largest slot (actor); the other slots are sized from it. */
  maxVocab: number;
  /** Fraction of cells missing in the full KB itself (default 0). */
  fullMissing?: number;
  /** Zipf exponent of actor / director popularity (default 0.9). */
  zipf?: number;
  /**
   * Sizes of the first-name and last-name pools people names are drawn from (default: the base pools
   * of 60 first and 100 last names). Larger pools make a single name token less ambiguous.
   */
  namePools?: readonly [first: number, last: number];
  /** Vocabulary sizes per slot (SLOTS order) instead of `slotVocabSizes(maxVocab)`. */
  sizes?: readonly number[];
  /**
   * Fraction of movies that repeat another movie's values in every slot (default 0): remakes,
   * re-releases and editions listed apart, which only the title tells apart. Each is tried in turn
   * and copies a random movie's row unless that would remove a value's last occurrence (every
   * vocabulary value still occurs), so the realised fraction can be a little lower.
   */
  duplicates?: number;
}

/** Vocabulary sizes per slot (SLOTS order) for a largest vocabulary `v`.
 *
 * @example
 * ```ts
 * import { slotVocabSizes } from 'dialogym/infobot';
 * slotVocabSizes(68); // six sizes, the actor's 68
 * ```
 */
export function slotVocabSizes(v: number): number[] {
  return [v, Math.min(v, 55), Math.min(v, GENRES.length), Math.min(v, MPAA.length), Math.max(2, Math.min(v, Math.round(0.75 * v))), Math.min(v, 70)];
}

function zipfWeights(k: number, s: number): number[] {
  return Array.from({ length: k }, (_, r) => 1 / Math.pow(r + 1, s));
}

// Syllables of the made-up names that extend the pools beyond the base lists.
const FIRST_HEAD = 'al bri ca del e fa gi ha i jo ka le ma ni o pa ra sa ta vi'.split(' ');
const FIRST_TAIL = 'na ra la ton son ric rin mon den lia'.split(' ');
const LAST_HEAD = 'ash bel cor dal fen gar hal kes lin mor nor pem ral sel tor wen brad crom dun ell'.split(' ');
const LAST_TAIL = 'by ford ley ton well man ridge wood stein field worth combe gate holm'.split(' ');

const EXTRA_END = 'a o i e'.split(' ');

function extend(base: readonly string[], heads: readonly string[], tails: readonly string[], size: number): readonly string[] {
  if (size <= base.length) return base;
  const seen = new Set(base);
  const out = [...base];
  // Two syllables first, then (beyond those, so smaller pools are unchanged) a third syllable.
  for (const end of ['', ...EXTRA_END])
    for (const t of tails)
      for (const h of heads) {
        const w = h + t + end;
        if (out.length >= size) return out;
        if (!seen.has(w)) {
          seen.add(w);
          out.push(w);
        }
      }
  if (out.length < size) throw new ConfigError(`name pool of ${size} is too large (at most ${out.length})`);
  return out;
}

/** The first- and last-name pools of the given sizes: the base lists, then made-up names (a
 * ConfigError when a size exceeds what can be made).
 *
 * @example
 * ```ts
 * import { namePools } from 'dialogym/infobot';
 * const { first, last } = namePools(60, 100);
 * ```
 */
export function namePools(first: number, last: number): { first: readonly string[]; last: readonly string[] } {
  return { first: extend(FIRST, FIRST_HEAD, FIRST_TAIL, first), last: extend(LAST, LAST_HEAD, LAST_TAIL, last) };
}

function names(rng: Rng, count: number, taken: Set<string>, pools: { first: readonly string[]; last: readonly string[] }): string[] {
  const out: string[] = [];
  let guard = 0;
  while (out.length < count) {
    if (++guard > count * 1000) throw new ConfigError(`cannot make ${count} distinct names`);
    const n = `${rng.pick(pools.first)} ${rng.pick(pools.last)}`;
    if (taken.has(n)) continue;
    taken.add(n);
    out.push(n);
  }
  return out;
}

function slotValues(rng: Rng, slot: number, k: number, people: Set<string>, zipf: number, pools: { first: readonly string[]; last: readonly string[] }): { values: string[]; weights: number[] } {
  switch (SLOTS[slot]) {
    case 'actor':
    case 'director':
      return { values: names(rng, k, people, pools), weights: zipfWeights(k, zipf) };
    case 'critic_rating': {
      const start = Math.round(65 - (k - 1) / 2);
      const values = Array.from({ length: k }, (_, r) => ((start + r) / 10).toFixed(1));
      const sd = Math.max(1, k / 4);
      return { values, weights: values.map((_, r) => Math.exp(-0.5 * ((r - (k - 1) / 2) / sd) ** 2)) };
    }
    case 'genre':
      return { values: GENRES.slice(0, k), weights: zipfWeights(k, 1.1) };
    case 'mpaa_rating':
      return { values: MPAA.slice(0, k), weights: MPAA_WEIGHTS.slice(0, k) };
    case 'release_year': {
      const values = Array.from({ length: k }, (_, r) => String(2016 - k + 1 + r));
      return { values, weights: values.map((_, r) => Math.exp((2 * r) / k)) };
    }
    default:
      throw new InternalError(`slot ${slot}`);
  }
}

function titles(rng: Rng, n: number): string[] {
  const out: string[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const base = rng.chance(0.5) ? `the ${rng.pick(ADJ)} ${rng.pick(NOUN)}` : `${rng.pick(ADJ)} ${rng.pick(NOUN)}`;
    const c = (seen.get(base) ?? 0) + 1;
    seen.set(base, c);
    out.push(c === 1 ? base : `${base} ${c}`);
  }
  return out;
}

/** Makes about `fraction` of the rows copies of random other rows (in place), keeping every value's last occurrence. */
function duplicateRows(rng: Rng, cells: Int32Array, n: number, sizes: readonly number[], fraction: number): void {
  const counts = sizes.map((k) => new Int32Array(k));
  const count = (j: number, v: number): number => (counts[j] as Int32Array)[v] as number;
  const add = (j: number, v: number, d: number): void => void ((counts[j] as Int32Array)[v] = count(j, v) + d);
  const cell = (i: number, j: number): number => cells[i * M + j] as number;
  for (let i = 0; i < n; i++) for (let j = 0; j < M; j++) add(j, cell(i, j), 1);
  for (let i = 0; i < n; i++) {
    if (!rng.chance(fraction)) continue;
    const p = rng.int(n);
    let ok = p !== i;
    for (let j = 0; ok && j < M; j++) ok = cell(i, j) === cell(p, j) || count(j, cell(i, j)) > 1;
    if (!ok) continue;
    for (let j = 0; j < M; j++) {
      add(j, cell(i, j), -1);
      cells[i * M + j] = cell(p, j);
      add(j, cell(i, j), 1);
    }
  }
}

/** Generates a full movie KB (deterministic for a given rng).
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { generateMovieKb, SPLIT_SPECS } from 'dialogym/infobot';
 * const kb = generateMovieKb(createRng(3), { movies: SPLIT_SPECS.small.movies, maxVocab: SPLIT_SPECS.small.maxVocab });
 * ```
 */
export function generateMovieKb(rng: Rng, opts: KbGenOptions): MovieKb {
  const { movies: n, maxVocab } = opts;
  if (!Number.isInteger(n) || n < 1) throw new ConfigError('movies must be a positive integer');
  const sizes = opts.sizes ? [...opts.sizes] : slotVocabSizes(maxVocab);
  if (sizes.length !== M || Math.max(...sizes) !== maxVocab) throw new ConfigError(`sizes must have ${M} entries, the largest ${maxVocab}`);
  const pools = namePools(opts.namePools?.[0] ?? 0, opts.namePools?.[1] ?? 0);
  if (n < maxVocab) throw new ConfigError(`movies (${n}) must be >= maxVocab (${maxVocab})`);
  const people = new Set<string>();
  const vocab: string[][] = [];
  const cells = new Int32Array(n * M);
  for (let j = 0; j < M; j++) {
    const r = rng.fork(`slot:${SLOTS[j]}`);
    const k = sizes[j] as number;
    const { values, weights } = slotValues(r, j, k, people, opts.zipf ?? 0.9, pools);
    vocab.push(values);
    // Every value once, then draws by popularity; shuffled down the column.
    const column: number[] = values.map((_, v) => v);
    while (column.length < n) column.push(r.weighted(weights));
    const shuffled = r.shuffle(column);
    for (let i = 0; i < n; i++) cells[i * M + j] = shuffled[i] as number;
  }
  const dup = opts.duplicates ?? 0;
  if (!(dup >= 0 && dup < 1)) throw new ConfigError(`duplicates must be in [0, 1), got ${dup}`);
  if (dup > 0) duplicateRows(rng.fork('duplicates'), cells, n, sizes, dup);
  const miss = opts.fullMissing ?? 0;
  if (miss > 0) {
    const r = rng.fork('missing');
    for (let i = 0; i < cells.length; i++) if (r.chance(miss)) cells[i] = MISSING;
  }
  return new MovieKb(titles(rng.fork('titles'), n), vocab, cells).canonical();
}

/**
 * The two KBs of a split: the full one (the simulated user's world) and the agent's incomplete
 * copy (same movies, same order).
 *
 * @example
 * ```ts
 * import { splitKbs, type SplitKbs } from 'dialogym/infobot';
 * const kbs: SplitKbs = splitKbs('small', 1);
 * kbs.incomplete.missingFraction(); // ≈ 0.2
 * ```
 */
export interface SplitKbs {
  /** The full KB (the user's world). */
  full: MovieKb;
  /** The agent's copy, with `missing` of the values hidden. */
  incomplete: MovieKb;
}

/**
 * Per-split shape of the generated KB beyond Table 1's N and largest vocabulary. The IMDB splits are
 * not public, so these are calibrated on the agents that measure the simulator and the KB rather
 * than a learner — the Rule agents and Max of the paper's Table 2 (`dialogym infobot table` prints
 * the paper's cells beside ours): in the real splits Small is the hardest for the rule agents (its
 * target movies lack values: the full KB has missing cells, so the user knows fewer slots) and the
 * larger KBs are not harder than Medium until X-Large (their values are more diverse). Small draws
 * 15% missing cells in the full KB; Medium and Large draw people from larger name pools (a name token
 * is less ambiguous: 200 × 300 and 600 × 900 first × last names) with flatter popularity. The pools
 * were 120 × 180 and 260 × 370, and Rule-Hard stayed below the paper on both splits (R 0.65 / 0.66
 * against 0.75 / 0.78, mean of eval seeds 1, 7, 13): the simulator drops a word of a two-word name
 * half the time (`corruptValue`, as MiuLab/KB-InfoBot `usersim_rule.py` `_corrupt_value`), the
 * one token left often fit another person too (63% / 43% of Medium's people shared a first / last
 * name, now 46% / 31%; Large 54% / 43%, now 28% / 22%), and Rule-Hard, which asks
 * only the slots of ≥ 5 bits (α_T = 5 on Medium and Large), has fewer answers to outvote a misheard
 * one (docs/notes/infobot-hard-kb.md). Large also widens the critic rating, director and
 * release year vocabularies (Table 1's largest vocabulary is unchanged: the actor slot's). X-Large is
 * where the paper's Max loses most (R 1.37): ties among the movies matching the user's values. Its KB
 * repeats movies (`duplicates` 0.7: a goal matches 2.6 movies on average, 1.2 without), which costs
 * Max ≈ 0.28 and the rule agents ≈ 0.6 of that (they share the ties when they succeed); to keep
 * the rule agents near the paper's they get unambiguous names (600 first, 900 last names for 502
 * people), flat popularity and wide director and release-year vocabularies.
 *
 * @example
 * ```ts
 * import { SPLIT_GEN } from 'dialogym/infobot';
 * SPLIT_GEN.large.zipf; // 0
 * ```
 */
export const SPLIT_GEN: Readonly<Record<SplitName, Readonly<Partial<KbGenOptions>>>> = {
  small: { fullMissing: 0.15 },
  medium: { namePools: [200, 300], zipf: 0.6 },
  large: { namePools: [600, 900], zipf: 0, sizes: [101, 101, 23, 6, 101, 101] },
  xlarge: { namePools: [600, 900], zipf: 0, sizes: [251, 71, 23, 6, 251, 251], duplicates: 0.7 },
};

/** The full and incomplete KBs of a named split, from a seed, with `missing` of the agent's
 * values hidden. A ConfigError for an unknown split.
 *
 * @example
 * ```ts
 * import { splitKbs, InfoBotEnv } from 'dialogym/infobot';
 * const kbs = splitKbs('medium', 7, 0.3);
 * const env = new InfoBotEnv({ split: 'medium', kbs });
 * ```
 */
export function splitKbs(split: SplitName | string, seed: number, missing = DEFAULT_MISSING): SplitKbs {
  const spec = splitSpec(split);
  const rng = createRng(seed).fork(`kb:${spec.name}`);
  const full = generateMovieKb(rng.fork('full'), { movies: spec.movies, maxVocab: spec.maxVocab, ...SPLIT_GEN[spec.name] });
  return { full, incomplete: full.withHidden(missing, rng.fork('hide')) };
}
