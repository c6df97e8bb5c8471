import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Turn } from '../core/dialog.js';
import { Tfidf, type TfidfConfig } from './tfidf.js';
import { NearestNeighbour, nnKey } from './nearest-neighbour.js';
import { KbTypes, attrType } from './match-type.js';
import { tokenize } from '../core/text.js';
import { inputText } from './input.js';
import { argmax } from './ranker.js';
import { modelFromContent, trainModel } from './registry.js';
import { decodeModelFile, encodeModelFile } from '../formats/model-file.js';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../formats/babi.js';
import { evaluateDialogs } from './evaluate-responses.js';
import { accuracy } from '../metrics/ranking.js';
import { trainNn, trainTfidf } from './baselines-train.js';
import { babiDir, skipUnless } from '../../test/shared-data.js';

const u = (text: string): Turn => ({ speaker: 'user', text });
const b = (text: string): Turn => ({ speaker: 'bot', text });

test('tfidf: cosine of tf-idf vectors, with the textbook numbers', () => {
  // docs: "a b", "a c", "c c" → N=3, df(a)=2 df(b)=1 df(c)=2; idf = ln(4/(1+df)) + 1
  const m = Tfidf.fit(['a b', 'a c', 'c c'], { input: 'last', matchType: false });
  const ia = Math.log(4 / 3) + 1, ib = Math.log(4 / 2) + 1;
  assert.ok(Math.abs((m.idf.get('a') as number) - ia) < 1e-12);
  const s = m.rank([u('a b')], ['a b', 'a c', 'c c', 'zzz']);
  assert.ok(Math.abs((s[0] as number) - 1) < 1e-6);
  const expected = (ia * ia) / (Math.sqrt(ia * ia + ib * ib) * Math.sqrt(ia * ia + ia * ia)); // idf(c) = idf(a)
  assert.ok(Math.abs((s[1] as number) - expected) < 1e-6, `${s[1]} vs ${expected}`);
  assert.equal(s[2], 0);
  assert.equal(s[3], 0);
  // history mode reads every turn
  const h = new Tfidf({ input: 'history', matchType: false }, m.idf, m.documents);
  assert.equal(argmax(h.rank([u('c'), b('c'), u('a')], ['a b', 'c c'])), 1);
});

test('tfidf history mode: one history array grown in place (as a chat session does) scores as fresh histories', () => {
  const m = Tfidf.fit(['hello', 'i want italian food', 'in rome please', 'what price range', 'which cuisine', 'api_call italian rome'], { input: 'history', matchType: false });
  const cands = ['what price range', 'which cuisine', 'api_call italian rome'];
  const grown: Turn[] = [u('hello')];
  m.rank(grown, cands);
  grown.push(b('which cuisine'), u('italian in rome'));
  const fresh = Tfidf.fit(['hello', 'i want italian food', 'in rome please', ...cands], { input: 'history', matchType: false }).rank(grown.map((t) => ({ ...t })), cands);
  assert.deepEqual([...m.rank(grown, cands)], [...fresh]);
  assert.ok((fresh[2] as number) > 0);
});

test('tfidf + type: an unseen entity still matches through its KB type', () => {
  const kb = new KbTypes([['greek', 'R_cuisine'], ['thai', 'R_cuisine'], ['rome', 'R_location']]);
  const cands = ['api_call thai rome', 'api_call greek rome', 'hello there'];
  const plain = Tfidf.fit(cands, { input: 'history', matchType: false });
  const typed = new Tfidf({ input: 'history', matchType: true }, plain.idf, plain.documents, kb);
  const hist = [u('i want greek food'), b('where'), u('rome please')];
  const sp = plain.rank(hist, cands);
  const st = typed.rank(hist, cands);
  assert.ok((st[1] as number) > (st[0] as number));
  assert.ok((st[1] as number) - (st[0] as number) > (sp[1] as number) - (sp[0] as number));
  const back = modelFromContent(decodeModelFile(encodeModelFile(typed.toModelFile())), 'x');
  assert.deepEqual([...back.rank(hist, cands)], [...st]);
});

