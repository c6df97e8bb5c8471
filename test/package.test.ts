/**
 * dialogym as an installed package: `npm pack` the project, install the tarball into an empty
 * package outside the repo, then import the public API from an `.mjs` file (checkEnv on every
 * environment id, one episode of infobot-medium-v1 and airdialogue-v1) and type-check a `.ts`
 * file with the same imports. Also checks what the tarball ships. Skips when npm cannot run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { babiDir, repoRoot } from './shared-data.js';
import { sqliteDriver, sqliteMissingMessage } from '../src/core/sqlite.js';
import { startServer } from './cli.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const probe = spawnSync(npm, ['--version'], { encoding: 'utf8' });
const skip = probe.status === 0 ? false : 'npm is not available';

/** Every file under `dir` with its size and modification time (to prove nothing was written there). */
function snapshot(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((f) => {
      const st = statSync(join(dir, f));
      return `${f} ${st.size} ${st.mtimeMs}`;
    })
    .sort();
}

/**
 * Installed packages that build at install time: an install script (preinstall/install/postinstall)
 * or a binding.gyp (npm runs node-gyp on it). A prebuilt addon shipped inside a package (piscina's
 * optional @napi-rs/nice) needs no compiler and is not one.
 */
function buildingPackages(nodeModules: string): string[] {
  const out: string[] = [];
  for (const f of readdirSync(nodeModules, { recursive: true }) as string[]) {
    if (!/(^|\/)package\.json$/.test(f) || f.split('node_modules').length > 3) continue;
    const dir = join(nodeModules, f, '..');
    let pkg: { name?: string; scripts?: Record<string, string> };
    try {
      pkg = JSON.parse(readFileSync(join(nodeModules, f), 'utf8')) as typeof pkg;
    } catch {
      continue;
    }
    if (typeof pkg.name !== 'string') continue;
    const scripts = Object.keys(pkg.scripts ?? {}).filter((k) => ['preinstall', 'install', 'postinstall'].includes(k));
    if (scripts.length > 0 || existsSync(join(dir, 'binding.gyp'))) out.push(`${pkg.name} (${scripts.join(', ') || 'binding.gyp'})`);
  }
  return out;
}

