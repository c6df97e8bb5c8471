import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Turn } from '../../../core/dialog.js';
import { readBabiDialogs } from '../../../formats/babi.js';
import { dstc6History } from '../../../formats/dstc6.js';
import { accuracy } from '../../../metrics/ranking.js';
import { createModel } from '../../../rankers/registry.js';
import '../../../index.js'; // every testbed, loaded
import { argmax, isResponder, responderAsRanker } from '../../../rankers/ranker.js';
import { babiDir, dstc6Dir, skipUnless, TASK_NAMES } from '../../../../test/shared-data.js';
import { createRulesBot } from './rules.js';
import { extractSlots, understand } from './nlu.js';
import { trackState } from './state.js';
import { readBotAct } from './phrases.js';

const u = (text: string): Turn => ({ speaker: 'user', text });
const b = (text: string): Turn => ({ speaker: 'bot', text });
const kb = (text: string): Turn => ({ speaker: 'kb', text });

/** The KB-result lines of one restaurant (bAbI style). */
function resto(name: string, rating: number, extra: Record<string, string> = {}): Turn[] {
  const attrs: [string, string][] = [['phone', `${name}_phone`], ['address', `${name}_address`], ['rating', String(rating)], ...Object.entries(extra)];
  return attrs.map(([a, v]) => kb(`${name} R_${a} ${v}`));
}

