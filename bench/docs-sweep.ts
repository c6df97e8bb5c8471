/**
 * Runs every `dialogym …` command of README.md and docs/*.md (the same commands `test/docs.test.ts`
 * checks statically), in page order, in one scratch folder, so files written by one command are
 * there for the next (a trained `t5.dgm`, a generated `data/syn`). Shell variables the pages set
 * (`D=…`, `T=…`, `F=$T/…`, `A=…`) are set the same way; `[…]` optional parts are left out;
 * `npx dialogym` and `dialogym` run the built CLI. Servers (`serve`, `env-server`, `view`, `study serve`) pass when
 * they print their address, then get SIGTERM. Lines of other programs (curl, python, parallel,
 * sbatch) and `dialogym data fetch` (network) are counted as skipped; dataset references resolve in
 * ../shared/data (DIALOGYM_DATA).
 *
 *   node dist/bench/docs-sweep.js [--only <page substring>] [--timeout <s>] [--keep]
 *
 * Prints one line per command (pass/FAIL/skip, seconds) and the totals; exit 1 if any failed.
 * Long: the pages train models and run the benchmark (an hour of CPU or so on 2 cores).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docPages, shellBlockLines } from '../test/docs-commands.js';
import { cliPath, repoRoot, sharedData } from '../test/shared-data.js';

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const timeoutS = args.includes('--timeout') ? Number(args[args.indexOf('--timeout') + 1]) : 1800;
const keep = args.includes('--keep');

/** A line of a shell block: a variable assignment, a dialogym command, or something else. */
type Line = { kind: 'set'; name: string; value: string } | { kind: 'run'; page: string; line: number; text: string } | { kind: 'other'; page: string; line: number; text: string };

/** The lines of the shell blocks of a page, continuations joined, comments dropped. */
function shellLines(page: string): Line[] {
  const out: Line[] = [];
  const lines = readFileSync(join(repoRoot, page), 'utf8').split('\n');
  const inShell = shellBlockLines(lines, ['sh', 'bash', 'shell']); // not ```console: commands shown, not run (a real LLM endpoint)
  let heredoc: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (heredoc !== null) {
      if (raw.trim() === heredoc) heredoc = null;
      continue;
    }
    if (!inShell[i]) continue;
    let text = raw;
    const start = i;
    while (/\\\s*$/.test(text) && i + 1 < lines.length) text = text.replace(/\\\s*$/, ' ') + (lines[++i] as string).trim();
    // A `for … do … done` loop over several lines runs as one command.
    if (/^\s*for\s/.test(text)) while (!/\bdone\s*$/.test(text) && i + 1 < lines.length && !/^\s*```/.test(lines[i + 1] as string)) text += '\n' + (lines[++i] as string).trim();
    const code = text.replace(/\s#\s.*$/, '').replace(/^\s*#.*$/, '').trim();
    if (code === '') continue;
    const h = /<<'?(\w+)'?/.exec(code);
    if (h) heredoc = h[1] as string;
    const set = /^([A-Z][A-Z0-9_]*)=(\S+)$/.exec(code);
    if (set) out.push({ kind: 'set', name: set[1] as string, value: set[2] as string });
    else if (/(^|[;&|(]\s*|\bdo\s+|\n\s*)(npx\s+)?dialogym\s/.test(code) && !/^(parallel|sbatch|job=|kubectl)/.test(code)) out.push({ kind: 'run', page, line: start + 1, text: code });
    else out.push({ kind: 'other', page, line: start + 1, text: code });
  }
  return out;
}

/** The command as run: optional `[…]` parts dropped, `dialogym` the built CLI. */
function runnable(text: string): string {
  let t = text;
  for (let prev = ''; prev !== t; ) {
    prev = t;
    t = t.replace(/\s*\[[^[\]]*\]/g, '');
  }
  return t.replace(/(^|[;&|(]\s*|\bdo\s+|\n\s*)(?:npx\s+)?dialogym\s/g, `$1node ${cliPath} `);
}

const SERVER = /\bnode \S+ (serve|env-server|view|study serve)\b/;

function run(cmd: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ ok: boolean; seconds: number; tail: string }> {
  const t0 = Date.now();
  const server = SERVER.test(cmd);
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', server ? `${cmd.replace(/--port \d+/, '')} --port 0` : cmd], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    let done = false;
    const finish = (ok: boolean): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      try {
        process.kill(-(child.pid as number), server ? 'SIGTERM' : 'SIGKILL');
      } catch {
        /* already gone */
      }
      resolve({ ok, seconds: (Date.now() - t0) / 1000, tail: out.trim().split('\n').slice(-3).join(' | ') });
    };
    const onData = (d: Buffer): void => {
      out = (out + d.toString()).slice(-4000);
      if (server && /https?:\/\/[\d.]+:\d+/.test(out)) finish(true);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => finish(!server && code === 0));
    const timer = setTimeout(() => finish(false), (server ? 30 : timeoutS) * 1000);
  });
}

const work = mkdtempSync(join(tmpdir(), 'dialogym-docs-sweep-'));
// Dataset references (`babi:task5-tst`, docs/data.md) resolve in the originals, as after `data fetch all`.
const env: NodeJS.ProcessEnv = { ...process.env, DIALOGYM_HOME: join(work, '.home'), DIALOGYM_DATA: sharedData, NO_COLOR: '1' };
let pass = 0;
let fail = 0;
let skip = 0;
const t0 = Date.now();
for (const page of docPages()) {
  if (only !== undefined && !page.includes(only)) continue;
  const vars: Record<string, string> = { D: join(sharedData, 'dialog-bAbI-tasks'), T: join(sharedData, 'dstc6-track1', 'dataset-E2E-goal-oriented-test-v1.0'), A: join(sharedData, 'airdialogue') };
  for (const l of shellLines(page)) {
    if (l.kind === 'set') {
      // Pages point D/T/A into the user data folder (where `data fetch` puts the releases); here the same data wherever it is.
      const v = l.value.replace(/\$(\w+)|\$\{(\w+)\}/g, (_m, a: string | undefined, b: string | undefined) => vars[(a ?? b) as string] ?? '');
      const inData = /^(?:\.\.\/shared\/data|~\/\.local\/share\/dialogym)\//;
      vars[l.name] = inData.test(l.value) ? join(sharedData, l.value.replace(inData, '')) : v;
      continue;
    }
    // `data fetch` goes to the publishers' servers: no network here (test/data-fetch.test.ts runs it against a local mirror).
    if (l.kind === 'other' || /\bdialogym data fetch\b/.test(l.text)) {
      skip++;
      console.log(`skip  ${l.page}:${l.line}  ${l.text.slice(0, 100)}`);
      continue;
    }
    const cmd = runnable(l.text).replace(/\.\.\/shared\/data/g, sharedData);
    const r = await run(cmd, work, { ...env, ...vars });
    if (r.ok) pass++;
    else fail++;
    console.log(`${r.ok ? 'pass' : 'FAIL'}  ${l.page}:${l.line}  ${r.seconds.toFixed(1)}s  ${l.text.slice(0, 120)}${r.ok ? '' : `\n      ${r.tail}`}`);
  }
}
console.log(`\n${pass} passed, ${fail} failed, ${skip} skipped in ${((Date.now() - t0) / 1000).toFixed(0)} s (scratch folder ${work}${keep ? '' : ', removed'})`);
if (!keep) rmSync(work, { recursive: true, force: true });
process.exit(fail > 0 ? 1 : 0);
