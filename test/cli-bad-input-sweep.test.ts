/**
 * Regressions of the bad-input sweep over every CLI verb (bad output paths, model files, flags,
 * agent requests): each case fails with one `error:` line naming what and where, exits non-zero,
 * leaves no file behind and never hangs; CRLF + BOM inputs are read like the plain ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, oneLineError, runCli } from './cli.js';
import { babiDir, skipUnless } from './shared-data.js';
import { describeSystemError } from '../src/cli/plain.js';
import { writeFileAtomic } from '../src/core/files.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-sweep-'));
const aDir = join(tmp, 'a-dir');
mkdirSync(aDir);
const aFile = join(tmp, 'a-file');
writeFileSync(aFile, 'x\n');
const binary = join(tmp, 'binary.dgm');
writeFileSync(binary, Buffer.from([0x9f, 0x00, 0x13, 0xff, 0x42, 0x00, 0x07, 0x80]));
/** A path under /proc: creating its folder fails (Node's recursive mkdir spun forever on it). */
const procOut = '/proc/dialogym-no-such-folder';
const noProc = existsSync('/proc/self') ? false : 'no /proc on this system';
// A hang here is the bug the /proc cases guard against: fail the test instead of the suite.
const guard = { timeout: 60_000 };

test('an output file that is a folder fails before any work, naming the flag and the path', () => {
  // The data files do not exist: --out is checked while the flags are parsed, before anything is read or trained.
  const r = cli('train', '--model', 'tfidf', '--train', 'no-such.txt', '--dev', 'no-such.txt', '--candidates', 'no-such.txt', '--out', aDir);
  oneLineError(r, new RegExp(`^error: --out: ${aDir}: is a directory, not a file$`), 2);
  const e = cli('eval', '--model', 'rules', '--data', 'no-such.txt', '--predictions', aDir);
  oneLineError(e, /^error: --predictions: .*a-dir: is a directory, not a file$/, 2);
  assert.deepEqual(readdirSync(aDir), [], 'no temp file left in the folder');
});

test('an output folder that is a file fails before any work (no progress lines, nothing written)', () => {
  const r = cli('generate', 'restaurant', '--task', '1', '--dialogs', '3', '--out', aFile);
  oneLineError(r, new RegExp(`^error: --out: ${aFile}: is a file, not a folder$`), 2);
  const under = cli('infobot', 'kb', '--split', 'small', '--out', join(aFile, 'kb'));
  oneLineError(under, new RegExp(`^error: --out: ${aFile}: is a file, not a folder$`), 2);
  assert.equal(readFileSync(aFile, 'utf8'), 'x\n');
  assert.deepEqual(readdirSync(tmp).sort(), ['a-dir', 'a-file', 'binary.dgm']);
});

test('an output path under /proc fails at once instead of hanging (train, kb import, generate)', { ...guard, skip: noProc }, () => {
  const t = cli('train', '--model', 'tfidf', '--train', 'x', '--dev', 'x', '--candidates', 'x', '--out', `${procOut}/m.dgm`);
  oneLineError(t, new RegExp(`^error: --out: ${procOut}: cannot create the folder \\(no such file or folder\\)$`), 2);
  const g = cli('airdialogue', 'generate', '--dialogs', '2', '--out', `${procOut}/d`);
  oneLineError(g, new RegExp(`^error: --out: ${procOut}: cannot create the folder`), 2);
  const s = cli('dstc6', 'rank', '--model', 'tfidf', '--data', 'x.json', '--out', `${procOut}/r.json`);
  oneLineError(s, new RegExp(`^error: --out: ${procOut}: cannot create the folder`), 2);
  // A default output (infobot train's policy file in --policies) is checked before training too.
  const p = cli('infobot', 'train', '--agent', 'rl-soft', '--split', 'small', '--episodes', '10', '--imitation', '0', '--policies', procOut);
  oneLineError(p, new RegExp(`^error: --policies: ${procOut}: cannot create the folder`), 2);
});

test('the library writers throw on a folder under /proc instead of hanging', { ...guard, skip: noProc }, () => {
  assert.throws(() => writeFileAtomic(`${procOut}/deeper/f.txt`, 'x'), (e: NodeJS.ErrnoException) => e.code === 'ENOENT' && e.syscall === 'mkdir');
});

