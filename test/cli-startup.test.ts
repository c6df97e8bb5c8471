/**
 * The CLI loads only what the verb being run needs: the modules each command line imports are
 * recorded by a module resolve hook (node --import, module.register) and, for the CommonJS entry
 * (the package's bin, src/cli/main.cts), by a `--require` preload that logs `require`, so the
 * checks do not depend on timing. Also: the light verb manifest gives exactly the help of the
 * fully loaded program, and so do the CommonJS entry's help pages, for every page and width.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import { cliPath, repoRoot } from './shared-data.js';
import { buildProgram, verbOf } from '../src/cli/program.js';
import { VERBS, verbName } from '../src/cli/commands/index.js';
import { HELP_PAGES, formatHelpPage, helpPageOf } from '../src/cli/help.cjs';
import { HELP_PAGES_FILE, helpPages, renderHelpPages } from './help-pages.js';

/** The package's bin: the CommonJS entry. */
const binPath = join(repoRoot, 'dist', 'src', 'cli', 'main.cjs');

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-startup-'));
const log = join(tmp, 'loaded.txt');
const hooks = join(tmp, 'hooks.mjs');
writeFileSync(
  hooks,
  `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, r.url + '\\n');
  return r;
}
`,
);
const register = join(tmp, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

/**
 * A `--require` preload that logs a line to its log file at each call of each of `methods` of
 * `owner` (an expression in the preload), `what` (an expression of the call's `args`), then makes the call.
 */
function loggingPreload(name: string, owner: string, methods: readonly string[], what: string): { hook: string; log: string } {
  const log = join(tmp, `${name}.txt`);
  const hook = join(tmp, `${name}.cjs`);
  writeFileSync(
    hook,
    `const owner = ${owner};
const { appendFileSync } = require('node:fs');
for (const method of ${JSON.stringify(methods)}) {
  const original = owner[method];
  owner[method] = function (...args) {
    appendFileSync(${JSON.stringify(log)}, ${what} + '\\n');
    return original.apply(this, args);
  };
}
`,
  );
  return { hook, log };
}
const { hook: requireHook, log: requireLog } = loggingPreload('required', "require('node:module')", ['_load'], 'owner._resolveFilename(args[0], args[1], args[2])');
const { hook: openHook, log: openLog } = loggingPreload('opened', "require('node:fs')", ['openSync', 'readFileSync'], 'String(args[0])');

/** Runs the CLI and returns the URLs of every module it imported (ESM resolution, including packages' entry points). */
function loaded(...args: string[]): { code: number; stdout: string; modules: string[] } {
  return loadedBy(cliPath, args);
}

function loadedBy(entry: string, args: readonly string[]): { code: number; stdout: string; modules: string[] } {
  rmSync(log, { force: true });
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, entry, ...args], { encoding: 'utf8' });
  let modules: string[] = [];
  try {
    modules = readFileSync(log, 'utf8').trim().split('\n');
  } catch {
    // no module resolved: the hook did not run, which the assertions below catch
  }
  return { code: r.status ?? -1, stdout: r.stdout, modules };
}

