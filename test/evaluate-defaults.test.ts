/**
 * One set of defaults for an evaluation: the library's `evaluate`, the run `evaluateRun` and
 * `dialogym evaluate` give the same episodes when no seed (nor count) is given — before, the
 * library started at seed 0 and the CLI at seed 1, so one agent scored differently in each.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, evaluate, evaluateRun, EVALUATE_DEFAULTS } from '../src/index.js';
import { runCli } from './cli.js';
import { repoRoot } from './shared-data.js';

const ENV = 'infobot-medium-v1';
const AGENT = 'rl-hard';
const EPISODES = 20;

/** What decides a figure of one episode. */
const outcome = (r: { episode: number; seed: number; success: boolean; reward: number; turns: number }): string => `${r.episode} ${r.seed} ${r.success} ${r.reward} ${r.turns}`;

test('with no seed given, the library, the run and the CLI play the same episodes (seeds from EVALUATE_DEFAULTS.seed = 1) and give the same summary', async () => {
  assert.equal(EVALUATE_DEFAULTS.seed, 1);
  const tmp = mkdtempSync(join(tmpdir(), 'dialogym-defaults-'));
  try {
    const lib = await evaluate(ENV, createAgent(AGENT), { episodes: EPISODES });
    assert.deepEqual(lib.records.map((r) => r.seed), Array.from({ length: EPISODES }, (_, i) => EVALUATE_DEFAULTS.seed + i));

    const run = await evaluateRun.run({ env: ENV, agent: { kind: 'builtin', name: AGENT }, episodes: EPISODES });
    assert.deepEqual(run.records.map(outcome), lib.records.map(outcome));

    const file = join(tmp, 't.jsonl');
    const cli = runCli(['evaluate', '--env', ENV, '--agent', AGENT, '--episodes', String(EPISODES), '--json', '--transcripts', file]);
    assert.equal(cli.code, 0, cli.stderr);
    const printed = JSON.parse(cli.stdout) as { success: number; avgTurns: number; seed: number };
    const written = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Parameters<typeof outcome>[0]);
    assert.deepEqual(written.map(outcome), lib.records.map(outcome));
    assert.equal(printed.seed, lib.summary.seed);
    assert.equal(printed.success, lib.summary.success);
    assert.equal(printed.avgTurns, lib.summary.avgTurns);
    assert.equal(run.summary.success, lib.summary.success);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('the run options schema states the same default seed as EVALUATE_DEFAULTS', () => {
  const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas', 'run-evaluate.schema.json'), 'utf8')) as { properties: Record<string, { description?: string }> };
  for (const [key, value] of [['seed', EVALUATE_DEFAULTS.seed], ['episodes', EVALUATE_DEFAULTS.episodes], ['trials', EVALUATE_DEFAULTS.trials], ['concurrency', EVALUATE_DEFAULTS.concurrency], ['timeout', EVALUATE_DEFAULTS.timeoutMs]] as const) {
    assert.match(schema.properties[key]?.description ?? '', new RegExp(`\\(default ${value}\\)`), `run-evaluate.schema.json: ${key}`);
  }
});
