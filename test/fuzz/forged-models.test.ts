/**
 * Real model files of every kind that holds tensors — the rankers memn2n and embeddings, hcn, the shipped
 * KB-InfoBot policies (RL and end-to-end) and the learned AirDialogue models — forged with a valid
 * checksum: a tensor made all NaN, one ±Infinity, a tensor aliased onto the first one's bytes,
 * overlapping it, or pointing past the data. Each kind's own loader refuses each forgery in one
 * line naming the file and the tensor; the CLI exits non-zero with that line (issue 32's memn2n
 * and hcn files loaded and ran with exit 0).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelFileError } from '../../src/core/errors.js';
import { formatBabiCandidates, formatBabiDialogs, readBabiKb } from '../../src/formats/babi.js';
import { encodeModelFile } from '../../src/formats/model-file.js';
import { fillTensor, forgeModelFile, modelFileParts, type ModelFileParts } from '../../src/formats/testing/forge-model-file.js';
import { loadModel, saveModel, trainModel } from '../../src/rankers/registry.js';
import { Tfidf } from '../../src/rankers/tfidf.js';
import { syntheticCandidates, syntheticDialogs } from '../../src/rankers/testing/synthetic.js';
import '../../src/index.js'; // every testbed, loaded
import { loadPolicy } from '../../src/testbeds/infobot/agents/policy-file.js';
import { loadE2e } from '../../src/testbeds/infobot/agents/e2e-file.js';
import { synthesizeSplits } from '../../src/testbeds/airdialogue/learned/data.js';
import { loadAirModels, saveAirModels, trainAirModels } from '../../src/testbeds/airdialogue/learned/train.js';
import { babiDir, cliPath, repoRoot, skipUnless } from '../shared-data.js';
import { trainTinyHcn } from '../tiny-hcn.js';

const dir = mkdtempSync(join(tmpdir(), 'dialogym-forged-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

type Tensor = { name: string; offset: number; length: number };
const tensorAt = (p: ModelFileParts, i: number): Tensor => p.header.tensors[i] as unknown as Tensor;
const label = (p: ModelFileParts, i: number): string => `tensor "${tensorAt(p, i).name}" \\(index ${i}\\)`;

/** The forgeries of one real file: bytes and the message each must be refused with (a regex source after `<file>: `). */
function forgeries(buf: Buffer): { name: string; bytes: Buffer; re: string }[] {
  const p = modelFileParts(buf);
  const n = p.header.tensors.length;
  assert.ok(n >= 2, 'a model with at least two tensors');
  const first = tensorAt(p, 0);
  const last = n - 1;
  // The first tensor with more than one value, to overlap it past its first float.
  const host = p.header.tensors.findIndex((t) => (t as unknown as Tensor).length > 1);
  const victim = host === last ? 0 : last;
  return [
    { name: 'all-NaN first tensor', bytes: forgeModelFile(buf, (q) => fillTensor(q, 0)), re: `${label(p, 0)}: ${first.length} non-finite values? of ${first.length} \\(value 0 is NaN\\)` },
    { name: '-Infinity in the last tensor', bytes: forgeModelFile(buf, (q) => q.data.writeFloatLE(-Infinity, tensorAt(q, last).offset)), re: `${label(p, last)}: 1 non-finite value of \\d+ \\(value 0 is -Infinity\\)` },
    { name: `tensor ${Math.min(2, last)} aliased onto the first`, bytes: forgeModelFile(buf, (q) => (tensorAt(q, Math.min(2, last)).offset = 0)), re: `${label(p, Math.min(2, last))}: bytes 0–\\d+ alias the weights of ${label(p, 0)} \\(same offset\\)` },
    { name: 'overlapping', bytes: forgeModelFile(buf, (q) => (tensorAt(q, victim).offset = tensorAt(q, host).offset + 4)), re: `${label(p, victim)}: bytes \\d+–\\d+ (overlap|lie outside|alias)|${label(p, Math.min(victim, host))}: starts at byte` },
    { name: 'out of range', bytes: forgeModelFile(buf, (q) => (tensorAt(q, last).offset = q.header.dataBytes)), re: `${label(p, last)}: bytes \\d+–\\d+ lie outside the \\d+ bytes of tensor data` },
  ];
}

