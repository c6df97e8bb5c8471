/** `dialogym train` and `dialogym eval --model <file>` through the real CLI, on synthetic files. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliPath } from '../../../test/shared-data.js';
import { formatBabiCandidates, formatBabiDialogs, formatBabiKb } from '../../formats/babi.js';
import { CITIES, CUISINES, OOV_CITIES, OOV_CUISINES, syntheticCandidates, syntheticDialogs } from '../../rankers/testing/synthetic.js';

function cli(...args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [cliPath, ...args], { encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'dialogym-train-'));
const f = (n: string): string => join(dir, n);
writeFileSync(f('trn.txt'), formatBabiDialogs(syntheticDialogs(150, 1)));
writeFileSync(f('dev.txt'), formatBabiDialogs(syntheticDialogs(30, 2)));
writeFileSync(f('tst.txt'), formatBabiDialogs(syntheticDialogs(30, 3)));
writeFileSync(f('oov.txt'), formatBabiDialogs(syntheticDialogs(30, 4, 'oov')));
writeFileSync(f('cands.txt'), formatBabiCandidates({ candidates: syntheticCandidates() }));
writeFileSync(
  f('kb.txt'),
  formatBabiKb({
    facts: [
      ...[...CUISINES, ...OOV_CUISINES].map((c) => ({ entity: `resto_${c}`, attr: 'R_cuisine', value: c })),
      ...[...CITIES, ...OOV_CITIES].map((y) => ({ entity: `resto_${y}`, attr: 'R_location', value: y })),
    ],
  }),
);
const common = ['--train', f('trn.txt'), '--dev', f('dev.txt'), '--candidates', f('cands.txt')];

function evalJson(model: string, data: string, ...extra: string[]): { perResponse: number; perDialog: number } {
  const r = cli('eval', '--model', model, '--data', data, '--candidates', f('cands.txt'), '--json', ...extra);
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout) as { perResponse: number; perDialog: number };
}

// The earlier SGD recipe: the default Adam one reaches dev 100% on these files too, but leans less
// on the type words for unseen entities (OOV ~0.8; see memn2n.test.ts).
const sgd = ['--optimizer', 'sgd', '--lr', '0.01', '--patience', '8', '--hard-negatives', '0'];

test('train memn2n + match → model file → eval, including unseen entities', () => {
  const r = cli('train', '--model', 'memn2n', '--match-type', '--kb', f('kb.txt'), ...common, ...sgd, '--dim', '16', '--hops', '2', '--epochs', '12', '--seed', '5', '--out', f('m.dgm'));
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^memn2n\+match: dev per-response \d+\.\d\d% \(epoch=\d+\), trained in [\d.]+s\n {2}wrote .*m\.dgm\n$/);
  assert.match(r.stderr, /train memn2n\+match: \d+\/12 .*loss [\d.]+ dev [\d.]+%/);
  assert.ok(evalJson(f('m.dgm'), f('tst.txt')).perResponse > 0.95);
  assert.ok(evalJson(f('m.dgm'), f('oov.txt')).perResponse > 0.95);
  // Same seed → byte-identical model file.
  const again = cli('train', '--model', 'memn2n', '--match-type', '--kb', f('kb.txt'), ...common, ...sgd, '--dim', '16', '--hops', '2', '--epochs', '12', '--seed', '5', '--out', f('m2.dgm'));
  assert.equal(again.code, 0, again.stderr);
  assert.deepEqual(readFileSync(f('m2.dgm')), readFileSync(f('m.dgm')));
});

test('train memn2n with the full profile recipe (--optimizer adam --hard-negatives): learns, same seed → same file', () => {
  const args = ['train', '--model', 'memn2n', '--match-type', '--kb', f('kb.txt'), ...common, '--dim', '16', '--hops', '2', '--epochs', '8', '--optimizer', 'adam', '--lr', '0.01', '--hard-negatives', '3', '--seed', '2'];
  const r = cli(...args, '--out', f('h.dgm'));
  assert.equal(r.code, 0, r.stderr);
  assert.ok(evalJson(f('h.dgm'), f('tst.txt')).perResponse > 0.95);
  assert.equal(cli(...args, '--out', f('h2.dgm')).code, 0);
  assert.deepEqual(readFileSync(f('h2.dgm')), readFileSync(f('h.dgm')));
  assert.match(cli('train', '--model', 'tfidf', ...common, '--hard-negatives', '3', '--out', f('x.dgm')).stderr, /^error: --hard-negatives does not apply to tfidf/);
});

test('train memn2n --negatives 0 trains with the softmax over all candidates (another model than the sampled default); embeddings refuses it', () => {
  const args = ['train', '--model', 'memn2n', ...common, '--dim', '8', '--hops', '1', '--epochs', '2', '--seed', '3'];
  const full = cli(...args, '--negatives', '0', '--out', f('full.dgm'));
  assert.equal(full.code, 0, full.stderr);
  assert.equal(cli(...args, '--out', f('sampled.dgm')).code, 0);
  assert.notDeepEqual(readFileSync(f('full.dgm')), readFileSync(f('sampled.dgm')));
  assert.ok(evalJson(f('full.dgm'), f('tst.txt')).perResponse > 0.3);
  const r = cli('train', '--model', 'embeddings', ...common, '--negatives', '0', '--out', f('e0.dgm'));
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /^error: --negatives 0 \(softmax over all candidates\) is memn2n's; embeddings needs at least 1\n$/);
  assert.ok(!existsSync(f('e0.dgm')));
});

test('train tfidf / nn / embeddings write loadable model files', () => {
  // tfidf cannot tell which city/cuisine to put in the api_call (it only beats chance); nn and
  // embeddings learn the fixed turns at least.
  const floor: Record<string, number> = { tfidf: 0.01, nn: 0.5, embeddings: 0.5 };
  for (const [model, extra] of [['tfidf', []], ['nn', []], ['embeddings', ['--epochs', '5', '--dim', '8']]] as const) {
    const out = f(`${model}.dgm`);
    const r = cli('train', '--model', model, ...common, ...extra, '--out', out);
    assert.equal(r.code, 0, r.stderr);
    const a = evalJson(out, f('tst.txt'));
    assert.ok(a.perResponse > (floor[model] as number) && a.perResponse <= 1, `${model}: ${a.perResponse}`);
  }
});

test('train/eval errors: one line, non-zero exit, no output file', () => {
  const one = (r: { code: number; stderr: string }, re: RegExp, code?: number): void => {
    assert.notEqual(r.code, 0);
    if (code !== undefined) assert.equal(r.code, code);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
    assert.match(r.stderr.trimEnd(), re);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  };
  one(cli('train', '--model', 'memn2n', ...common, '--match-type', '--out', f('x.dgm')), /^error: --match-type needs --kb/, 2);
  one(cli('train', '--model', 'rules', ...common, '--out', f('x.dgm')), /^error: --model: cannot train 'rules'/, 2);
  one(cli('train', '--model', 'memn2n', ...common, '--hops', '0', '--out', f('x.dgm')), /--hops: must be >= 1, got 0/);
  one(cli('train', '--model', 'memn2n', '--train', f('missing.txt'), '--dev', f('dev.txt'), '--candidates', f('cands.txt'), '--out', f('x.dgm')), /^error: .*missing\.txt: no such file$/);
  assert.ok(!existsSync(f('x.dgm')));
  const good = readFileSync(f('nn.dgm'));
  writeFileSync(f('bad.dgm'), good.subarray(0, good.length - 10));
  one(cli('eval', '--model', f('bad.dgm'), '--data', f('tst.txt'), '--candidates', f('cands.txt')), /^error: .*bad\.dgm: truncated model file/);
  const flipped = Buffer.from(good);
  flipped[flipped.length - 5] = (flipped[flipped.length - 5] as number) ^ 0xff;
  writeFileSync(f('flip.dgm'), flipped);
  one(cli('eval', '--model', f('flip.dgm'), '--data', f('tst.txt'), '--candidates', f('cands.txt')), /^error: .*flip\.dgm: corrupt model file \(checksum mismatch\)$/);
  one(cli('eval', '--model', 'tfidf+type', '--data', f('tst.txt'), '--candidates', f('cands.txt')), /^error: model 'tfidf\+type' needs a KB file \(--kb\)$/, 2);
  const named = evalJson('tfidf+type', f('oov.txt'), '--kb', f('kb.txt'));
  assert.ok(named.perResponse > 0 && named.perResponse < 1);
  one(cli('eval', '--model', f('nope.dgm'), '--data', f('tst.txt'), '--candidates', f('cands.txt')), /^error: .*nope\.dgm: no such file$/);
  one(cli('eval', '--model', f('tst.txt'), '--data', f('tst.txt'), '--candidates', f('cands.txt')), /^error: .*tst\.txt: not a dialogym model file/);
});
