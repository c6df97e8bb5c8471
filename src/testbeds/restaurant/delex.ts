/**
 * Delexicalisation of restaurant-domain utterances (entities → their type, e.g. `<cuisine>`) and
 * the comparison of a generated bAbI dataset with the original files: size statistics per task
 * and split, bot templates, and coverage/precision of the delexicalised user utterances.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog } from '../../core/dialog.js';
import { readBabiDialogs } from '../../formats/babi.js';
import { CUISINES, LOCATIONS, NUMBERS, PRICES, RATINGS, restaurantName } from './kb.js';
import { SPLITS, TASK_FILE_STEMS, type Split, type TaskId } from './simulator.js';

/**
 * The kinds of entity `delexicalise` replaces by a placeholder (`<cuisine>`, `<restaurant>`, …).
 *
 * @example
 * ```ts
 * import type { EntityType } from 'dialogym/restaurant';
 * const kinds: EntityType[] = ['cuisine', 'location', 'number', 'price'];
 * ```
 */
export type EntityType = 'cuisine' | 'location' | 'number' | 'price' | 'restaurant' | 'phone' | 'address';

/** Entity → type for every entity of the restaurant domain (both vocabulary halves). */
export function restaurantLexicon(): Map<string, EntityType> {
  const lex = new Map<string, EntityType>();
  for (const v of ['iv', 'oov'] as const) {
    for (const c of CUISINES[v]) lex.set(c, 'cuisine');
    for (const l of LOCATIONS[v]) lex.set(l, 'location');
  }
  for (const n of NUMBERS) lex.set(n, 'number');
  for (const p of PRICES) lex.set(p, 'price');
  for (const v of ['iv', 'oov'] as const)
    for (const l of LOCATIONS[v])
      for (const p of PRICES)
        for (const c of CUISINES[v])
          for (const r of RATINGS) {
            const name = restaurantName(l, p, c, r);
            lex.set(name, 'restaurant');
            lex.set(`${name}_phone`, 'phone');
            lex.set(`${name}_address`, 'address');
          }
  return lex;
}

let defaultLexicon: Map<string, EntityType> | undefined;

/**
 * Replaces every entity token (space-separated) of the restaurant domain, both vocabulary halves,
 * by `<type>`: cuisine, location, number, price, restaurant, phone, address.
 *
 * @example
 * ```ts
 * import { delexicalise } from 'dialogym/restaurant';
 * delexicalise('api_call italian rome six cheap'); // 'api_call <cuisine> <location> <number> <price>'
 * ```
 */
export function delexicalise(text: string, lexicon: ReadonlyMap<string, EntityType> = (defaultLexicon ??= restaurantLexicon())): string {
  return text
    .split(' ')
    .map((w) => {
      const t = lexicon.get(w);
      return t === undefined ? w : `<${t}>`;
    })
    .join(' ');
}

export interface SplitStats {
  dialogs: number;
  /** (TAB lines × 2 + KB lines) / dialogs: user + bot utterances + KB-result lines (the paper's Table 1 count). */
  linesPerDialog: number;
  /** TAB lines (bot turns) per dialog. */
  botTurnsPerDialog: number;
  /** KB-result lines per dialog. */
  kbLinesPerDialog: number;
}

export function splitStats(dialogs: readonly Dialog[]): SplitStats {
  let bot = 0;
  let kb = 0;
  for (const d of dialogs)
    for (const t of d.turns) {
      if (t.speaker === 'bot') bot++;
      else if (t.speaker === 'kb') kb++;
    }
  const n = dialogs.length || 1;
  return { dialogs: dialogs.length, linesPerDialog: (2 * bot + kb) / n, botTurnsPerDialog: bot / n, kbLinesPerDialog: kb / n };
}

/** |a - b| / b (0 when both are 0). */
export function relDiff(a: number, b: number): number {
  if (b === 0) return a === 0 ? 0 : Infinity;
  return Math.abs(a - b) / b;
}

export interface SplitComparison {
  task: TaskId;
  split: Split;
  original: SplitStats;
  generated: SplitStats;
  /** Largest relative difference over the three per-dialog figures. */
  maxRelDiff: number;
}

