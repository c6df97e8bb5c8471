import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Dialog, Turn } from '../../../core/dialog.js';
import type { KbFact } from '../../../formats/babi.js';
import { HcnLexicon, emptyTracker, nextProposal, trackTurn } from './entities.js';
import { TemplateSet, delexicaliseBot, fillTemplate, placeholders } from './templates.js';
import { encodeHistory } from './encode.js';
import { buildHcn, candidateMask, dstc6TrainingDialogs, learnAliases, trainHcn, hcnAccuracy, trainingLexicon } from './train.js';
import { accuracy } from '../../../metrics/ranking.js';
import { decodeModelFile, encodeModelFile } from '../../../formats/model-file.js';
import { Hcn } from './hcn.js';
import { KbTypes } from '../../../rankers/match-type.js';
import { ModelFileError } from '../../../core/errors.js';

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
  const fromFile = dstc6TrainingDialogs([noAnswer], 'f.json', [{ dialog_id: 'q', lst_candidate_id: [{ candidate_id: 'c2', rank: 1 }, { candidate_id: 'c1', rank: 2 }] }], { redraw: false });
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

test('DSTC6 training entries: hard distractors are redrawn per entry among the file\'s other answer templates', () => {
  const answers = ['where', 'how many', 'which price', 'any cuisine', 'api_call thai paris'];
  const cands = (a: string, extra: string[]) => [a, ...extra].map((utterance, i) => ({ candidate_id: `c${i}`, utterance }));
  const entries = Array.from({ length: 40 }, (_, i) => {
    const a = answers[i % answers.length] as string;
    // The file's fixed map would always offer 'hard1'/'hard2' beside this answer; 'hi' comes from the context.
    return { dialog_id: `d${i}`, utterances: ['hi', 'hello'], candidates: cands(a, ['hard1', 'hard2', 'hi']), answer: { candidate_id: 'c0', utterance: a } };
  });
  const ds = dstc6TrainingDialogs(entries, 'f.json');
  for (const [i, d] of ds.entries()) {
    const a = answers[i % answers.length] as string;
    const c = d.candidates as readonly string[];
    assert.ok(c.includes(a) && c.includes('hi'), 'the answer and the context candidates stay');
    if (a.startsWith('api_call')) assert.deepEqual([...c].sort(), [a, 'hard1', 'hard2', 'hi'].sort(), 'entity answers keep their candidates');
    else {
      assert.ok(!c.includes('hard1') && !c.includes('hard2'));
      assert.equal(c.length, 5);
      assert.ok(c.filter((x) => x !== a && x !== 'hi').every((x) => answers.includes(x) && x !== a));
    }
  }
  // Different entries with the same answer get different draws; the same seed gives the same dialogs.
  const drawn = new Set(ds.filter((_, i) => i % answers.length === 0).map((d) => [...(d.candidates as string[])].sort().join('|')));
  assert.ok(drawn.size > 1);
  assert.deepEqual(dstc6TrainingDialogs(entries, 'f.json'), ds);
  assert.notDeepEqual(dstc6TrainingDialogs(entries, 'f.json', undefined, { seed: 2 }), ds);
});

test('aliases: a word the users say for a KB value is learned from the api_calls and tracked as that value', () => {
  const facts: KbFact[] = [
    { entity: 'r_a', attr: 'R_price', value: 'moderate' },
    { entity: 'r_b', attr: 'R_price', value: 'cheap' },
    { entity: 'r_a', attr: 'R_cuisine', value: 'thai' },
  ];
  const dialog = (i: number, said: string, call: string): Dialog => ({ id: String(i), turns: [u(`a ${said} priced thai place`), b(`api_call thai ${call}`)] });
  const train = [dialog(0, 'moderately', 'moderate'), dialog(1, 'moderately', 'moderate'), dialog(2, 'moderately', 'moderate'), dialog(3, 'cheap', 'cheap'), dialog(4, 'cheap', 'cheap')];
  const lex = HcnLexicon.fromFacts(facts);
  learnAliases(train, lex);
  assert.deepEqual([...lex.aliases], [['moderately', 'moderate']], "'priced' shares no prefix with a value; 'cheap' is said as such");
  assert.equal(lex.type('moderately'), 'price');
  const st = emptyTracker();
  trackTurn(st, lex, u('something moderately priced'));
  assert.equal(st.slots.get('price'), 'moderate');
  // Two uses only: not enough evidence.
  const few = HcnLexicon.fromFacts(facts);
  learnAliases(train.slice(1), few);
  assert.equal(few.aliases.size, 0);
  // Aliases survive the model file (JSON), a test KB merged in and dropped tokens.
  const back = HcnLexicon.fromJSON(JSON.parse(JSON.stringify(lex.toJSON())));
  assert.equal(back.canonical('moderately'), 'moderate');
  assert.equal(back.type('moderately'), 'price');
  assert.equal(back.size, lex.size);
  const merged = HcnLexicon.fromFacts([{ entity: 'r_z', attr: 'R_price', value: 'expensive' }]).merged(back).without(['thai']);
  assert.equal(merged.canonical('moderately'), 'moderate');
  assert.equal(merged.type('expensive'), 'price');
  assert.equal(merged.type('thai'), undefined);
});

