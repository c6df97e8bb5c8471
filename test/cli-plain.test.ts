/**
 * A plain `dialogym dstc6 score` command line runs without commander (src/cli/commands/dstc6-score.ts,
 * the manifest's `plain`): the plain reader must read every command line it accepts exactly as
 * commander does, know every flag of the commander command, and the two paths must print the
 * same (stdout, stderr, exit code) on good and bad input. A trailing `--` means nothing to
 * commander here but is not plain, so it sends the same command line through commander.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/program.js';
import { PLAIN_SCORE_FLAGS, plainScoreFlags } from '../src/cli/commands/dstc6-score.js';
import { cli, type CliRun } from './cli.js';
import { repoRoot } from './shared-data.js';

/** `dialogym <args>` through the package's bin, the CommonJS entry (src/cli/main.cts), which scores a plain `dstc6 score` itself. */
function bin(...args: string[]): CliRun {
  const r = spawnSync(process.execPath, [join(repoRoot, 'dist', 'src', 'cli', 'main.cjs'), ...args], { encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

async function scoreCommand(args: readonly string[]): Promise<{ program: Command; score: Command }> {
  const program = await buildProgram(['dstc6', 'score', ...args]);
  const dstc6 = program.commands.find((c) => c.name() === 'dstc6') as Command;
  return { program, score: dstc6.commands.find((c) => c.name() === 'score') as Command };
}

/** The options commander hands to the `dstc6 score` action for `args` (the words after `score`). */
async function commanderFlags(args: readonly string[]): Promise<unknown> {
  const { program, score } = await scoreCommand(args);
  let got: unknown;
  score.action((o: unknown) => {
    got = o;
  });
  await program.parseAsync(['node', 'dialogym', 'dstc6', 'score', ...args]);
  return { ...(got as object) };
}

test('the plain reader reads what commander reads, and leaves everything unusual to commander', async () => {
  const accepted = [
    ['--result', 'r.json', '--answers', 't.json'],
    ['--result', 'r.json', '--truth', 't.json', '--json'],
    ['--json', '--answers', 't.json', '--result', 'a.json', 'b.json', 'c,d.json', '--nb-candidates', '5'],
    ['--result=r.json', '--truth=t.json', '--nb-candidates=3'],
    ['--result', 'a.json', '--debug', '--result', 'b.json', '--answers', 'x', '--truth', 'y'],
    ['--result', 'a.json', '--nb-candidates', '4', '--nb-candidates', '7', '--answers=-t.json'],
    ['--result=-a.json', '--answers', 't.json', '--json', '--json'],
  ];
  for (const args of accepted) {
    const plain = plainScoreFlags(args);
    assert.notEqual(plain, undefined, `plain: ${args.join(' ')}`);
    assert.deepEqual(plain, await commanderFlags(args), args.join(' '));
  }
  const unusual = [
    [],
    ['--help'],
    ['-h', '--result', 'r', '--answers', 't'],
    ['--result', 'r.json'], // no answers: commander's error
    ['--answers', 't.json'],
    ['--result', '--json', '--answers', 't'], // commander takes --json as the file
    ['--result=r', 'x', '--answers', 't'], // x is an argument after --result=r: too many arguments
    ['--result', 'r', '--answers', 't', '--nb-candidates', '0'],
    ['--result', 'r', '--answers', 't', '--nb-candidates', 'abc'],
    ['--result', 'r', '--answers', 't', '--json=1'],
    ['--result', 'r', '--answers', 't', '--resul', 'x'],
    ['--result', 'r', '--answers', 't', '--'],
    ['--result', 'r', '--answers', 't', '-V'],
    ['--result', '', '--answers', 't'],
    ['--result', 'r', '--answers'],
  ];
  for (const args of unusual) assert.equal(plainScoreFlags(args), undefined, args.join(' '));
});

test('the plain reader knows every flag of the commander command (no flag added to one only)', async () => {
  const { score } = await scoreCommand([]);
  assert.deepEqual(score.options.map((o) => o.long).sort(), [...PLAIN_SCORE_FLAGS].sort());
});

test('plain and commander paths print the same, on good and bad input', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'dialogym-plain-'));
  const json = (name: string, v: unknown): string => {
    const path = join(tmp, name);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, typeof v === 'string' ? v : JSON.stringify(v));
    return path;
  };
  const entry = (id: string, ...ids: string[]): { dialog_id: string; lst_candidate_id: unknown[] } => ({ dialog_id: id, lst_candidate_id: ids.map((candidate_id, k) => ({ candidate_id, rank: k + 1 })) });
  const truthA = json('truth/a.answers.json', [entry('a1', 'x'), entry('a2', 'y')]);
  json('truth/b.answers.json', [entry('b1', 'x'), entry('b2', 'y')]);
  const resA = json('res/a.json', [entry('a1', 'x', 'q'), entry('a2', 'q', 'y')]);
  const resB = json('res/b.json', [entry('b1', 'q', 'r', 's', 't', 'x')]);
  const dup = json('dup.json', [entry('a1', 'x'), entry('a1', 'q', 'x')]);
  const extra = json('extra.json', [{ ...entry('a1', 'q', 'x'), note: 'kept by the checking reader' }]);
  const cases: string[][] = [
    ['--result', resA, '--truth', truthA],
    ['--result', resA, resB, '--answers', join(tmp, 'truth'), '--json'],
    ['--result', join(tmp, 'res'), '--answers', join(tmp, 'truth')],
    [`--result=${resA}`, `--truth=${truthA}`, '--nb-candidates=1', '--json'],
    ['--result', dup, '--truth', truthA],
    ['--result', extra, '--truth', truthA, '--json'],
    ['--result', resA, extra, dup, '--truth', truthA], // quick, checking reader, quick again
    ['--result', join(tmp, 'nope.json'), '--truth', truthA],
    ['--result', json('bad.json', '[{"dialog_id": "a1",\n "lst_candidate_id": [}]'), '--truth', truthA],
    ['--result', json('deep.json', `[{"dialog_id": "a1", "lst_candidate_id": [], "x": ${'['.repeat(70)}${']'.repeat(70)}}]`), '--truth', truthA],
    ['--result', json('huge.json', '[{"dialog_id": "a1", "lst_candidate_id": [{"candidate_id": "x", "rank": 1e400}]}]'), '--truth', truthA],
    ['--result', json('strrank.json', '[{"dialog_id": "a1", "lst_candidate_id": [{"candidate_id": "x", "rank": "1"}]}]'), '--truth', truthA],
    ['--result', resA, '--truth', json('notruth.json', [entry('a1')])],
  ];
  const outputs = new Set<string>();
  for (const args of cases) {
    assert.notEqual(plainScoreFlags(args), undefined, args.join(' '));
    const plain = cli('dstc6', 'score', ...args);
    const commander = cli('dstc6', 'score', ...args, '--');
    assert.deepEqual(plain, commander, args.join(' '));
    assert.deepEqual(bin('dstc6', 'score', ...args), commander, `bin: ${args.join(' ')}`);
    outputs.add(JSON.stringify(plain));
  }
  assert.equal(outputs.size, cases.length, 'every case prints something of its own');
});

