/**
 * `dialogym data fetch <babi|dstc6|dstc6-train|airdialogue|all>` and `dialogym data list`: the
 * original datasets, downloaded from their publishers (or a mirror), verified and unpacked into the
 * data folder, where every verb finds them by reference (`--data babi:task5-tst`; docs/data.md).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ConfigError } from '../../core/errors.js';
import { shellWord } from '../../core/shell.js';
import { readTextFile } from '../../core/files.js';
import { parseJsonText } from '../../formats/json-text.js';
import { CATALOGUE, type Catalogue } from '../../datasets/catalogue.js';
import { DownloadError } from '../../datasets/download.js';
import { dataRoot, datasetStatus } from '../../datasets/store.js';
import { action, out } from '../run.js';
import { progress, type Progress } from '../progress.js';
import { SUMMARY } from './summaries.js';

interface FetchFlags {
  dir?: string;
  mirror?: string;
  catalogue?: string;
  force?: boolean;
}

const MB = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

/**
 * The `data fetch` command for the data folder `root` (the one that installs an archive put in the
 * downloads folder by hand, or fetches what `data list` found missing): with the folder unless it is
 * the default one (an environment variable may not be set where it is run), and the catalogue when
 * one was given.
 */
export function fetchCommand(name: string, root: { dir: string; source: string }, catalogue: string | undefined): string {
  const dir = root.source === 'the user data folder' ? [] : ['--dir', shellWord(root.dir)];
  const cat = catalogue !== undefined ? ['--catalogue', shellWord(resolve(catalogue))] : [];
  return ['dialogym', 'data', 'fetch', name, ...dir, ...cat].join(' ');
}

/** A catalogue file (JSON, the shape of the built-in one): one-line errors naming the file and the entry. */
function readCatalogue(file: string): Catalogue {
  const v = parseJsonText(readTextFile(file), file);
  if (!Array.isArray(v)) throw new ConfigError(`--catalogue ${file}: expected a JSON array of datasets`);
  v.forEach((d: unknown, i) => {
    const e = d as Record<string, unknown> | null;
    const archive = e?.['archive'] as Record<string, unknown> | undefined;
    const ok =
      typeof e === 'object' && e !== null && typeof e['name'] === 'string' && typeof e['folder'] === 'string' && typeof e['anchor'] === 'string' &&
      typeof e['refPrefix'] === 'string' && Array.isArray(e['required']) && typeof e['refs'] === 'object' && Array.isArray(e['examples']) && typeof archive?.['url'] === 'string' &&
      (archive['format'] === 'zip' || archive['format'] === 'tar.gz');
    if (!ok) throw new ConfigError(`--catalogue ${file}: dataset ${i + 1} lacks one of name, folder, anchor, refPrefix, required, refs, examples, archive.url, archive.format (zip or tar.gz)`);
  });
  return v as Catalogue;
}

/** The datasets `names` stand for (`all`: those the catalogue fetches by default). */
function namesOf(names: readonly string[], catalogue: Catalogue): string[] {
  const known = catalogue.map((d) => d.name);
  const out: string[] = [];
  for (const n of names) {
    const add = n === 'all' ? catalogue.filter((d) => d.inAll).map((d) => d.name) : [n];
    for (const a of add) {
      if (!known.includes(a)) throw new ConfigError(`data fetch: no dataset named '${n}' (${[...known, 'all'].join(', ')})`);
      if (!out.includes(a)) out.push(a);
    }
  }
  return out;
}

