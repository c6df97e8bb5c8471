import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Dialog, Turn } from '../../src/core/dialog.js';
import { ConfigError } from '../../src/core/errors.js';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../../src/formats/babi.js';
import { evaluateDialogs } from '../../src/rankers/evaluate-responses.js';
import { accuracy } from '../../src/metrics/ranking.js';
import { b, GREET, resto, u } from '../../src/testbeds/restaurant/testing/dstc2.js';
import { cli, oneLineError } from '../../test/cli.js';
import { babiDir, skipUnless } from '../../test/shared-data.js';
import { createDstc2AdaptBot } from './dstc2-adapt.js';
import { createDstc2HeardBot } from '../../src/testbeds/restaurant/rules/dstc2-heard.js';

/** Version A's wording of an offer of a cheap restaurant in the north. */
const offerA = (n: string): string => `${n} is a nice place in the north of town and the prices are cheap`;
/** Version B's wording of the same offer. */
const offerB = (n: string): string => `${n} is a nice restaurant in the north of town in the cheap price range`;

const search: Turn[] = [u('cheap italian food in the north'), b('api_call italian north cheap')];
/** A training dialog of version A: an offer, another one, the phone number. */
const trainDialog = (i: number): Dialog => ({
  id: `d${i}`,
  turns: [
    u('<SILENCE>'), b(GREET), ...search, ...resto(`r${i}`, 'italian', 'north', 'cheap', 5), ...resto(`s${i}`, 'italian', 'north', 'cheap', 4),
    u('<SILENCE>'), b(offerA(`r${i}`)), u('anything else'), b(offerA(`s${i}`)), u('thank you good bye'), b('you are welcome'),
  ],
});
const train = [0, 1, 2].map(trainDialog);
// The restaurants of the dialogs below, as the task's KB file gives them.
const kb = ['x1', 'x2'].flatMap((n) => [{ entity: n, attr: 'R_cuisine', value: 'italian' }, { entity: n, attr: 'R_location', value: 'north' }]);
const results = [...resto('x1', 'italian', 'north', 'cheap', 5), ...resto('x2', 'italian', 'north', 'cheap', 4)];

describe('dstc2-adapt bot', () => {
  it('needs training dialogs', () => {
    assert.throws(() => createDstc2AdaptBot([]), (e: unknown) => e instanceof ConfigError && /'dstc2-adapt'.*--train/.test((e as Error).message));
  });

  it("re-says an act in the dialog's own earlier wording of it, with the current entities", () => {
    const h: Turn[] = [u('<SILENCE>'), b(GREET), ...search, ...results, u('<SILENCE>'), b(offerB('x1')), u('anything else')];
    assert.equal(createDstc2HeardBot(train, { kb }).respond(h), offerA('x2'));
    assert.equal(createDstc2AdaptBot(train, { kb }).respond(h), offerB('x2'));
    // The dialog's earlier wording is the learned one: unchanged.
    const same: Turn[] = [...h.slice(0, -2), b(offerA('x1')), u('anything else')];
    assert.equal(createDstc2AdaptBot(train, { kb }).respond(same), offerA('x2'));
  });

  it('with candidates: a dialog that said something no training turn says takes an unseen wording from them', () => {
    const candidates = [offerA('r0'), offerB('r1'), 'The address of x1 is 7 Milton Road .', 'Sorry there is no french restaurant in the north of town'];
    const first: Turn[] = [u('<SILENCE>'), b(GREET), ...search, ...results, u('<SILENCE>')];
    const novel: Turn[] = [u('<SILENCE>'), b(GREET), u('french food in the north'), b('Sorry there is no french restaurant in the north of town'), ...first.slice(2)];
    const bot = createDstc2AdaptBot(train, { kb, candidates });
    assert.equal(bot.respond(novel), offerB('x1'));
    // Nothing novel so far: the learned wording; no candidates: no pool.
    assert.equal(bot.respond(first), offerA('x1'));
    assert.equal(createDstc2AdaptBot(train, { kb }).respond(novel), offerA('x1'));
  });
});

const T6 = (split: string): string => join(babiDir, `dialog-babi-task6-dstc2-${split}.txt`);

describe('dstc2-adapt on the original task-6 data', () => {
  it('trained on trn → dev 57.20 % (dstc2-heard 56.48 %), the same with the candidates', { skip: skipUnless(babiDir) }, () => {
    const trn = readBabiDialogs(T6('trn')).dialogs;
    const dev = readBabiDialogs(T6('dev')).dialogs;
    const kb = readBabiKb(join(babiDir, 'dialog-babi-task6-dstc2-kb.txt')).facts;
    const candidates = readBabiCandidates(T6('candidates')).candidates;
    for (const extra of [{}, { candidates }]) {
      const r = evaluateDialogs(createDstc2AdaptBot(trn, { kb, ...extra }), dev);
      assert.equal(r.turns, 4159);
      assert.equal(Math.round(accuracy.perResponse(r) * r.turns), 2379);
    }
    oneLineError(cli('eval', '--model', 'dstc2-adapt', '--data', T6('dev')), /unknown model 'dstc2-adapt'/);
  });
});