/** Starts `dialogym serve` (args after `serve`), sends one message, stops it with SIGTERM; the first reply and the exit code. */
async function serveOnce(bin: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ reply: string; stderr: string }> {
  const s = await startServer([bin, 'serve', ...args, '--port', '0'], { cwd, env });
  try {
    const { id } = (await (await fetch(`${s.url}/api/sessions`, { method: 'POST' })).json()) as { id: string };
    const res = await fetch(`${s.url}/api/sessions/${id}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'hi' }) });
    const body = (await res.json()) as { replies: { text: string }[] };
    return { reply: body.replies[0]?.text ?? '', stderr: s.stderr() };
  } finally {
    s.child.kill('SIGTERM');
    await s.exited;
  }
}

function run(cmd: string, args: readonly string[], cwd: string, timeout = 300_000): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

test('npm pack → npm install <tarball> (no native build) → import { make, checkEnv, envs } from "dialogym" (.mjs), tsc --noEmit (.ts), the CLI with kb import and serve --kb', { skip, timeout: 600_000 }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'dialogym-pack-'));
  try {
    // dist/ is built by `npm test` already: pack without running `prepare` again.
    const packed = JSON.parse(run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', tmp], repoRoot)) as { filename: string; files: { path: string }[] }[];
    const info = packed[0];
    assert.ok(info, 'npm pack printed no package');
    const files = info.files.map((f) => f.path);
    assert.deepEqual(files.filter((f) => /\.test\.(js|d\.ts)$/.test(f)), [], 'the tarball ships compiled tests');
    assert.deepEqual(files.filter((f) => f.endsWith('.map')), [], 'the tarball ships source maps');
    assert.ok(files.includes('LICENSE'), 'LICENSE missing from the tarball');
    assert.ok(files.some((f) => f.startsWith('policies/infobot/')), 'default policies missing from the tarball');
    for (const p of ['restaurant', 'dstc6', 'airdialogue', 'infobot', 'user-restaurant', 'user-airdialogue']) assert.ok(files.includes(`prompts/${p}.md`), `prompts/${p}.md missing from the tarball`);
    for (const f of ['src/serve/web/dom.js', 'src/testbeds/restaurant/chat/web/index.html', 'src/testbeds/airdialogue/chat/web/airdialogue.html']) assert.ok(files.includes(f), `web UI missing from the tarball: ${f}`);
    assert.ok(files.includes('dist/src/index.d.ts'), 'type declarations missing from the tarball');
    assert.ok(!files.some((f) => f.startsWith('dist/test/') || f.startsWith('dist/bench/')), 'the tarball ships tests or benchmarks');

    const app = join(tmp, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }));
    // No compiler: nothing among the dependencies builds native code (SQLite is node:sqlite, or the
    // optional better-sqlite3 that npm does not install), so the install runs its scripts as a user's would.
    const t0 = performance.now();
    const inst = spawnSync(npm, ['install', '--prefer-offline', '--no-package-lock', '--foreground-scripts', join(tmp, info.filename)], { cwd: app, encoding: 'utf8', timeout: 300_000, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
    const installSeconds = (performance.now() - t0) / 1000;
    assert.equal(inst.status, 0, `npm install <tarball> exited ${inst.status}:\n${inst.stdout}\n${inst.stderr}`);
    t.diagnostic(`npm install <tarball>: ${installSeconds.toFixed(1)} s (load ${loadavg()[0]?.toFixed(1)})`);
    assert.doesNotMatch(inst.stdout + inst.stderr, /node-gyp|prebuild-install|gyp info/, 'the install built native code');
    assert.deepEqual(buildingPackages(join(app, 'node_modules')), [], 'installed packages that build at install time');
    assert.ok(!existsSync(join(app, 'node_modules', 'better-sqlite3')), 'better-sqlite3 (an optional peer) was installed');

    writeFileSync(
      join(app, 'check.mjs'),
      `import { make, checkEnv, envs, runEpisode, createRng, evaluate, loadAgent, llmSystemMessage } from 'dialogym';
import { evaluateAgent } from 'dialogym/infobot';
// The evaluation harness: dialogym's rule bot (one per lane) and an agent written here, with pass^k.
const rules = await evaluate('restaurant-task5-v1', loadAgent('rules'), { episodes: 6, trials: 3, seed: 2, concurrency: 2 });
const mine = await evaluate('restaurant-task1-v1', { act: (req) => (req.turn === 0 ? 'hello what can i help you with today' : 'ok') }, { episodes: 3, trials: 2 });
const ids = [...envs];
// The default trained policies ship in the tarball and are found without a policy folder.
const rl = evaluateAgent({ agent: 'rl-soft', split: 'medium', episodes: 20 });
for (const id of ids) checkEnv(make(id), { episodes: 2 });
const rng = createRng(1);
const out = {};
for (const id of ['infobot-medium-v1', 'airdialogue-v1']) {
  const env = make(id);
  const r = runEpisode(env, () => env.sampleAction(rng), { seed: 1 });
  out[id] = { steps: r.steps, reward: r.reward };
}
// The LLM agent's shipped prompts are found in the installed package.
const prompt = llmSystemMessage({ env: 'restaurant-task3-v1', observation: { kb: ['resto_1 R_rating 5'] } });
console.log(JSON.stringify({ ids, out, rl, prompt, harness: { rules: rules.summary, records: rules.records.length, mine: mine.summary } }));
`,
    );
    const got = JSON.parse(run(process.execPath, ['check.mjs'], app)) as {
      ids: string[];
      out: Record<string, { steps: number; reward: number }>;
      rl: { agent: string; episodes: number; success: number };
      prompt: string;
      harness: { rules: { success: number; passK: number[]; trials: number }; records: number; mine: { success: number; passK: number[]; failures: Record<string, number> } };
    };
    assert.deepEqual([got.harness.rules.success, got.harness.rules.passK, got.harness.records], [1, [1, 1, 1], 18]);
    assert.deepEqual([got.harness.mine.success, got.harness.mine.passK, got.harness.mine.failures], [0, [0, 0], { 'max turns': 6 }]);
    assert.match(got.prompt, /^You are the assistant of a restaurant booking service[\s\S]*\n## Context\n\nresto_1 R_rating 5$/);
    assert.equal(got.rl.agent, 'rl-soft');
    assert.equal(got.rl.episodes, 20);
    for (const id of ['airdialogue-v1', 'infobot-small-v1', 'infobot-medium-v1', 'infobot-large-v1', 'infobot-xlarge-v1']) assert.ok(got.ids.includes(id), `${id} not in envs: ${got.ids.join(', ')}`);
    for (const [id, r] of Object.entries(got.out)) {
      assert.ok(r.steps >= 1, `${id}: no step played`);
      assert.ok(Number.isFinite(r.reward), `${id}: reward ${r.reward}`);
    }

    writeFileSync(
      join(app, 'check.ts'),
      `import { make, checkEnv, envs, type Env } from 'dialogym';
import { readDstc6Data } from 'dialogym';
import { InfoBotEnv } from 'dialogym/infobot';
import { createRulesBot } from 'dialogym/restaurant';
const ids: string[] = [...envs];
const env: Env<unknown, unknown> = make(ids[0] ?? 'airdialogue-v1');
const steps: number = checkEnv(env);
const medium = new InfoBotEnv({ split: 'medium' });
const reply: string = createRulesBot().respond([{ speaker: 'user', text: 'hello' }]);
// Built-in ids are typed: options, observations and actions checked.
const typed = make('infobot-medium-v1', { temperature: 2 });
const utterance: string = typed.reset({ seed: 1 }).obs.utterance;
typed.step({ act: 'request', slot: 'actor' });
// @ts-expect-error an AirDialogue move is not an InfoBot action
typed.step({ utterance: 'hi' });
// @ts-expect-error unknown option of a built-in environment
make('airdialogue-v1', { nope: 1 });
export { steps, medium, reply, readDstc6Data, utterance };
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(repoRoot, 'node_modules', '@types')] },
        files: ['check.ts'],
      }),
    );
    run(process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], app);
    assert.ok(readdirSync(app).includes('node_modules'));

    // The CLI of the installed package: eval with a shipped policy, then a training run, write
    // nothing under node_modules (trained policies go to the user folder, here a fresh HOME).
    const home = join(tmp, 'home');
    mkdirSync(home);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    delete env.DIALOGYM_HOME;
    delete env.DIALOGYM_POLICIES;
    delete env.XDG_CACHE_HOME;
    const bin = join(app, 'node_modules', 'dialogym', 'dist', 'src', 'cli', 'index.js');
    const before = snapshot(join(app, 'node_modules'));
    const cliRun = (...args: string[]): string => {
      const r = spawnSync(process.execPath, [bin, ...args], { cwd: app, encoding: 'utf8', env, timeout: 300_000 });
      assert.equal(r.status, 0, `dialogym ${args.join(' ')} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
      return r.stdout;
    };
    const evalOut = JSON.parse(cliRun('infobot', 'eval', '--agent', 'rl-soft', '--split', 'medium', '--episodes', '200', '--json')) as { agent: string; episodes: number; success: number };
    assert.equal(evalOut.agent, 'rl-soft');
    assert.equal(evalOut.episodes, 200);
    assert.ok(evalOut.success > 0.3, `rl-soft success ${evalOut.success}`);
    cliRun('infobot', 'train', '--agent', 'rl-soft', '--split', 'small', '--episodes', '200', '--imitation', '100');
    assert.ok(existsSync(join(home, '.cache', 'dialogym', 'policies', 'infobot', 'rl-soft-small.dgm')), 'the trained policy is not in ~/.cache/dialogym');
    assert.deepEqual(snapshot(join(app, 'node_modules')), before, 'the CLI wrote under node_modules');
    // The schemas ship, and the package's readers find them.
    assert.ok(files.includes('schemas/dstc6-data.schema.json'), 'schemas missing from the tarball');

    // SQLite KBs in the installed package: `kb import` and `serve --kb` work on every Node (node:sqlite,
    // or node-sqlite3-wasm, a dependency); with that dependency removed on a Node without node:sqlite,
    // the verbs that need SQLite say in one line how to get it back, and `serve --kb` on a KB text file needs none.
    assert.match(cliRun('--help'), /^Usage: dialogym /);
    const linked = spawnSync(join(app, 'node_modules', '.bin', 'dialogym'), ['--help'], { cwd: app, encoding: 'utf8', env });
    assert.equal(linked.status, 0, `node_modules/.bin/dialogym --help: ${linked.stderr}`);
    if (existsSync(babiDir)) {
      const kbText = join(babiDir, 'dialog-babi-kb-all.txt');
      const kbSqlite = join(app, 'kb.sqlite');
      const noDriverEnv: NodeJS.ProcessEnv = { ...env };
      delete noDriverEnv.NODE_PATH;
      if (sqliteDriver() !== undefined) {
        assert.equal(cliRun('kb', 'import', kbText, '--out', kbSqlite), `${kbSqlite}: 1200 restaurants (8400 facts, babi KB)\n`);
        const served = await serveOnce(bin, ['--model', 'rules', '--kb', kbSqlite], app, env);
        assert.equal(served.reply, 'hello what can i help you with today');
        assert.match(served.stderr, /SQLite, 1200 restaurants/);
      }
      // Without NODE_PATH: node:sqlite, or the node-sqlite3-wasm dependency the install brought.
      const bareImport = (): ReturnType<typeof spawnSync> => spawnSync(process.execPath, [bin, 'kb', 'import', kbText, '--out', join(app, 'bare.sqlite')], { cwd: app, encoding: 'utf8', env: noDriverEnv });
      assert.ok(existsSync(join(app, 'node_modules', 'node-sqlite3-wasm', 'package.json')), 'node-sqlite3-wasm (a dependency) was not installed');
      const bare = bareImport();
      assert.equal(bare.status, 0, String(bare.stderr));
      const builtIn = spawnSync(process.execPath, ['-e', "require('node:sqlite')"], { encoding: 'utf8' }).status === 0;
      if (!builtIn) {
        // node-sqlite3-wasm gone (a damaged install): one line whose command, typed in the project, brings it back.
        rmSync(join(app, 'node_modules', 'node-sqlite3-wasm'), { recursive: true, force: true });
        const broken = bareImport();
        const message = sqliteMissingMessage({ packageRoot: join(app, 'node_modules', 'dialogym'), cwd: app });
        assert.deepEqual([broken.status, broken.stderr], [1, `error: ${message}\n`]);
        const advice = /\(`(npm install)`\)/.exec(message)?.[1];
        assert.equal(advice, 'npm install');
        const fixed = spawnSync(npm, ['install', '--prefer-offline', '--no-package-lock'], { cwd: app, encoding: 'utf8', timeout: 300_000, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' } });
        assert.equal(fixed.status, 0, fixed.stderr);
        assert.equal(bareImport().status, 0);
      }
      const servedText = await serveOnce(bin, ['--model', 'rules', '--kb', kbText], app, noDriverEnv);
      assert.equal(servedText.reply, 'hello what can i help you with today');
    } else t.diagnostic('kb import / serve --kb in the installed package skipped: no bAbI data');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});
