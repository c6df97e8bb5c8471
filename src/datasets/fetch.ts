/**
 * `fetchDataset`: download a dataset's archive (resuming a cut download), verify it, unpack it and
 * install its files into the data folder — atomically: the files are unpacked and checked in a
 * staging folder beside the target, which is renamed into place only when every checksum matched,
 * so a dataset folder is either the previous one or the complete new one, never half of either.
 * Files are checked one by one where the catalogue knows their SHA-256 (bAbI, DSTC6), else the
 * archive itself is (AirDialogue).
 *
 * Nothing the mirror sends is believed: the catalogue's sizes bound the download (cut at the first
 * byte past them) and every unpacked file (refused at the first byte past its size, or before its
 * first byte when its header says more), and the files are hashed as they stream into the staging
 * folder; files that are not part of the release are counted, never written. Any refusal removes
 * the archive (the next run downloads it anew), leaves the data folder as it was, and throws one
 * line naming the file and saying so.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { FormatError } from '../core/errors.js';
import { makeFolders } from '../core/files.js';
import { archiveLimit, CATALOGUE, STRAY_BYTES, unpackedLimit, type Catalogue, type CatalogueDataset, type CatalogueFile } from './catalogue.js';
import { download, DownloadError } from './download.js';
import { unpack, type UnpackPolicy, type UnpackTarget } from './unpack.js';

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
  /**
   * When an archive already in the downloads folder (left by an earlier run, or put there by hand)
   * is refused, download it anew at once instead of stopping (default false: it is removed and the
   * error says so).
   */
  readonly refetch?: boolean;
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

/** The folder (with its trailing `/`, or `''`) above the dataset's anchor among the archive's `paths`. */
function treePrefix(paths: Iterable<string>, d: CatalogueDataset, label: string): string {
  const hits = [...paths].filter((p) => p === d.anchor || p.endsWith('/' + d.anchor)).sort((a, b) => a.length - b.length);
  const hit = hits[0];
  if (hit === undefined) throw new FormatError(label, undefined, `holds no ${d.anchor}: not the ${d.name} archive`);
  return hit.slice(0, hit.length - d.anchor.length);
}

/** The longest key of `table` that `path` ends with (as whole path parts), or undefined. */
function suffixIn(path: string, table: ReadonlySet<string>): string | undefined {
  const parts = path.split('/');
  for (let i = 0; i < parts.length; i++) {
    const tail = parts.slice(i).join('/');
    if (table.has(tail)) return tail;
  }
  return undefined;
}

/** `n` with thousands separators. */
const num = (n: number): string => n.toLocaleString('en-US');

/** What one unpacking saw: the archive paths written, checked (→ catalogue path) and left out. */
interface Unpacked {
  readonly written: Set<string>;
  readonly checked: Map<string, string>;
  readonly leftOut: string[];
}

/**
 * The checks of `d`'s archive as it streams: a file of the catalogue may hold its size and no byte
 * more, and must end with that size and its SHA-256; an unchecked file holds at most
 * `uncheckedMaxBytes`; any other file is not written, and all together hold at most
 * `unpackedLimit(d)`. A dataset without a file list (its archive's checksum was verified) is
 * written whole.
 */
