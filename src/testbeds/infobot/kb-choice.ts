/**
 * The KBs a KB-InfoBot run plays on, from its options: generated for a split (`split`, `kbSeed`,
 * `missing`), or read from a folder of KB files (`kb`: db.txt and incomplete_db_<missing>.txt, whose
 * size or folder name gives the split). Used by the `infobot eval` run and the CLI's `infobot`
 * verbs.
 */
import { join } from 'node:path';
import type { KbSource } from './evaluate-workers.js';
import { kbFileNames, readKbPair, splitOfKb } from './movie-kb-tsv.js';
import { splitKbs, type SplitKbs } from './generate.js';
import type { SplitName } from './slots.js';

/** Where a run's KBs come from. */
export interface KbChoice {
  /** The split (default: medium, or the split of the `kb` folder). */
  readonly split?: SplitName;
  readonly kbSeed: number;
  /** A folder of KB files instead of generated KBs. */
  readonly kb?: string;
  /** Fraction of values hidden in the agent's KB. */
  readonly missing: number;
}

/** The KBs and their split: generated, or read from the `kb` folder (its split checked against `split`). */
export function chosenKbs(o: KbChoice): { kbs: SplitKbs; split: SplitName } {
  if (!o.kb) {
    const split = o.split ?? 'medium';
    return { kbs: splitKbs(split, o.kbSeed, o.missing), split };
  }
  const names = kbFileNames(o.missing);
  const kbs = readKbPair(join(o.kb, names.full), join(o.kb, names.incomplete));
  return { kbs, split: splitOfKb(o.kb, kbs.full.n, o.split) };
}

/** Where worker threads get the same KBs: the same files, or the same generation. */
export function kbSourceOf(o: KbChoice): KbSource {
  if (!o.kb) return { kind: 'generate', kbSeed: o.kbSeed, missing: o.missing };
  const names = kbFileNames(o.missing);
  return { kind: 'files', full: join(o.kb, names.full), incomplete: join(o.kb, names.incomplete) };
}
