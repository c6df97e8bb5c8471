/** `airdialogue splits | train | eval` through the real CLI: files, determinism, report, one-line errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, oneLineError } from './cli.js';
import { loadAirModels } from '../src/testbeds/airdialogue/learned/train.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-air-learned-'));
const d = join(tmp, 'syn');

test('splits → train → eval: files, same seed → same model file, Table 8 report', () => {
  const s = cli('airdialogue', 'splits', '--out', d, '--train', '16', '--dev', '4', '--test', '4', '--seed', '3');
  assert.equal(s.code, 0, s.stderr);
  assert.match(s.stdout, /wrote 16 train, 4 dev, 4 test dialogues/);
  assert.equal(readFileSync(join(d, 'train_data.json'), 'utf8').trimEnd().split('\n').length, 16);
  const train = (out: string) =>
    cli('airdialogue', 'train', '--data', join(d, 'train_data.json'), '--kb', join(d, 'train_kb.json'), '--dev-data', join(d, 'dev_data.json'), '--dev-kb', join(d, 'dev_kb.json'), '--out', out, '--epochs', '2', '--dim', '4', '--hidden', '6', '--seed', '7');
  const a = train(join(tmp, 'a.dgm'));
  assert.equal(a.code, 0, a.stderr);
  assert.match(a.stdout, /epoch 2: train LM [\d.]+ {2}dev LM [\d.]+ {2}dev state [\d.]+/);
  assert.match(a.stdout, /best dev epoch [12]; vocabulary \d+; wrote .*a\.dgm and .*a\.svg/);
  assert.ok(existsSync(join(tmp, 'a.svg')));
  assert.equal(train(join(tmp, 'b.dgm')).code, 0);
  assert.deepEqual(readFileSync(join(tmp, 'a.dgm')), readFileSync(join(tmp, 'b.dgm')));
  // the agent's match flags: on by default; --point / --ordered-match / --no-match land in the model file
  const sizes = (file: string) => (loadAirModels(file).sizes as { match?: boolean; point?: boolean; order?: boolean });
  assert.deepEqual(sizes(join(tmp, 'a.dgm')), { dim: 4, hidden: 6, match: true, point: false, order: false, constraints: true });
  const common = ['airdialogue', 'train', '--data', join(d, 'train_data.json'), '--kb', join(d, 'train_kb.json'), '--epochs', '1', '--dim', '4', '--hidden', '6'];
  assert.equal(cli(...common, '--out', join(tmp, 'p.dgm'), '--point', '--ordered-match').code, 0);
  assert.deepEqual(sizes(join(tmp, 'p.dgm')), { dim: 4, hidden: 6, match: true, point: true, order: true, constraints: true });
  assert.equal(cli(...common, '--out', join(tmp, 'n.dgm'), '--no-match', '--point').code, 0);
  assert.deepEqual(sizes(join(tmp, 'n.dgm')), { dim: 4, hidden: 6, match: false, point: false, order: false, constraints: false });
  const e = cli('airdialogue', 'eval', '--model', join(tmp, 'a.dgm'), '--data', join(d, 'test_data.json'), '--kb', join(d, 'test_kb.json'), '--json');
  assert.equal(e.code, 0, e.stderr);
  const r = JSON.parse(e.stdout) as { dialogues: number; perplexity: { both: number }; bleu: { both: number }; accuracy: { state: number } };
  assert.equal(r.dialogues, 4);
  assert.ok(r.perplexity.both > 1);
  assert.ok(r.bleu.both >= 0 && r.bleu.both <= 100);
  const text = cli('airdialogue', 'eval', '--model', join(tmp, 'a.dgm'), '--data', join(d, 'test_data.json'), '--kb', join(d, 'test_kb.json'), '--no-bleu');
  assert.match(text.stdout, /accuracy {4}name [\d.]+% {2}flight [\d.]+% {2}action [\d.]+% {2}state [\d.]+%/);
  assert.doesNotMatch(text.stdout, /BLEU/);
});

test('selfplay with the learned models: scores and JSON Lines transcripts', () => {
  const model = join(tmp, 'a.dgm');
  const t = join(tmp, 'sp.jsonl');
  const r = cli('airdialogue', 'selfplay', '--agent', model, '--customer', model, '--n', '3', '--seed', '2', '--ood', '1', '--max-turns', '8', '--transcripts', t, '--json');
  assert.equal(r.code, 0, r.stderr);
  const s = JSON.parse(r.stdout) as { dialogs: number; total: number; exact: { total: number }; bleu: { customer: number; agent: number; both: number } };
  assert.equal(s.dialogs, 3);
  assert.ok(s.total >= 0 && s.total <= 1);
  for (const k of ['customer', 'agent', 'both'] as const) assert.ok(s.bleu[k] >= 0 && s.bleu[k] < 100, `BLEU ${k} ${s.bleu[k]}`);
  const text = cli('airdialogue', 'selfplay', '--agent', model, '--customer', 'rules', '--n', '2', '--seed', '2', '--max-turns', '8');
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^BLEU-4 {2}customer [\d.]+ {2}agent [\d.]+ {2}both [\d.]+ {2}\(generated turns against the simulator's dialogue on the same context\)$/m);
  const lines = readFileSync(t, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { episode: number; dialogue: string[]; expected: { status: string } });
  assert.deepEqual(lines.map((l) => l.episode), [0, 1, 2]);
  assert.ok(lines.every((l) => l.dialogue.length <= 8 && l.dialogue[0]!.startsWith('customer: ')));
  oneLineError(cli('airdialogue', 'selfplay', '--agent', join(tmp, 'missing.dgm'), '--n', '1'), /^error: .*missing\.dgm: no such file$/);
});

test('rl: self-play REINFORCE from a supervised model writes a loadable model', () => {
  const r = cli('airdialogue', 'rl', '--init', join(tmp, 'a.dgm'), '--out', join(tmp, 'rl.dgm'), '--episodes', '4', '--batch', '2', '--data', join(d, 'train_data.json'), '--kb', join(d, 'train_kb.json'), '--seed', '1');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /mean episode reward: first 1 update\(s\) [\d.]+, last 1 [\d.]+/);
  const e = cli('airdialogue', 'eval', '--model', join(tmp, 'rl.dgm'), '--data', join(d, 'test_data.json'), '--kb', join(d, 'test_kb.json'), '--no-bleu', '--json');
  assert.equal(e.code, 0, e.stderr);
});

test('bad model file, bad flags → one-line errors', () => {
  const bad = join(tmp, 'bad.dgm');
  writeFileSync(bad, 'not a model');
  oneLineError(cli('airdialogue', 'eval', '--model', bad, '--data', join(d, 'test_data.json'), '--kb', join(d, 'test_kb.json')), /^error: .*bad\.dgm: not a dialogym model file \(bad magic bytes\)$/);
  oneLineError(cli('airdialogue', 'splits', '--out', d, '--ood', '3'), /^error: --ood: expected 0, 1 or 2, got '3'$/);
  oneLineError(cli('airdialogue', 'train', '--data', join(d, 'train_data.json'), '--kb', join(d, 'train_kb.json'), '--dev-data', join(d, 'dev_data.json'), '--out', join(tmp, 'x.dgm')), /--dev-data and --dev-kb go together/);
});