export interface TaskComparison {
  task: TaskId;
  /** Delexicalised bot utterances (templates). */
  originalBotTemplates: string[];
  generatedBotTemplates: string[];
  botTemplatesEqual: boolean;
  /** Share of the original's distinct delexicalised user utterances that the generated files contain. */
  userCoverage: number;
  /** Share of generated user utterances (delexicalised, counted with repetitions) that occur in the originals. */
  userPrecision: number;
  /** Distinct delexicalised user utterances: original, generated. */
  originalUserDistinct: number;
  generatedUserDistinct: number;
}

/**
 * What `compareWithOriginal` returns: size figures per task and split, bot templates and
 * coverage/precision of delexicalised user utterances per task, and user figures over all tasks.
 *
 * @example
 * ```ts
 * import { compareWithOriginal, type Comparison } from 'dialogym/restaurant';
 * const c: Comparison = compareWithOriginal('out/babi', 'data/dialog-bAbI-tasks', { skipMissing: true });
 * console.log(c.overall.userCoverage, c.tasks.every((t) => t.botTemplatesEqual));
 * ```
 */
export interface Comparison {
  /** Per (task, split): dialogs and lines per dialog, original vs generated. */
  splits: SplitComparison[];
  /** Per task: bot templates and user-utterance coverage/precision. */
  tasks: TaskComparison[];
  /** The same user figures over tasks 1-5 together. */
  overall: { userCoverage: number; userPrecision: number; originalUserDistinct: number };
}

interface Collected {
  bot: Set<string>;
  user: Map<string, number>;
}

function collect(dialogs: readonly Dialog[], into: Collected): void {
  for (const d of dialogs)
    for (const t of d.turns) {
      if (t.speaker === 'bot') into.bot.add(delexicalise(t.text));
      else if (t.speaker === 'user') {
        const u = delexicalise(t.text);
        into.user.set(u, (into.user.get(u) ?? 0) + 1);
      }
    }
}

function userFigures(orig: Collected, gen: Collected): { userCoverage: number; userPrecision: number } {
  let covered = 0;
  for (const u of orig.user.keys()) if (gen.user.has(u)) covered++;
  let inOrig = 0;
  let total = 0;
  for (const [u, c] of gen.user) {
    total += c;
    if (orig.user.has(u)) inOrig += c;
  }
  return { userCoverage: orig.user.size ? covered / orig.user.size : 1, userPrecision: total ? inOrig / total : 1 };
}

const sorted = (s: Set<string>): string[] => [...s].sort();

/**
 * Options of `compareWithOriginal`.
 *
 * @example
 * ```ts
 * import type { CompareOptions } from 'dialogym/restaurant';
 * const opts: CompareOptions = { tasks: [1, 2], skipMissing: true };
 * ```
 */
export interface CompareOptions {
  /** Tasks to compare (default 1–5). */
  tasks?: readonly TaskId[];
  /** Skip dialog files missing from the generated folder instead of failing. */
  skipMissing?: boolean;
}

/**
 * Compares the generated dialog files in `generatedDir` with the originals in `originalDir`
 * (same file names). A missing file throws a FormatError, unless `skipMissing` skips missing
 * generated files.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from 'dialogym';
 * import { generateRestaurantDataset, compareWithOriginal, formatComparison } from 'dialogym/restaurant';
 * for (const f of generateRestaurantDataset({ seed: 1, tasks: [1], dialogs: 1000 })) writeFileAtomic(`out/babi/${f.name}`, f.text);
 * console.log(formatComparison(compareWithOriginal('out/babi', 'data/dialog-bAbI-tasks', { tasks: [1] })).join('\n'));
 * ```
 */
