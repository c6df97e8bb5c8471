import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { babiDir, dstc6Dir, skipUnless } from '../../../../test/shared-data.js';
import type { Turn } from '../../../core/dialog.js';
import { readBabiDialogs } from '../../../formats/babi.js';
import { dstc6History, readDstc6Data } from '../../../formats/dstc6.js';
import { createRulesBot } from '../rules/rules.js';
import { trackState } from '../rules/state.js';
import { chatModelOf, continuation, explainRulesState } from './chat-model.js';

/** Every prefix before a bot turn, fed in order to one conversation: the incremental state gives what a full replay gives. */
function checkIncremental(dialogs: readonly (readonly Turn[])[]): number {
  const rules = createRulesBot();
  const chat = chatModelOf(rules);
  let n = 0;
  for (const d of dialogs) {
    const conv = chat.conversation();
    for (let i = 0; i < d.length; i++) {
      if (d[i]?.speaker !== 'bot') continue;
      const h = d.slice(0, i);
      const a = conv.answer(h);
      const text = rules.respond(h);
      assert.equal(a.text, text, `turn ${i}`);
      assert.deepEqual(a.explanation, explainRulesState('rules', trackState(h), text), `turn ${i}: explanation`);
      n++;
    }
  }
  return n;
}

test('rules conversation: the incrementally tracked state answers and explains like a full replay (bAbI task 5 tst + OOV)', { skip: skipUnless(babiDir) }, () => {
  const files = ['tst', 'tst-OOV'].map((s) => join(babiDir, `dialog-babi-task5-full-dialogs-${s}.txt`));
  const dialogs = files.flatMap((f) => readBabiDialogs(f).dialogs.slice(0, 150).map((d) => d.turns));
  assert.ok(checkIncremental(dialogs) > 3000);
});

test('rules conversation: same on DSTC6 histories (other dialect, restrictions)', { skip: skipUnless(dstc6Dir) }, () => {
  const entries = readDstc6Data(join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0', 'tst4', 'dialog-task5FULL-kb2_atmosphere_restrictions-distr0.5-tst1000.json')).slice(0, 150);
  // Each entry is a prefix of a dialog; as a whole history it is checked turn by turn.
  assert.ok(checkIncremental(entries.map((e) => dstc6History(e.utterances))) > 500);
});

test('rules conversation: a history that does not continue the one seen starts over', { skip: skipUnless(babiDir) }, () => {
  const [d1, d2] = readBabiDialogs(join(babiDir, 'dialog-babi-task5-full-dialogs-tst.txt')).dialogs.map((d) => d.turns) as [Turn[], Turn[]];
  const rules = createRulesBot();
  const conv = chatModelOf(rules).conversation();
  conv.answer(d1.slice(0, 20));
  for (const h of [d2.slice(0, 9), d2.slice(0, 3), d1.slice(0, 20).map((t) => ({ ...t }))]) assert.equal(conv.answer(h).text, rules.respond(h));
});

test('continuation: the index to apply from, or -1', () => {
  const a: Turn = { speaker: 'user', text: 'hi' };
  const b: Turn = { speaker: 'bot', text: 'hello' };
  assert.equal(continuation([], [a, b]), 0);
  assert.equal(continuation([a], [a, b]), 1);
  assert.equal(continuation([a, b], [a, b]), 2);
  assert.equal(continuation([a, b], [a]), -1);
  assert.equal(continuation([a], [{ ...a }, b]), -1);
});