test('a Node file-system error reads as one line naming the file the user gave, not the temp file', () => {
  const rename = Object.assign(new Error("EISDIR: illegal operation on a directory, rename '/o/.out.json.123.0.tmp' -> '/o/out.json'"), {
    code: 'EISDIR',
    syscall: 'rename',
    path: '/o/.out.json.123.0.tmp',
    dest: '/o/out.json',
  });
  assert.equal(describeSystemError(rename), '/o/out.json: cannot write (is a directory, not a file)');
  const open = Object.assign(new Error('EACCES'), { code: 'EACCES', syscall: 'open', path: 'runs/.m.dgm.9.2.tmp' });
  assert.equal(describeSystemError(open), 'runs/m.dgm: cannot write (permission denied)');
  const read = Object.assign(new Error('EACCES'), { code: 'EACCES', syscall: 'open', path: 'data/kb.txt' });
  assert.equal(describeSystemError(read), 'data/kb.txt: cannot open (permission denied)');
  const odd = Object.assign(new Error('EXDEV'), { code: 'EXDEV', syscall: 'link', path: 'a' });
  assert.equal(describeSystemError(odd), 'a: cannot link (EXDEV)');
  assert.equal(describeSystemError(new Error('plain')), undefined);
});

test('agent: a bad model file or agent name fails at start, not at the first request', () => {
  const bin = runCli(['agent', '--agent', binary, '--stdio'], { input: '' });
  oneLineError(bin, /^error: .*binary\.dgm: not a dialogym model file \(bad magic bytes\)$/, 1);
  const missing = runCli(['agent', '--agent', join(tmp, 'no-such.dgm'), '--stdio'], { input: '' });
  oneLineError(missing, /^error: --agent: .*no-such\.dgm: no such file \(agents: .*rule-soft.*rules.*tfidf.*, or a model file\)$/, 2);
  const unknown = runCli(['agent', '--agent', 'no-such-agent', '--stdio'], { input: '' });
  oneLineError(unknown, /^error: --agent: no-such-agent: unknown agent \(agents: /, 2);
});

test('agent: a line that is not an agent request gets an {"error"} reply naming the protocol, not a TypeError', () => {
  const r = runCli(['agent', '--agent', 'rules', '--stdio'], { input: '{"type":"begin"}\n[1]\nnull\n' });
  assert.equal(r.code, 0, r.stderr);
  const replies = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as { error?: string });
  assert.equal(replies.length, 3);
  for (const reply of replies) assert.equal(reply.error, 'not an agent request: no "env" string (docs/agent-protocol.md)');
});

test('airdialogue train and rl: a learning rate of 0 is refused like the other trainers', () => {
  const r = cli('airdialogue', 'train', '--data', 'x.json', '--kb', 'y.json', '--out', join(tmp, 'never', 'a.dgm'), '--lr', '0');
  oneLineError(r, /^error: --lr: expected a number in \[1e-7, 10\], got '0'$/, 2);
  const rl = cli('airdialogue', 'rl', '--init', 'x.dgm', '--episodes', '2', '--out', join(tmp, 'never', 'b.dgm'), '--lr', '0');
  oneLineError(rl, /^error: --lr: expected a number in \[1e-7, 10\], got '0'$/, 2);
});

test('CRLF line ends and a UTF-8 BOM are read like the plain file (stats, walk, train)', { skip: skipUnless(babiDir) }, () => {
  const lines = readFileSync(join(babiDir, 'dialog-babi-task1-API-calls-dev.txt'), 'utf8').split('\n');
  const plain = join(tmp, 'plain.txt');
  const crlf = join(tmp, 'crlf.txt');
  const text = lines.slice(0, lines.indexOf('', 40) + 1).join('\n') + '\n';
  writeFileSync(plain, text);
  writeFileSync(crlf, '\uFEFF' + text.replace(/\n/g, '\r\n'));
  const a = cli('stats', '--json', plain);
  const b = cli('stats', '--json', crlf);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(b.code, 0, b.stderr);
  const strip = (s: string) => s.replace(/"file":"[^"]*",?/, '');
  assert.equal(strip(b.stdout), strip(a.stdout));
  assert.match(a.stdout, /"dialogs":\d+/);
  const wa = cli('walk', '--no-color', plain);
  const wb = cli('walk', '--no-color', crlf);
  assert.equal(wb.code, 0, wb.stderr);
  assert.equal(wb.stdout.replace(/crlf\.txt/g, 'plain.txt'), wa.stdout);
  const cands = join(tmp, 'cands.txt');
  writeFileSync(cands, '\uFEFF' + readFileSync(join(babiDir, 'dialog-babi-candidates.txt'), 'utf8').replace(/\n/g, '\r\n'));
  const model = join(tmp, 'models', 'tfidf.dgm');
  const t = cli('train', '--model', 'tfidf', '--train', crlf, '--dev', plain, '--candidates', cands, '--out', model, '--json');
  assert.equal(t.code, 0, t.stderr);
  assert.ok(existsSync(model));
  assert.deepEqual(readdirSync(join(tmp, 'models')), ['tfidf.dgm'], 'no temp file beside the model');
});
