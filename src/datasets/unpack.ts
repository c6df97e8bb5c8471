/**
 * Unpacks a downloaded archive into a folder with the standard packages: `tar` (node-tar, the
 * .tar.gz reader npm itself uses) and `yauzl` (zip). Only regular files and folders are written;
 * both packages refuse entries that would land outside the folder (absolute paths, `..`).
 */
import { createWriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FormatError } from '../core/errors.js';
import { makeFolders } from '../core/files.js';

/** Unpacks `archive` (tar.gz or zip) into `dest` (created); returns the number of files written. */
export async function unpack(archive: string, format: 'tar.gz' | 'zip', dest: string): Promise<number> {
  makeFolders(dest);
  try {
    return format === 'zip' ? await unzip(archive, dest) : await untar(archive, dest);
  } catch (e) {
    if (e instanceof FormatError) throw e;
    const reason = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw new FormatError(archive, undefined, `not a valid ${format} archive (${reason})`, { cause: e });
  }
}

async function untar(archive: string, dest: string): Promise<number> {
  const tar = await import('tar');
  let files = 0;
  await tar.x({
    file: archive,
    cwd: dest,
    strict: true,
    filter: (_path, entry) => {
      const type = 'type' in entry ? entry.type : undefined;
      if (type === 'File' || type === 'OldFile') files++;
      return type === undefined || type === 'File' || type === 'OldFile' || type === 'Directory';
    },
  });
  return files;
}

async function unzip(archive: string, dest: string): Promise<number> {
  const yauzl = (await import('yauzl')).default;
  const zip = await new Promise<import('yauzl').ZipFile>((resolve, reject) =>
    yauzl.open(archive, { lazyEntries: true, autoClose: true }, (err, z) => (err ? reject(err) : resolve(z))),
  );
  let files = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: import('yauzl').Entry) => {
      const target = join(dest, entry.fileName);
      if (entry.fileName.endsWith('/')) {
        makeFolders(target);
        zip.readEntry();
        return;
      }
      zip.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        makeFolders(dirname(target));
        pipeline(stream, createWriteStream(target)).then(() => {
          files++;
          zip.readEntry();
        }, reject);
      });
    });
    zip.readEntry();
  });
  return files;
}
