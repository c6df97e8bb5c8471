#!/usr/bin/env node
/**
 * dialogym's command-line entry (the package's `bin`), in CommonJS: a Node process starts its ES
 * module loader only when the first ES module is imported (~4 ms of CPU, a fifth of a bare
 * `node -e 0`), so the command lines that can be answered from CommonJS modules alone are: the
 * help of the program and of every verb (./help.cts, from the help pages that
 * test/cli-startup.test.ts keeps equal to commander's), and a plain `dstc6 score` whose files
 * are exactly result files (./commands/dstc6-score-plain.cts), which scripts call once per file.
 * Everything else — and anything unusual on those paths — runs the ES module CLI (./index.ts),
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
 * DSTC6 test files: 609 → 551 ms of CPU). The full CLI it may fall back to then runs on those
 * tiers too, which costs nothing measurable for the same command's errors.
 */
function scoreFast(words: readonly string[]): boolean {
  setV8Flags('--max-opt=1 --liftoff-only');
  return (require('./commands/dstc6-score-plain.cjs') as typeof import('./commands/dstc6-score-plain.cjs')).runScoreFast(words);
}

/**
 * V8's flags set through `process.binding('v8')`, the binding whose `setFlagsFromString` node:v8
 * calls: loading node:v8 loads Node's stream modules with it (~1.5 ms of CPU, a twentieth of the
 * process). Node deprecates `process.binding` (DEP0111) and warns once on this name; the warning
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
const fast =
  (asksHelp && (require('./help.cjs') as typeof import('./help.cjs')).printHelpPage(args)) ||
  (args.length === 1 && (args[0] === '--version' || args[0] === '-V') && printVersion()) ||
  (args[0] === 'dstc6' && args[1] === 'score' && scoreFast(args.slice(2)));
if (!fast) void import('./index.js');
