/**
 * The shipped KB-InfoBot policies are `infobot train`'s recipe, byte for byte (issue 40): retrains
 * the given shipped policies (training seed 1, KB seed 1, the recipe of `infobot-recipes.ts`) through the CLI into a
 * temporary folder and compares their sha256 with the files in policies/infobot/. Exit 1 on a
 * difference.
 *
 *   node dist/bench/infobot-reproduce.bench.js [agent:split …]      (default: rl-nokb:small)
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RECIPES } from './infobot-recipes.js';

const cliJs = fileURLToPath(new URL('../src/cli/index.js', import.meta.url));
const shipped = fileURLToPath(new URL('../../policies/infobot/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'infobot-reproduce-'));
const sha = (f: string): string => createHash('sha256').update(readFileSync(f)).digest('hex');
let bad = 0;
for (const cell of process.argv.length > 2 ? process.argv.slice(2) : ['rl-nokb:small']) {
  const [agent, split] = cell.split(':') as [string, string];
  const out = join(dir, `${agent}-${split}.dgm`);
  const r = spawnSync(process.execPath, [cliJs, 'infobot', 'train', '--agent', agent, '--split', split, ...(RECIPES[agent] ?? []), '--out', out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`infobot train ${cell}: exit ${r.status}\n${r.stderr}`);
  const a = sha(out);
  const b = sha(join(shipped, `${agent}-${split}.dgm`));
  if (a !== b) bad++;
  process.stdout.write(`${cell}: ${a === b ? 'identical' : 'DIFFERENT'} (retrained ${a.slice(0, 16)}, shipped ${b.slice(0, 16)}); ${r.stdout.trim().split('\n').at(-1) ?? ''}\n`);
}
process.exitCode = bad > 0 ? 1 : 0;
