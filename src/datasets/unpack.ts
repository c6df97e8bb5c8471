/**
 * Unpacks a downloaded archive as it streams, with the standard readers: `tar` (node-tar's parser,
 * the .tar.gz reader npm itself uses) and `yauzl` (zip). Nothing is trusted: the caller's policy says,
 * for each file of the archive, whether it is written and how many bytes it may hold, and every
 * file is hashed (SHA-256) and counted as its bytes go to disk, so a file is refused at the first
 * byte past its bound, and a file whose declared size is over its bound before its first byte.
 * Memory stays at a chunk or two whatever the archive holds (the writes are synchronous, so the
 * decompressor waits for the disk). Only regular files are ever written: links, devices and
 * folders are not created (folders come from the files' paths); a path that is absolute or leads
 * out of the folder (`..`) refuses the whole archive, as does a file given twice.
 */
import { createHash } from 'node:crypto';
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { FormatError } from '../core/errors.js';
import { makeFolders } from '../core/files.js';

/** Where one file of the archive goes, and its checks. */
export interface UnpackTarget {
  /** Path under the destination folder to write it to; undefined: counted and hashed, not written. */
  readonly to: string | undefined;
  /** The most bytes it may hold. */
  readonly maxBytes: number;
  /** The error for a file over `maxBytes` (`declared`: the size its header gives, when that is what is over). */
  tooBig(declared: number | undefined): Error;
  /** Called once its last byte is in; throws to refuse the archive (a wrong size or checksum). */
  done(bytes: number, sha256: string): void;
}

/** What to do with the entries of an archive. */
export interface UnpackPolicy {
  /** A regular file at `path` (relative, `/`-separated, checked), of declared size `size`. */
  file(path: string, size: number): UnpackTarget;
  /** A link, device or other non-file entry at `path` (never written). */
  other(path: string, type: string): void;
  /** The most bytes all the archive's files may hold together; undefined: no bound. */
  readonly maxTotalBytes: number | undefined;
  /** The error for an archive whose files hold more than `maxTotalBytes`. */
  tooMuch(): Error;
}

/** A refusal raised by the policy or by the checks here: passed through as it is. */
class Refusal extends Error {
  constructor(readonly error: Error) {
    super(error.message);
  }
}

/** The path of an entry, checked: relative, inside the folder, no empty or `.`/`..` parts. */
export function entryPath(archive: string, raw: string): string {
  const p = raw.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  const parts = p.split('/');
  if (p === '' || raw.startsWith('/') || /^[A-Za-z]:/.test(p) || p.includes('\\') || p.includes('\0') || parts.some((x) => x === '..' || x === '.' || x === '')) {
    throw new FormatError(archive, undefined, `holds an entry outside its folder (${JSON.stringify(raw.slice(0, 80))}): not the release, refused`);
  }
  return p;
}

/**
 * Unpacks `archive` (tar.gz or zip) into `dest` (created) under `policy`; returns the files written.
 * Errors name the archive as `label`.
 * Any refusal (the policy's, a bad path, a damaged archive) throws; what was written stays in
 * `dest` for the caller to remove.
 */
export async function unpack(archive: string, format: 'tar.gz' | 'zip', dest: string, policy: UnpackPolicy, label = archive): Promise<number> {
  makeFolders(dest);
  const sink = new Sink(label, dest, policy);
  try {
    if (format === 'zip') await unzip(archive, sink);
    else await untar(archive, sink);
    return sink.written;
  } catch (e) {
    if (e instanceof Refusal) throw e.error;
    if (e instanceof FormatError) throw e;
    const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new FormatError(label, undefined, `not a valid ${format} archive (${reason})`, { cause: e });
  } finally {
    sink.close();
  }
}

/** Writes, counts and hashes the files of one archive; every check of the policy goes through here. */
class Sink {
  written = 0;
  private total = 0;
  private readonly seen = new Set<string>();
  private fd: number | undefined;
  private hash: ReturnType<typeof createHash> | undefined;
  private target: UnpackTarget | undefined;
  private bytes = 0;

  constructor(
    private readonly archive: string,
    private readonly dest: string,
    private readonly policy: UnpackPolicy,
  ) {}