test('bot templates: a type the utterance lists several values of stays literal (api_calls excepted)', () => {
  const lex = HcnLexicon.fromFacts([
    { entity: 'r_a', attr: 'R_price', value: 'cheap' },
    { entity: 'r_b', attr: 'R_price', value: 'moderate' },
    { entity: 'r_c', attr: 'R_price', value: 'expensive' },
    { entity: 'r_a', attr: 'R_location', value: 'west' },
  ]);
  assert.equal(delexicaliseBot('cheap , moderate , or expensive price range in the west ?', lex), 'cheap , moderate , or expensive price range in the <location> ?');
  assert.equal(delexicaliseBot('a cheap place , cheap indeed', lex), 'a <price> place , <price> indeed');
  assert.equal(delexicaliseBot('api_call cheap west moderate', lex), 'api_call <price> <location> <price>');
  const st = emptyTracker();
  st.slots.set('price', 'cheap');
  assert.equal(fillTemplate('cheap , moderate , or expensive price range ?', st), 'cheap , moderate , or expensive price range ?', 'nothing to fill: never masked');
});

test('KB coverage: an api_call value no KB restaurant has is typed by its position and flagged; old feature specs still load', () => {
  const train: Dialog[] = [
    { id: '0', turns: [u('i want canapes food in paris'), b('api_call canapes paris'), { speaker: 'kb', text: 'api_call no result' }, u('<SILENCE>'), b('sorry')] },
    { id: '1', turns: [u('i want thai food in paris'), b('api_call thai paris'), ...kbTurns(['r_a']), u('<SILENCE>'), b('how about r_a')] },
  ];
  const m = buildHcn(train, FACTS, { hidden: 4 });
  assert.equal(m.lexicon.type('canapes'), 'cuisine');
  assert.ok(m.lexicon.unserved('canapes') && !m.lexicon.unserved('thai'));
  const last = (d: Dialog, n: number) => m.featurizer.describe(encodeHistory(m, d.turns.slice(0, n), true).steps.at(-1)?.x as Float32Array);
  const t0 = train[0] as Dialog;
  assert.ok(last(t0, 1).includes('value-not-in-kb') && last(t0, 1).includes('said-value-not-in-kb'));
  assert.ok(last(t0, 4).includes('value-not-in-kb') && !last(t0, 4).includes('said-value-not-in-kb'));
  assert.ok(!last(train[1] as Dialog, 1).includes('value-not-in-kb'));
  // The flag survives the model file and a test KB that does not serve the value either…
  const back = HcnLexicon.fromJSON(JSON.parse(JSON.stringify(m.lexicon.toJSON())));
  assert.ok(back.unserved('canapes'));
  assert.ok(HcnLexicon.fromFacts(FACTS).merged(back).unserved('canapes'));
  // …but not one that does.
  assert.ok(!HcnLexicon.fromFacts(restaurant('r_z', 'canapes', 'rome', 1)).merged(back).unserved('canapes'));
  const legacy = new Hcn({ hidden: 4 }, m.lexicon, m.templates, { ...m.spec, flags: undefined });
  assert.equal(m.featurizer.size - legacy.featurizer.size, 2, 'model files without `flags` use the first ten context flags');
});

test('tracker: a restaurant named without KB-result turns gets its attributes from the KB (so its phone can be given)', () => {
  const lex = HcnLexicon.fromFacts(FACTS);
  const st = emptyTracker();
  trackTurn(st, lex, u('hello'));
  trackTurn(st, lex, b('r_c is a nice place'));
  assert.equal(st.current, 'r_c');
  assert.equal(st.restaurants.get('r_c')?.get('phone'), 'r_c_phone');
  assert.equal(fillTemplate('the phone of <name@current> is <phone>', st), 'the phone of r_c is r_c_phone');
  // Survives merging with another KB and dropping words; a lexicon read from a model file has no KB.
  const merged = HcnLexicon.fromFacts(restaurant('r_z', 'korean', 'seoul', 1)).merged(lex).without(['thai']);
  assert.equal(merged.attributes('r_c')?.get('location'), 'rome');
  assert.equal(merged.attributes('r_z')?.get('cuisine'), 'korean');
  assert.equal(HcnLexicon.fromJSON(JSON.parse(JSON.stringify(lex.toJSON()))).attributes('r_c'), undefined);
});