test('the plain path writes an output larger than a pipe buffer whole (blocking writes, partial writes continued)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'dialogym-plain-big-'));
  const truth = join(tmp, 't.answers.json');
  writeFileSync(truth, JSON.stringify([{ dialog_id: 'd1', lst_candidate_id: [{ candidate_id: 'a', rank: 1 }] }]));
  const dir = join(tmp, 'results');
  mkdirSync(dir);
  for (let i = 0; i < 300; i++) writeFileSync(join(dir, `${'r'.repeat(150)}${String(i).padStart(3, '0')}.json`), JSON.stringify([{ dialog_id: 'd1', lst_candidate_id: [{ candidate_id: i % 2 ? 'a' : 'b', rank: 1 }] }]));
  const args = ['--result', dir, '--truth', truth, '--json'];
  assert.notEqual(plainScoreFlags(args), undefined);
  const plain = cli('dstc6', 'score', ...args);
  assert.equal(plain.code, 0, plain.stderr);
  assert.ok(plain.stdout.length > 65_536, `${plain.stdout.length} bytes`);
  const j = JSON.parse(plain.stdout) as { files: unknown[]; total: { p1: number; dialogs: number } };
  assert.deepEqual([j.files.length, j.total.p1, j.total.dialogs], [300, 0.5, 300]);
  assert.equal(plain.stdout, cli('dstc6', 'score', ...args, '--').stdout);
  assert.deepEqual(bin('dstc6', 'score', ...args), plain);
});