describe('rules NLU', () => {
  const kbWords: Record<string, 'cuisine' | 'location'> = { italian: 'cuisine', thai: 'cuisine', rome: 'location', paris: 'location' };
  const vocab = (w: string): 'cuisine' | 'location' | undefined => kbWords[w];

  it('reads free wording: party sizes in digits and words, fillers and articles are no values, safe synonyms', () => {
    // The dialog: `an` is not a location, `4 people` is a party size.
    assert.deepEqual(understand('in an expensive price range please'), { kind: 'inform', slots: { price: 'expensive' }, update: false });
    assert.deepEqual(understand('book for 4 people'), { kind: 'request', slots: { number: 'four' } });
    assert.deepEqual(understand('a party of 6', vocab), { kind: 'inform', slots: { number: 'six' }, update: false });
    assert.deepEqual(understand('table for two', vocab), { kind: 'request', slots: { number: 'two' } });
    assert.deepEqual(understand('for four', vocab), { kind: 'inform', slots: { number: 'four' }, update: false });
    assert.deepEqual(understand('hi, could you find me a moderately priced italian place in rome for 4?', vocab), {
      kind: 'request', slots: { price: 'moderate', cuisine: 'italian', location: 'rome', number: 'four' },
    });
    assert.deepEqual(understand('something inexpensive, thai, not in paris but in rome', vocab), { kind: 'inform', slots: { price: 'cheap', cuisine: 'thai', location: 'rome' }, update: false });
    assert.deepEqual(understand('can you book a table in the centre of paris', vocab), { kind: 'request', slots: { location: 'paris' } });
    assert.deepEqual((understand('cheap thai please, nothing fancy', vocab) as { slots: object }).slots, { price: 'cheap', cuisine: 'thai' });
    // 3 people and times/ratings are no KB party size; `I fancy` is not a price.
    assert.deepEqual(understand('for 3 at 8 pm', vocab), { kind: 'unknown' });
    assert.deepEqual(understand('i fancy thai', vocab), { kind: 'inform', slots: { cuisine: 'thai' }, update: false });
    // Only KB words are cuisines or locations in free wording; a template still reads an OOV word.
    assert.deepEqual(understand('a table somewhere in the area', vocab), { kind: 'request', slots: {} });
    assert.deepEqual(understand('with zulu food', vocab), { kind: 'inform', slots: { cuisine: 'zulu' }, update: false });
    // A KB cuisine in the `<x> please` answer is a cuisine, not a location.
    assert.deepEqual(understand('italian please', vocab), { kind: 'inform', slots: { cuisine: 'italian' }, update: false });
    assert.equal(understand('something else?').kind, 'reject');
    assert.equal(understand('nope').kind, 'no');
    assert.equal(understand('sounds good').kind, 'yes');
    assert.deepEqual(understand("what's their phone?"), { kind: 'ask-info', info: 'phone' });
  });

  it("resolves yes/no against the bot's last turn: a no to a proposal moves to the next option", () => {
    const bot = createRulesBot();
    const h: Turn[] = [
      u('hi'), b('hello what can i help you with today'), u('italian in rome for 4, cheap'), b("i'm on it"), u('<SILENCE>'),
      b('ok let me look into some options for you'), u('<SILENCE>'), b('api_call italian rome four cheap'),
      ...resto('resto_a', 3), ...resto('resto_b', 7), u('<SILENCE>'), b('what do you think of this option: resto_b'),
    ];
    assert.equal(bot.respond([...h, u('no')]), 'sure let me find an other option for you');
    const next = [...h, u('no'), b('sure let me find an other option for you'), u('<SILENCE>')];
    assert.equal(bot.respond(next), 'what do you think of this option: resto_a');
    const last = [...next, b('what do you think of this option: resto_a')];
    assert.equal(bot.respond([...last, u('another one please')]), 'sorry there is no other option, would you like to change something');
    assert.equal(bot.respond([...last, u('sure')]), 'great let me do the reservation');
    assert.equal(bot.respond([...last, u('sure'), b('great let me do the reservation'), u("what's the address?")]), 'here it is resto_a_address');
  });

  it('reads slot phrases in any order, entity words from the pattern slots (OOV too)', () => {
    assert.deepEqual(extractSlots('in a moderate price range with british cuisine for two in bombay'), {
      price: 'moderate', cuisine: 'british', number: 'two', location: 'bombay',
    });
    assert.deepEqual(extractSlots('with zulu food in atlantis for eight people'), { cuisine: 'zulu', location: 'atlantis', number: 'eight' });
    assert.deepEqual(extractSlots('gotham please'), { location: 'gotham' });
    assert.deepEqual(extractSlots('for six please'), { number: 'six' });
    assert.deepEqual(extractSlots('i am looking for a cheap restaurant'), { price: 'cheap' });
    assert.deepEqual(extractSlots('with a romantic atmosphere with vegan menu options'), { atmosphere: 'romantic', restrictions: 'vegan' });
  });

  it('tells requests, updates, accept/reject and info requests apart', () => {
    assert.deepEqual(understand('can you book a table at resto_x_1stars'), { kind: 'request-at', restaurant: 'resto_x_1stars' });
    assert.deepEqual(understand('may i have a table'), { kind: 'request', slots: {} });
    assert.deepEqual(understand('instead could it be with thai food'), { kind: 'inform', slots: { cuisine: 'thai' }, update: true });
    assert.equal(understand('no this does not work for me').kind, 'reject');
    assert.equal(understand('no').kind, 'no');
    assert.equal(understand('no thank you').kind, 'bye');
    assert.equal(understand("it's perfect").kind, 'accept');
    assert.deepEqual(understand('do you have its phone number'), { kind: 'ask-info', info: 'phone' });
    assert.deepEqual(understand('can you provide the address'), { kind: 'ask-info', info: 'address' });
  });

  it('does not take DSTC6 musings as slot values, and picks the committed value of a choice', () => {
    assert.equal(understand('i always forget if my friend prefers french or italian cuisine, but perhaps i should pick something else entirely').kind, 'hesitate');
    assert.equal(understand('let me check if london or madrid would work').kind, 'hesitate');
    assert.deepEqual(understand("i want moderate price range, but my friend wants a cheap range so let's do that"), { kind: 'inform', slots: { price: 'cheap' }, update: false });
    assert.deepEqual(understand("let's try hanoi, seoul is out of the way for me"), { kind: 'inform', slots: { location: 'hanoi' }, update: false });
    assert.deepEqual(understand("wait, i am asking my friend and she wants tokyo, let's do that"), { kind: 'inform-bare', value: 'tokyo', update: true });
    assert.deepEqual(understand('hold on, i am asking my friend if we need the address'), { kind: 'consult-info', info: 'address' });
  });
});

