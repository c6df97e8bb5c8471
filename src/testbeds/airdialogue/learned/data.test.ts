import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readAirDialogue } from '../../../formats/airdialogue.js';
import { LearnedStore, synthesizeSplits, synthesize, toLearned } from './data.js';
import { dialogueTokens, FIELDS, intentTokens, tokenizeText, Vocab } from './tokens.js';

test('tokenizeText: lower-case words and single punctuation marks', () => {
  assert.deepEqual(tokenizeText("It's Heather Allen. Flight number-1006!"), ['it', "'", 's', 'heather', 'allen', '.', 'flight', 'number', '-', '1006', '!']);
});

test('dialogueTokens: turn markers, <eod> and the closing marker; speakers per token', () => {
  const d = dialogueTokens(['customer: Hi.', 'agent: Name?', 'customer: Ann Lee.']);
  assert.deepEqual(d.tokens, ['<t1>', 'hi', '.', '<t2>', 'name', '?', '<t1>', 'ann', 'lee', '.', '<eod>', '<t2>']);
  assert.deepEqual([...d.speaker], [0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0]);
});

test('intentTokens: 15 fields in the original order, absent ones as "all"', () => {
  const t = intentTokens({ departure_airport: 'DFW', return_airport: 'DTW', departure_month: 'May', departure_day: '1', return_month: 'May', return_day: '3', name: 'Heather Allen', max_price: 200, goal: 'book' });
  assert.deepEqual(t.map((x) => x.word), ['dfw', 'dtw', 'may', 'may', '1', '3', 'all', 'all', 'heather', 'allen', 'all', '200', '2', 'all', 'book']);
  assert.equal(FIELDS[t[8]!.field], 'nm1');
});

test('Vocab: specials first, cut-off by count, unknown words → <unk>', () => {
  const v = Vocab.build([['a', 'b', 'a'], ['c', 'a', 'b']], 2);
  assert.deepEqual(v.words, ['<pad>', '<unk>', '<t1>', '<t2>', '<eod>', 'a', 'b']);
  assert.equal(v.id('c'), 1);
});

test('synthesized splits: requested sizes, disjoint streams, same seed → same dialogues', () => {
  const a = synthesizeSplits({ train: 5, dev: 3, test: 2, seed: 4 });
  const b = synthesizeSplits({ train: 5, dev: 3, test: 2, seed: 4 });
  assert.deepEqual([a.train.length, a.dev.length, a.test.length], [5, 3, 2]);
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.train[0]!.data.dialogue, a.dev[0]!.data.dialogue);
  // OOD 1: more change/cancel goals than in-domain (uniform vs 10% each)
  const goals = (xs: ReturnType<typeof synthesize>) => xs.filter((x) => x.data.intent.goal !== 'book').length;
  assert.ok(goals(synthesize(60, 1, 1)) > goals(synthesize(60, 1, 0)));
  const l = toLearned(a.train[0]!);
  assert.equal(l.flights.length, 30);
  assert.equal(l.flights[0]!.length, 13);
});

const real = join(process.env.DIALOGYM_DATA ?? join(process.cwd(), '..', 'shared', 'data'), 'airdialogue');
test('the real sample converts: 802 train lines, names and flights as context words', { skip: !existsSync(join(real, 'train_data.json')) && 'no ../shared/data/airdialogue' }, () => {
  const ex = readAirDialogue(join(real, 'train_data.json'), join(real, 'train_kb.json')).map(toLearned);
  assert.equal(ex.length, 802);
  assert.equal(ex[0]!.intent[8]!.word, 'edward');
  const v = Vocab.build(ex.map((e) => e.dialogue.tokens), 3);
  assert.ok(v.size > 500 && v.size < 5000, `vocabulary ${v.size}`);
});

test('LearnedStore keeps what the models read: get(i) is toLearned(example) without its source; the real sample in under 3 KB an example', { skip: !existsSync(join(real, 'train_data.json')) && 'no ../shared/data/airdialogue' }, () => {
  const examples = [...readAirDialogue(join(real, 'train_data.json'), join(real, 'train_kb.json')), ...synthesize(20, 3)];
  const store = LearnedStore.from(examples);
  assert.equal(store.length, examples.length);
  examples.forEach((ex, i) => {
    const { source: _, ...want } = toLearned(ex);
    assert.deepEqual(store.get(i), want, `example ${i}`);
  });
  const view = store.range(800, 810);
  assert.equal(view.length, 10);
  assert.deepEqual(view.get(3), store.get(803));
  assert.throws(() => store.range(5, examples.length + 1), RangeError);
  // The typed arrays of 822 examples (capacity doubled as they grew), against ~20 KB an example as objects.
  assert.ok(store.bytes / store.length < 3000, `${(store.bytes / store.length).toFixed(0)} bytes an example`);
});
