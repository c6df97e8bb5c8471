import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Dialog } from '../../../core/dialog.js';
import { readBabiDialogs } from '../../../formats/babi.js';
import { b, GREET, u } from '../testing/dstc2.js';
import { babiDir, skipUnless } from '../../../../test/shared-data.js';
import { dstc2Version } from './dstc2-versions.js';

const dialog = (...bot: string[]): Dialog => ({ id: 'd', turns: [u('<SILENCE>'), b(GREET), ...bot.flatMap((t) => [u('cheap'), b(t)])] });

describe('dstc2Version', () => {
  it("reads the DSTC2 system version off the bot turns' wording", () => {
    assert.equal(dstc2Version(dialog('prezzo is a nice place in the west of town and the prices are moderate')), 'A');
    assert.equal(dstc2Version(dialog("I'm sorry but there is no restaurant serving basque food")), 'A');
    assert.equal(dstc2Version(dialog('prezzo is a nice restaurant in the west of town serving italian food')), 'B');
    assert.equal(dstc2Version(dialog('Did you say you are looking for a restaurant in the west of town?', 'Can I help you with anything else?')), 'both');
    // `X is a nice place in the west of town` without the prices is said by both versions.
    assert.equal(dstc2Version(dialog('prezzo is a nice place in the west of town', 'What kind of food would you like?')), 'unknown');
    assert.equal(dstc2Version({ id: 'e', turns: [] }), 'unknown');
  });

  it('trn: 901 A, 414 B, 8 both, 295 unknown; dev: 437 B, 1 both, 62 unknown', { skip: skipUnless(babiDir) }, () => {
    for (const [split, want] of [['trn', { A: 901, B: 414, both: 8, unknown: 295 }], ['dev', { B: 437, both: 1, unknown: 62 }]] as const) {
      const counts: Record<string, number> = {};
      for (const d of readBabiDialogs(join(babiDir, `dialog-babi-task6-dstc2-${split}.txt`)).dialogs) counts[dstc2Version(d)] = (counts[dstc2Version(d)] ?? 0) + 1;
      assert.deepEqual(counts, want);
    }
  });
});