  /** Starts a regular file of declared size `size` (throws a Refusal). */
  begin(raw: string, size: number): void {
    this.guard(() => {
      const path = entryPath(this.archive, raw);
      if (this.seen.has(path)) throw new FormatError(this.archive, undefined, `holds ${path} twice: not the release, refused`);
      this.seen.add(path);
      const t = this.policy.file(path, size);
      if (size > t.maxBytes) throw t.tooBig(size);
      this.countTotal(size);
      this.target = t;
      this.bytes = 0;
      this.hash = createHash('sha256');
      if (t.to !== undefined) {
        const file = join(this.dest, t.to);
        try {
          makeFolders(dirname(file));
          this.fd = openSync(file, 'wx');
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code !== 'ENOTDIR' && code !== 'EEXIST' && code !== 'EISDIR') throw e;
          throw new FormatError(this.archive, undefined, `holds ${path} where it also has a file and a folder of that name: not the release, refused`);
        }
        this.written++;
      }
    });
  }

  /** The next bytes of the current file (throws a Refusal past its bound). */
  data(chunk: Uint8Array): void {
    this.guard(() => {
      const t = this.target as UnpackTarget;
      if (this.bytes + chunk.length > t.maxBytes) throw t.tooBig(undefined);
      this.bytes += chunk.length;
      this.hash?.update(chunk);
      if (this.fd !== undefined) writeSync(this.fd, chunk);
    });
  }

  /** The current file is complete: its size and checksum go to the policy. */
  end(): void {
    this.guard(() => {
      this.close();
      const t = this.target as UnpackTarget;
      this.target = undefined;
      t.done(this.bytes, (this.hash as ReturnType<typeof createHash>).digest('hex'));
    });
  }

  /** A non-file entry. */
  other(raw: string, type: string): void {
    this.guard(() => {
      if (type === 'Directory') return void entryPath(this.archive, raw);
      this.policy.other(entryPath(this.archive, raw), type);
    });
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  private countTotal(size: number): void {
    this.total += size;
    if (this.policy.maxTotalBytes !== undefined && this.total > this.policy.maxTotalBytes) throw this.policy.tooMuch();
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (e) {
      throw e instanceof Refusal ? e : new Refusal(e instanceof Error ? e : new Error(String(e)));
    }
  }
}

async function untar(archive: string, sink: Sink): Promise<void> {
  const { Parser } = await import('tar');
  const input = createReadStream(archive);
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (e: unknown): void => {
      if (failed) return;
      failed = true;
      input.destroy();
      parser.abort(e instanceof Error ? e : new Error(String(e)));
      reject(e);
    };
    const parser = new Parser({
      strict: true,
      onReadEntry: (entry) => {
        if (failed) return void entry.resume();
        const type = entry.type;
        try {
          if (type === 'File' || type === 'OldFile' || type === 'ContiguousFile') {
            sink.begin(entry.path, entry.size);
            entry.on('data', (chunk: Buffer) => {
              if (failed) return;
              try {
                sink.data(chunk);
              } catch (e) {
                fail(e);
              }
            });
            entry.on('end', () => {
              if (failed) return;
              try {
                sink.end();
              } catch (e) {
                fail(e);
              }
            });
            return;
          }
          sink.other(entry.path, type);
        } catch (e) {
          fail(e);
        }
        entry.resume();
      },
    });
    parser.on('error', (e: Error) => fail(e));
    parser.on('close', () => {
      if (!failed) resolve();
    });
    input.on('error', (e) => fail(e));
    input.pipe(parser as unknown as NodeJS.WritableStream);
  });
}

async function unzip(archive: string, sink: Sink): Promise<void> {
  const yauzl = (await import('yauzl')).default;
  const zip = await new Promise<import('yauzl').ZipFile>((resolve, reject) =>
    yauzl.open(archive, { lazyEntries: true, autoClose: true, decodeStrings: true, validateEntrySizes: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (e: unknown): void => {
      if (failed) return;
      failed = true;
      zip.close();
      reject(e);
    };
    zip.on('error', fail);
    zip.on('end', () => {
      if (!failed) resolve();
    });
    zip.on('entry', (entry: import('yauzl').Entry) => {
      if (failed) return;
      const mode = (entry.externalFileAttributes >>> 16) & 0o170000;
      try {
        if (entry.fileName.endsWith('/')) sink.other(entry.fileName, 'Directory');
        else if (mode !== 0 && mode !== 0o100000) sink.other(entry.fileName, mode === 0o120000 ? 'SymbolicLink' : 'special file');
        else {
          sink.begin(entry.fileName, entry.uncompressedSize);
          zip.openReadStream(entry, (err, stream) => {
            if (err) return fail(err);
            stream.on('data', (chunk: Buffer) => {
              if (failed) return;
              try {
                sink.data(chunk);
              } catch (e) {
                stream.destroy();
                fail(e);
              }
            });
            stream.on('error', fail);
            stream.on('end', () => {
              if (failed) return;
              try {
                sink.end();
              } catch (e) {
                return fail(e);
              }
              zip.readEntry();
            });
          });
          return;
        }
      } catch (e) {
        return fail(e);
      }
      zip.readEntry();
    });
    zip.readEntry();
  });
}
