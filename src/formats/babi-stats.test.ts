import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { babiDir, skipUnless } from '../../test/shared-data.js';
import { readBabiDialogs } from './babi.js';
import { babiStats } from './babi-stats.js';

/** Rows of the per-file table of PROVENANCE.md: file → [dialogs, bot_turns, kb, api, sil, distinct bot, vocab]. */
function provenanceTable(): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  for (const line of readFileSync(join(babiDir, 'PROVENANCE.md'), 'utf8').split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const name = cells[1];
    if (!name || !/^dialog-babi-task\d.*-(trn|dev|tst|tst-OOV)\.txt$/.test(name)) continue;
    rows.set(name, cells.slice(4, 11).map(Number));
  }
  return rows;
}

test('stats of every original dialog file match PROVENANCE.md', { skip: skipUnless(babiDir) }, () => {
  const table = provenanceTable();
  assert.equal(table.size, 23);
  for (const [file, [dialogs, botTurns, kb, api, sil, distinctBot, vocab]] of table) {
    const s = babiStats(file, readBabiDialogs(join(babiDir, file)).dialogs);
    assert.equal(s.dialogs, dialogs, `${file} dialogs`);
    assert.equal(s.botTurns, botTurns, `${file} bot turns`);
    assert.equal(Math.round(s.kbPerDialog * s.dialogs), kb, `${file} kb lines`);
    assert.equal(Math.round(s.apiCallsPerDialog * s.dialogs), api, `${file} api calls`);
    assert.equal(Math.round(s.silencePerDialog * s.dialogs), sil, `${file} silences`);
    assert.equal(s.distinctBotUtterances, distinctBot, `${file} distinct bot utterances`);
    assert.equal(s.vocabulary, vocab, `${file} vocabulary`);
  }
});

test('stats on a small dialog', () => {
  const s = babiStats('x', [
    {
      id: '0',
      turns: [
        { speaker: 'user', text: 'hi' },
        { speaker: 'bot', text: 'hello there' },
        { speaker: 'user', text: '<SILENCE>' },
        { speaker: 'bot', text: 'api_call a b' },
        { speaker: 'kb', text: 'r R_x y' },
      ],
    },
  ]);
  assert.deepEqual(
    [s.dialogs, s.botTurns, s.utterancesPerDialog, s.userPerDialog, s.botPerDialog, s.kbPerDialog, s.vocabulary],
    [1, 2, 5, 1, 2, 1, 7],
  );
});
