/** `dialogym evaluate`, `agent --stdio` and `env-server` end to end, and the Python examples when python3 is present. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliPath } from './shared-data.js';

const tmp = mkdtempSync(join(tmpdir(), 'dialogym-agent-protocol-'));
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));
const examples = fileURLToPath(new URL('../../examples/python/', import.meta.url));
const python = spawnSync('python3', ['--version']).status === 0;
const agentCmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(cliPath)} agent --model rules --stdio`;

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts a process and resolves with the first line matching `re` on its stdout or stderr. */
function startAndRead(cmd: string, args: string[], re: RegExp): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let buf = '';
    const on = (chunk: Buffer): void => {
      buf += chunk.toString();
      const m = re.exec(buf);
      if (m) resolve({ child, line: m[0] });
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
    child.on('exit', (code) => reject(new Error(`${cmd} exited (${code}): ${buf}`)));
  });
}

test('evaluate: the rule bot through `agent --stdio` and in process give the same summary and transcripts', () => {
  const t1 = join(tmp, 'stdio.jsonl');
  const t2 = join(tmp, 'runs', 'new', 'local.jsonl'); // --transcripts makes its folder, as every other output
  const viaStdio = cli(['evaluate', '--env', 'dstc6-task3-tst4-v1', '--agent-cmd', agentCmd, '--episodes', '12', '--trials', '2', '--seed', '5', '--json', '--transcripts', t1]);
  assert.equal(viaStdio.status, 0, viaStdio.stderr);
  const local = cli(['evaluate', '--env', 'dstc6-task3-tst4-v1', '--agent', 'rules', '--episodes', '12', '--trials', '2', '--seed', '5', '--json', '--transcripts', t2]);
  assert.equal(local.status, 0, local.stderr);
  assert.equal(viaStdio.stdout, local.stdout);
  const s = JSON.parse(viaStdio.stdout) as { success: number; passK: number[]; episodes: number; trials: number; failures: object };
  assert.deepEqual([s.success, s.passK, s.episodes, s.trials, s.failures], [1, [1, 1], 12, 2, {}]);
  const lines = readFileSync(t1, 'utf8').trimEnd().split('\n');
  assert.equal(lines.length, 24);
  assert.equal(readFileSync(t1, 'utf8'), readFileSync(t2, 'utf8'));
  // Four agent processes at once: the same transcripts, byte for byte.
  const t3 = join(tmp, 'stdio4.jsonl');
  const four = cli(['evaluate', '--env', 'dstc6-task3-tst4-v1', '--agent-cmd', agentCmd, '--concurrency', '4', '--episodes', '12', '--trials', '2', '--seed', '5', '--json', '--transcripts', t3]);
  assert.equal(four.status, 0, four.stderr);
  assert.equal(four.stdout, local.stdout);
  assert.equal(readFileSync(t3, 'utf8'), readFileSync(t1, 'utf8'));
  const first = JSON.parse(lines[0] as string) as { episode: number; trial: number; seed: number; success: boolean; actions: unknown[] };
  assert.deepEqual([first.episode, first.trial, first.seed, first.success], [0, 0, 5, true]);
  assert.ok(first.actions.length > 3);
  const text = cli(['evaluate', '--env', 'restaurant-task4-v1', '--agent', 'rules', '--episodes', '5', '--seed', '0']);
  assert.match(text.stdout, /^restaurant-task4-v1: 5 tasks × 1 trials \(seed 0\)\nsuccess 1\.0000  pass\^1 1\.0000\n/);
});

