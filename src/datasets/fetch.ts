/**
 * `fetchDataset`: download a dataset's archive (resuming a cut download), verify it, unpack it and
 * install its files into the data folder — atomically: the files are unpacked and checked in a
 * staging folder beside the target, which is renamed into place only when every checksum matched,
 * so a dataset folder is either the previous one or the complete new one, never half of either.
 * Files are checked one by one where the catalogue knows their SHA-256 (bAbI, DSTC6), else the
 * archive itself is (AirDialogue). A mismatch removes the archive (the next run downloads it anew)
 * and throws one line naming the file.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { FormatError } from '../core/errors.js';
import { makeFolders } from '../core/files.js';
import { CATALOGUE, type Catalogue, type CatalogueDataset } from './catalogue.js';
import { download, DownloadError } from './download.js';
import { unpack } from './unpack.js';

export interface FetchOptions {
  /** The data folder the dataset goes to (see `dataRoot`). */
  readonly root: string;
  /** Default: the built-in catalogue. */
  readonly catalogue?: Catalogue;
  /** A server with the same archives at the same URL paths, e.g. `http://mirror.example/data`. */
  readonly mirror?: string;
  /** Progress of the download (bytes). */
  readonly onProgress?: (label: string, done: number, total: number | undefined) => void;
  /** A line worth telling the user (a resumed download, skipped files). */
  readonly onNote?: (line: string) => void;
}

export interface FetchReport {
  readonly dataset: CatalogueDataset;
  /** The URL the archive came from (the mirror's when one was given). */
  readonly url: string;
  /** Where the dataset's files now are. */
  readonly dir: string;
  readonly files: number;
  readonly bytes: number;
  /** Bytes downloaded by this call, and where an earlier cut download was resumed (0: not resumed). */
  readonly downloaded: number;
  readonly resumedFrom: number;
  /** Files of the archive that are not part of the dataset and were left out. */
  readonly skipped: readonly string[];
}

/** `url` on `mirror`: the mirror's address followed by the URL's path. */
export function mirrorUrl(url: string, mirror: string | undefined): string {
  if (mirror === undefined || mirror === '') return url;
  const u = new URL(url);
  return mirror.replace(/\/+$/, '') + u.pathname + u.search;
}

/** The SHA-256 of a file, hex. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Every file under `dir`, as paths relative to it with `/` separators. */
function filesUnder(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p, base));
    else if (e.isFile()) out.push(relative(base, p).split(sep).join('/'));
  }
  return out.sort();
}

/** Where the dataset's tree starts inside the unpacked archive: the folder above its anchor file. */
function treeStart(unpacked: string, d: CatalogueDataset, archive: string): string {
  const hits = filesUnder(unpacked).filter((p) => p === d.anchor || p.endsWith('/' + d.anchor));
  hits.sort((a, b) => a.length - b.length);
  const hit = hits[0];
  if (hit === undefined) throw new FormatError(archive, undefined, `holds no ${d.anchor}: not the ${d.name} archive`);
  return join(unpacked, hit.slice(0, hit.length - d.anchor.length));
}

/** Moves the contents of `tree/sub` up into `tree`. */
function flatten(tree: string, sub: string): void {
  const from = join(tree, sub);
  const parked = join(tree, `.${sub}.${process.pid}`);
  renameSync(from, parked);
  for (const name of readdirSync(parked)) renameSync(join(parked, name), join(tree, name));
  rmSync(parked, { recursive: true, force: true });
}

function mismatch(file: string, expected: readonly string[], got: string, url: string, archive: string): FormatError {
  rmSync(archive, { force: true });
  const want = expected.length === 1 ? `${(expected[0] as string).slice(0, 16)}…` : `one of ${expected.map((s) => s.slice(0, 16) + '…').join(', ')}`;
  return new FormatError(file, undefined, `SHA-256 ${got.slice(0, 16)}… is not the original's (${want}): the copy from ${url} is corrupt or not the release; removed the download, run again to fetch it anew`);
}

/**
 * Checks the catalogue's files in `tree` and moves them (and the unchecked ones) to `install`;
 * returns the files of `tree` left out.
 */
async function checkFiles(d: CatalogueDataset, tree: string, install: string, url: string, archive: string): Promise<string[]> {
  const files = d.files ?? {};
  const keep = new Set<string>();
  for (const [rel, want] of Object.entries(files)) {
    const src = join(tree, rel);
    if (!existsSync(src)) {
      if (want.optional) continue;
      rmSync(archive, { force: true });
      throw new FormatError(join(d.folder, rel), undefined, `missing from the archive ${url} (not the release?); removed the download`);
    }
    const got = await sha256File(src);
    if (got !== want.sha256) throw mismatch(join(d.folder, rel), [want.sha256], got, url, archive);
    keep.add(rel);
  }
  for (const rel of d.unchecked ?? []) if (existsSync(join(tree, rel))) keep.add(rel);
  for (const rel of keep) {
    const dest = join(install, rel);
    makeFolders(dirname(dest));
    renameSync(join(tree, rel), dest);
  }
  return filesUnder(tree);
}