test('tfidf + type as word: the type name joins a candidate whose entity is in the dialog', () => {
  const kb = new KbTypes([['r1_address', 'R_address'], ['r2_address', 'R_address'], ['r1_phone', 'R_phone']]);
  const cands = ['here it is r1_address', 'here it is r2_address', 'here it is r1_phone', 'what can i do for you'];
  const plain = Tfidf.fit([...cands, 'can you give me the address', 'what is the phone'], { input: 'last', matchType: false });
  const mk = (typeAs: 'feature' | 'word') => new Tfidf({ input: 'last', matchType: true, typeAs }, plain.idf, plain.documents, kb);
  const kbLines = [{ speaker: 'kb', text: 'r1 R_address r1_address' } as Turn, { speaker: 'kb', text: 'r1 R_phone r1_phone' } as Turn];
  const hist = [...kbLines, u('the address please')];
  const phone = [...kbLines, u('the phone please')];
  assert.equal(argmax(mk('word').rank(hist, cands)), 0, 'asked for the address, r1 is in the dialog');
  assert.equal(argmax(mk('word').rank(phone, cands)), 2, 'asked for the phone');
  // as a separate unit feature the type cannot tell what was asked for: same order both times
  const fa = mk('feature').rank(hist, cands), fp = mk('feature').rank(phone, cands);
  assert.equal((fa[0] as number) > (fa[2] as number), (fp[0] as number) > (fp[2] as number));
  const w = mk('word');
  const back = modelFromContent(decodeModelFile(encodeModelFile(w.toModelFile())), 'x');
  assert.deepEqual([...back.rank(hist, cands)], [...w.rank(hist, cands)]);
});

test('nn: nearest training utterance by word overlap, ties broken by co-occurrence count', () => {
  const d = (us: string, bs: string) => ({ id: '0', turns: [u(us), b(bs)] });
  const train = [d('i want food', 'what kind'), d('i want food', 'what kind'), d('i want food', 'where'), d('hi there', 'hello'), d('bye now', 'goodbye')];
  const nn = NearestNeighbour.fit(train, { input: 'last', match: 'overlap' });
  assert.equal(nn.pairs.length, 4);
  const cands = ['hello', 'what kind', 'where', 'goodbye', 'never seen'];
  const s = nn.rank([u('i want some food')], cands);
  assert.equal(argmax(s), 1, 'overlap 3 for both; "what kind" co-occurred twice');
  assert.ok((s[2] as number) > 2 && (s[2] as number) < (s[1] as number));
  assert.equal(s[4], -1);
  assert.equal(argmax(nn.rank([u('well hi')], cands)), 0);
  assert.deepEqual(nnKey([u('x y'), b('p q'), u('z')], 'pair'), ['bot:p', 'bot:q', 'z']);
  const back = modelFromContent(decodeModelFile(encodeModelFile(nn.toModelFile())), 'x');
  assert.deepEqual([...back.rank([u('i want some food')], cands)], [...s]);
});

test("nn, the paper's matching: only training utterances with exactly the input's words; none: no answer", () => {
  const d = (us: string, bs: string) => ({ id: '0', turns: [u(us), b(bs)] });
  const train = [d('i want food', 'what kind'), d('i want food', 'what kind'), d('food i want', 'where'), d('i want some food', 'goodbye'), d('hi there', 'hello')];
  const nn = NearestNeighbour.fit(train, { input: 'last', match: 'words' });
  const cands = ['hello', 'what kind', 'where', 'goodbye', 'never seen'];
  // "i want food" and "food i want" have the same words: "what kind" co-occurred twice, "where" once.
  const s = nn.rank([u('want i food')], cands);
  assert.equal(argmax(s), 1);
  assert.ok((s[2] as number) > 1 && (s[2] as number) < (s[1] as number));
  assert.deepEqual([s[0], s[3], s[4]], [0, 0, -1], 'a superset ("i want some food") is no neighbour; an unseen candidate scores -1');
  // No training utterance has these words: every training response scores 0 (the overlap variant would answer).
  assert.deepEqual([...nn.rank([u('i want food now')], cands)], [0, 0, 0, 0, -1]);
  assert.equal(argmax(NearestNeighbour.fit(train, { input: 'last', match: 'overlap' }).rank([u('i want food now')], cands)), 1);
  const back = modelFromContent(decodeModelFile(encodeModelFile(nn.toModelFile())), 'x');
  assert.deepEqual([...back.rank([u('want i food')], cands)], [...s]);
  // A model file of 0.1 (no match field) reads as overlap.
  const old = modelFromContent(decodeModelFile(encodeModelFile({ model: 'nn', meta: { config: { input: 'last' }, pairs: train.map((x) => [[...new Set(tokenize(x.turns[0]?.text ?? ''))].sort(), x.turns[1]?.text, 1]) }, tensors: [] })), 'x');
  assert.equal(argmax(old.rank([u('i want food now')], cands)), 1);
});