/** Heavy modules: the HTTP server, SQLite, the worker pool, the WASM kernel and model code. */
const HEAVY: readonly [string, RegExp][] = [
  ['fastify', /\/node_modules\/fastify\//],
  // The SQLite KB code (its driver, node:sqlite, better-sqlite3 or node-sqlite3-wasm, is required only when a KB is opened).
  ['SQLite', /\/dist\/src\/(core\/sqlite|testbeds\/restaurant\/kb-sqlite)\.js$|\/node_modules\/(better-sqlite3|node-sqlite3-wasm)\//],
  ['piscina', /\/node_modules\/piscina\//],
  ['WASM kernel', /\/dist\/src\/nn\/wasm\.js$/],
  ['model code', /\/dist\/src\/(rankers\/(registry|memn2n|embeddings|builtin)|testbeds\/restaurant\/(models|hcn\/)|nn\/)/],
  ['the library barrel', /\/dist\/src\/index\.js$/],
];

function heavyIn(modules: readonly string[]): string[] {
  return HEAVY.filter(([, re]) => modules.some((m) => re.test(m))).map(([name]) => name);
}

const tiny = join(tmp, 'r.json');
writeFileSync(tiny, JSON.stringify([{ dialog_id: 'd1', lst_candidate_id: [{ candidate_id: 'a', rank: 1 }] }]));

test('--help, dstc6 score --help and dstc6 score load no server, SQLite, worker pool, WASM or model code', () => {
  for (const args of [['--help'], ['dstc6', 'score', '--help'], ['dstc6', 'score', '--result', tiny, '--truth', tiny], ['help', 'dstc6']]) {
    const r = loaded(...args);
    assert.equal(r.code, 0, args.join(' '));
    assert.ok(r.modules.some((m) => m.endsWith('/dist/src/cli/commands/index.js')), `the hook recorded the imports of ${args.join(' ')}`);
    assert.deepEqual(heavyIn(r.modules), [], `${args.join(' ')} loaded heavy modules`);
  }
  // --help imports no verb module at all (only the manifest and the verbs' summaries).
  assert.deepEqual(loaded('--help').modules.filter((m) => /\/cli\/commands\/(?!index\.js|summaries\.js)/.test(m)), []);
  // A plain dstc6 score reads JSON and scores: no commander, no program, no format reader (the
  // result files are exactly result files), nothing of the other dstc6 tools.
  const score = loaded('dstc6', 'score', '--result', tiny, '--truth', tiny);
  assert.match(score.stdout, /^Precision @1: 1\.0\n/);
  assert.deepEqual(
    score.modules.filter((m) => /\/node_modules\/commander\/|\/cli\/(program|run)\.js$|\/cli\/commands\/dstc6\.js$|\/formats\/|\/testbeds\/dstc6\/(?!score-quick\.js|score-scan\.cjs)/.test(m)),
    [],
  );
  // Its help, or an unusual command line (here a trailing --), goes through commander.
  for (const args of [['dstc6', 'score', '--help'], ['dstc6', 'score', '--result', tiny, '--truth', tiny, '--']]) {
    assert.ok(loaded(...args).modules.some((m) => m.endsWith('/node_modules/commander/index.js')), args.join(' '));
  }
});

test('the hook sees heavy modules where a verb uses them (so the check above can fail)', () => {
  assert.ok(heavyIn(loaded('dstc6', 'rank', '--help').modules).includes('model code'));
  assert.ok(heavyIn(loaded('serve', '--help').modules).includes('fastify'));
  assert.ok(heavyIn(loaded('kb', 'import', '--help').modules).includes('SQLite'));
});

/** Help texts of the fully loaded program (every verb's module imported): the top level ('') and each verb. */
function fullHelp(): Record<string, string> {
  const program = pathToFileURL(join(repoRoot, 'dist', 'src', 'cli', 'program.js')).href;
  const script = `const { buildProgram } = await import(${JSON.stringify(program)});
const p = await buildProgram();
const help = { '': p.helpInformation() };
for (const c of p.commands) help[c.name()] = c.helpInformation();
process.stdout.write(JSON.stringify(help));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, string>;
}

test('the verb manifest gives the help of the fully loaded program, for the top level and every verb', () => {
  const full = fullHelp();
  const r = spawnSync(process.execPath, [cliPath, '--help'], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  assert.equal(r.stdout, full['']);
  assert.deepEqual(Object.keys(full).filter((k) => k !== '' && k !== 'help'), VERBS.map(verbName));
  for (const v of VERBS) {
    const name = verbName(v);
    const h = spawnSync(process.execPath, [cliPath, name, '--help'], { encoding: 'utf8' });
    assert.equal(h.status, 0, `${name} --help: ${h.stderr}`);
    assert.equal(h.stdout, full[name], `${name} --help`);
  }
});

/** The files the CommonJS entry requires for `args`, and whether it imported any ES module. */
function requiredByBin(args: readonly string[]): { code: number; stdout: string; stderr: string; required: string[]; esm: string[] } {
  rmSync(requireLog, { force: true });
  rmSync(log, { force: true });
  const r = spawnSync(process.execPath, ['--require', requireHook, '--import', pathToFileURL(register).href, binPath, ...args], { encoding: 'utf8' });
  const lines = (file: string): string[] => {
    try {
      return readFileSync(file, 'utf8').trim().split('\n').filter((l) => l !== '');
    } catch {
      return [];
    }
  };
  // the hooks' own modules are not the CLI's
  const esm = lines(log).filter((u) => !u.startsWith('node:') && u !== pathToFileURL(binPath).href);
  const required = [...new Set(lines(requireLog).filter((f) => f.startsWith(repoRoot) && f !== binPath).map((f) => f.slice(repoRoot.length + 1)))];
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, required, esm };
}

test('the CommonJS entry answers help and a plain dstc6 score from a few CommonJS files, without the ES module loader', () => {
  const help = ['dist/src/cli/help.cjs', 'dist/src/cli/help-pages.json', 'dist/src/cli/plain-io.cjs'];
  for (const args of [['--help'], ['-h'], ['help'], ['help', 'dstc6'], ['evaluate', '--help'], ['dstc6', 'score', '-h'], ['dstc6', 'help', 'score']]) {
    const r = requiredByBin(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.deepEqual(r.esm, [], args.join(' '));
    assert.deepEqual(r.required, help, args.join(' '));
  }
  for (const args of [['--version'], ['-V']]) {
    const r = requiredByBin(args);
    assert.equal(r.stdout, `${(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version}\n`);
    assert.deepEqual(r.esm, [], args.join(' '));
    assert.deepEqual(r.required, ['dist/src/cli/plain-io.cjs'], args.join(' '));
  }
  // A plain dstc6 score: its three files are loaded by the entry's own loader (with V8's code
  // cache), not by Node's require; they and the cache are the only files of the package it reads.
  const score = requiredByBin(['dstc6', 'score', '--result', tiny, '--truth', tiny]);
  assert.match(score.stdout, /^Precision @1: 1\.0\n/);
  assert.deepEqual(score.esm, []);
  assert.deepEqual(score.required, []);
  rmSync(openLog, { force: true });
  const opened = spawnSync(process.execPath, ['--require', openHook, binPath, 'dstc6', 'score', '--result', tiny, '--truth', tiny], { encoding: 'utf8' });
  assert.match(opened.stdout, /^Precision @1: 1\.0\n/);
  // (the entry itself is read by Node's loader)
  const files = readFileSync(openLog, 'utf8').trim().split('\n').filter((f) => f.startsWith(repoRoot) && f !== binPath).map((f) => f.slice(repoRoot.length + 1));
  const cache = `dist/src/cli/fast-path.v8-${process.versions.v8}.cache`;
  assert.deepEqual(
    files.filter((f) => !f.startsWith(`${cache}.`)), // the cache's temporary file, where a run writes it
    ['dist/src/cli/commands/dstc6-score-plain.cjs', 'dist/src/cli/plain-io.cjs', 'dist/src/testbeds/dstc6/score-scan.cjs', cache],
  );
  // Anything else goes to the ES module CLI: a verb run, an unusual help line, a score of a file that is not exactly a result file.
  const notExact = join(tmp, 'not-exact.json');
  writeFileSync(notExact, JSON.stringify([{ dialog_id: 'd1', lst_candidate_id: [{ candidate_id: 'a', rank: '1' }] }]));
  for (const args of [['stats'], ['--debug', '--help'], ['help', 'dstc6', 'score'], ['dstc6', 'score', '--result', notExact, '--truth', tiny]]) {
    assert.ok(requiredByBin(args).esm.some((m) => m.endsWith('/dist/src/cli/index.js')), args.join(' '));
  }
});

test('the CommonJS entry, its help and the files of its plain dstc6 score are ASCII (one byte a character in V8)', () => {
  const files = ['src/cli/main.cjs', 'src/cli/help.cjs', 'src/cli/commands/dstc6-score-plain.cjs', 'src/cli/plain-io.cjs', 'src/testbeds/dstc6/score-scan.cjs'];
  for (const f of files) {
    const text = readFileSync(join(repoRoot, 'dist', f), 'utf8');
    const line = text.split('\n').findIndex((l) => /[^\x00-\x7f]/.test(l));
    assert.equal(line, -1, `dist/${f}:${line + 1}: a character outside ASCII (write it in ASCII in the .cts source)`);
  }
});

/** The bin and the files of its plain `dstc6 score`, copied to a folder of their own (a test may change them there). */
function fastPathCopy(name: string): { main: string; cli: string; cache: string } {
  const root = join(tmp, name);
  for (const f of ['src/cli/main.cjs', 'src/cli/commands/dstc6-score-plain.cjs', 'src/cli/plain-io.cjs', 'src/testbeds/dstc6/score-scan.cjs']) {
    mkdirSync(dirname(join(root, f)), { recursive: true });
    copyFileSync(join(repoRoot, 'dist', f), join(root, f));
  }
  const cli = join(root, 'src', 'cli');
  return { main: join(cli, 'main.cjs'), cli, cache: join(cli, `fast-path.v8-${process.versions.v8}.cache`) };
}

test("a plain dstc6 score's code cache: written after a run without one, used as it is, rewritten when stale or damaged", () => {
  const { main, cli, cache } = fastPathCopy('cached');
  const args = ['dstc6', 'score', '--result', tiny, '--truth', tiny];
  const esm = spawnSync(process.execPath, [cliPath, ...args, '--'], { encoding: 'utf8' });
  assert.equal(esm.status, 0, esm.stderr);
  const expected = { code: 0, stdout: esm.stdout, stderr: '' };
  const run = (): unknown => {
    const r = spawnSync(process.execPath, [main, ...args], { encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const written = (): { ino: number; mtime: number; bytes: Buffer } => {
    const st = statSync(cache);
    const bytes = readFileSync(cache);
    assert.equal(bytes.toString('latin1', 0, 31), 'dialogym fast-path code cache 1', 'the cache starts with its magic');
    return { ino: st.ino, mtime: st.mtimeMs, bytes };
  };
  /** The cache was (re)written by the last run, and the next run uses it as it is (V8 took it). */
  const rewritten = (before: { ino: number; mtime: number } | undefined, what: string, output = expected): Buffer => {
    const now = written();
    if (before !== undefined) assert.notDeepEqual([now.ino, now.mtime], [before.ino, before.mtime], `${what}: the cache was written again`);
    assert.deepEqual(run(), output, `${what}, then with the new cache`);
    const next = written();
    assert.deepEqual([next.ino, next.mtime], [now.ino, now.mtime], `${what}: the next run took the cache as it is`);
    return now.bytes;
  };
  assert.equal(existsSync(cache), false);
  assert.deepEqual(run(), expected, 'without a cache');
  const first = rewritten(undefined, 'without a cache');
  assert.ok(first.length > readFileSync(join(cli, '..', 'testbeds', 'dstc6', 'score-scan.cjs')).length, `${first.length} bytes: the sources and their code`);
  for (const [what, bytes] of [
    ['a damaged cache', Buffer.from('dialogym fast-path code cache 1\n\u0001')],
    ['a truncated cache', first.subarray(0, first.length - 100)],
    // V8 checks code it is given only by its checksum (--verify-snapshot-checksum, set by the entry): a damaged one crashed Node
    ['a cache whose code is damaged', Buffer.from(first).map((b, i) => (i > first.length - 200 ? b ^ 0x55 : b))],
  ] as const) {
    const before = written();
    writeFileSync(cache, bytes);
    assert.deepEqual(run(), expected, `with ${what}`);
    rewritten(before, what);
  }
  // a file changed after the cache was made: its new text runs, and goes in the new cache
  const before = written();
  appendFileSync(join(cli, 'plain-io.cjs'), "\n// a changed file\nconst written = exports.writeStdoutSync;\nexports.writeStdoutSync = (text) => written(`changed\\n${text}`);\n");
  const changed = { ...expected, stdout: `changed\n${expected.stdout}` };
  assert.deepEqual(run(), changed, 'with a cache of another version of a file');
  assert.ok(rewritten(before, 'a changed file', changed).includes('// a changed file'), 'the new cache holds the new source');
  assert.deepEqual(readdirSync(cli).filter((f) => f.endsWith('.tmp')), [], 'no temporary file left');
});

test("a plain dstc6 score where its folder is read-only: the same output, no cache and no error", () => {
  const { main, cli, cache } = fastPathCopy('read-only');
  // root writes anywhere: run as nobody there, with every folder on the way readable
  const asRoot = process.getuid?.() === 0;
  for (const d of [tmp, join(cli, '..', '..'), join(cli, '..'), join(cli, '..', 'testbeds'), join(cli, '..', 'testbeds', 'dstc6'), join(cli, 'commands'), cli]) chmodSync(d, 0o755);
  chmodSync(tiny, 0o644);
  chmodSync(cli, 0o555);
  try {
    const r = spawnSync(process.execPath, [main, 'dstc6', 'score', '--result', tiny, '--truth', tiny], { encoding: 'utf8', ...(asRoot ? { uid: 65534, gid: 65534 } : {}) });
    assert.deepEqual({ code: r.status, stderr: r.stderr }, { code: 0, stderr: '' });
    assert.match(r.stdout, /^Precision @1: 1\.0\n/);
    assert.equal(existsSync(cache), false);
    assert.deepEqual(readdirSync(cli).sort(), ['commands', 'main.cjs', 'plain-io.cjs']);
  } finally {
    chmodSync(cli, 0o755);
    chmodSync(tmp, 0o700);
  }
});

test("a plain dstc6 score sets V8's flags without loading node:v8 where Node has the binding, and Node's deprecation of process.binding prints nothing", () => {
  // Node 20's process.binding('v8') has setFlagsFromString; later lines refuse the name (No such module: v8), and node:v8 sets them
  const binding = spawnSync(process.execPath, ['-e', "process.noDeprecation = true; try { process.stdout.write(typeof process.binding('v8').setFlagsFromString) } catch { process.stdout.write('refused') }"], { encoding: 'utf8' }).stdout;
  const probe = join(tmp, 'probe.cjs');
  // at exit, on stderr: whether node:v8 was loaded (stderr is then exactly that: a warning would break the JSON)
  writeFileSync(probe, `process.on('exit', () => process.stderr.write(JSON.stringify({ v8: process.moduleLoadList.includes('NativeModule v8') })));\n`);
  for (const flags of [[], ['--pending-deprecation'], ['--throw-deprecation']]) {
    const r = spawnSync(process.execPath, [...flags, '--require', probe, binPath, 'dstc6', 'score', '--result', tiny, '--truth', tiny], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^Precision @1: 1\.0\n/);
    assert.deepEqual(JSON.parse(r.stderr), { v8: binding !== 'function' }, `${flags.join(' ')} (binding: ${binding}): ${r.stderr}`);
  }
});

test('the CommonJS entry prints what the ES module CLI prints (stdout, stderr, exit code)', () => {
  const bin = (args: readonly string[]): unknown => {
    const r = spawnSync(process.execPath, [binPath, ...args], { encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const esm = (args: readonly string[]): unknown => {
    const r = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  for (const args of [['--help'], ['-h'], ['help'], ['help', 'dstc6'], ['help', 'dstc6', 'score'], ['evaluate', '--help'], ['dstc6', 'rank', '--help'], ['dstc6', 'help', 'score'], ['dstc6'], [], ['--version'], ['-V'], ['--version', '--debug'], ['nosuchverb', '--help']]) {
    assert.deepEqual(bin(args), esm(args), args.join(' '));
  }
});

/** The fully loaded program's help of the command `words` names, at `width` columns. */
function commanderHelp(program: Command, words: readonly string[], width: number): string {
  let cmd = program;
  for (const w of words) cmd = cmd.commands.find((c) => c.name() === w) as Command;
  cmd.configureOutput({ getOutHelpWidth: () => width });
  return cmd.helpInformation();
}

test('the help pages are the fully loaded program\'s, and laid out as commander lays them out at any width', async () => {
  const program = await buildProgram();
  const pages = helpPages(program);
  assert.equal(readFileSync(HELP_PAGES_FILE, 'utf8'), renderHelpPages(pages), 'src/cli/help-pages.json is out of date: rewrite it with `npx tsc -p . && node dist/test/help-pages.js --write`');
  assert.deepEqual(HELP_PAGES, pages, 'dist/src/cli/help-pages.json differs from src/: build with `npx tsc -p .`');
  assert.ok(Object.keys(pages).length >= 50, `${Object.keys(pages).length} pages`);
  for (const [key, page] of Object.entries(pages)) {
    for (const width of [20, 60, 80, 81, 100, 137, 200]) {
      assert.equal(formatHelpPage(page, width), commanderHelp(program, key === '' ? [] : key.split(' '), width), `'${key}' at ${width} columns`);
    }
  }
});

test('helpPageOf takes only the plain ways of asking for help', () => {
  const page = (args: string[]): string | undefined => {
    const p = helpPageOf(args, HELP_PAGES);
    return p === undefined ? undefined : p.usage;
  };
  assert.equal(page(['--help']), 'dialogym [options] [command]');
  assert.equal(page(['help']), 'dialogym [options] [command]');
  assert.equal(page(['dstc6', '--help']), 'dialogym dstc6 [options] [command]');
  assert.equal(page(['help', 'dstc6']), 'dialogym dstc6 [options] [command]');
  assert.equal(page(['dstc6', 'help', 'score']), 'dialogym dstc6 score [options]');
  assert.equal(page(['dstc6', 'score', '-h']), 'dialogym dstc6 score [options]');
  for (const args of [[], ['dstc6'], ['--debug', '--help'], ['help', 'dstc6', 'score'], ['stats', 'help'], ['help', 'nosuchverb'], ['nosuchverb', '--help'], ['dstc6', 'score', 'x', '--help'], ['help', '--help']]) {
    assert.equal(page(args), undefined, args.join(' '));
  }
});

test('verbOf finds the verb after global flags and `help`', () => {
  assert.deepEqual(verbOf(['dstc6', 'score', '--json']), { verb: 'dstc6', args: ['score', '--json'] });
  assert.deepEqual(verbOf(['--debug', 'help', 'dstc6', 'rank']), { verb: 'dstc6', args: ['rank'] });
  assert.equal(verbOf(['--help']), undefined);
  assert.equal(verbOf(['--version']), undefined);
  assert.equal(verbOf(['nosuchverb']), undefined);
  assert.equal(verbOf([]), undefined);
});

test('an unknown verb is still a one-line commander error with a suggestion', () => {
  const r = spawnSync(process.execPath, [cliPath, 'dstc'], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^error: unknown command 'dstc'\n\(Did you mean dstc6\?\)\n$/);
});
