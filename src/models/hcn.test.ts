import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dialog, Turn } from '../core/dialog.js';
import type { KbFact } from '../formats/babi.js';
import { HcnLexicon, emptyTracker, nextProposal, trackTurn } from './hcn-entities.js';
import { TemplateSet, delexicaliseBot, fillTemplate, placeholders } from './hcn-templates.js';
import { encodeHistory } from './hcn-encode.js';
import { buildHcn, dstc6TrainingDialogs, trainHcn, hcnAccuracy } from '../train/hcn.js';
import { accuracy } from '../metrics/ranking.js';
import { decodeModelFile, encodeModelFile } from './model-file.js';
import { Hcn } from './hcn.js';
import { KbTypes } from './match-type.js';
import { ModelFileError } from '../core/errors.js';

function restaurant(name: string, cuisine: string, location: string, rating: number): KbFact[] {
  return [
    { entity: name, attr: 'R_cuisine', value: cuisine },
    { entity: name, attr: 'R_location', value: location },
    { entity: name, attr: 'R_rating', value: String(rating) },
    { entity: name, attr: 'R_phone', value: `${name}_phone` },
  ];
}
const FACTS: KbFact[] = [...restaurant('r_a', 'thai', 'paris', 3), ...restaurant('r_b', 'thai', 'paris', 7), ...restaurant('r_c', 'greek', 'rome', 5)];
const kbTurns = (names: string[]): Turn[] =>
  names.flatMap((n) => FACTS.filter((f) => f.entity === n).map((f) => ({ speaker: 'kb' as const, text: `${f.entity} ${f.attr} ${f.value}` })));

const u = (text: string): Turn => ({ speaker: 'user', text });
const b = (text: string): Turn => ({ speaker: 'bot', text });

/** A toy domain: ask cuisine, ask location, call, propose by rating until accepted, give the phone. */
function toyDialog(id: number, cuisine: string, location: string, results: string[], rejects: number): Dialog {
  const turns: Turn[] = [u('hi'), b('hello'), u(`i want ${cuisine} food`), b('where')];
  turns.push(u(`in ${location}`), b(`api_call ${cuisine} ${location}`), ...kbTurns(results));
  const byRating = results
    .map((n) => ({ n, r: Number(FACTS.find((f) => f.entity === n && f.attr === 'R_rating')?.value) }))
    .sort((x, y) => y.r - x.r)
    .map((x) => x.n);
  turns.push(u('<SILENCE>'), b(`how about ${byRating[0]}`));
  for (let k = 0; k < rejects && k + 1 < byRating.length; k++) turns.push(u('no'), b(`how about ${byRating[k + 1]}`));
  const chosen = byRating[Math.min(rejects, byRating.length - 1)] as string;
  turns.push(u('yes'), b('booked'), u('phone please'), b(`here ${chosen}_phone`), u('thanks'), b('bye'));
  return { id: String(id), turns };
}

test('lexicon: names, value tokens, OOV entities from the KB given at run time', () => {
  const lex = HcnLexicon.fromFacts(FACTS);
  assert.equal(lex.type('r_a'), 'name');
  assert.equal(lex.type('thai'), 'cuisine');
  assert.equal(lex.type('r_a_phone'), 'phone');
  assert.equal(lex.type('3'), undefined, 'ratings are not recognised in text');
  const back = HcnLexicon.fromJSON(JSON.parse(JSON.stringify(lex.toJSON())));
  assert.equal(back.size, lex.size);
  assert.equal(back.type('greek'), 'cuisine');
  const other = HcnLexicon.fromFacts(restaurant('r_z', 'korean', 'seoul', 1));
  const merged = other.merged(lex);
  assert.equal(merged.type('korean'), 'cuisine');
  assert.equal(merged.type('thai'), 'cuisine');
  assert.throws(() => HcnLexicon.fromJSON([1]), /expected an object/);
});