export function compareWithOriginal(generatedDir: string, originalDir: string, opts: CompareOptions = {}): Comparison {
  const tasks = opts.tasks ?? ([1, 2, 3, 4, 5] as const);
  const splits: SplitComparison[] = [];
  const taskOut: TaskComparison[] = [];
  const allOrig: Collected = { bot: new Set(), user: new Map() };
  const allGen: Collected = { bot: new Set(), user: new Map() };
  for (const task of tasks) {
    const orig: Collected = { bot: new Set(), user: new Map() };
    const gen: Collected = { bot: new Set(), user: new Map() };
    let any = false;
    for (const split of SPLITS) {
      const name = `${TASK_FILE_STEMS[task]}-${split}.txt`;
      const genFile = join(generatedDir, name);
      if (opts.skipMissing && !existsSync(genFile)) continue;
      any = true;
      const o = readBabiDialogs(join(originalDir, name)).dialogs;
      const g = readBabiDialogs(genFile).dialogs;
      collect(o, orig);
      collect(g, gen);
      const os = splitStats(o);
      const gs = splitStats(g);
      splits.push({
        task,
        split,
        original: os,
        generated: gs,
        maxRelDiff: Math.max(relDiff(gs.linesPerDialog, os.linesPerDialog), relDiff(gs.botTurnsPerDialog, os.botTurnsPerDialog), relDiff(gs.kbLinesPerDialog, os.kbLinesPerDialog)),
      });
    }
    if (!any) continue;
    for (const u of orig.bot) allOrig.bot.add(u);
    for (const u of gen.bot) allGen.bot.add(u);
    for (const [u, c] of orig.user) allOrig.user.set(u, (allOrig.user.get(u) ?? 0) + c);
    for (const [u, c] of gen.user) allGen.user.set(u, (allGen.user.get(u) ?? 0) + c);
    const ob = sorted(orig.bot);
    const gb = sorted(gen.bot);
    taskOut.push({
      task,
      originalBotTemplates: ob,
      generatedBotTemplates: gb,
      botTemplatesEqual: ob.length === gb.length && ob.every((x, i) => x === gb[i]),
      ...userFigures(orig, gen),
      originalUserDistinct: orig.user.size,
      generatedUserDistinct: gen.user.size,
    });
  }
  return { splits, tasks: taskOut, overall: { ...userFigures(allOrig, allGen), originalUserDistinct: allOrig.user.size } };
}

/**
 * A plain-text table of a comparison (for the CLI, benchmarks and reports), one string per line.
 *
 * @example
 * ```ts
 * import { compareWithOriginal, formatComparison } from 'dialogym/restaurant';
 * declare const generatedDir: string;
 * for (const line of formatComparison(compareWithOriginal(generatedDir, 'data/dialog-bAbI-tasks'))) console.log(line);
 * ```
 */
export function formatComparison(c: Comparison): string[] {
  const f = (x: number): string => x.toFixed(2);
  const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
  const lines = ['task split     lines/dialog (orig gen)  bot/dialog (orig gen)  kb/dialog (orig gen)  max diff'];
  for (const s of c.splits) {
    lines.push(
      `${s.task}    ${s.split.padEnd(8)} ${f(s.original.linesPerDialog).padStart(7)} ${f(s.generated.linesPerDialog).padStart(7)}        ${f(s.original.botTurnsPerDialog).padStart(7)} ${f(s.generated.botTurnsPerDialog).padStart(7)}       ${f(s.original.kbLinesPerDialog).padStart(6)} ${f(s.generated.kbLinesPerDialog).padStart(6)}       ${pct(s.maxRelDiff)}`,
    );
  }
  lines.push('task bot templates (orig gen equal)  user distinct orig  coverage  precision');
  for (const t of c.tasks) {
    lines.push(`${t.task}    ${String(t.originalBotTemplates.length).padStart(4)} ${String(t.generatedBotTemplates.length).padStart(4)} ${t.botTemplatesEqual ? 'yes' : 'NO '}              ${String(t.originalUserDistinct).padStart(6)}        ${pct(t.userCoverage).padStart(6)}   ${pct(t.userPrecision).padStart(6)}`);
  }
  lines.push(`all  user distinct orig ${c.overall.originalUserDistinct}, coverage ${pct(c.overall.userCoverage)}, precision ${pct(c.overall.userPrecision)}`);
  return lines;
}
