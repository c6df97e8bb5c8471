/**
 * Dataset references: how every verb names an original file without a path. `<prefix>:<name>` names
 * a file (or folder) of a fetched dataset — `babi:task5-tst-oov`, `babi:candidates`, `babi:kb`,
 * `dstc6:tst1/task1`, `dstc6:tst1/task1-answers`, `dstc6:kb2`, `airdialogue:train-data` — and a bare
 * prefix (`babi`) its whole folder. After the prefix, a path inside the dataset's folder works too
 * (`babi:dialog-babi-task1-API-calls-trn.txt`). A value that is an existing file or folder is a path,
 * as before: references never shadow the user's files.
 */
import { existsSync } from 'node:fs';
import { join, normalize, sep } from 'node:path';
import { ConfigError } from '../core/errors.js';
import type { Catalogue, CatalogueDataset } from './catalogue.js';

/** A resolved reference: the dataset it belongs to and the path on disk. */
export interface ResolvedRef {
  readonly dataset: CatalogueDataset;
  readonly path: string;
}

const REF = /^([a-z][a-z0-9]*)(?::(.*))?$/;

/**
 * The file a reference names, or undefined when `value` is not a reference (an existing path, or
 * a prefix no dataset has). A reference to a dataset that is not there, or to no file of it, is a
 * one-line ConfigError naming `flag` and what to run (`run \`dialogym data fetch babi\``).
 */
export function resolveRef(flag: string, value: string, catalogue: Catalogue, root: string): ResolvedRef | undefined {
  const m = REF.exec(value);
  if (m === null || existsSync(value)) return undefined;
  const prefix = m[1] as string;
  const datasets = catalogue.filter((d) => d.refPrefix === prefix);
  if (datasets.length === 0) return undefined;
  const name = m[2];
  const where = (d: CatalogueDataset): string => `${flag} ${value}: ${d.title.split(' (')[0]} not found in ${join(root, d.folder)} (run \`dialogym data fetch ${d.name}\`)`;
  if (name === undefined || name === '') {
    const d = datasets[0] as CatalogueDataset;
    const path = join(root, d.folder);
    if (!existsSync(path)) throw new ConfigError(where(d));
    return { dataset: d, path };
  }
  const key = name.toLowerCase();
  for (const d of datasets) {
    const rel = Object.hasOwn(d.refs, key) ? d.refs[key] : undefined;
    if (rel === undefined) continue;
    const path = join(root, d.folder, rel);
    if (!existsSync(path)) throw new ConfigError(where(d));
    return { dataset: d, path };
  }
  // A path inside a dataset's folder.
  const rel = normalize(name);
  if (!rel.startsWith('..') && !rel.startsWith(sep)) {
    for (const d of datasets) {
      const path = join(root, d.folder, rel);
      if (existsSync(path)) return { dataset: d, path };
    }
  }
  const first = datasets[0] as CatalogueDataset;
  if (!existsSync(join(root, first.folder))) throw new ConfigError(where(first));
  const names = datasets.flatMap((d) => Object.keys(d.refs));
  const shown = names.slice(0, 6).map((n) => `${prefix}:${n}`).join(', ');
  throw new ConfigError(`${flag} ${value}: no such ${prefix} file (names: ${shown}${names.length > 6 ? ', …' : ''}; docs/data.md lists them all), nor a path inside ${join(root, first.folder)}`);
}
