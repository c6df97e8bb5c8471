/** The bAbI verbs through the real CLI: figures on the original files, and one-line errors on bad input. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { babiDir, skipUnless } from './shared-data.js';
import { cli, oneLineError } from './cli.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-cli-'));
const good = '1 hi\thello what can i help you with today\n2 <SILENCE>\tapi_call italian rome six cheap\n\n';

test('bad input files: one clear error line naming file and line, non-zero exit', () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ['truncated.txt', good + '1 hi\thello\n2 <SILENCE>\tapi_ca', /^error: .*truncated\.txt:5: unexpected end of file.*truncated/],
    ['noid.txt', '1 hi\thello\nhello there\tok\n\n', /^error: .*noid\.txt:2: line does not start with a numeric ID/],
    ['nonincreasing.txt', '1 hi\thello\n2 a\tb\n2 c\td\n\n', /^error: .*nonincreasing\.txt:3: ID 2 does not follow ID 2/],
    ['binary.txt', Buffer.from([0x31, 0x20, 0x68, 0x0a, 0x00, 0xff, 0x13, 0x0a]), /^error: .*binary\.txt:2: binary data/],
    ['latin1.txt', Buffer.from('1 caf\xe9\tok\n\n', 'latin1'), /^error: .*latin1\.txt:1: binary data \(invalid UTF-8\)/],
  ];
  for (const [name, content, re] of cases) {
    const f = join(tmp, name);
    writeFileSync(f, content);
    for (const verb of [['stats', f], ['walk', f], ['eval', '--model', 'rules', '--data', f]]) oneLineError(cli(...verb), re);
  }
  oneLineError(cli('stats', join(tmp, 'missing.txt')), /^error: .*missing\.txt: no such file$/);
  oneLineError(cli('eval', '--model', 'nosuchmodel', '--data', join(tmp, 'truncated.txt')), /^error: unknown model 'nosuchmodel'/);
  oneLineError(cli('walk', join(tmp, 'noid.txt'), '--dialog', 'two'), /^error: --dialog: expected an integer/);
  oneLineError(cli('stats'), /^error: missing required argument/);
});

test('stats --json on the originals gives the PROVENANCE counts', { skip: skipUnless(babiDir) }, () => {
  const f1 = join(babiDir, 'dialog-babi-task1-API-calls-tst.txt');
  const f6 = join(babiDir, 'dialog-babi-task6-dstc2-trn.txt');
  const r = cli('stats', '--json', f1, f6);
  assert.equal(r.code, 0, r.stderr);
  const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, number | string>);
  assert.equal(rows.length, 2);
  for (const k of ['file', 'dialogs', 'botTurns', 'utterancesPerDialog', 'userPerDialog', 'botPerDialog', 'kbPerDialog', 'vocabulary']) assert.ok(k in (rows[0] as object), k);
  assert.deepEqual([rows[0]?.dialogs, rows[0]?.botTurns, rows[1]?.dialogs, rows[1]?.botTurns], [1000, 5936, 1618, 14404]);
  assert.equal(rows[1]?.kbPerDialog, 69079 / 1618);
});

test('walk shows one dialog readably', { skip: skipUnless(babiDir) }, () => {
  const r = cli('walk', join(babiDir, 'dialog-babi-task1-API-calls-trn.txt'), '--dialog', '1');
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0] as string, /^— dialog 1\/1000 \(line 1\)$/);
  assert.equal(lines[1], 'user: hi');
  assert.equal(lines[2], ' bot: hello what can i help you with today');
  assert.ok(lines.some((l) => /^ bot: api_call \w+ \w+ \w+ \w+$/.test(l)));
  assert.ok(!r.stdout.includes('\x1b['), 'no colour when not a TTY');
  oneLineError(cli('walk', join(babiDir, 'dialog-babi-task1-API-calls-trn.txt'), '--dialog', '1001'), /^error: --dialog 1001: .* has 1000 dialogs$/);
});

test('eval --predictions writes one line per bot turn (atomically)', { skip: skipUnless(babiDir) }, () => {
  const f = join(babiDir, 'dialog-babi-task1-API-calls-tst.txt');
  const p = join(tmp, 'pred.jsonl');
  const r = cli('eval', '--model', 'rules', '--data', f, '--json', '--predictions', p);
  assert.equal(r.code, 0, r.stderr);
  const res = JSON.parse(r.stdout) as { perResponse: number; perDialog: number; turns: number; dialogs: number };
  assert.deepEqual([res.turns, res.dialogs], [5936, 1000]);
  assert.ok(res.perResponse >= 0 && res.perResponse <= 1);
  const lines = readFileSync(p, 'utf8').trim().split('\n');
  assert.equal(lines.length, 5936);
  assert.deepEqual(Object.keys(JSON.parse(lines[0] as string) as object), ['dialog', 'turn', 'prediction']);
  const last = JSON.parse(lines[lines.length - 1] as string) as { dialog: number; turn: number };
  assert.equal(last.dialog, 999);
  assert.ok(!existsSync(`${p}.tmp`));
});
