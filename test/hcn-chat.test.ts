import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { babiDir, skipUnless } from './shared-data.js';
import { trainTinyHcn } from './tiny-hcn.js';
import type { Turn } from '../src/core/dialog.js';
import { readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { HcnLexicon } from '../src/testbeds/restaurant/hcn/entities.js';
import { chatModelOf } from '../src/testbeds/restaurant/chat/chat-model.js';
import { hcnConversation } from '../src/testbeds/restaurant/hcn/chat.js';

test('hcn conversation: per-conversation tracker and GRU state give Hcn.explain’s decision and explanation, two dialogs interleaved (task 5 tst-OOV)', { skip: skipUnless(babiDir), timeout: 60_000 }, () => {
  const facts = readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts;
  const { model } = trainTinyHcn(facts);
  model.useKb(HcnLexicon.fromFacts(facts));
  const dialogs = readBabiDialogs(join(babiDir, 'dialog-babi-task5-full-dialogs-tst-OOV.txt')).dialogs.slice(0, 40).map((d) => d.turns);
  let checked = 0;
  let correct = 0;
  for (let k = 0; k + 1 < dialogs.length; k += 2) {
    const pair = [dialogs[k], dialogs[k + 1]] as [Turn[], Turn[]];
    const convs = [hcnConversation(model), hcnConversation(model)];
    const bots = pair.map((d) => d.flatMap((t, i) => (t.speaker === 'bot' ? [i] : [])));
    for (let j = 0; j < Math.max(...bots.map((b) => b.length)); j++) {
      for (const x of [0, 1]) {
        const i = bots[x]?.[j];
        if (i === undefined) continue;
        const h = (pair[x] as Turn[]).slice(0, i);
        const a = (convs[x] as ReturnType<typeof hcnConversation>).explain(h);
        assert.deepEqual(a, model.explain(h), `dialog ${k + x} turn ${i}`);
        checked++;
        if (a.text === (pair[x] as Turn[])[i]?.text) correct++;
      }
    }
  }
  assert.ok(checked > 500, `${checked} turns`);
  // The tiny model is a real one: it gets the OOV test turns right too.
  assert.ok(correct / checked > 0.95, `${correct}/${checked}`);
  // Through the chat model: an explanation of type template with the mask over every template.
  const chat = chatModelOf(model).conversation();
  const a = chat.answer([{ speaker: 'user', text: 'hello' }]);
  assert.equal(a.text, 'hello what can i help you with today');
  assert.equal(a.explanation.type, 'template');
  if (a.explanation.type === 'template') assert.equal(a.explanation.templates?.length, a.explanation.mask.length);
});
