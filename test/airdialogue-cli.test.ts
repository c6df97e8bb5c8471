/** The `airdialogue` verbs through the real CLI: figures on the sample data, generate round trip, one-line errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { airDir, skipUnless } from './shared-data.js';
import { cli, oneLineError } from './cli.js';

function json(r: { code: number; stdout: string; stderr: string }): Record<string, unknown> {
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-air-'));

test('logic and human-mode score on the sample data', { skip: skipUnless(airDir) }, () => {
  for (const [split, n, score] of [['train', 802, 0.92885], ['dev', 102, 0.95925]] as const) {
    const files = ['--data', join(airDir, `${split}_data.json`), '--kb', join(airDir, `${split}_kb.json`)];
    assert.deepEqual(json(cli('airdialogue', 'logic', ...files, '--json')), { lines: n, agree: n, agreement: 1 });
    const s = json(cli('airdialogue', 'score', ...files, '--json'));
    assert.equal((s.total as number).toFixed(5), score.toFixed(5));
    assert.equal(s.dialogs, n);
    assert.deepEqual(Object.keys(s.exact as object).sort(), ['action', 'flight', 'name', 'total']);
    const text = cli('airdialogue', 'score', ...files);
    assert.match(text.stdout, new RegExp(`scaled  total ${score.toFixed(5)}`));
  }
});

test('generate writes aligned data.json + kb.json that read back and pass logic at 100%; same seed, same bytes', () => {
  const a = join(tmp, 'a');
  const b = join(tmp, 'b');
  const g = cli('airdialogue', 'generate', '--n', '150', '--seed', '4', '--out', a);
  assert.equal(g.code, 0, g.stderr);
  assert.match(g.stdout, /wrote 150 dialogs/);
  assert.equal(cli('airdialogue', 'generate', '--n', '150', '--seed', '4', '--out', b).code, 0);
  for (const f of ['data.json', 'kb.json']) assert.ok(readFileSync(join(a, f)).equals(readFileSync(join(b, f))), `${f} differs`);
  assert.deepEqual(readdirSync(a).sort(), ['data.json', 'kb.json']);
  const lines = readFileSync(join(a, 'data.json'), 'utf8').trimEnd().split('\n');
  assert.equal(lines.length, 150);
  for (const l of lines) {
    const d = JSON.parse(l) as Record<string, unknown>;
    assert.ok('intent' in d && 'expected_action' in d && Array.isArray(d.dialogue));
  }
  const files = ['--data', join(a, 'data.json'), '--kb', join(a, 'kb.json')];
  assert.deepEqual(json(cli('airdialogue', 'logic', ...files, '--json')), { lines: 150, agree: 150, agreement: 1 });
  // the rule agent's actions (the "action" field) score perfectly as predictions
  assert.equal(json(cli('airdialogue', 'score', ...files, '--pred', join(a, 'data.json'), '--json')).total, 1);
  const ood = join(tmp, 'ood');
  assert.equal(cli('airdialogue', 'generate', '--n', '60', '--seed', '4', '--out', ood, '--ood').code, 0);
  assert.equal(json(cli('airdialogue', 'logic', '--data', join(ood, 'data.json'), '--kb', join(ood, 'kb.json'), '--json')).agree, 60);
});

test('selfplay rules vs rules prints scaled and exact scores', () => {
  const s = json(cli('airdialogue', 'selfplay', '--agent', 'rules', '--customer', 'rules', '--n', '200', '--seed', '3', '--json'));
  assert.equal(s.dialogs, 200);
  assert.ok((s.total as number) >= 0.99);
  assert.ok(((s.exact as Record<string, number>).total as number) >= 0.99);
  const t = cli('airdialogue', 'selfplay', '--n', '20', '--seed', '3');
  assert.match(t.stdout, /^dialogs 20\nscaled  total \d\.\d{5}/);
});

test('bad input: one error line, non-zero exit, no output file', () => {
  const kbLine = readFileSync(join(tmp, 'a', 'kb.json'), 'utf8').split('\n')[0] as string;
  const dataLine = readFileSync(join(tmp, 'a', 'data.json'), 'utf8').split('\n')[0] as string;
  const d2 = join(tmp, 'd2.json');
  const k1 = join(tmp, 'k1.json');
  const broken = join(tmp, 'broken.json');
  writeFileSync(d2, dataLine + '\n' + dataLine + '\n');
  writeFileSync(k1, kbLine + '\n');
  writeFileSync(broken, dataLine + '\n{"intent": 3}\n');
  oneLineError(cli('airdialogue', 'logic', '--data', d2, '--kb', k1), /^error: .*k1\.json:2: missing line: .*d2\.json has 2 lines, this file has 1/);
  oneLineError(cli('airdialogue', 'score', '--data', broken, '--kb', k1), /^error: .*broken\.json:2: missing "action"$/);
  oneLineError(cli('airdialogue', 'score', '--data', d2, '--kb', join(tmp, 'nope.json')), /^error: .*nope\.json: no such file$/);
  const k2 = join(tmp, 'k2.json');
  const p1 = join(tmp, 'p1.json');
  writeFileSync(k2, kbLine + '\n' + kbLine + '\n');
  writeFileSync(p1, '{"status": "book", "name": "A B", "flight": [1001]}\n');
  oneLineError(cli('airdialogue', 'score', '--data', d2, '--kb', k2, '--pred', p1), /^error: .*p1\.json:2: missing line: .*d2\.json has 2 lines, this file has 1/);
  oneLineError(cli('airdialogue', 'score', '--data', k2, '--kb', k2), /^error: .*k2\.json looks like an AirDialogue KB file \(JSON Lines\); --data takes an AirDialogue data file \(JSON Lines\)$/);
  oneLineError(cli('airdialogue', 'selfplay', '--agent', 'nobody', '--n', '5'), /^error: unknown agent policy 'nobody'/);
  oneLineError(cli('airdialogue', 'generate', '--n', '0', '--out', join(tmp, 'never')), /--n: must be >= 1, got 0/);
  assert.ok(!existsSync(join(tmp, 'never')));
});