const t1 = (s: string): string => join(babiDir, `dialog-babi-task1-API-calls-${s}.txt`);
test('original task 1: nn and tfidf+type figures (paper: NN 55.1, TF-IDF+type 22.4)', { skip: skipUnless(babiDir) }, () => {
  const candidates = readBabiCandidates(join(babiDir, 'dialog-babi-candidates.txt')).candidates;
  const train = readBabiDialogs(t1('trn')).dialogs;
  const dev = readBabiDialogs(t1('dev')).dialogs.slice(0, 300);
  const tst = readBabiDialogs(t1('tst')).dialogs;
  const nn = trainNn({ train, dev, candidates });
  assert.equal(nn.chosen, 'pair');
  const acc = accuracy.perResponse(evaluateDialogs(nn.model, tst, { candidates }));
  assert.equal(acc.toFixed(4), '0.6589');
  const tf = trainTfidf({ train, dev, candidates }, { inputs: ['last'] });
  const a2 = accuracy.perResponse(evaluateDialogs(tf.model, tst.slice(0, 300), { candidates }));
  assert.ok(a2 > 0.03 && a2 < 0.1, `tfidf ${a2}`);
});

const t4 = (s: string): string => join(babiDir, `dialog-babi-task4-phone-address-${s}.txt`);
test("original task 4: the paper's nearest neighbour answers only the greetings (28.6% as the paper); nn+prev also the reservation requests", { skip: skipUnless(babiDir) }, () => {
  const candidates = readBabiCandidates(join(babiDir, 'dialog-babi-candidates.txt')).candidates;
  const train = readBabiDialogs(t4('trn')).dialogs;
  const tst = readBabiDialogs(t4('tst')).dialogs;
  const acc = (m: NearestNeighbour): string => accuracy.perResponse(evaluateDialogs(m, tst, { candidates })).toFixed(4);
  // 1000 greetings of 3498 bot turns; each reservation request names a restaurant no training dialog does.
  assert.equal(acc(trainModel('nn', { train, dev: [], candidates }).model as NearestNeighbour), (1000 / 3498).toFixed(4));
  assert.equal(acc(NearestNeighbour.fit(train, { input: 'last', match: 'overlap' })), (2000 / 3498).toFixed(4));
});

test('original task 4: tfidf+type-word picks the type-name-word mode on dev (paper 17.8)', { skip: skipUnless(babiDir) }, () => {
  const candidates = readBabiCandidates(join(babiDir, 'dialog-babi-candidates.txt')).candidates;
  const kb = KbTypes.fromFacts(readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts);
  const train = readBabiDialogs(t4('trn')).dialogs;
  const dev = readBabiDialogs(t4('dev')).dialogs.slice(0, 300);
  const tf = trainTfidf({ train, dev, candidates, kb }, { matchType: true, inputs: ['last'], typeAs: ['feature', 'word'] });
  assert.equal(tf.chosen, 'last,type=word');
  const a = accuracy.perResponse(evaluateDialogs(tf.model, readBabiDialogs(t4('tst')).dialogs.slice(0, 300), { candidates }));
  assert.ok(a > 0.2 && a < 0.3, `tfidf+type T4 ${a}`);
  assert.ok((tf.dev['last,type=feature'] as number) < 0.1);
});

/** §4.2 scored the plain way (every training pair visited), to check the indexed `rank` against. */
function nnReference(nn: NearestNeighbour, history: readonly Turn[], candidates: readonly string[]): Float32Array {
  const key = new Set(nnKey(history, nn.config.input));
  const total = nn.pairs.reduce((s, p) => s + p.count, 0);
  const best = new Map<string, { o: number; c: number }>();
  for (const p of nn.pairs) {
    const o = p.words.filter((w) => key.has(w)).length;
    const b = best.get(p.response);
    if (!b || o > b.o) best.set(p.response, { o, c: p.count });
    else if (o === b.o) b.c += p.count;
  }
  return Float32Array.from(candidates, (c) => {
    const b = best.get(c);
    return b ? b.o + b.c / (total + 1) : -1;
  });
}