test('evaluate --show-failures: failed episodes turn by turn, marked where they went wrong; transcripts end with the goal and the detail', () => {
  const t = join(tmp, 'failing.jsonl');
  const r = cli(['evaluate', '--env', 'restaurant-task3-v1', '--agent', 'rules', '--episodes', '5', '--max-turns', '6', '--show-failures', '2', '--transcripts', t]);
  assert.equal(r.status, 0, r.stderr);
  const blocks = r.stdout.trimEnd().split('\n\n').slice(1);
  assert.equal(blocks.length, 2, r.stdout);
  for (const b of blocks) {
    assert.match(b, /^restaurant-task3-v1 task \d+ trial 0 \(seed \d+\): failed: max turns after 6 agent turns, reward 0\n  goal: \{"cuisine":/);
    assert.match(b, /\n>   5  agent  .*   <- went wrong here\n/);
    assert.match(b, /\n  failure: max turns  detail: \{\}$/);
  }
  const line = JSON.parse(readFileSync(t, 'utf8').split('\n')[0] as string) as Record<string, unknown>;
  // --max-turns is an environment option: the record ends with its fingerprint (what --resume checks).
  assert.deepEqual(Object.keys(line).slice(-5), ['actions', 'observation', 'goal', 'detail', 'options']);
  // With --json the summary stays alone on stdout; the episodes go to stderr.
  const j = cli(['evaluate', '--env', 'restaurant-task3-v1', '--agent', 'rules', '--episodes', '5', '--max-turns', '6', '--show-failures', '1', '--json']);
  assert.equal(JSON.parse(j.stdout).episodes, 5);
  assert.match(j.stderr, /<- went wrong here/);
});

test('evaluate and agent: one-line errors', () => {
  const none = cli(['evaluate', '--env', 'restaurant-task1-v1']);
  assert.equal(none.status, 2);
  assert.equal(none.stderr, 'error: give exactly one of --agent-cmd, --agent-url, --agent, --agent-llm\n');
  const unknown = cli(['evaluate', '--env', 'restaurant-task9-v1', '--agent', 'rules']);
  assert.notEqual(unknown.status, 0);
  assert.match(unknown.stderr, /^error: .*restaurant-task9-v1.*\n$/);
  const kb = cli(['evaluate', '--env', 'airdialogue-v1', '--agent', 'rules', '--kb', 'x.txt']);
  assert.equal(kb.status, 2);
  assert.equal(kb.stderr, 'error: --kb: airdialogue-v1 reads no restaurant KB (only the restaurant-* and dstc6-* environments do)\n');
  // KB-InfoBot's turn limit is its user simulator's: one agent turn ends every episode unsolved.
  const short = cli(['evaluate', '--env', 'infobot-small-v1', '--agent', 'rule-soft', '--episodes', '5', '--max-turns', '1', '--json']);
  assert.equal(short.status, 0, short.stderr);
  assert.deepEqual([JSON.parse(short.stdout).success, JSON.parse(short.stdout).avgTurns], [0, 1]);
  const noStdio = cli(['agent', '--model', 'rules']);
  assert.equal(noStdio.status, 2);
  assert.match(noStdio.stderr, /^error: agent: give --stdio/);
  const r = spawnSync(process.execPath, [cliPath, 'agent', '--model', 'rules', '--stdio'], { input: 'not json\n', encoding: 'utf8' });
  assert.equal(r.status, 0);
  assert.match(r.stdout, /^\{"error":".*JSON.*"\}\n$/);
});

test('Python examples: stdio agent, HTTP agent, env-server client', { skip: python ? false : 'python3 not found' }, async () => {
  const stdio = cli(['evaluate', '--env', 'restaurant-task1-v1', '--agent-cmd', `python3 ${JSON.stringify(join(examples, 'stdio_agent.py'))}`, '--episodes', '10', '--json']);
  assert.equal(stdio.status, 0, stdio.stderr);
  assert.equal((JSON.parse(stdio.stdout) as { success: number }).success, 1);

  const agent = await startAndRead('python3', [join(examples, 'http_agent.py'), '0'], /http:\/\/127\.0\.0\.1:\d+\/act/);
  try {
    const r = spawn(process.execPath, [cliPath, 'evaluate', '--env', 'restaurant-task1-oov-v1', '--agent-url', agent.line, '--episodes', '10', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    r.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise((resolve) => r.on('exit', resolve));
    assert.equal(code, 0);
    assert.equal((JSON.parse(out) as { success: number }).success, 1);
  } finally {
    agent.child.kill();
  }

  const server = await startAndRead(process.execPath, [cliPath, 'env-server', '--port', '0'], /http:\/\/127\.0\.0\.1:\d+/);
  try {
    const c = spawn('python3', [join(examples, 'env_client.py'), server.line, 'restaurant-task1-v1', '8'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (x: Buffer) => (out += x.toString()));
    c.stderr.on('data', (x: Buffer) => (err += x.toString()));
    const code = await new Promise((resolve) => c.on('exit', resolve));
    assert.equal(code, 0, err);
    assert.deepEqual(JSON.parse(out), { env: 'restaurant-task1-v1', episodes: 8, success: 1, avgTurns: JSON.parse(out).avgTurns });
    assert.ok((JSON.parse(out) as { avgTurns: number }).avgTurns >= 3);
  } finally {
    server.child.kill('SIGTERM');
  }
});