/** Each forgery of `buf`, written to a file and given to `load`, is refused in one line naming the file and the tensor. */
function refusesAll(kind: string, buf: Buffer, load: (file: string) => unknown): void {
  const ok = join(dir, `${kind}-ok.dgm`);
  writeFileSync(ok, buf);
  load(ok); // the unforged file loads
  for (const f of forgeries(buf)) {
    const file = join(dir, `${kind}-forged.dgm`);
    writeFileSync(file, f.bytes);
    assert.throws(
      () => load(file),
      (e: unknown) => e instanceof ModelFileError && !e.message.includes('\n') && new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: (${f.re})`).test(e.message),
      `${kind}: ${f.name}`,
    );
  }
}

const train = syntheticDialogs(12, 1);
const dev = syntheticDialogs(4, 2);
const candidates = syntheticCandidates();

test('forged ranker files (memn2n, embeddings) are refused by loadModel, naming the tensor', () => {
  for (const model of ['memn2n', 'embeddings'] as const) {
    const f = join(dir, `${model}.dgm`);
    saveModel(f, trainModel(model, { train, dev, candidates }, { epochs: 1, dim: 8, seed: 1 }).model);
    refusesAll(model, readFileSync(f), (file) => loadModel(file));
  }
  // nn and tfidf keep everything in their metadata (checked by its schema): no tensor to forge.
  const f = join(dir, 'nn.dgm');
  saveModel(f, trainModel('nn', { train, dev, candidates }, {}).model);
  assert.equal(modelFileParts(readFileSync(f)).header.tensors.length, 0);
  assert.equal(modelFileParts(encodeModelFile(Tfidf.fit(candidates, { input: 'history', matchType: false }).toModelFile())).header.tensors.length, 0);
});

test('forged KB-InfoBot policies (RL and end-to-end, as shipped) are refused by their loaders', () => {
  refusesAll('rl-soft', readFileSync(join(repoRoot, 'policies', 'infobot', 'rl-soft-small.dgm')), loadPolicy);
  refusesAll('e2e-soft', readFileSync(join(repoRoot, 'policies', 'infobot', 'e2e-soft-small.dgm')), loadE2e);
});

test('forged learned AirDialogue models are refused by loadAirModels', () => {
  const s = synthesizeSplits({ train: 6, dev: 2, test: 2, seed: 2 });
  const f = join(dir, 'air.dgm');
  saveAirModels(f, trainAirModels(s.train, s.dev, { epochs: 1, dim: 6, hidden: 8, batch: 4, seed: 5 }).models);
  refusesAll('air', readFileSync(f), loadAirModels);
});

test('forged hcn files are refused by loadModel', { skip: skipUnless(babiDir) }, () => {
  const hcn = encodeModelFile(trainTinyHcn(readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts, { dialogs: 20, epochs: 1 }).model.toModelFile());
  refusesAll('hcn', hcn, (file) => loadModel(file));
});

test('CLI: eval with an all-NaN memn2n file or an aliased hcn file exits non-zero with one line', { skip: skipUnless(babiDir) }, () => {
  const data = join(dir, 'tst.txt');
  writeFileSync(data, formatBabiDialogs(syntheticDialogs(4, 3)));
  const cands = join(dir, 'cands.txt');
  writeFileSync(cands, formatBabiCandidates({ candidates }));
  const mem = join(dir, 'memn2n-cli.dgm');
  saveModel(mem, trainModel('memn2n', { train, dev, candidates }, { epochs: 1, dim: 8, seed: 1 }).model);
  const nan = join(dir, 'nan.dgm');
  writeFileSync(nan, forgeModelFile(readFileSync(mem), (p) => fillTensor(p, 0)));
  const hcnOk = join(dir, 'hcn-cli.dgm');
  const kb = join(babiDir, 'dialog-babi-kb-all.txt');
  writeFileSync(hcnOk, encodeModelFile(trainTinyHcn(readBabiKb(kb).facts, { dialogs: 20, epochs: 1 }).model.toModelFile()));
  const aliased = join(dir, 'aliased.dgm');
  writeFileSync(aliased, forgeModelFile(readFileSync(hcnOk), (p) => ((p.header.tensors[2] as { offset: number }).offset = 0)));
  const run = (...args: string[]) => spawnSync(process.execPath, [cliPath, 'eval', ...args], { encoding: 'utf8' });
  // The unforged files run.
  assert.equal(run('--model', mem, '--data', data, '--candidates', cands).status, 0);
  const cases: [string[], RegExp][] = [
    [['--model', nan, '--data', data, '--candidates', cands], /^error: .*nan\.dgm: tensor "[^"]+" \(index 0\): \d+ non-finite values of \d+ \(value 0 is NaN\)\n$/],
    [['--model', aliased, '--data', data, '--candidates', join(babiDir, 'dialog-babi-candidates.txt'), '--kb', kb], /^error: .*aliased\.dgm: tensor "[^"]+" \(index 2\): bytes 0–\d+ alias the weights of tensor "[^"]+" \(index 0\) \(same offset\)\n$/],
  ];
  for (const [args, re] of cases) {
    const r = run(...args);
    assert.notEqual(r.status, 0, args.join(' '));
    assert.match(r.stderr, re);
    assert.equal(r.stdout, '');
  }
});