test('candidates: a word said where a training bot turn says a slot value becomes an unserved value of that slot', () => {
  const train: Dialog[] = [{ id: '0', turns: [u('thai food in paris'), b('you want thai food right?'), u('yes'), b('api_call thai paris')] }];
  const cands = ['you want australian food right?', 'you want paris food right?', 'you want r_a food right?', 'you want greek food now?', 'you want korean food now?', 'hello'];
  const { lexicon } = trainingLexicon(train, FACTS, cands);
  assert.equal(lexicon.type('australian'), 'cuisine');
  assert.ok(lexicon.unserved('australian'));
  for (const w of ['korean', 'now?', 'hello']) assert.equal(lexicon.type(w), undefined, w);
  assert.equal(lexicon.type('r_a'), 'name', 'known entities keep their type');
  assert.equal(lexicon.type('paris'), 'location');
  assert.ok(!lexicon.unserved('paris'));
  assert.equal(trainingLexicon(train, FACTS).lexicon.type('australian'), undefined);
});

test('features: every action taken so far is an input (the wording this dialog\'s bot has used)', () => {
  const d = toyDialog(0, 'thai', 'paris', ['r_a', 'r_b'], 1);
  const m = buildHcn([d], FACTS, { hidden: 4 });
  const { steps } = encodeHistory(m, d.turns);
  const done = (k: number) => m.featurizer.describe(steps[k]?.x as Float32Array).filter((f) => f.startsWith('done:'));
  assert.deepEqual(done(0), []);
  assert.deepEqual(done(2), [`done:${m.templates.id('hello')}`, `done:${m.templates.id('where')}`]);
  // A proposal made twice counts once.
  const prop = `done:${m.templates.id('how about <name>')}`;
  assert.equal(done(steps.length - 1).filter((f) => f === prop).length, 1);
  const legacy = new Hcn({ hidden: 4 }, m.lexicon, m.templates, { ...m.spec, actionsSoFar: undefined });
  assert.equal(m.featurizer.size - legacy.featurizer.size, m.templates.size, 'older model files have no such block');
});

test('templates: an attribute of a restaurant other than the current one names its source (`here it is <phone@last>`)', () => {
  const lex = HcnLexicon.fromFacts(FACTS);
  const st = emptyTracker();
  for (const t of [u('thai in paris'), b('api_call thai paris'), ...kbTurns(['r_a', 'r_b']), u('<SILENCE>'), b('how about r_b'), u('no'), b('how about r_a'), u('what was the first one'), b('it was r_b'), u('the new one please')]) trackTurn(st, lex, t);
  assert.equal(st.current, 'r_b');
  assert.equal(delexicaliseBot('here r_a_phone', lex, st), 'here <phone@last>');
  assert.equal(delexicaliseBot('here r_b_phone', lex, st), 'here <phone>');
  assert.equal(delexicaliseBot('r_a is thai , r_a_phone', lex, st), '<name@last> is <cuisine> , <phone>', 'a named restaurant: its attributes need no source');
  assert.equal(delexicaliseBot('you want thai food', lex, st), 'you want <cuisine> food', "the user's value");
  assert.equal(fillTemplate('here <phone@last>', st), 'here r_a_phone');
  assert.equal(fillTemplate('here <phone>', st), 'here r_b_phone');
  assert.equal(fillTemplate('here <phone@prev>', st), 'here r_b_phone');
});

test('DSTC6 training: an entry\'s step is a choice among its candidates\' templates (none usable: the action mask)', () => {
  const mask = Uint8Array.from([1, 1, 0, 1]);
  assert.deepEqual([...candidateMask(mask, Uint8Array.from([0, 1, 1, 1]))], [0, 1, 0, 1]);
  assert.deepEqual([...candidateMask(mask, Uint8Array.from([0, 0, 1, 0]))], [1, 1, 0, 1]);
  assert.deepEqual([...mask], [1, 1, 0, 1], 'the action mask itself is not changed');
});