test('tracker: slots from user turns, results after api_call, proposals by rating, focus', () => {
  const lex = HcnLexicon.fromFacts(FACTS);
  const d = toyDialog(1, 'thai', 'paris', ['r_a', 'r_b'], 1);
  const st = emptyTracker();
  const seen: (string | undefined)[] = [];
  for (const t of d.turns) {
    if (t.speaker === 'bot' && t.text.startsWith('how about')) seen.push(nextProposal(st));
    trackTurn(st, lex, t);
  }
  assert.deepEqual(seen, ['r_b', 'r_a'], 'best rating first, then the next one');
  assert.equal(st.slots.get('cuisine'), 'thai');
  assert.equal(st.slots.get('location'), 'paris');
  assert.deepEqual(st.results, ['r_a', 'r_b']);
  assert.deepEqual(st.proposed, ['r_b', 'r_a']);
  assert.equal(st.current, 'r_a');
  assert.equal(st.apiCalls, 1);
  assert.equal(nextProposal(st), undefined);
  const e = emptyTracker();
  trackTurn(e, lex, b('api_call x y'));
  trackTurn(e, lex, { speaker: 'kb', text: 'api_call no result' });
  assert.equal(e.emptyResult, true);
});

test('templates: delexicalise, fill back exactly, mask what cannot be filled', () => {
  const lex = HcnLexicon.fromFacts(FACTS);
  assert.equal(delexicaliseBot('api_call thai paris', lex), 'api_call <cuisine> <location>');
  assert.equal(delexicaliseBot('how about r_b', lex), 'how about <name>');
  assert.equal(delexicaliseBot(' you are  welcome', lex), ' you are  welcome', 'spacing kept');
  assert.deepEqual(placeholders('here <phone> and <name>'), ['phone', 'name']);
  const st = emptyTracker();
  assert.equal(fillTemplate('api_call <cuisine> <location>', st), undefined);
  for (const t of [u('thai food in paris please'), b('api_call thai paris'), ...kbTurns(['r_a', 'r_b'])]) trackTurn(st, lex, t);
  assert.equal(fillTemplate('api_call <cuisine> <location>', st), 'api_call thai paris');
  assert.equal(fillTemplate('how about <name>', st), 'how about r_b');
  assert.equal(fillTemplate('here <phone>', st), undefined, 'no restaurant in focus yet');
  trackTurn(st, lex, b('how about r_b'));
  assert.equal(fillTemplate('here <phone>', st), 'here r_b_phone');
  const set = new TemplateSet(['hello', 'how about <name>', 'here <phone>', 'hello']);
  assert.equal(set.size, 3);
  assert.deepEqual([...set.mask(st).mask], [1, 1, 1]);
  trackTurn(st, lex, b('how about r_a'));
  assert.deepEqual([...set.mask(st).mask], [1, 0, 1], 'every result proposed: <name> masked');
});

test('HCN learns the toy policy (rating order, rejections, phone), reloads identically, explains itself', () => {
  const dialogs: Dialog[] = [];
  for (let i = 0; i < 40; i++) {
    const thai = i % 2 === 0;
    dialogs.push(toyDialog(i, thai ? 'thai' : 'greek', thai ? 'paris' : 'rome', thai ? ['r_a', 'r_b'] : ['r_c'], i % 3));
  }
  const r = trainHcn({ train: dialogs.slice(0, 30), dev: dialogs.slice(30), facts: FACTS }, { hidden: 16, epochs: 30, patience: 0, seed: 2 });
  assert.equal(r.maskViolations, 0);
  const s = hcnAccuracy(r.model, dialogs.slice(30));
  assert.equal(accuracy.perResponse(s), 1);
  // Ranking: the filled template wins among candidates.
  const hist = dialogs[30]?.turns.slice(0, 15) as Turn[]; // up to the first proposal
  const cands = ['hello', 'how about r_a', 'how about r_b', 'where', 'not a template'];
  const scores = r.model.rank(hist, cands);
  assert.equal(cands[scores.indexOf(Math.max(...scores))], 'how about r_b');
  assert.equal(scores[4], -1);
  // Save / load: identical scores.
  const file = encodeModelFile(r.model.toModelFile());
  const back = Hcn.fromModelFile(decodeModelFile(file), 'toy.dgm', KbTypes.fromFacts(FACTS));
  assert.deepEqual([...back.rank(hist, cands)], [...scores]);
  for (const d of dialogs.slice(30))
    d.turns.forEach((t, i) => {
      if (t.speaker === 'bot') assert.equal(back.predict(d.turns.slice(0, i)).text, r.model.predict(d.turns.slice(0, i)).text);
    });
  // Explanation.
  const e = r.model.explain(hist);
  assert.equal(e.template, 'how about <name>');
  assert.equal(e.text, 'how about r_b');
  assert.equal(e.entities.cuisine, 'thai');
  assert.equal(e.entities['next-proposal'], 'r_b');
  assert.equal(e.mask.length, r.model.templates.size);
  assert.ok(e.available.includes('how about <name>') && !e.available.includes('here <phone>'));
  assert.ok(e.probability > 0.5 && e.alternatives[0]?.template === e.template);
  assert.deepEqual(r.model.explainTemplate(hist).template, 'how about <name>');
  // A damaged file: one clear error.
  const meta = r.model.toModelFile();
  assert.throws(() => Hcn.fromModelFile({ ...meta, meta: { ...(meta.meta as object), templates: ['x'] } }, 'bad.dgm'), (err: unknown) => err instanceof ModelFileError && /bad\.dgm: corrupt model file/.test(String((err as Error).message)));
});