function policyOf(d: CatalogueDataset, url: string, label: string, seen: Unpacked): UnpackPolicy {
  const files: Readonly<Record<string, CatalogueFile>> = d.files ?? {};
  const listed = new Set(Object.keys(files));
  const unchecked = new Set(d.unchecked ?? []);
  const limit = unpackedLimit(d);
  const bound = (name: string, max: number, what: string) => (declared: number | undefined): Error =>
    new FormatError(name, undefined, declared !== undefined
      ? `${num(declared)} bytes in the archive from ${url}, more than ${what} (${num(max)}): not the release, refused before unpacking it`
      : `more than ${what} (${num(max)} bytes) in the archive from ${url}: not the release, refused at byte ${num(max + 1)}`);
  const tooMuch = (): Error => new FormatError(label, undefined, `unpacks to more than the ${num(limit ?? 0)} bytes of the ${d.name} release's files: not the release, refused`);
  return {
    maxTotalBytes: limit,
    tooMuch,
    other: (path, type) => {
      const what = type === 'SymbolicLink' ? 'a symbolic link' : type === 'Link' ? 'a hard link' : type;
      const rel = suffixIn(path, listed) ?? suffixIn(path, unchecked);
      if (rel !== undefined) throw new FormatError(join(d.folder, rel), undefined, `${what} in the archive from ${url}, not a file: not the release, refused`);
      seen.leftOut.push(`${path} (${what})`);
    },
    file: (path): UnpackTarget => {
      if (d.files === undefined) {
        seen.written.add(path);
        return { to: path, maxBytes: Number.MAX_SAFE_INTEGER, tooBig: bound(path, Number.MAX_SAFE_INTEGER, 'any file may hold'), done: () => undefined };
      }
      const rel = suffixIn(path, listed);
      if (rel !== undefined) {
        const want = files[rel] as CatalogueFile;
        const name = join(d.folder, rel);
        seen.written.add(path);
        return {
          to: path,
          maxBytes: want.bytes,
          tooBig: bound(name, want.bytes, "the original's size"),
          done: (bytes, sha) => {
            if (bytes !== want.bytes) throw new FormatError(name, undefined, `${num(bytes)} bytes in the archive from ${url}, the original's are ${num(want.bytes)}: the copy is cut or not the release`);
            if (sha !== want.sha256) throw new FormatError(name, undefined, `SHA-256 ${sha.slice(0, 16)}… is not the original's (${want.sha256.slice(0, 16)}…): the copy from ${url} is corrupt or not the release`);
            seen.checked.set(path, rel);
          },
        };
      }
      const free = suffixIn(path, unchecked);
      if (free !== undefined) {
        const max = d.uncheckedMaxBytes ?? STRAY_BYTES;
        seen.written.add(path);
        return { to: path, maxBytes: max, tooBig: bound(join(d.folder, free), max, 'the catalogue allows this file'), done: () => undefined };
      }
      // Not written: bounded by the archive's total alone (a statistics file beside the dialogs may be over 1 MiB).
      seen.leftOut.push(path);
      const max = limit ?? Number.MAX_SAFE_INTEGER;
      return { to: undefined, maxBytes: max, tooBig: () => tooMuch(), done: () => undefined };
    },
  };
}