describe('rules state tracking', () => {
  it('tracks slots, updates and the api_call on an OOV dialog', () => {
    const h: Turn[] = [
      u('hi'), b('hello what can i help you with today'),
      u('may i have a table with cantonese food in bangkok'), b("i'm on it"),
      u('<SILENCE>'), b('how many people would be in your party'),
      u('we will be four'), b('which price range are looking for'),
      u('in a cheap price range please'), b('ok let me look into some options for you'),
      u('<SILENCE>'), b('api_call cantonese bangkok four cheap'),
      u('actually i would prefer in seoul'),
    ];
    const st = trackState(h);
    assert.deepEqual(st.slots, { cuisine: 'cantonese', location: 'seoul', number: 'four', price: 'cheap' });
    assert.equal(st.apiCalls, 1);
    assert.equal(st.updating, true);
    assert.equal(st.dialect, 'babi');
    const bot = createRulesBot();
    assert.equal(bot.respond(h), 'sure is there anything else to update');
    const h2 = [...h, b('sure is there anything else to update'), u('no'), b('ok let me look into some options for you'), u('<SILENCE>')];
    assert.equal(bot.respond(h2), 'api_call cantonese seoul four cheap');
    // `no, something else` answers the update question: search again with the update, not the next old option
    assert.equal(bot.respond([...h, b('sure is there anything else to update'), u('no, something else')]), 'ok let me look into some options for you');
  });

  it('asks the missing slots in order', () => {
    const bot = createRulesBot();
    const base: Turn[] = [u('hello'), b('hello what can i help you with today'), u('can you book a table for two in a expensive price range'), b("i'm on it"), u('<SILENCE>')];
    assert.equal(bot.respond(base), 'any preference on a type of cuisine');
    const h = [...base, b('any preference on a type of cuisine'), u('with zulu cuisine')];
    assert.equal(bot.respond(h), 'where should it be');
    assert.equal(bot.respond([...h, b('where should it be'), u('atlantis please')]), 'ok let me look into some options for you');
  });

  it('proposes options by decreasing rating, skipping rejected ones, and answers with the booked one', () => {
    const bot = createRulesBot();
    const h: Turn[] = [
      ...resto('resto_a', 3), ...resto('resto_b', 7), ...resto('resto_c', 5),
      u('hi'), b('hello what can i help you with today'),
      u('can you book a table with thai food in hanoi for two in a cheap price range'), b("i'm on it"),
      u('<SILENCE>'), b('ok let me look into some options for you'),
      u('<SILENCE>'),
    ];
    assert.equal(bot.respond(h), 'what do you think of this option: resto_b');
    const h2 = [...h, b('what do you think of this option: resto_b'), u('no i don\'t like that'), b('sure let me find an other option for you'), u('<SILENCE>')];
    assert.equal(bot.respond(h2), 'what do you think of this option: resto_c');
    const h3 = [...h2, b('what do you think of this option: resto_c'), u('that looks great')];
    assert.equal(bot.respond(h3), 'great let me do the reservation');
    const h4 = [...h3, b('great let me do the reservation'), u('may i have the address of the restaurant')];
    assert.equal(bot.respond(h4), 'here it is resto_c_address');
    assert.equal(trackState(h4).booked, 'resto_c');
    const h5 = [...h4, b('here it is resto_c_address'), u('thanks')];
    assert.equal(bot.respond(h5), 'is there anything i can help you with');
    assert.equal(bot.respond([...h5, b('is there anything i can help you with'), u('no thanks')]), "you're welcome");
  });

  it('speaks DSTC6 when the history does, and waits on musings', () => {
    const bot = createRulesBot();
    const h: Turn[] = [
      u('hello'), b('hello what can i help you with today'),
      u('may i have a table in madrid with a romantic atmosphere'), b("i'm on it"),
      u('<silence>'), b('any preference on a type of cuisine'),
      u('i always forget if my friend prefers french or italian cuisine, but perhaps i should pick something else entirely'),
    ];
    assert.equal(bot.respond(h), "whenever you're ready");
    const h2 = [...h, b("whenever you're ready"), u("i want french food but my friend insists on spanish so let's do that"), b('how many people would be in your party'), u('we will be six'), b('which price range are you looking for'), u('in a cheap price range please')];
    assert.equal(trackState(h2).slots.cuisine, 'spanish');
    // Restrictions: unknown from this history alone, so both turns are offered, searching first…
    assert.deepEqual(bot.respondRanked(h2), ['ok let me look into some options for you', 'do you have any dietary restrictions']);
    // …and the candidates' wording (tst3/tst4 mention dietary restrictions) decides.
    const cands = ['do you have any dietary restrictions', 'ok let me look into some options for you', 'i eat vegan'];
    const ranker = responderAsRanker(bot);
    assert.equal(cands[argmax(ranker.rank(h2, cands))], 'do you have any dietary restrictions');
    const tst1Like = ['where should it be', 'ok let me look into some options for you'];
    assert.equal(tst1Like[argmax(ranker.rank(h2, tst1Like))], 'ok let me look into some options for you');
    assert.equal(createRulesBot({ restrictions: true }).respond(h2), 'do you have any dietary restrictions');
  });

  it('after its own apology or wait meets a silence (a person it did not understand), asks again what it needs: never waits on a silent user for good', () => {
    const bot = createRulesBot();
    // A request it cannot read, an apology, the user's silence → a question for a missing slot.
    const h = [u('good morning'), b('hello what can i help you with today'), u('zzz qqq'), b("i am sorry, i don't have an answer to that question"), u('<SILENCE>')];
    assert.equal(readBotAct(bot.respond(h)).kind, 'ask');
    const asked = [u('hello'), b('hello what can i help you with today'), u('may i have a table with italian food'), b("i'm on it"), u('<SILENCE>'), b('where should it be'), u('zzz qqq'), b("i am sorry, i don't have an answer to that question"), u('<SILENCE>')];
    assert.equal(createRulesBot().respond(asked), 'where should it be');
    assert.equal(createRulesBot().respond([...asked, b('where should it be'), u('<SILENCE>')]), "whenever you're ready", 'its own question then silence: it waits, as before');
    // DSTC6: a turn it cannot read is a wait; the silence after it → the question again.
    const d = [u('hello'), b('hello what can i help you with today'), u('may i have a table in madrid with a romantic atmosphere'), b("i'm on it"), u('<silence>'), b('any preference on a type of cuisine'), u('zzz qqq'), b("whenever you're ready"), u('<silence>')];
    assert.equal(createRulesBot().respond(d), 'any preference on a type of cuisine');
    // Updating after the first api_call: an update it could not read, then silence → it asks for the updates again.
    const up = [u('hello'), b('hello what can i help you with today'), u('can you book a table for two in rome in a cheap price range with italian food'), b("i'm on it"), u('<SILENCE>'), b('ok let me look into some options for you'), u('<SILENCE>'), b('api_call italian rome two cheap'), u('zzz qqq'), b("i am sorry, i don't have an answer to that question"), u('<SILENCE>')];
    assert.equal(createRulesBot().respond(up), 'sure is there anything else to update');
  });

  it('is registered as `rules`', () => {
    const m = createModel('rules', {});
    assert.ok(isResponder(m));
    assert.equal(m.respond([u('good morning')]), 'hello what can i help you with today');
  });
});

