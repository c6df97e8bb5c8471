import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { babiDir, skipUnless } from '../../../test/shared-data.js';
import { compareWithOriginal, delexicalise, formatComparison, relDiff, splitStats } from './delex.js';

test('delexicalise replaces every entity by its type', () => {
  assert.equal(delexicalise('may i have a table with korean food for six people in tokyo in a cheap price range'), 'may i have a table with <cuisine> food for <number> people in <location> in a <price> price range');
  assert.equal(delexicalise('api_call italian paris two cheap'), 'api_call <cuisine> <location> <number> <price>');
  assert.equal(delexicalise('what do you think of this option: resto_rome_cheap_indian_7stars'), 'what do you think of this option: <restaurant>');
  assert.equal(delexicalise('here it is resto_hanoi_expensive_thai_8stars_address'), 'here it is <address>');
  assert.equal(delexicalise('here it is resto_hanoi_expensive_thai_8stars_phone'), 'here it is <phone>');
  assert.equal(delexicalise('which price range are looking for'), 'which price range are looking for');
  // Unknown restaurant-like tokens stay as they are.
  assert.equal(delexicalise('resto_mars_cheap_thai_9stars'), 'resto_mars_cheap_thai_9stars');
});

test('split statistics count TAB lines twice and KB lines once', () => {
  const s = splitStats([
    { id: '1', turns: [{ speaker: 'kb', text: 'a R_x y' }, { speaker: 'user', text: 'hi' }, { speaker: 'bot', text: 'hello' }] },
    { id: '2', turns: [{ speaker: 'user', text: 'hi' }, { speaker: 'bot', text: 'hello' }, { speaker: 'user', text: '<SILENCE>' }, { speaker: 'bot', text: 'x' }] },
  ]);
  assert.deepEqual(s, { dialogs: 2, linesPerDialog: 3.5, botTurnsPerDialog: 1.5, kbLinesPerDialog: 0.5 });
  assert.equal(relDiff(105, 100), 0.05);
  assert.equal(relDiff(0, 0), 0);
});

test('originals compared with themselves: identical figures; Table-1 style numbers', { skip: skipUnless(babiDir) }, () => {
  const c = compareWithOriginal(babiDir, babiDir);
  assert.equal(c.splits.length, 20);
  for (const s of c.splits) assert.equal(s.maxRelDiff, 0);
  const t1trn = c.splits.find((s) => s.task === 1 && s.split === 'trn')!;
  assert.equal(t1trn.original.botTurnsPerDialog, 6.024);
  const t5trn = c.splits.find((s) => s.task === 5 && s.split === 'trn')!;
  assert.equal(t5trn.original.kbLinesPerDialog, 23.625);
  assert.equal(t5trn.original.linesPerDialog, (2 * 18340 + 23625) / 1000);
  assert.deepEqual(c.tasks.map((t) => t.originalBotTemplates.length), [8, 6, 10, 4, 16]);
  assert.ok(c.tasks.every((t) => t.botTemplatesEqual && t.userCoverage === 1 && t.userPrecision === 1));
  assert.equal(c.overall.originalUserDistinct, 853);
  assert.deepEqual(c.tasks.map((t) => t.originalUserDistinct), [745, 404, 770, 13, 458]);
  assert.equal(formatComparison(c).length, 1 + 20 + 1 + 5 + 1);
});

test('a changed file shows up in the comparison', { skip: skipUnless(babiDir) }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialogym-delex-'));
  try {
    writeFileSync(join(dir, 'dialog-babi-task4-phone-address-trn.txt'), '1 hi\thello what can i help you with today\n2 book me a table at resto_rome_cheap_indian_7stars\tsure thing\n\n');
    const c = compareWithOriginal(dir, babiDir, { tasks: [4], skipMissing: true });
    assert.equal(c.splits.length, 1);
    assert.equal(c.splits[0]!.generated.linesPerDialog, 4);
    assert.ok(c.splits[0]!.maxRelDiff > 0.5);
    const t = c.tasks[0]!;
    assert.equal(t.botTemplatesEqual, false);
    assert.deepEqual(t.generatedBotTemplates, ['hello what can i help you with today', 'sure thing']);
    assert.equal(t.userPrecision, 0.5);
    assert.equal(t.userCoverage, 1 / 13);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