/** Moves the contents of `tree/sub` up into `tree`. */
function flatten(tree: string, sub: string): void {
  const from = join(tree, sub);
  const parked = join(tree, `.${sub}.${process.pid}`);
  renameSync(from, parked);
  for (const name of readdirSync(parked)) renameSync(join(parked, name), join(tree, name));
  rmSync(parked, { recursive: true, force: true });
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

/** Removes `dir` when it is an empty folder. */
function removeIfEmpty(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {
    // not empty, or not there
  }
}

/** Checks and unpacks `archive` into a staging folder, then installs it; FormatError: the archive is refused. */
async function install(d: CatalogueDataset, opts: FetchOptions, url: string, archive: string): Promise<{ dir: string; files: number; bytes: number; skipped: string[] }> {
  const label = basename(archive);
  const limit = archiveLimit(d) as { bytes: number; exact: boolean };
  const size = statSync(archive).size;
  if (size > limit.bytes || (limit.exact && size !== limit.bytes)) {
    throw new FormatError(label, undefined, `${num(size)} bytes, the catalogue's ${limit.exact ? 'size of the archive is' : 'bound for the archive is'} ${num(limit.bytes)}: not the release`);
  }
  if (d.archive.sha256 !== undefined) {
    const got = await sha256File(archive);
    if (!d.archive.sha256.includes(got)) {
      const want = d.archive.sha256.length === 1 ? `${(d.archive.sha256[0] as string).slice(0, 16)}…` : `one of ${d.archive.sha256.map((s) => s.slice(0, 16) + '…').join(', ')}`;
      throw new FormatError(label, undefined, `SHA-256 ${got.slice(0, 16)}… is not the original's (${want}): the copy from ${url} is corrupt or not the release`);
    }
  }
  const staging = join(opts.root, `.staging-${d.name}-${process.pid}`);
  const fresh = join(opts.root, `.install-${d.name}-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  rmSync(fresh, { recursive: true, force: true });
  try {
    const seen: Unpacked = { written: new Set(), checked: new Map(), leftOut: [] };
    await unpack(archive, d.archive.format, staging, policyOf(d, url, label, seen), label);
    const prefix = treePrefix(seen.written, d, label);
    let skipped: string[];
    if (d.files === undefined) {
      renameSync(join(staging, prefix), fresh);
      if (d.flatten !== undefined && existsSync(join(fresh, d.flatten))) flatten(fresh, d.flatten);
      skipped = [];
    } else {
      mkdirSync(fresh);
      const moved = new Set<string>();
      for (const [rel, want] of Object.entries(d.files)) {
        if (!seen.checked.has(prefix + rel)) {
          if (want.optional) continue;
          throw new FormatError(join(d.folder, rel), undefined, `missing from the archive ${url} (not the release?)`);
        }
        moved.add(prefix + rel);
      }
      for (const rel of d.unchecked ?? []) if (seen.written.has(prefix + rel)) moved.add(prefix + rel);
      for (const path of moved) {
        const dest = join(fresh, path.slice(prefix.length));
        makeFolders(dirname(dest));
        renameSync(join(staging, path), dest);
      }
      const inTree = (p: string): string => (p.startsWith(prefix) ? p.slice(prefix.length) : p);
      skipped = [...[...seen.written].filter((p) => !moved.has(p)), ...seen.leftOut].map(inTree).sort();
    }
    const missing = d.required.filter((p) => !existsSync(join(fresh, p)));
    if (missing.length > 0) throw new FormatError(label, undefined, `lacks ${missing.join(', ')} (not the ${d.name} release?)`);
    const kept = filesUnder(fresh);
    const bytes = kept.reduce((a, p) => a + statSync(join(fresh, p)).size, 0);
    const dir = join(opts.root, d.folder);
    installTree(fresh, dir, opts.root, d.name);
    return { dir, files: kept.length, bytes, skipped };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(fresh, { recursive: true, force: true });
  }
}

/** Downloads, verifies and installs the dataset `name` of the catalogue. */
export async function fetchDataset(name: string, opts: FetchOptions): Promise<FetchReport> {
  const catalogue = opts.catalogue ?? CATALOGUE;
  const d = catalogue.find((x) => x.name === name);
  if (d === undefined) throw new FormatError('catalogue', undefined, `no dataset named ${name}`);
  const limit = archiveLimit(d);
  if (limit === undefined) throw new FormatError('catalogue', undefined, `${d.name} gives neither its files' sizes nor its archive's: nothing would bound the download`);
  if (d.files === undefined && d.archive.sha256 === undefined) throw new FormatError('catalogue', undefined, `${d.name} gives neither its files' checksums nor its archive's: nothing would vouch for what is unpacked`);
  const url = mirrorUrl(d.archive.url, opts.mirror);
  const downloads = join(opts.root, '.downloads');
  const hadRoot = existsSync(opts.root);
  makeFolders(downloads);
  const archive = join(downloads, basename(new URL(d.archive.url).pathname));
  let downloaded = 0;
  let resumedFrom = 0;
  let keepDownloads = false;
  const get = async (): Promise<void> => {
    if (existsSync(`${archive}.part`)) opts.onNote?.(`${d.name}: resuming the download of ${url} at ${statSync(`${archive}.part`).size} bytes`);
    try {
      const r = await download(url, archive, { maxBytes: limit.bytes, exact: limit.exact, onProgress: (done, total) => opts.onProgress?.(basename(archive), done, total ?? d.archive.bytes) });
      downloaded += r.bytes;
      resumedFrom = r.resumedFrom;
    } catch (e) {
      if (!(e instanceof DownloadError) || !e.unreachable) throw e;
      keepDownloads = true; // where the archive is to be put by hand
      throw new DownloadError(`${e.message}; to fetch by hand, put ${basename(archive)} from ${d.archive.url} in ${downloads} and fetch ${d.name} again (docs/data.md)`, {
        cause: e,
        unreachable: true,
        byHand: { reason: e.message, file: basename(archive), url: d.archive.url, folder: downloads },
      });
    }
  };
  try {
    let earlier = existsSync(archive);
    if (earlier) opts.onNote?.(`${d.name}: using the archive already downloaded, ${archive}`);
    else await get();
    for (;;) {
      try {
        const r = await install(d, opts, url, archive);
        if (r.skipped.length > 0) opts.onNote?.(`${d.name}: left out ${r.skipped.length} file${r.skipped.length > 1 ? 's' : ''} of the archive that ${r.skipped.length > 1 ? 'are' : 'is'} not part of the release: ${r.skipped.slice(0, 3).join(', ')}${r.skipped.length > 3 ? ', …' : ''}`);
        rmSync(archive, { force: true });
        return { dataset: d, url, dir: r.dir, files: r.files, bytes: r.bytes, downloaded, resumedFrom, skipped: r.skipped };
      } catch (e) {
        if (!(e instanceof FormatError)) throw e;
        // Refused: the archive goes, so that no later run takes it again without asking the server.
        rmSync(archive, { force: true });
        if (earlier && opts.refetch) {
          opts.onNote?.(`${d.name}: the archive already in ${downloads} was refused (${e.message}); removed it, downloading it anew`);
          earlier = false;
          await get();
          continue;
        }
        const what = earlier ? 'removed the archive found in .downloads, run again to download it anew' : 'removed the download, run again to fetch it anew';
        throw new FormatError(e.file, e.line, `${e.reason}; ${what}`, { cause: e });
      }
    }
  } finally {
    if (!keepDownloads) {
      removeIfEmpty(downloads);
      if (!hadRoot) removeIfEmpty(opts.root);
    }
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