const t5 = (s: string): string => join(babiDir, `dialog-babi-task5-full-dialogs-${s}.txt`);
test('original task 5: nn scores every candidate exactly as visiting every training pair does', { skip: skipUnless(babiDir) }, () => {
  const candidates = readBabiCandidates(join(babiDir, 'dialog-babi-candidates.txt')).candidates;
  const train = readBabiDialogs(t5('trn')).dialogs;
  const dev = readBabiDialogs(t5('dev')).dialogs.slice(0, 20);
  for (const input of ['last', 'pair'] as const) {
    const nn = NearestNeighbour.fit(train, { input, match: 'overlap' });
    let turns = 0;
    for (const d of dev)
      d.turns.forEach((t, i) => {
        if (t.speaker !== 'bot') return;
        const h = d.turns.slice(0, i);
        assert.deepEqual(nn.rank(h, candidates), nnReference(nn, h, candidates), `${input} ${d.id} turn ${i}`);
        turns++;
      });
    assert.ok(turns > 300);
  }
});

/** §4.1/§4.5 scored the plain way (one tf-idf Map per candidate), to check the indexed `rank` against. */
function tfidfReference(m: Tfidf, history: readonly Turn[], candidates: readonly string[]): Float32Array {
  const unseen = Math.log(1 + m.documents) + 1;
  const vec = (text: string): Map<string, number> => {
    const v = new Map<string, number>();
    for (const w of tokenize(text)) v.set(w, (v.get(w) ?? 0) + 1);
    for (const [w, tf] of v) v.set(w, tf * (m.idf.get(w) ?? unseen));
    return v;
  };
  const q = vec(inputText(history, m.config.input));
  let qn2 = 0;
  for (const x of q.values()) qn2 += x * x;
  const said = new Set(history.flatMap((t) => tokenize(t.text)));
  const typed = m.config.matchType && m.kb ? m.kb.typedWords(candidates) : candidates.map(() => []);
  return Float32Array.from(candidates, (c, i) => {
    const v = vec(c);
    let s = 0;
    let n2 = 0;
    for (const [w, x] of v) {
      s += (q.get(w) ?? 0) * x;
      n2 += x * x;
    }
    const seen = new Set((typed[i] ?? []).filter(([w]) => said.has(w)).map(([, t]) => t));
    let types = 0;
    if (m.config.typeAs !== 'word') types = seen.size;
    else
      for (const t of seen) {
        const name = attrType(t);
        const idf = m.idf.get(name) ?? unseen;
        s += (q.get(name) ?? 0) * idf;
        n2 += 2 * (v.get(name) ?? 0) * idf + idf * idf;
      }
    const den = Math.sqrt(qn2 + types) * Math.sqrt(n2 + types);
    return den > 0 ? (s + types) / den : 0;
  });
}

test('original task 4: tfidf(+type) scores every candidate exactly as one tf-idf vector per candidate does', { skip: skipUnless(babiDir) }, () => {
  const candidates = readBabiCandidates(join(babiDir, 'dialog-babi-candidates.txt')).candidates;
  const kb = KbTypes.fromFacts(readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts);
  const train = readBabiDialogs(t4('trn')).dialogs;
  const dev = readBabiDialogs(t4('dev')).dialogs.slice(0, 8);
  const docs = [...candidates, ...train.flatMap((d) => d.turns.filter((t) => t.speaker !== 'kb').map((t) => t.text))];
  const base = Tfidf.fit(docs, { input: 'last', matchType: false });
  const configs: TfidfConfig[] = [{ input: 'history', matchType: false }];
  for (const input of ['last', 'history'] as const) for (const typeAs of ['feature', 'word'] as const) configs.push({ input, matchType: true, typeAs });
  for (const config of configs) {
    const m = new Tfidf(config, base.idf, base.documents, config.matchType ? kb : undefined);
    let typedTurns = 0;
    for (const d of dev)
      d.turns.forEach((t, i) => {
        if (t.speaker !== 'bot') return;
        const h = d.turns.slice(0, i);
        const want = tfidfReference(m, h, candidates);
        assert.deepEqual(m.rank(h, candidates), want, `${JSON.stringify(config)} ${d.id} turn ${i}`);
        if (!config.matchType) return;
        const plain = tfidfReference(base, h, candidates);
        if (want.some((x, c) => x > 0 && plain[c] === 0)) typedTurns++;
      });
    if (config.matchType) assert.ok(typedTurns > 0, 'some candidates score through their type alone');
  }
});
