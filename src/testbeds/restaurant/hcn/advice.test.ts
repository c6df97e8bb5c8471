import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Dialog, Turn } from '../../../core/dialog.js';
import { ModelFileError } from '../../../core/errors.js';
import { readBabiDialogs, readBabiKb } from '../../../formats/babi.js';
import { accuracy } from '../../../metrics/ranking.js';
import { evaluateDialogs } from '../../../rankers/evaluate-responses.js';
import { decodeModelFile, encodeModelFile } from '../../../formats/model-file.js';
import { cli, oneLineError } from '../../../../test/cli.js';
import { babiDir, skipUnless } from '../../../../test/shared-data.js';
import { createDstc2HeardBot } from '../rules/dstc2-heard.js';
import { ADVICE_PRIOR, RulesAdvisor } from './advice.js';
import { encodeHistory } from './encode.js';
import { Hcn } from './hcn.js';
import { trainHcn } from './train.js';

const P = join(babiDir, 'dialog-babi-task6-dstc2');
const skip = skipUnless(babiDir);

describe('hcn --rules-advice (task 6)', { skip }, () => {
  const trn = skip ? [] : readBabiDialogs(`${P}-trn.txt`).dialogs.slice(0, 40);
  const dev = skip ? [] : readBabiDialogs(`${P}-dev.txt`).dialogs.slice(0, 10);
  const facts = skip ? [] : readBabiKb(`${P}-kb.txt`).facts;
  const bot = skip ? undefined : createDstc2HeardBot(trn, { kb: facts });
  const prefixes = (ds: readonly Dialog[]): Turn[][] => ds.flatMap((d) => d.turns.flatMap((t, i) => (t.speaker === 'bot' ? [d.turns.slice(0, i)] : [])));

  it('flags the templates whose fill is the dstc2-heard response, with a prior vote for each', () => {
    const { model } = trainHcn({ train: trn, dev, facts }, { epochs: 1, rulesAdvice: true });
    assert.equal(model.spec.advice, true);
    let flagged = 0;
    let steps = 0;
    for (const d of dev) {
      const { steps: ss } = encodeHistory(model, d.turns, false);
      const hs = prefixes([d]);
      ss.forEach((s, k) => {
        steps++;
        const advice = bot?.respond(hs[k] as Turn[]);
        assert.equal(s.advice, advice, 'the step holds the rules response to its history');
        const want = s.fills.flatMap((f, t) => (f === advice ? [`advised:${t}`] : []));
        const got = model.featurizer.describe(s.x).filter((n) => n.startsWith('advised:'));
        assert.deepEqual(got, want);
        if (want.length > 0) flagged++;
      });
    }
    // Most rules responses are one of the model's filled templates.
    assert.ok(flagged > 0.7 * steps, `${flagged} of ${steps} steps flagged`);
    // The vote starts at ADVICE_PRIOR and is trained (one epoch moves it).
    const { size, oAdvice } = model.featurizer;
    const diag = [...Array(model.templates.size).keys()].map((t) => model.net.Vo.data[t * size + oAdvice + t] as number);
    assert.ok(diag.some((v) => v !== ADVICE_PRIOR) && diag.filter((v) => Math.abs(v - ADVICE_PRIOR) < 1).length > diag.length / 2);
    const frozen = trainHcn({ train: trn, dev, facts }, { epochs: 1, rulesAdvice: true, adviceFrozen: true }).model;
    for (let t = 0; t < frozen.templates.size; t++) assert.equal(frozen.net.Vo.data[t * frozen.featurizer.size + frozen.featurizer.oAdvice + t], ADVICE_PRIOR);
  });

  it('with the gate at 1, says the rules response wherever the rules say something', () => {
    const { model } = trainHcn({ train: trn, dev, facts }, { epochs: 1, rulesAdvice: true, adviceGate: 1 });
    let n = 0;
    for (const h of prefixes(dev)) {
      const advice = bot?.respond(h) ?? '';
      if (advice === '') continue;
      const p = model.predict(h);
      assert.equal(p.text, advice);
      assert.equal(p.advised, true);
      n++;
    }
    assert.ok(n > 50);
  });

  it('round-trips through the model file; old hcn files have no advisor; a broken advisor is one line', () => {
    const { model } = trainHcn({ train: trn, dev, facts }, { epochs: 1, rulesAdvice: true, adviceGate: 0.9 });
    const c = decodeModelFile(encodeModelFile(model.toModelFile()), 'm.dgm');
    assert.equal(c.model, 'hcn');
    const back = Hcn.fromModelFile(c, 'm.dgm');
    assert.equal(back.adviceGate, 0.9);
    for (const h of prefixes(dev.slice(0, 3))) assert.equal(back.predict(h).text, model.predict(h).text);
    const plain = trainHcn({ train: trn.slice(0, 10), dev: [], facts }, { epochs: 1 }).model.toModelFile();
    assert.equal((plain.meta as { advisor?: unknown }).advisor, undefined);
    assert.equal((plain.meta as { spec: { advice?: boolean } }).spec.advice, undefined);
    const meta = c.meta as Record<string, unknown>;
    assert.throws(() => Hcn.fromModelFile({ ...c, meta: { ...meta, advisor: undefined } }, 'm.dgm'), (e: unknown) => e instanceof ModelFileError && /m\.dgm: corrupt model file \(hcn advice features without an advisor\)/.test(e.message));
    assert.throws(() => Hcn.fromModelFile({ ...c, meta: { ...meta, advisor: { kind: 'dstc2-heard', train: [['d', [['x', 'hi']]]], kb: [] } } }, 'm.dgm'), /m\.dgm: corrupt model file \(hcn advisor: a turn of dialog 0\)/);
    assert.throws(() => Hcn.fromModelFile({ ...c, meta: { ...meta, adviceGate: 2 } }, 'm.dgm'), /m\.dgm: corrupt model file \(hcn meta: .*adviceGate/);
    assert.throws(() => RulesAdvisor.fromJSON({ kind: 'rules' }, 'f'), /hcn advisor: unknown kind "rules"/);
  });

  it('dialogym train --model hcn --rules-advice writes a model that eval reads alone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hcn-advice-'));
    // The first dialogs of trn and dev, as files (the bAbI format: the reader's own output).
    const head = (file: string, n: number): string => readFileSync(file, 'utf8').split('\n\n').slice(0, n).join('\n\n') + '\n\n';
    writeFileSync(join(dir, 'trn.txt'), head(`${P}-trn.txt`, 30));
    writeFileSync(join(dir, 'dev.txt'), head(`${P}-dev.txt`, 8));
    const m = join(dir, 'm.dgm');
    const t = cli('train', '--model', 'hcn', '--rules-advice', '--advice-gate', '1', '--epochs', '1', '--train', join(dir, 'trn.txt'), '--dev', join(dir, 'dev.txt'), '--kb', `${P}-kb.txt`, '--candidates', `${P}-candidates.txt`, '--out', m);
    assert.equal(t.code, 0, t.stderr);
    const devDialogs = readBabiDialogs(join(dir, 'dev.txt')).dialogs;
    const heard = createDstc2HeardBot(readBabiDialogs(join(dir, 'trn.txt')).dialogs, { kb: readBabiKb(`${P}-kb.txt`).facts });
    const e = cli('eval', '--model', m, '--data', join(dir, 'dev.txt'), '--json');
    assert.equal(e.code, 0, e.stderr);
    // At gate 1 the model says the rules' response when it is a candidate, its own choice where the
    // rules say nothing: at least the rules' accuracy, at most a few turns more.
    const [got, base] = [JSON.parse(e.stdout).perResponse as number, accuracy.perResponse(evaluateDialogs(heard, devDialogs))];
    assert.ok(got >= base && got <= base + 0.05, `${got} vs dstc2-heard ${base}`);
    oneLineError(cli('train', '--model', 'hcn', '--advice-gate', '0.5', '--train', join(dir, 'trn.txt'), '--kb', `${P}-kb.txt`, '--out', m), /--advice-gate needs --rules-advice/, 2);
    oneLineError(cli('train', '--model', 'memn2n', '--rules-advice', '--train', join(dir, 'trn.txt'), '--dev', join(dir, 'dev.txt'), '--candidates', `${P}-candidates.txt`, '--out', m), /--rules-advice does not apply to memn2n/, 2);
  });
});
