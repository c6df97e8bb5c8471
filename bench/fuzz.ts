/**
 * `npm run fuzz`: ≥ 10,000 mutated inputs per reader (`--runs N`, `--seed S`); failing inputs go to
 * `fuzz-failures/` (`--out DIR`). Prints one line of figures per reader and exits 1 on any failure.
 *
 * `node dist/bench/fuzz.js --llm N`: instead, N replies of a hostile OpenAI-compatible endpoint
 * (test/fuzz/llm-endpoint.ts; contents padded up to 50 MB) through `dialogym evaluate --agent-llm`
 * and N through `--user-llm`, each CLI run under `/usr/bin/time -v`: prints crashes (an exit other
 * than 0, or 1 with anything but one error line), hangs (a run past its guard), runs stopped in one
 * line, episode failures by reason and the peak RSS; exits 1 on a crash or a hang.
 */
import { resolve } from 'node:path';
import { rmSync } from 'node:fs';
import { repoRoot } from '../test/shared-data.js';
import { runTarget, type FuzzStats } from '../test/fuzz/runner.js';
import { sqliteDriver, sqliteMissingMessage } from '../src/core/sqlite.js';
import { fuzzDir, modelTarget, sqliteTarget, textTargets } from '../test/fuzz/targets.js';
import { fuzzLlmCli } from './llm-fuzz.js';

function flag(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : dflt;
}

if (process.argv.includes('--llm')) process.exit(await fuzzLlmCli(Number(flag('--llm', '2000')), Number(flag('--seed', '1'))));

const runs = Number(flag('--runs', '10000'));
const seed = Number(flag('--seed', '1'));
const only = flag('--only', '');
const failDir = resolve(flag('--out', resolve(repoRoot, 'fuzz-failures')));
const dir = fuzzDir();
const all: FuzzStats[] = [];
const report = (s: FuzzStats): void => {
  all.push(s);
  console.log(
    `${s.name.padEnd(24)} cases ${s.cases}  accepted ${s.accepted}  rejected ${s.rejected}  untyped ${s.untyped}  hangs ${s.hangs}  other failures ${s.otherFailures}  ${(s.ms / 1000).toFixed(1)} s`,
  );
  for (const f of s.failures.slice(0, 5)) console.log(`    ${f.why}${f.file ? ` (${f.file})` : ''}`);
};
try {
  // Without a SQLite driver (Node 20 without better-sqlite3) the SQLite KBs are not fuzzed: say so.
  const sq = sqliteDriver() === undefined ? undefined : sqliteTarget(dir);
  if (sq === undefined) console.log(`sqlite-kb                skipped: ${sqliteMissingMessage()}`);
  const targets = [...textTargets(dir), modelTarget(dir), ...(sq ? [sq] : [])].filter((t) => only === '' || t.name === only);
  for (const t of targets) report(runTarget(t as Parameters<typeof runTarget>[0], runs, seed, { failDir }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const bad = all.reduce((n, s) => n + s.failures.length, 0);
console.log(`${all.length} readers, ${all.reduce((n, s) => n + s.cases, 0)} cases, ${bad} failures${bad ? ` (inputs in ${failDir})` : ''}`);
process.exit(bad ? 1 : 0);