export function registerData(program: Command): void {
  const data = program.command('data').description(SUMMARY.data);
  data
    .command('fetch')
    .description('download datasets from their publishers (or --mirror), verify every SHA-256, unpack into the data folder; a cut download resumes')
    .argument('<dataset...>', `${CATALOGUE.map((d) => d.name).join(', ')}, or all (${CATALOGUE.filter((d) => d.inAll).map((d) => d.name).join(', ')})`)
    .option('--dir <folder>', 'data folder to fill (default: $DIALOGYM_DATA, else $XDG_DATA_HOME/dialogym or ~/.local/share/dialogym)')
    .option('--mirror <url>', "a server with the same archives at the same URL paths (default: $DIALOGYM_MIRROR, else the publishers')")
    .option('--catalogue <file>', "a JSON catalogue of datasets (URLs, layouts, checksums) instead of dialogym's, e.g. for a mirror that repackages the archives (default: the built-in one)")
    .option('--force', 'fetch a dataset again even when the data folder holds it complete, and download anew an archive found in .downloads that is refused (default: a complete one is kept)')
    .action(
      action(async (names: string[], f: FetchFlags) => {
        const { fetchDataset } = await import('../../datasets/fetch.js');
        const catalogue = f.catalogue !== undefined ? readCatalogue(f.catalogue) : CATALOGUE;
        const wanted = namesOf(names, catalogue);
        const where = f.dir !== undefined ? { dir: resolve(f.dir), source: '--dir' } : dataRoot();
        const root = where.dir;
        const mirror = f.mirror ?? (process.env.DIALOGYM_MIRROR || undefined);
        const status = new Map(datasetStatus(catalogue, root).map((s) => [s.dataset.name, s]));
        for (const name of wanted) {
          const have = status.get(name);
          if (!f.force && have !== undefined && have.present && have.wrongSize.length === 0) {
            // Without per-file checksums (AirDialogue: only the archive has one) a copy of the sample looks the same as the release.
            const check = have.dataset.files !== undefined ? '`dialogym data list --verify` checks every file' : 'its files have no published checksums, so a copy cannot be told from the release';
            out(`${name}: already present, ${have.files} files, ${MB(have.bytes)} in ${have.dir}; nothing fetched (${check}; --force fetches it again)`);
            continue;
          }
          let bar: Progress | undefined;
          let barTotal = 0;
          const r = await fetchDataset(name, {
            root,
            catalogue,
            refetch: f.force === true,
            ...(mirror !== undefined ? { mirror } : {}),
            onNote: (line) => process.stderr.write(`note: ${line}\n`),
            onProgress: (label, done, total) => {
              const kib = Math.ceil((total ?? 0) / 1024);
              if (bar === undefined || barTotal !== kib) {
                bar?.stop();
                bar = progress(`${label} (KiB)`, kib);
                barTotal = kib;
              }
              bar.update(Math.floor(done / 1024));
            },
          }).catch((e: unknown) => {
            bar?.stop();
            const h = e instanceof DownloadError ? e.byHand : undefined;
            if (h === undefined) throw e;
            const again = fetchCommand(name, where, f.catalogue);
            throw new DownloadError(`${h.reason}; to fetch by hand, put ${h.file} from ${h.url} in ${h.folder} and run \`${again}\` again (docs/data.md)`, { cause: e, unreachable: true });
          });
          bar?.stop();
          const checked = r.dataset.files !== undefined ? "every file's SHA-256" : "the archive's SHA-256";
          out(`${r.dataset.name}: ${r.files} files, ${MB(r.bytes)} in ${r.dir} (from ${r.url}${r.resumedFrom > 0 ? `, resumed at ${r.resumedFrom} bytes` : ''}; checked: ${checked})`);
        }
      }),
    );
  data
    .command('list')
    .description('which datasets are in the data folder, where, and how to reference their files')
    .option('--dir <folder>', 'data folder (default: $DIALOGYM_DATA, else $XDG_DATA_HOME/dialogym or ~/.local/share/dialogym)')
    .option('--verify', "hash every file and compare with the catalogue's SHA-256")
    .option('--json', 'print {"root","datasets":[{"name","present","dir","files","bytes","missing","wrongSize","corrupt"}]} as JSON')
    .action(
      action(async (f: { dir?: string; verify?: boolean; json?: boolean }) => {
        const root = f.dir !== undefined ? { dir: resolve(f.dir), source: '--dir' } : dataRoot();
        const rows = datasetStatus(CATALOGUE, root.dir);
        const corrupt = new Map<string, string[]>();
        if (f.verify) {
          const { verifyDataset } = await import('../../datasets/fetch.js');
          for (const s of rows) if (s.present) corrupt.set(s.dataset.name, await verifyDataset(s.dataset, root.dir));
        }
        if (f.json) {
          out(JSON.stringify({
            root: root.dir,
            datasets: rows.map((s) => ({ name: s.dataset.name, present: s.present, dir: s.dir, files: s.files, bytes: s.bytes, missing: s.missing, wrongSize: s.wrongSize, ...(f.verify ? { corrupt: corrupt.get(s.dataset.name) ?? [] } : {}) })),
          }));
          return;
        }
        out(`data folder: ${root.dir} (${root.source})`);
        const width = Math.max(...rows.map((s) => s.dataset.name.length));
        for (const s of rows) {
          const name = s.dataset.name.padEnd(width);
          if (!s.present) {
            const partial = s.files > 0 ? `incomplete (${s.missing.length} of ${s.dataset.required.length} files missing, e.g. ${s.missing[0]})` : 'not fetched';
            out(`${name}  ${partial}: run \`${fetchCommand(s.dataset.name, root, undefined)}\``);
            continue;
          }
          const bad = [...s.wrongSize, ...(corrupt.get(s.dataset.name) ?? []).filter((p) => !s.wrongSize.includes(p))];
          const state = bad.length > 0 ? `CHANGED (${bad.length} file${bad.length > 1 ? 's' : ''} differ from the release, e.g. ${bad[0]}: run \`${fetchCommand(s.dataset.name, root, undefined)} --force\`)` : f.verify && s.dataset.files !== undefined ? 'verified' : 'present';
          out(`${name}  ${state}: ${s.files} files, ${MB(s.bytes)} in ${s.dir}; e.g. ${s.dataset.examples.join(', ')}`);
        }
      }),
    );
}
