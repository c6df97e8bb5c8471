/**
 * The CLI's file listing and blocking output, in CommonJS with no import of the ES modules: the
 * CommonJS entry (./main.cts) scores a plain `dialogym dstc6 score` with them before any ES
 * module is loaded, and ./plain.ts re-exports them for every verb.
 */
import { readdirSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Whether `path` is a folder (true), another file (false), or not there (undefined). */
export function isFolder(path: string): boolean | undefined {
  try {
    return statSync(path).isDirectory();
  } catch {
    return undefined;
  }
}

/**
 * The files named by the values of a multi-file flag: each value may hold several comma-separated
 * paths (`resolve` turns each into the path it names), and a folder stands for the files under
 * it (recursively, sorted by path) whose name ends with `ext`. A path that does not exist is
 * returned as is, for the reader to report. `fail` is called (and must throw) with the reason
 * when a folder holds no such file or no file is given.
 */
export function listFiles(values: string | readonly string[], ext: string, resolve: (value: string) => string, fail: (reason: string) => never): string[] {
  const out: string[] = [];
  for (const value of typeof values === 'string' ? [values] : values) {
    for (const given of value.split(',')) {
      if (given === '') continue;
      const path = resolve(given);
      // A file, or not there (the reader reports it: `path: no such file`).
      if (isFolder(path) !== true) {
        out.push(path);
        continue;
      }
      const found = filesUnder(path).filter((f) => f.endsWith(ext));
      if (found.length === 0) fail(`${path}: no *${ext} file in this folder`);
      out.push(...found);
    }
  }
  if (out.length === 0) fail('no file given');
  return out;
}

/** A symbolic link to a file (results often link to a shared run's files); links to folders are not followed (no cycles). */
function isFileBehind(link: string): boolean {
  try {
    return statSync(link).isFile();
  } catch {
    return false; // a dangling link
  }
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...filesUnder(p));
    else if (e.isFile() || (e.isSymbolicLink() && isFileBehind(p))) out.push(p);
  }
  return out;
}

/** Ends the process quietly (exit 0) when the reader of `stream` has gone (EPIPE: `dialogym ... | head`). */
export function exitOnEpipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
  });
}

/** Whether some output went through a stream (`writeSyncOut` on a full non-blocking output), which the process must let drain. */
let streamed = false;

/**
 * Ends the process now (`process.exit`, code 0 unless `process.exitCode` says otherwise) when all
 * of its output went out by `writeSyncOut`'s blocking writes; otherwise returns, and the stream
 * drains as the process ends by itself. For a process whose work is done (the CommonJS entry's
 * help and plain `dstc6 score`): it skips Node's teardown of the environment and the heap, which
 * the kernel's own release at exit makes redundant (~0.9 ms of CPU of a ~25 ms `dstc6 score`).
 */
export function exitIfWritten(): void {
  if (!streamed) process.exit();
}

/**
 * Writes `text` to stdout (fd 1) or stderr (fd 2) with blocking writes, without creating
 * `process.stdout` (a stream over a pipe costs ~2 ms of a ~65 ms call: what the plain
 * `dstc6 score` and the CommonJS entry's help print through). A closed pipe (EPIPE) ends the
 * process quietly, as `exitOnEpipe` does for the stream; a non-blocking output that is full
 * (EAGAIN) gets the rest through the stream. Do not mix with `out` in one run.
 */
export function writeSyncOut(text: string, fd: 1 | 2 = 1): void {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EPIPE') process.exit(0);
    if (code !== 'EAGAIN') throw e;
    const stream = fd === 1 ? process.stdout : process.stderr;
    streamed = true;
    exitOnEpipe(stream);
    stream.write(bytes.subarray(done));
  }
}

/** `writeSyncOut` to stdout. */
export function writeStdoutSync(text: string): void {
  writeSyncOut(text, 1);
}
