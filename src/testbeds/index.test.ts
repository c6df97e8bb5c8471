import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TESTBEDS, loadTestbeds, testbedOf } from './index.js';
import { agents } from '../agents/registry.js';
import { envs, make } from '../env/env.js';

const listUrl = new URL('./index.js', import.meta.url).href;
const envUrl = new URL('../env/env.js', import.meta.url).href;

test('every declared id is one testbed\'s, and builds an environment of that id', async () => {
  await loadTestbeds();
  const ids = TESTBEDS.flatMap((t) => t.envs.map((e) => e.id));
  assert.equal(new Set(ids).size, ids.length, 'an id declared twice');
  assert.equal(ids.length, 66);
  for (const t of TESTBEDS) {
    for (const e of t.envs) {
      assert.equal(testbedOf(e.id), t);
      assert.ok(envs.has(e.id), e.id);
      assert.equal(make(e.id).id, e.id);
    }
  }
  assert.equal(testbedOf('restaurant-task9-v1'), undefined);
});

test('an agent family plays the environments of the testbeds that name it, and no other', async () => {
  await loadTestbeds();
  for (const t of TESTBEDS) {
    const family = t.agentFamily === undefined ? undefined : agents.get(t.agentFamily);
    for (const e of t.envs) {
      assert.deepEqual(agents.list().filter((f) => f.factory.plays(e.id)).map((f) => f.name), family ? [t.agentFamily] : [], e.id);
    }
  }
  assert.deepEqual(agents.names(), ['airdialogue', 'infobot', 'restaurant']);
});

/** Runs an ES module script in a fresh process; the URLs of the dialogym modules it loaded, and its stdout. */
function fresh(script: string): { stdout: string; loaded: string[] } {
  const tmp = mkdtempSync(join(tmpdir(), 'dialogym-list-'));
  try {
    const log = join(tmp, 'loaded.txt');
    const hooks = join(tmp, 'hooks.mjs');
    writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`);
    const register = join(tmp, 'register.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const r = spawnSync(process.execPath, ['--import', pathToFileURL(register).href, '--input-type=module', '-e', script], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const srcRoot = pathToFileURL(fileURLToPath(new URL('..', import.meta.url))).href;
    return { stdout: r.stdout, loaded: [...new Set(readFileSync(log, 'utf8').trim().split('\n').filter((u) => u.startsWith(srcRoot)).map((u) => u.slice(srcRoot.length)))] };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

test('the list is light: a testbed\'s code is imported when it is loaded, not before; make says to load it', () => {
  const r = fresh(`
    const { declareTestbeds, loadTestbeds } = await import(${JSON.stringify(listUrl)});
    const { make, envs } = await import(${JSON.stringify(envUrl)});
    declareTestbeds();
    console.log([...envs].length);
    try { make('airdialogue-v1'); } catch (e) { console.log(e.message); }
    await loadTestbeds(['airdialogue']);
    console.log(make('airdialogue-v1').id);
  `);
  assert.deepEqual(r.stdout.trim().split('\n'), [
    '66',
    "airdialogue-v1: its testbed is not loaded: `await loadEnv('airdialogue-v1')` first (`import 'dialogym'` loads every testbed)",
    'airdialogue-v1',
  ]);
  // AirDialogue's code, none of the others'.
  assert.ok(r.loaded.includes('testbeds/airdialogue/env.js'));
  const others = r.loaded.filter((m) => /^testbeds\/(restaurant|dstc6|infobot)\//.test(m) && !/\/(testbed|ids|sets|slots|model-list)\.js$/.test(m));
  assert.deepEqual(others, []);
  // The descriptors alone load no environment, model or agent code.
  const listOnly = fresh(`await import(${JSON.stringify(listUrl)});`);
  assert.deepEqual(listOnly.loaded.filter((m) => m.startsWith('testbeds/')).sort(), [
    'testbeds/airdialogue/testbed.js',
    'testbeds/dstc6/sets.js',
    'testbeds/dstc6/testbed.js',
    'testbeds/index.js',
    'testbeds/infobot/slots.js',
    'testbeds/infobot/testbed.js',
    'testbeds/restaurant/model-list.js',
    'testbeds/restaurant/online/ids.js',
    'testbeds/restaurant/testbed.js',
    'testbeds/testbed.js',
  ]);
});

test('the LLM prompt files a descriptor names are shipped (prompts/)', () => {
  const promptDir = fileURLToPath(new URL('../../../prompts/', import.meta.url));
  for (const t of TESTBEDS) {
    for (const file of [t.llm?.prompt, t.llm?.userPrompt].filter((f) => f !== undefined)) assert.ok(existsSync(join(promptDir, file)), `${t.name}: prompts/${file}`);
  }
  assert.deepEqual(TESTBEDS.map((t) => t.llm?.prompt), ['restaurant.md', 'dstc6.md', 'infobot.md', 'airdialogue.md']);
});

const registryUrl = new URL('../rankers/registry.js', import.meta.url).href;

test("the testbeds' models are declared with the list, light; their code comes with loadModels, the one step (issue 37)", () => {
  const declared = fresh(`
    const { declareTestbeds } = await import(${JSON.stringify(listUrl)});
    declareTestbeds();
    const { models, creatableModels, trainableModels, createModel, describeModels } = await import(${JSON.stringify(registryUrl)});
    console.log(models.names().join(' '));
    console.log(creatableModels().join(' '));
    console.log(trainableModels().includes('hcn'));
    console.log(describeModels(['rules']));
    try { createModel('rules'); } catch (e) { console.log(e.name + ': ' + e.message); }
    try { createModel('hcn'); } catch (e) { console.log(e.message.split(':')[0]); }
  `);
  assert.deepEqual(declared.stdout.trim().split('\n'), [
    'embeddings embeddings+bigrams embeddings+match hcn memn2n memn2n+match nn nn+prev rules rules-dstc2 tfidf tfidf+type tfidf+type-word',
    'rules rules-dstc2 tfidf tfidf+type',
    'true',
    '  rules  tasks 1-5, DSTC6: rule-based bot (state tracking, fixed policy); the 100% reference',
    "ConfigError: model 'rules' is the restaurant testbed's and its code is not loaded: `await loadModels()` first (`import 'dialogym'` does it)",
    "model 'hcn' has to be trained first",
  ]);
  // Named, described and checked without their code.
  assert.deepEqual(declared.loaded.filter((m) => /^testbeds\/restaurant\/(models|rules|hcn)/.test(m)), []);
  const loaded = fresh(`
    const { declareTestbeds } = await import(${JSON.stringify(listUrl)});
    declareTestbeds();
    const { createModel, loadModels } = await import(${JSON.stringify(registryUrl)});
    await loadModels();
    console.log(createModel('rules').respond([{ speaker: 'user', text: 'hello' }]));
  `);
  assert.equal(loaded.stdout, 'hello what can i help you with today\n');
  assert.ok(loaded.loaded.includes('testbeds/restaurant/models.js'));
  // The list itself imports the declarations' module, not the registry (the ranker code).
  const listOnly = fresh(`await import(${JSON.stringify(listUrl)});`);
  assert.deepEqual(listOnly.loaded.filter((m) => m.startsWith('rankers/')), ['rankers/model-lists.js']);
});
