/**
 * docs/extending.md is true: its toy testbed, taken from the page's code blocks, is added to a
 * temporary copy of the repository by writing its folder and one line of the list
 * (src/testbeds/index.ts) — `git diff` there shows nothing else — type-checks against the real
 * sources, and then works: `checkEnv`, `evaluate` (library and CLI, with the toy's built-in agent,
 * and `--agent-llm` with the prompt and context of the toy's LLM section, no `--system-prompt`),
 * `env-server` (HTTP) and `serve --env` (a person plays the agent through the page's API). The copy runs the repository's build (dist/src) with the toy's files and
 * the list transpiled into it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { repoRoot } from './shared-data.js';

const guide = readFileSync(join(repoRoot, 'docs', 'extending.md'), 'utf8');

/** The ```ts blocks of the guide. */
function tsBlocks(md: string): string[] {
  return [...md.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
}

/** The guide's files (blocks opening with `// file: <path>`) and its line of the list. */
function fromGuide(md: string): { files: Map<string, string>; listLine: string; commands: string[] } {
  const files = new Map<string, string>();
  let listLine: string | undefined;
  for (const b of tsBlocks(md)) {
    const file = /^\/\/ file: (\S+)\n/.exec(b)?.[1];
    if (file !== undefined) files.set(file, b);
    else if (b.startsWith('// one line in src/testbeds/index.ts')) listLine = b.split('\n')[1];
  }
  assert.ok(listLine !== undefined, 'the guide shows the line of the list');
  const commands = [...md.matchAll(/^\$ npx dialogym (.*)$/gm)].map((m) => m[1] as string);
  return { files, listLine, commands };
}

/** The URL a server process prints on stderr (`re`'s first group), once it listens. */
function listening(p: ChildProcess, re: RegExp): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let err = '';
    p.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      const m = re.exec(err);
      if (m) resolve(m[1] as string);
    });
    p.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