test('encoding: one step per bot turn plus the pending one, targets are template ids', () => {
  const d = toyDialog(0, 'thai', 'paris', ['r_a', 'r_b'], 0);
  const m = buildHcn([d], FACTS, { hidden: 4 });
  const { steps } = encodeHistory(m, d.turns);
  const bots = d.turns.filter((t) => t.speaker === 'bot').length;
  assert.equal(steps.length, bots + 1);
  assert.ok(steps.slice(0, -1).every((s) => s.target >= 0 && s.mask[s.target] === 1));
  assert.equal(steps[steps.length - 1]?.target, -1);
  assert.equal(m.templates.templates[steps[3]?.target as number], 'how about <name>');
});

test('DSTC6 entries become training dialogs (answers inline or from an answers file)', () => {
  const entry = (utts: string[], answer: string, id: string) => ({ dialog_id: id, utterances: utts, candidates: [], answer: { candidate_id: 'a', utterance: answer } });
  const ds = dstc6TrainingDialogs([
    entry(['hi'], 'hello', '1'),
    entry(['hi', 'hello', 'thai please'], 'where', '2'),
    entry(['hey'], 'hello', '3'),
    entry(['hey'], 'hello', '4'),
  ]);
  assert.deepEqual(ds.map((d) => d.id), ['1', '2', '3', '4']);
  assert.deepEqual(ds[1]?.turns.map((t) => t.speaker), ['user', 'bot', 'user', 'bot']);
  const noAnswer = { dialog_id: 'q', utterances: ['hi'], candidates: [{ candidate_id: 'c1', utterance: 'bye' }, { candidate_id: 'c2', utterance: 'hello' }] };
  const fromFile = dstc6TrainingDialogs([noAnswer], 'f.json', [{ dialog_id: 'q', lst_candidate_id: [{ candidate_id: 'c2', rank: 1 }, { candidate_id: 'c1', rank: 2 }] }]);
  assert.equal(fromFile[0]?.turns[1]?.text, 'hello');
  assert.deepEqual(fromFile[0]?.candidates, ['bye', 'hello']);
  assert.throws(() => dstc6TrainingDialogs([{ dialog_id: 'x', utterances: ['hi'], candidates: [] }], 'f.json'), /f\.json: entry 1 \(dialog_id x\).*no answer/);
});

test('DSTC6 mode: the templates among an entry\'s few candidates are an input; a task-wide list is not', () => {
  const d = toyDialog(0, 'thai', 'paris', ['r_a', 'r_b'], 0);
  const m = buildHcn([d], FACTS, { hidden: 4 });
  const flags = m.candidateFlags(['hello', 'how about r_c', 'no such template']);
  assert.ok(flags);
  assert.equal(flags[m.templates.id('hello')], 1);
  assert.equal(flags[m.templates.id('how about <name>')], 1, 'a name delexicalises to the name template');
  assert.equal(flags.reduce((a, b) => a + b, 0), 2);
  assert.equal(m.candidateFlags(Array.from({ length: 51 }, () => 'hello')), undefined);
  assert.equal(m.candidateFlags(undefined), undefined);
  const hist = d.turns.slice(0, 1);
  const withC = encodeHistory(m, hist, true, flags).steps.at(-1)?.x as Float32Array;
  const without = encodeHistory(m, hist, true).steps.at(-1)?.x as Float32Array;
  assert.equal(withC.reduce((a, b) => a + b, 0) - without.reduce((a, b) => a + b, 0), 2);
});
