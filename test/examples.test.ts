/** The examples in examples/ run (compiled to dist/examples/) and print what they promise. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './shared-data.js';

function runExample(name: string): string {
  const r = spawnSync(process.execPath, [join(repoRoot, 'dist', 'examples', `${name}.js`)], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `examples/${name}.ts exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

test('examples/envs.ts: every environment id passes checkEnv', () => {
  const out = runExample('envs');
  for (const id of ['airdialogue-v1', 'infobot-small-v1', 'infobot-medium-v1', 'infobot-large-v1', 'infobot-xlarge-v1']) assert.match(out, new RegExp(`^${id}: ok \\(\\d+ steps checked\\)$`, 'm'));
});

test('examples/restaurant.ts: generated task 1, rules bot perfect, a trained ranker scored', () => {
  const out = runExample('restaurant');
  assert.match(out, /^rules: per-response 100\.0%$/m);
  const m = /^embeddings: dev ([\d.]+)%, tst ([\d.]+)%$/m.exec(out);
  assert.ok(m, out);
  assert.ok(Number(m[2]) > 20, `embeddings tst accuracy ${m[2]}% is no better than chance`);
});
