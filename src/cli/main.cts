#!/usr/bin/env node
/**
 * dialogym's command-line entry (the package's `bin`), in CommonJS: a Node process starts its ES
 * module loader only when the first ES module is imported (~4 ms of CPU, a fifth of a bare
 * `node -e 0`), so the command lines that can be answered from CommonJS modules alone are: the
 * help of the program and of every verb (./help.cts, from the help pages that
 * test/cli-startup.test.ts keeps equal to commander's), and a plain `dstc6 score` whose files
 * are exactly result files (./commands/dstc6-score-plain.cts), which scripts call once per file.
 * Everything else - and anything unusual on those paths - runs the ES module CLI (./index.ts),
 * which prints the same.
 */
/**
 * A plain `dstc6 score`, scored here. The process lives some tens of milliseconds: V8's optimizing
 * compiler, which starts on the walk over the parsed files, costs more CPU on its background
 * thread than it saves (~3 ms of ~10 ms of scoring one test file when JavaScript walked the
 * files; now only on the JSON.parse path), so code stays at the baseline tier (`--max-opt=1`,
 * which V8 reads at each tier-up decision).
 * The byte scanner's WebAssembly stays on Liftoff, its baseline compiler (`--liftoff-only`): its
 * tier-up to TurboFan compiled on a background thread for more CPU than it saved (20 calls on the
 * DSTC6 test files: 609 -> 551 ms of CPU). The full CLI it may fall back to then runs on those
 * tiers too, which costs nothing measurable for the same command's errors.
 * The flags are set before the fast path's code is compiled: V8 accepts a code cache only under
 * the flags it was made with. `--verify-snapshot-checksum` makes V8 check a code cache it is given
 * against its checksum (and reject a damaged one): without it, V8 11 trusts the bytes, and a
 * damaged cache file crashed Node in its deserializer (test/cli-startup.test.ts damages one).
 */
function scoreFast(words: readonly string[]): boolean {
  // node:vm before the flags: a builtin module loaded after a flag changed is compiled from its
  // source, V8 rejecting Node's code cache of it as made under other flags (~0.35 ms for node:vm)
  const vm = require('node:vm') as typeof import('node:vm');
  setV8Flags('--max-opt=1 --liftoff-only --verify-snapshot-checksum');
  let fast: FastPath;
  try {
    fast = loadFastPath(vm);
  } catch {
    return false; // a file of the fast path missing or unreadable: the full CLI runs the command
  }
  if (!fast.main.runScoreFast(words)) return false;
  fast.saveCodeCache();
  fast.plainIo.exitIfWritten(); // the fast path's own instance of ../plain-io.cts, which wrote the output
  return true;
}

/**
 * The fast path's CommonJS files, relative to this folder: the first is its entry, and the
 * others are every file it requires (test/cli-startup.test.ts checks the list). They, this file
 * and ./help.cts are ASCII, comments too (a test checks): V8 holds an all-ASCII text in one byte a
 * character, and one character outside Latin-1 makes it two; read, compared and compiled, the
 * three files cost ~0.1 ms more so.
 */
const FAST_PATH = ['commands/dstc6-score-plain.cjs', 'plain-io.cjs', '../testbeds/dstc6/score-scan.cjs'] as const;

/** Node's CommonJS wrapper, as a text around a file's source (lines keep their numbers). */
const WRAPPER = ['(function (exports, require, module, __filename, __dirname) { ', '\n});'] as const;

/** The start of a code cache file (see `readCodeCache`). */
const CACHE_MAGIC = 'dialogym fast-path code cache 1\n';

interface FastPath {
  readonly main: typeof import('./commands/dstc6-score-plain.cjs');
  readonly plainIo: typeof import('./plain-io.cjs');
  /** Writes the code cache if it was missing or stale (after the run: it then holds every function that ran). */
  readonly saveCodeCache: () => void;
}