describe('rules on the original bAbI files (tst, tst-OOV, tasks 1-5)', { skip: skipUnless(babiDir) }, () => {
  const bot = createRulesBot();
  for (const task of [1, 2, 3, 4, 5]) {
    for (const split of ['tst', 'tst-OOV']) {
      const file = `dialog-babi-${TASK_NAMES[task]}-${split}.txt`;
      it(`${file}: 100% per-response and per-dialog`, () => {
        let acc = accuracy.empty();
        for (const d of readBabiDialogs(join(babiDir, file)).dialogs) {
          const ok: boolean[] = [];
          d.turns.forEach((t, i) => {
            if (t.speaker === 'bot') ok.push(bot.respond(d.turns.slice(0, i)) === t.text);
          });
          acc = accuracy.addDialog(acc, ok);
        }
        assert.equal(acc.dialogs, 1000);
        assert.equal(accuracy.perResponse(acc), 1, `${acc.correctTurns}/${acc.turns} turns`);
        assert.equal(accuracy.perDialog(acc), 1, `${acc.correctDialogs}/${acc.dialogs} dialogs`);
      });
    }
  }
});

interface Dstc6Entry {
  dialog_id: string;
  utterances: string[];
  candidates: { candidate_id: string; utterance: string }[];
}
interface Dstc6Answer {
  dialog_id: string;
  lst_candidate_id: { candidate_id: string; rank: number }[];
}

const DSTC6_FILES = ['tst1', 'tst2', 'tst3', 'tst4'].flatMap((set) => {
  const kbs = set === 'tst1' || set === 'tst3' ? 'kb1' : 'kb2';
  const slots = set === 'tst1' || set === 'tst2' ? 'atmosphere' : 'atmosphere_restrictions';
  return ['task1API', 'task2REFINE', 'task3OPTIONS', 'task4INFOS', 'task5FULL'].map(
    (t) => `${set}/dialog-${t}-${kbs}_${slots}-distr0.5-tst1000`,
  );
});

describe('rules on the real DSTC6 Track 1 test sets', { skip: skipUnless(dstc6Dir) }, () => {
  const ranker = responderAsRanker(createRulesBot());
  for (const f of DSTC6_FILES) {
    it(`${f}: P@1 = 1.0`, () => {
      const base = join(dstc6Dir, 'dataset-E2E-goal-oriented-test-v1.0', f);
      const data = JSON.parse(readFileSync(`${base}.json`, 'utf8')) as Dstc6Entry[];
      const answers = JSON.parse(readFileSync(`${base}.answers.json`, 'utf8')) as Dstc6Answer[];
      const truth = new Map(answers.map((a) => [a.dialog_id, a.lst_candidate_id[0]?.candidate_id]));
      let hits = 0;
      for (const e of data) {
        const scores = ranker.rank(dstc6History(e.utterances), e.candidates.map((c) => c.utterance));
        if (e.candidates[argmax(scores)]?.candidate_id === truth.get(e.dialog_id)) hits++;
      }
      assert.equal(data.length, 1000);
      assert.equal(hits / data.length, 1, `${hits}/${data.length}`);
    });
  }
});