/** Replaces `target` by `fresh` with renames only (the old tree is removed after). */
function installTree(fresh: string, target: string, root: string, name: string): void {
  makeFolders(dirname(target));
  const old = join(root, `.old-${name}-${process.pid}`);
  const hadOld = existsSync(target);
  if (hadOld) renameSync(target, old);
  try {
    renameSync(fresh, target);
  } catch (e) {
    if (hadOld) renameSync(old, target);
    throw e;
  }
  if (hadOld) rmSync(old, { recursive: true, force: true });
}

/** Downloads, verifies and installs the dataset `name` of the catalogue. */
export async function fetchDataset(name: string, opts: FetchOptions): Promise<FetchReport> {
  const catalogue = opts.catalogue ?? CATALOGUE;
  const d = catalogue.find((x) => x.name === name);
  if (d === undefined) throw new FormatError('catalogue', undefined, `no dataset named ${name}`);
  const url = mirrorUrl(d.archive.url, opts.mirror);
  const downloads = join(opts.root, '.downloads');
  makeFolders(downloads);
  const archive = join(downloads, basename(new URL(d.archive.url).pathname));
  let downloaded = 0;
  let resumedFrom = 0;
  if (existsSync(archive)) opts.onNote?.(`${d.name}: using the archive already downloaded, ${archive}`);
  else {
    if (existsSync(`${archive}.part`)) opts.onNote?.(`${d.name}: resuming the download of ${url} at ${statSync(`${archive}.part`).size} bytes`);
    try {
      const r = await download(url, archive, { onProgress: (done, total) => opts.onProgress?.(basename(archive), done, total ?? d.archive.bytes) });
      downloaded = r.bytes;
      resumedFrom = r.resumedFrom;
    } catch (e) {
      if (!(e instanceof DownloadError) || !e.unreachable) throw e;
      throw new DownloadError(`${e.message}; to fetch by hand, put ${basename(archive)} from ${d.archive.url} in ${downloads} and run \`dialogym data fetch ${d.name}\` again (docs/data.md)`, { cause: e, unreachable: true });
    }
  }
  if (d.archive.sha256 !== undefined) {
    const got = await sha256File(archive);
    if (!d.archive.sha256.includes(got)) throw mismatch(basename(archive), d.archive.sha256, got, url, archive);
  }
  const staging = join(opts.root, `.staging-${d.name}-${process.pid}`);
  const install = join(opts.root, `.install-${d.name}-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  rmSync(install, { recursive: true, force: true });
  try {
    await unpack(archive, d.archive.format, staging);
    const tree = treeStart(staging, d, archive);
    if (d.flatten !== undefined && existsSync(join(tree, d.flatten))) flatten(tree, d.flatten);
    let fresh = tree;
    let skipped: string[] = [];
    if (d.files !== undefined) {
      mkdirSync(install);
      skipped = await checkFiles(d, tree, install, url, archive);
      fresh = install;
    }
    const missing = d.required.filter((p) => !existsSync(join(fresh, p)));
    if (missing.length > 0) throw new FormatError(basename(archive), undefined, `lacks ${missing.join(', ')} (not the ${d.name} release?)`);
    const kept = filesUnder(fresh);
    const bytes = kept.reduce((a, p) => a + statSync(join(fresh, p)).size, 0);
    const dir = join(opts.root, d.folder);
    installTree(fresh, dir, opts.root, d.name);
    if (skipped.length > 0) opts.onNote?.(`${d.name}: left out ${skipped.length} file${skipped.length > 1 ? 's' : ''} of the archive that ${skipped.length > 1 ? 'are' : 'is'} not part of the release: ${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ', …' : ''}`);
    rmSync(archive, { force: true });
    return { dataset: d, url, dir, files: kept.length, bytes, downloaded, resumedFrom, skipped };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(install, { recursive: true, force: true });
  }
}

/** The catalogue's files of an installed dataset whose SHA-256 differs from the catalogue's, or that are missing. */
export async function verifyDataset(d: CatalogueDataset, root: string): Promise<string[]> {
  const bad: string[] = [];
  for (const [rel, want] of Object.entries(d.files ?? {})) {
    const path = join(root, d.folder, rel);
    if (!existsSync(path)) {
      if (!want.optional) bad.push(rel);
      continue;
    }
    if ((await sha256File(path)) !== want.sha256) bad.push(rel);
  }
  return bad;
}
