/** `dialogym evaluate --env-option key=value`: the environment's options from the command line, checked by its schema. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { cli, oneLineError } from './cli.js';

const dir = mkdtempSync(join(tmpdir(), 'dialogym-env-option-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Rec {
  readonly options?: string;
  readonly success: boolean;
  readonly observation: unknown;
  readonly goal: unknown;
}

/** The rule agent on restaurant-task5-v2 with `flags`: the summary and the transcripts. */
function rules(name: string, ...flags: string[]): { success: number; records: Rec[] } {
  const file = join(dir, `${name}.jsonl`);
  const r = cli('evaluate', '--env', 'restaurant-task5-v2', '--agent', 'rules', '--episodes', '6', '--json', '--transcripts', file, ...flags);
  assert.equal(r.code, 0, r.stderr);
  const records = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Rec);
  return { success: (JSON.parse(r.stdout) as { success: number }).success, records };
}

test('--env-option userStyle=varied: the same goals, the user in other words (the rule agent, which matches templates, no longer succeeds); repeatable, JSON values', () => {
  const dataset = rules('dataset');
  const explicit = rules('explicit', '--env-option', 'userStyle=dataset');
  const varied = rules('varied', '--env-option', 'userStyle=varied', '--env-option', 'maxTurns=12');
  assert.equal(dataset.success, 1);
  // The same episodes; the records of a run given options carry their fingerprint (what --resume checks).
  assert.deepEqual(explicit.records.map(({ options, ...rest }) => rest), dataset.records);
  assert.match(String(explicit.records[0]?.options), /^[0-9a-f]{16}$/);
  assert.equal(dataset.records[0]?.options, undefined);
  assert.deepEqual(
    varied.records.map((r) => r.goal),
    dataset.records.map((r) => r.goal),
  );
  assert.ok(varied.records.every((r, i) => JSON.stringify(r.observation) !== JSON.stringify(dataset.records[i]?.observation)));
  assert.equal(varied.success, 0);
  // maxTurns=12 came through as the number 12: every varied episode ends at that limit.
  const turns = JSON.parse(cli('evaluate', '--env', 'restaurant-task5-v2', '--agent', 'rules', '--episodes', '3', '--json', '--env-option', 'userStyle=varied', '--env-option', 'maxTurns=12').stdout) as { avgTurns: number; failures: Record<string, number> };
  assert.deepEqual([turns.avgTurns, turns.failures], [12, { 'max turns': 3 }]);
});

test('a bad --env-option is one line naming the environment and the option, exit 2, before --transcripts is touched', () => {
  const kept = join(dir, 'kept.jsonl');
  writeFileSync(kept, 'earlier run\n');
  const bad = (pattern: RegExp, env: string, ...flags: string[]): void =>
    oneLineError(cli('evaluate', '--env', env, '--agent', 'rules', '--episodes', '1', '--transcripts', kept, ...flags), pattern, 2);
  bad(/^error: restaurant-task5-v2: options\.userStyle: must be one of dataset\/varied, got "loud"$/, 'restaurant-task5-v2', '--env-option', 'userStyle=loud');
  bad(/^error: restaurant-task5-v2: unknown option "userstyle" \(its options: .*userStyle\)$/, 'restaurant-task5-v2', '--env-option', 'userstyle=varied');
  bad(/^error: restaurant-task1-v2: options\.maxTurns: must be <= 1000, got 5000$/, 'restaurant-task1-v2', '--env-option', 'maxTurns=5000');
  bad(/^error: restaurant-task1-v2: options\.maxTurns: must be an integer, got "many"$/, 'restaurant-task1-v2', '--env-option', 'maxTurns=many');
  bad(/^error: --env-option: expected key=value, got 'userStyle'$/, 'restaurant-task1-v2', '--env-option', 'userStyle');
  bad(/^error: --env-option maxTurns: given by --max-turns too; give it once$/, 'restaurant-task1-v2', '--env-option', 'maxTurns=5', '--max-turns', '6');
  assert.equal(readFileSync(kept, 'utf8'), 'earlier run\n');
});

test('--resume refuses the transcripts of a run with other environment options, in one line, and continues one with the same', () => {
  const file = join(dir, 'resume.jsonl');
  const run = (...flags: string[]): ReturnType<typeof cli> => cli('evaluate', '--env', 'restaurant-task3-v2', '--agent', 'rules', '--episodes', '6', '--json', ...flags);
  const whole = run('--env-option', 'userStyle=varied', '--env-option', 'maxTurns=30', '--transcripts', file);
  assert.equal(whole.code, 0, whole.stderr);
  const text = readFileSync(file, 'utf8');
  const cut = text.split('\n').slice(0, 3).join('\n') + '\n';
  writeFileSync(file, cut);
  oneLineError(run('--resume', file), /^error: the record of episode 0, trial 0 was played with environment options [0-9a-f]{16}, this run has no environment options: give the options of the interrupted run \(--env-option, --kb, --max-turns\)$/, 2);
  oneLineError(run('--resume', file, '--env-option', 'userStyle=varied', '--env-option', 'maxTurns=31'), /was played with environment options [0-9a-f]{16}, this run has environment options [0-9a-f]{16}:/, 2);
  assert.equal(readFileSync(file, 'utf8'), cut, 'a refused resume leaves the file as it was');
  // The same options in another order: the same fingerprint, the run continues to the same end.
  const resumed = run('--resume', file, '--env-option', 'maxTurns=30', '--env-option', 'userStyle=varied');
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.equal(resumed.stdout, whole.stdout);
  assert.equal(readFileSync(file, 'utf8'), text);
});
