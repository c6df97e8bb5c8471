/**
 * `chat` and `serve` read and decode a model file once at startup (its stored candidates and its
 * weights come from the same read). Timing-free evidence: the model file is a named pipe, which
 * can be read exactly once (a second read would wait for a writer that never comes), and
 * `setupBot` given the decoded content works after the file is gone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readModelFile } from '../src/formats/model-file.js';
import { saveModel, trainModel } from '../src/rankers/index.js';
import { syntheticCandidates, syntheticDialogs } from '../src/rankers/testing/synthetic.js';
import { setupBot } from '../src/testbeds/restaurant/chat/setup.js';
import { cliPath } from './shared-data.js';

const dir = mkdtempSync(join(tmpdir(), 'dialogym-read-once-'));
const candidates = syntheticCandidates();
const modelFile = join(dir, 'nn.dgm');
saveModel(modelFile, trainModel('nn', { train: syntheticDialogs(30, 1), dev: syntheticDialogs(10, 2), candidates }).model as Parameters<typeof saveModel>[1], { candidates });
const bytes = readFileSync(modelFile);

/** Runs the CLI with `args` where `@pipe` is a named pipe serving the model file's bytes once; resolves with stdout and stderr once `done(stderr, stdout)` holds or the process ends. */
async function withPipe(args: readonly string[], input: string, done: (err: string, out: string) => boolean): Promise<{ stdout: string; stderr: string; timedOut: boolean }> {
  const pipe = join(dir, `pipe-${args[0]}.dgm`);
  rmSync(pipe, { force: true });
  assert.equal(spawnSync('mkfifo', [pipe]).status, 0, 'mkfifo');
  const child = spawn(process.execPath, [cliPath, ...args.map((a) => (a === '@pipe' ? pipe : a))], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let written = false;
  const writer = writeFile(pipe, bytes) // opens when the CLI opens the pipe to read
    .catch(() => undefined)
    .finally(() => (written = true));
  return await new Promise((resolve) => {
    let settled = false;
    const finish = (timedOut: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (written) return resolve({ stdout, stderr, timedOut });
      // The CLI never opened the pipe: open it for reading here, so that the writer is not left waiting.
      const fd = openSync(pipe, constants.O_RDONLY | constants.O_NONBLOCK);
      void writer.then(() => {
        closeSync(fd);
        resolve({ stdout, stderr, timedOut });
      });
    };
    const timer = setTimeout(() => finish(true), 30_000);
    const check = (): void => {
      if (done(stderr, stdout)) finish(false);
    };
    child.stdout.on('data', (d: Buffer) => ((stdout += d.toString()), check()));
    child.stderr.on('data', (d: Buffer) => ((stderr += d.toString()), check()));
    child.on('exit', () => finish(false));
    child.stdin.end(input);
  });
}

test('setupBot takes the decoded model file: it works after the file is gone', () => {
  const content = readModelFile(modelFile);
  const copy = join(dir, 'gone.dgm');
  saveModel(copy, trainModel('nn', { train: syntheticDialogs(30, 1), dev: syntheticDialogs(10, 2), candidates }).model as Parameters<typeof saveModel>[1], { candidates });
  rmSync(copy);
  const bot = setupBot({ model: copy }, content);
  try {
    const a = bot.model.conversation().answer([{ speaker: 'user', text: 'hello' }]);
    assert.ok(candidates.includes(a.text), a.text);
  } finally {
    bot.close();
  }
});

test('chat reads its model file once (a named pipe as --model)', { timeout: 60_000 }, async () => {
  const r = await withPipe(['chat', '--model', '@pipe'], 'hello\n', (_e, out) => /bot: /.test(out));
  assert.equal(r.timedOut, false, `chat waited for a second read of the model file; stderr: ${r.stderr}`);
  assert.match(r.stdout, /bot: /, r.stderr);
});

test('serve reads its model file once, with --candidates too (flag check, stored candidates, weights)', { timeout: 60_000 }, async () => {
  const cands = join(dir, 'cands.txt');
  await writeFile(cands, candidates.map((c) => `1 ${c}\n`).join(''));
  for (const extra of [[], ['--candidates', cands]]) {
    const r = await withPipe(['serve', '--model', '@pipe', '--port', '0', ...extra], '', (err) => /serving model /.test(err));
    assert.equal(r.timedOut, false, `serve ${extra.join(' ')} waited for a second read of the model file; stderr: ${r.stderr}`);
    assert.match(r.stderr, /serving model /);
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
