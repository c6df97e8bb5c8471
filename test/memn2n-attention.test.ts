import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { babiDir, skipUnless } from './shared-data.js';
import type { Turn } from '../src/core/dialog.js';
import { createRng } from '../src/core/rng.js';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { KbTypes } from '../src/rankers/match-type.js';
import { MemN2N, MEMN2N_DEFAULTS, type MemN2NConfig } from '../src/rankers/memn2n.js';
import { WordVocab } from '../src/rankers/word-vocab.js';
import { chatModelOf, round4, topOf } from '../src/testbeds/restaurant/chat/chat-model.js';
import { memn2nAttention, memn2nConversation } from '../src/rankers/memn2n-attention.js';

const skip = skipUnless(babiDir);

function setup(config: Partial<MemN2NConfig>): { model: MemN2N; dialogs: Turn[][]; candidates: readonly string[] } {
  const candidates = readBabiCandidates(join(babiDir, 'dialog-babi-candidates.txt')).candidates;
  const dialogs = readBabiDialogs(join(babiDir, 'dialog-babi-task5-full-dialogs-tst-OOV.txt')).dialogs.slice(0, 6).map((d) => d.turns.slice());
  const vocab = new WordVocab();
  for (const c of candidates) vocab.addText(c);
  for (const d of readBabiDialogs(join(babiDir, 'dialog-babi-task5-full-dialogs-dev.txt')).dialogs.slice(0, 50)) for (const t of d.turns) vocab.addText(t.text);
  const kb = KbTypes.fromFacts(readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts);
  const model = new MemN2N({ ...MEMN2N_DEFAULTS, ...config }, vocab, kb);
  model.init(createRng(7), 0.3);
  return { model, dialogs, candidates };
}

/** For every bot turn of the dialogs: the conversation path gives `rank`'s scores and `forward`'s attention exactly. */
function checkSame(config: Partial<MemN2NConfig>): number {
  const { model, dialogs, candidates } = setup(config);
  const plain = memn2nAttention(model);
  let checked = 0;
  for (const d of dialogs) {
    const conv = memn2nConversation(model);
    for (let i = 0; i < d.length; i++) {
      if (d[i]?.speaker !== 'bot') continue;
      const h = d.slice(0, i);
      const a = conv.rankWithAttention(h, candidates);
      const b = plain.rankWithAttention(h, candidates);
      assert.deepEqual(a.scores, model.rank(h, candidates), `dialog turn ${i}: scores`);
      assert.deepEqual(a.hops, b.hops, `dialog turn ${i}: attention`);
      assert.deepEqual(a.memories, b.memories);
      checked++;
    }
  }
  return checked;
}

test('memn2n conversation: the cached, one-pass path gives rank()’s scores and forward()’s attention bit for bit (d = 32, match types)', { skip }, () => {
  assert.ok(checkSame({ matchType: true }) > 50);
});

test('memn2n conversation: same with another dimension, no match types, and a memory window shorter than the dialog', { skip }, () => {
  assert.ok(checkSame({ dim: 12, hops: 2, memorySize: 10, matchType: false }) > 50);
});

test('memn2n conversation: a history that does not continue the last one starts over (no stale memories)', { skip }, () => {
  const { model, dialogs, candidates } = setup({ matchType: true });
  const conv = memn2nConversation(model);
  const [d1, d2] = dialogs as [Turn[], Turn[]];
  const h1 = d1.slice(0, 10);
  conv.rankWithAttention(h1, candidates);
  // Another conversation's history (and a shorter one): same numbers as from scratch.
  for (const h of [d2.slice(0, 7), d2.slice(0, 3), h1.map((t) => ({ ...t }))]) {
    assert.deepEqual(conv.rankWithAttention(h, candidates).scores, model.rank(h, candidates));
  }
});

test('memn2n as a chat model: the explanation lists the window’s memories and the top candidates of the one pass', { skip }, () => {
  const { model, dialogs, candidates } = setup({ matchType: true });
  const chat = chatModelOf(model, { candidates, topK: 3 }).conversation();
  const h = (dialogs[0] as Turn[]).slice(0, 5);
  const a = chat.answer(h);
  assert.equal(a.explanation.type, 'attention');
  if (a.explanation.type !== 'attention') return;
  const scores = model.rank(h, candidates);
  assert.deepEqual(a.explanation.top, topOf(scores, candidates, 3).map((c) => ({ text: c.text, score: round4(c.score) })));
  assert.equal(a.text, a.explanation.top[0]?.text);
  const m = h[h.length - 1]?.speaker === 'user' ? h.length - 1 : h.length;
  assert.equal(a.explanation.memories.length, m);
  for (const hop of a.explanation.hops) {
    assert.ok(Math.abs(hop.weights.reduce((x, y) => x + y, 0) - 1) <= m * 5e-5 + 1e-9);
    assert.ok(hop.weights.every((w) => Math.round(w * 1e4) / 1e4 === w), 'weights to 4 decimals');
  }
});

test('topOf: the k best by decreasing score, ties by index, same as a full sort', () => {
  const rng = createRng(3);
  for (let n = 0; n < 60; n++) {
    const scores = Float32Array.from({ length: n }, () => rng.int(6) / 2);
    const cands = Array.from({ length: n }, (_, i) => `c${i}`);
    for (const k of [1, 3, 5, 100]) {
      const full = Array.from(scores.keys()).sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b).slice(0, k);
      assert.deepEqual(topOf(scores, cands, k), full.map((i) => ({ text: `c${i}`, score: scores[i] as number })), `n ${n} k ${k}`);
    }
  }
});