/**
 * The fast path's files loaded as CommonJS modules by this loader rather than Node's: each is
 * compiled by `vm.Script` with V8's code cache of its last run (the bytecode of the functions that
 * ran, so none is parsed or compiled again), and resolved by its known path (Node 20 has no
 * compile cache of its own before 22.1). For one `dstc6 score` of a DSTC6 test file, CPU after
 * Node's start (40 runs each): 5.84 ms with Node's require, 5.32 ms with this loader and the cache,
 * node:vm and vm.Script's own first use included.
 * The cache is one file beside this one per V8 version (`fast-path.v8-<version>.cache`), written
 * after a run that had none or whose cache V8 rejected (another V8, other flags); it holds each
 * file's source, and a cache is used only for the exact bytes it was made from. It is written to a
 * temporary name and renamed (no reader sees half a file); where this folder is read-only, no
 * cache is written and the files are compiled each time, as before.
 */
function loadFastPath(vm: typeof import('node:vm')): FastPath {
  const fs = require('node:fs') as typeof import('node:fs');
  const { dirname, join } = require('node:path') as typeof import('node:path');
  const files = FAST_PATH.map((f) => join(__dirname, f));
  // as Node's loader reads this file: readFileSync to UTF-8, already compiled (a first call of another fs or Buffer function costs 0.05-0.3 ms)
  const sources = files.map((f) => fs.readFileSync(f, 'utf8'));
  const cacheFile = join(__dirname, `fast-path.v8-${process.versions.v8}.cache`);
  const cached = readCodeCache(readBytes(fs, cacheFile), sources);
  const scripts = new Map<number, import('node:vm').Script>();
  const modules = new Map<string, { exports: unknown }>();
  let stale = false;
  const load = (file: string): unknown => {
    const known = modules.get(file);
    if (known !== undefined) return known.exports;
    const i = files.indexOf(file);
    if (i < 0) return require(file);
    const module = { exports: {} };
    modules.set(file, module);
    const cachedData = cached?.[i];
    const script = new vm.Script(`${WRAPPER[0]}${sources[i] as string}${WRAPPER[1]}`, { filename: file, ...(cachedData ? { cachedData } : {}) });
    if (script.cachedDataRejected !== false) stale = true; // no cache, or V8 rejected it
    scripts.set(i, script);
    const dir = dirname(file);
    const requireHere = (spec: string): unknown => (spec.startsWith('.') ? load(join(dir, spec)) : require(spec));
    (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, requireHere, module, file, dir);
    return module.exports;
  };
  const main = load(files[0] as string) as FastPath['main'];
  const saveCodeCache = (): void => {
    if (stale && scripts.size === files.length) writeCodeCache(fs, cacheFile, sources, files.map((_, i) => (scripts.get(i) as import('node:vm').Script).createCachedData()));
  };
  return { main, plainIo: load(files[1] as string) as FastPath['plainIo'], saveCodeCache };
}

/** A Buffer with its own slicing methods, which `toString` calls after checking its arguments (and costs a compile on its first call). */
type Sliced = Buffer & { latin1Slice(start: number, end: number): string; utf8Slice(start: number, end: number): string };

/**
 * The code cache of each file whose text is `sources` (undefined where the cache holds another
 * text), from the bytes of the cache file; undefined without them or when they are no cache.
 * The file: CACHE_MAGIC, then per source file the byte lengths of its UTF-8 text and of its code
 * cache (uint32 little-endian each), the text and the code cache.
 */
function readCodeCache(bytes: Sliced | undefined, sources: readonly string[]): (Buffer | undefined)[] | undefined {
  if (bytes === undefined || bytes.length < CACHE_MAGIC.length || bytes.latin1Slice(0, CACHE_MAGIC.length) !== CACHE_MAGIC) return undefined;
  const uint32 = (at: number): number => ((bytes[at] as number) | ((bytes[at + 1] as number) << 8) | ((bytes[at + 2] as number) << 16)) + (bytes[at + 3] as number) * 2 ** 24;
  const out: (Buffer | undefined)[] = [];
  let at = CACHE_MAGIC.length;
  for (const source of sources) {
    if (at + 8 > bytes.length) return undefined;
    const n = uint32(at);
    const m = uint32(at + 4);
    at += 8;
    if (at + n + m > bytes.length) return undefined;
    out.push(bytes.utf8Slice(at, at + n) === source ? bytes.subarray(at + n, at + n + m) : undefined);
    at += n + m;
  }
  return out;
}