/** Runs a command to its end without blocking the event loop (a server of this process answers it). */
function run(args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * A local Chat Completions endpoint that plays the toy: it records each request's messages and
 * answers with the last word of the user's last message (the word asked for).
 */
async function toyModelServer(): Promise<{ url: string; requests: { role: string; content: string }[][]; close: () => Promise<void> }> {
  const requests: { role: string; content: string }[][] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const messages = (JSON.parse(body) as { messages: { role: string; content: string }[] }).messages;
      requests.push(messages);
      const word = [...messages].reverse().find((m) => m.role === 'user')?.content.split(' ').pop() ?? '';
      const completion = { id: `c${requests.length}`, object: 'chat.completion', created: 0, model: 'toy', choices: [{ index: 0, message: { role: 'assistant', content: word }, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(completion));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, requests, close: () => new Promise<void>((r) => server.close(() => r())) };
}

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

test('the toy testbed of docs/extending.md: its folder and one list line, then checkEnv, evaluate, env-server and serve --env play it', { timeout: 600_000 }, async () => {
  const { files, listLine, commands } = fromGuide(guide);
  assert.deepEqual([...files.keys()].sort(), ['src/testbeds/toy/agents.ts', 'src/testbeds/toy/env.ts', 'src/testbeds/toy/testbed.ts']);
  const tmp = mkdtempSync(join(tmpdir(), 'dialogym-extending-'));
  try {
    // A copy of the repository's sources (the working tree as built), committed in a repository of its own.
    const tracked = spawnSync('git', ['ls-files', '-co', '--exclude-standard', 'src', 'schemas', 'prompts', 'package.json', 'tsconfig.json'], { cwd: repoRoot, encoding: 'utf8' }).stdout.split('\n');
    for (const f of tracked.filter((x) => x !== '' && !x.endsWith('.test.ts'))) {
      mkdirSync(dirname(join(tmp, f)), { recursive: true });
      copyFileSync(join(repoRoot, f), join(tmp, f));
    }
    symlinkSync(join(repoRoot, 'node_modules'), join(tmp, 'node_modules'));
    writeFileSync(join(tmp, '.gitignore'), 'node_modules\ndist\n');
    git(tmp, 'init', '-q');
    git(tmp, 'add', '-A');
    git(tmp, 'commit', '-q', '-m', 'dialogym');

    // The guide's change: its folder, and its line at the end of TESTBEDS.
    for (const [f, text] of files) {
      mkdirSync(dirname(join(tmp, f)), { recursive: true });
      writeFileSync(join(tmp, f), text);
    }
    const listFile = join(tmp, 'src', 'testbeds', 'index.ts');
    const list = readFileSync(listFile, 'utf8').split('\n');
    const entries = list.map((l, i) => (/^ {2}\(await import\('\.\/[a-z0-9-]+\/testbed\.js'\)\)\.\w+,$/.test(l) ? i : -1));
    const last = Math.max(...entries);
    assert.ok(last > 0, 'TESTBEDS has one line per testbed');
    list.splice(last + 1, 0, listLine);
    writeFileSync(listFile, list.join('\n'));
    git(tmp, 'add', '-A');
    // Nothing else changed: the list gains one line, the folder is new.
    const lineCount = (text: string): number => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    assert.equal(
      git(tmp, 'diff', '--cached', '--numstat'),
      ['1\t0\tsrc/testbeds/index.ts', ...[...files].sort(([a], [b]) => a.localeCompare(b)).map(([f, text]) => `${lineCount(text)}\t0\t${f}`), ''].join('\n'),
    );

    // It type-checks against the real sources (the list and everything it reaches).
    writeFileSync(join(tmp, 'tsconfig.toy.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { noEmit: true, incremental: false }, include: ['src/testbeds/toy/*.ts', 'src/testbeds/index.ts'] }));
    const tsc = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.toy.json'], { cwd: tmp, encoding: 'utf8' });
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr);

    // The repository's build with the toy's files and the list transpiled in.
    cpSync(join(repoRoot, 'dist', 'src'), join(tmp, 'dist', 'src'), { recursive: true, filter: (s) => !/\.(map|d\.ts)$|\.test\.js$/.test(s) });
    for (const f of [...files.keys(), 'src/testbeds/index.ts']) {
      const out = ts.transpileModule(readFileSync(join(tmp, f), 'utf8'), { compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 }, fileName: f });
      const js = join(tmp, 'dist', f.replace(/\.ts$/, '.js'));
      mkdirSync(dirname(js), { recursive: true });
      writeFileSync(js, out.outputText);
    }
    const lib = pathToFileURL(join(tmp, 'dist', 'src', 'index.js')).href;
    const cli = join(tmp, 'dist', 'src', 'cli', 'index.js');

    // The library: the guide's own lines.
    const script = tsBlocks(guide).find((b) => b.startsWith("import { checkEnv, createAgent, evaluate, make } from 'dialogym';"));
    assert.ok(script, 'the guide shows the library calls');
    const lines = spawnSync(process.execPath, ['--input-type=module', '-e', script.replace("from 'dialogym'", `from ${JSON.stringify(lib)}`) + `\nconsole.log([...(await import(${JSON.stringify(lib)})).envs].filter((id) => id.startsWith('toy-')).join(','));`], { encoding: 'utf8' });
    assert.equal(lines.status, 0, lines.stderr);
    assert.equal(lines.stdout, '1\ntoy-echo-v0\n');

    // The CLI: the guide's evaluate command, and the agent's failure when it cannot answer in one turn.
    const [evaluateCmd, serverCmd, serveCmd] = commands;
    assert.equal(evaluateCmd, 'evaluate --env toy-echo-v0 --agent parrot --episodes 10');
    const ev = spawnSync(process.execPath, [cli, ...(evaluateCmd as string).split(' '), '--json'], { encoding: 'utf8' });
    assert.equal(ev.status, 0, ev.stderr);
    const summary = JSON.parse(ev.stdout) as { success: number; episodes: number; avgTurns: number };
    assert.equal(summary.success, 1);
    assert.equal(summary.episodes, 10);
    const rules = spawnSync(process.execPath, [cli, 'evaluate', '--env', 'toy-echo-v0', '--agent', 'rules', '--episodes', '2'], { encoding: 'utf8' });
    assert.equal(rules.status, 2);
    assert.equal(rules.stderr, "error: rules: not an agent of toy-echo-v0 (its agents: parrot)\n");

    // --agent-llm: the toy's LLM section gives the prompt and the context (no --system-prompt).
    const model = await toyModelServer();
    try {
      const llm = await run([cli, 'evaluate', '--env', 'toy-echo-v0', '--agent-llm', 'toy', '--llm-url', model.url, '--episodes', '3', '--json']);
      assert.equal(llm.status, 0, llm.stderr);
      assert.equal((JSON.parse(llm.stdout) as { success: number }).success, 1);
      assert.equal(model.requests.length, 3);
      const [system, user] = model.requests[0] ?? [];
      assert.deepEqual(system, { role: 'system', content: 'You play a word game. The user asks for a word: answer with that word alone.\n\n## Context\n\nThe user asks for one of these words: apple, river, violet, orbit, lantern.' });
      assert.match(user?.content ?? '', /^please say (apple|river|violet|orbit|lantern)$/);
    } finally {
      await model.close();
    }

    // env-server: the guide's command (on a free port); a session plays an episode over HTTP.
    assert.equal(serverCmd, 'env-server --port 8090');
    const server = spawn(process.execPath, [cli, ...(serverCmd as string).replace('8090', '0').split(' ')], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const url = await listening(server, /env-server on (\S+)/);
      const post = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
        const r = await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return (await r.json()) as Record<string, unknown>;
      };
      const listed = (await (await fetch(`${url}/envs`)).json()) as { envs: { id: string; description: string }[] };
      assert.deepEqual(listed.envs.find((e) => e.id === 'toy-echo-v0'), { id: 'toy-echo-v0', description: 'the user asks for a word; say it', tools: [] });
      const { session } = await post('/envs/toy-echo-v0', { options: { maxTurns: 2 } });
      const first = await post(`/sessions/${session as string}/reset`, { seed: 4 });
      const word = (first['info'] as { goal: string }).goal;
      assert.deepEqual(first['observation'], { utterance: `please say ${word}` });
      const wrong = await post(`/sessions/${session as string}/step`, { action: 'hello' });
      assert.deepEqual(wrong, { observation: { utterance: `no, say ${word}` }, reward: 0, terminated: false, truncated: false, info: { success: false } });
      const right = await post(`/sessions/${session as string}/step`, { action: word });
      assert.deepEqual(right, { observation: { utterance: 'thanks' }, reward: 1, terminated: true, truncated: false, info: { success: true } });
      assert.deepEqual(await post('/envs/toy-echo-v0', { options: { maxturns: 2 } }), { error: 'toy-echo-v0: unknown option "maxturns" (its options: maxTurns, seed)' });
    } finally {
      server.kill('SIGTERM');
    }

    // serve --env: the guide's command (on a free port); a person plays the agent through the page's API.
    assert.equal(serveCmd, 'serve --env toy-echo-v0 --as agent --port 8080');
    const serve = spawn(process.execPath, [cli, ...(serveCmd as string).replace('8080', '0').split(' ')], { stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      const base = await listening(serve, /serving toy-echo-v0 on (\S+)\/env/);
      const call = async (path: string, body?: unknown): Promise<Record<string, unknown>> => {
        const r = await fetch(base + path, body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        return (await r.json()) as Record<string, unknown>;
      };
      interface State {
        waiting: string;
        turns: { speaker: string; text: string }[];
        outcome?: { success: boolean };
      }
      const created = await call('/api/env/sessions', {});
      const id = created['id'] as string;
      let state = created['state'] as State;
      for (let k = 0; state.waiting !== 'ended'; k++) {
        assert.ok(k < 20, 'the dialog ends');
        if (state.waiting === 'other') state = (await call(`/api/env/sessions/${id}?wait=1`))['state'] as State;
        else state = (await call(`/api/env/sessions/${id}/send`, { text: String(state.turns.at(-1)?.text.split(' ').pop()) }))['state'] as State;
      }
      assert.equal(state.outcome?.success, true, JSON.stringify(state));
      assert.match(state.turns[0]?.text ?? '', /^please say (apple|river|violet|orbit|lantern)$/);
    } finally {
      serve.kill('SIGTERM');
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
