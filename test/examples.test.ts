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

test('examples/dstc6.ts: generated tst1 task 1 scored with the official metrics; rules rank the answer first', () => {
  const out = runExample('dstc6');
  assert.match(out, /^rules: P@1 1\.000 P@2 1\.000 P@5 1\.000 \(100 dialogs\)$/m);
  const m = /^tf-idf baseline: P@1 ([\d.]+) P@2 ([\d.]+) P@5 ([\d.]+) \(100 dialogs\)$/m.exec(out);
  assert.ok(m, out);
  assert.ok(Number(m[1]) <= Number(m[2]) && Number(m[2]) <= Number(m[3]), out);
});

test('examples/infobot.ts: a hand-written policy through make/playEpisode, and the shipped agents by name', () => {
  const out = runExample('infobot');
  const r = (name: string): number => {
    const m = new RegExp(`^${name}: R (-?[\\d.]+)`, 'm').exec(out);
    assert.ok(m, `${name} missing in:\n${out}`);
    return Number(m[1]);
  };
  assert.ok(r('e2e-soft') > r('ask-all-then-guess') + 1, out);
  assert.ok(r('rule-soft') > 0.5, out);
});

test('examples/airdialogue.ts: rule self-play scores 1.0 in and out of domain; one episode through make', () => {
  const out = runExample('airdialogue');
  assert.match(out, /^in-domain: total 1\.000 .* 200 dialogs$/m);
  assert.match(out, /^out-of-domain: total 1\.000 .* 200 dialogs$/m);
  assert.match(out, /^random agent: reward -?[\d.]+ after \d+ moves$/m);
});

test('examples/evaluate.ts: an agent written as an object scored with pass^k; the rule bot 4 in flight; failures with their goal', () => {
  const out = runExample('evaluate');
  assert.match(out, /^task-1 agent: success 1\.000 pass\^3 1\.000 \(150 episodes\)$/m);
  assert.match(out, /^rules on task 5, 4 in flight: success 1\.000 avg turns \d+\.\d\d$/m);
  assert.match(out, /^cut at 3 turns: failures \{"max turns":4\}; first failed goal \{"cuisine":"\w+","location":"\w+","number":"\w+","price":"\w+"\}$/m);
});