/**
 * The bytes of `file` (undefined when it cannot be read: a missing cache), read by the fs and
 * Buffer functions the scanner reads the scored files with (no other to compile).
 */
function readBytes(fs: typeof import('node:fs'), file: string): Sliced | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const bytes = Buffer.from(new ArrayBuffer(fs.fstatSync(fd).size)) as Sliced;
    for (let done = 0; done < bytes.length; ) {
      const n = fs.readSync(fd, bytes, done, bytes.length - done, null);
      if (n === 0) return undefined; // shrank while read
      done += n;
    }
    return bytes;
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes the code cache `file` (see `readCodeCache`) through a temporary file renamed; quietly nothing where it cannot. */
function writeCodeCache(fs: typeof import('node:fs'), file: string, sources: readonly string[], caches: readonly Buffer[]): void {
  const tmp = `${file}.${process.pid}.tmp`;
  let fd: number;
  try {
    fd = fs.openSync(tmp, 'wx');
  } catch {
    return; // a read-only folder: no cache
  }
  try {
    const parts: Buffer[] = [Buffer.from(CACHE_MAGIC, 'latin1')];
    sources.forEach((text, i) => {
      const source = Buffer.from(text);
      const cache = caches[i] as Buffer;
      const sizes = Buffer.alloc(8);
      sizes.writeUInt32LE(source.length, 0);
      sizes.writeUInt32LE(cache.length, 4);
      parts.push(sizes, source, cache);
    });
    const all = Buffer.concat(parts);
    for (let done = 0; done < all.length; ) done += fs.writeSync(fd, all, done);
    fs.closeSync(fd);
    fd = -1;
    fs.renameSync(tmp, file);
  } catch {
    if (fd >= 0) fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * V8's flags set through `process.binding('v8')`, the binding whose `setFlagsFromString` node:v8
 * calls: loading node:v8 loads Node's stream modules with it (~1.5 ms of CPU, a twentieth of the
 * process; the binding ~0.15 ms, measured in fresh processes on Node 20). No public API of Node 20
 * sets a flag without node:v8, so this deprecated one stays where it is there. Node deprecates `process.binding` (DEP0111) and warns once on this name; the warning
 * is silenced for the call (`process.noDeprecation`, restored after), so stderr stays what the ES
 * module CLI prints. Where the binding is refused or lacks the function (a later Node line, the
 * permission model), node:v8 sets them.
 */
function setV8Flags(flags: string): void {
  const quiet = process.noDeprecation;
  try {
    process.noDeprecation = true;
    const binding = (process as unknown as { binding(name: string): { setFlagsFromString?: unknown } }).binding('v8');
    if (typeof binding.setFlagsFromString !== 'function') throw new TypeError('no setFlagsFromString');
    (binding.setFlagsFromString as (flags: string) => void)(flags);
  } catch {
    (require('node:v8') as typeof import('node:v8')).setFlagsFromString(flags);
  } finally {
    process.noDeprecation = quiet;
  }
}

/** `dialogym --version` (or `-V`) alone: the package's version, as commander prints it (./program.ts `.version`). */
function printVersion(): true {
  // read, not required: the path holds from dist/src/cli/ (where this file runs), as ./program.ts reads it
  const { version } = JSON.parse((require('node:fs') as typeof import('node:fs')).readFileSync(`${__dirname}/../../../package.json`, 'utf8')) as { version: string };
  (require('./plain-io.cjs') as typeof import('./plain-io.cjs')).writeStdoutSync(`${version}\n`);
  return true;
}

const args = process.argv.slice(2);
const asksHelp = args.some((a) => a === '--help' || a === '-h' || a === 'help');
// Once answered here, the process ends at once, skipping Node's teardown (./plain-io.cts
// `exitIfWritten`); no ES module was loaded, so nothing registered work for `processDone` (../core/exit.ts).
if ((asksHelp && (require('./help.cjs') as typeof import('./help.cjs')).printHelpPage(args)) || (args.length === 1 && (args[0] === '--version' || args[0] === '-V') && printVersion())) {
  (require('./plain-io.cjs') as typeof import('./plain-io.cjs')).exitIfWritten();
} else if (!(args[0] === 'dstc6' && args[1] === 'score' && scoreFast(args.slice(2)))) void import('./index.js');
