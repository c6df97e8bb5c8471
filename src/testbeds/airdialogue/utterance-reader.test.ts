import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { airDir, skipUnless } from '../../../test/shared-data.js';
import { parseAirData } from '../../formats/airdialogue.js';
import { AIR_ACTS, AIR_CUES, AIR_FILLERS, NOT_UNDERSTOOD } from './lexicon.js';
import { normalizeAgentTurn, readAgentTurn } from './utterance-reader.js';
import { OWN_WORDS, OWN_WORDS_READ } from './testing/own-words.js';
import { AGENT_ASK_DATES, AGENT_ASK_GOAL, AGENT_ASK_NAME, AGENT_ASK_PREFS, AGENT_ASK_ROUTE, AGENT_PROPOSE, AGENT_REPEAT_GOAL, connectionsText, fill, readAgentUtterance } from './language.js';

test('every example wording of the lexicon reads as its act, alone', () => {
  let n = 0;
  for (const a of AIR_ACTS) {
    assert.ok(a.examples.length >= 3, `${a.act}: ${a.examples.length} examples`);
    for (const e of a.examples) {
      const r = readAgentTurn(e);
      assert.deepEqual(r.acts, [a.act], `"${e}" read as ${r.label}, not ${a.label}`);
      n++;
    }
  }
  assert.ok(n >= 70, `${n} examples`);
});

test('the questions of the issue, contractions and several acts in one turn', () => {
  const cases: Array<[string, string]> = [
    ['What is your budget?', 'ask(budget)'],
    ['Do you have any connection limit?', 'ask(connections)'],
    ['when do you want to leave', 'ask(departure date)'],
    ['any airline preference?', 'ask(airline)'],
    ['what are your travel details?', 'ask(open)'],
    ['tell me about your trip', 'ask(open)'],
    ["What's your budget", 'ask(budget)'],
    ['whats ur budget', 'ask(budget)'],
    ["Where're you flying from?", 'ask(origin)'],
    ["When'll you come back?", 'ask(return date)'],
    ["I can't find your name, what's it?", 'ask(name)'],
    ['What is your name? And your budget?', 'ask(name) + ask(budget)'],
    ['Where are you flying from? Where to?', 'ask(route)'],
    ['When do you leave? When do you return?', 'ask(dates)'],
    ['What are your trip details, and what is your budget?', 'ask(open)'],
    ['Any other requirements, like class or airline?', 'ask(requirements)'],
    ['Do you have a price or class preference?', 'ask(budget) + ask(class)'],
    ['Good morning, how can I help?', 'ask(goal)'],
    ['Have a nice day!', 'close'],
    ['I found flight 1012 for 1000 dollars.', 'propose(1012)'],
    ['Is 1000 dollars your budget?', 'ask(budget)'],
    ['Flight no. 1007 is on time, shall I book it?', 'propose(1007)'],
    ['Purple monkeys dance?', NOT_UNDERSTOOD],
    ['', NOT_UNDERSTOOD],
    ['ok.', NOT_UNDERSTOOD],
  ];
  for (const [text, label] of cases) assert.equal(readAgentTurn(text).label, label, text);
  assert.deepEqual(normalizeAgentTurn("OK, so what's your budget? Thanks!"), [['what', 'is', 'your', 'budget'], ['thanks']]);
});

test('the simulator\'s agent templates read as what the v1 customer heard in them', () => {
  const v1: Array<[readonly string[], string]> = [
    [AGENT_ASK_GOAL, 'ask(goal)'],
    [AGENT_REPEAT_GOAL, 'ask(goal)'],
    [AGENT_ASK_NAME, 'ask(name)'],
    [AGENT_ASK_ROUTE, 'ask(route)'],
    [AGENT_ASK_DATES, 'ask(dates)'],
    [AGENT_ASK_PREFS, 'ask(requirements)'],
  ];
  for (const [templates, label] of v1) for (const t of templates) assert.equal(readAgentTurn(t).label, label, t);
  for (const r of AGENT_ASK_ROUTE) for (const d of AGENT_ASK_DATES) assert.equal(readAgentTurn(`${r} ${d}`).label, 'ask(route) + ask(dates)');
  for (const t of [...AGENT_PROPOSE.book, ...AGENT_PROPOSE.change]) {
    for (const [c, price] of [[0, 200], [1, 1000], [2, 5000]] as const) {
      const u = fill(t, { flight: 1027, airline: 'Southwest', connections: connectionsText(c), price });
      assert.equal(readAgentTurn(u).label, 'propose(1027)', u);
    }
  }
});

test("the test agent's own wordings read as their acts", () => {
  for (const [act, wordings] of Object.entries(OWN_WORDS) as Array<[keyof typeof OWN_WORDS, readonly string[]]>) {
    assert.ok(wordings.length >= 3);
    for (const w of wordings) {
      const text = w.replace('{flight}', '1019').replace('{price}', '250');
      assert.equal(readAgentTurn(text).label, OWN_WORDS_READ[act].replace('<flight>', '1019'), text);
    }
  }
});

/**
 * Wordings of agents written by outsiders from docs/airdialogue-contract.md alone (polite, brisk,
 * British, an open-question and an itemizing one); each was misread before the lexicon met it.
 * Left out as genuinely ambiguous: a requirements question that names the flight
 * (`Anything special you need for this flight?` reads as a proposal: `this flight` proposes).
 */
const OUTSIDERS: Readonly<Record<string, readonly string[]>> = {
  'ask(name)': ["May I ask whom I'm speaking with?", "Great. And who's the ticket for?", 'Who will be travelling?', 'And you are?', 'Who is the booking for?', 'Who will be flying with us today?'],
  'ask(route)': ['From where to where?', 'Where does your trip start and end?'],
  'ask(origin)': ['What is your home airport?', 'Where does the trip begin?'],
  'ask(destination)': ['What city are you visiting?', 'Where would you like to go?'],
  'ask(dates)': ['Which days are you after, going out and coming back?'],
  'ask(departure time)': ['When during the day do you want to depart?', 'What part of the day would you like to leave?'],
  'ask(return time)': ['When during the day do you want to fly back?', 'What part of the day would you like to come back?'],
  'ask(airline)': ['Is a low-cost airline OK, or do you prefer a standard one?'],
  'ask(requirements)': ['Anything else I ought to know, budget or cabin for instance?', 'Is there anything else that matters to you for this trip?', 'Any must-haves?'],
  'ask(open)': ['What does your trip look like?'],
  'ask(goal)': ['How may I be of service?'],
  wait: ['One sec.', 'Let me have a look.'],
  close: ['Safe travels!', 'Have a wonderful trip.'],
};

test("outsiders' wordings (agents written from the contract alone) are read as meant", () => {
  const wrong: string[] = [];
  for (const [label, xs] of Object.entries(OUTSIDERS)) for (const x of xs) if (readAgentTurn(x).label !== label) wrong.push(`${label}: ${x} → ${readAgentTurn(x).label}`);
  assert.deepEqual(wrong, []);
});

/** Every wording the reader is checked on: the lexicon's examples and the test agent's. */
const WORDINGS: readonly string[] = [...AIR_ACTS.flatMap((a) => a.examples), ...Object.values(OUTSIDERS).flat(), ...Object.values(OWN_WORDS).flatMap((ws) => ws.map((w) => w.replace('{flight}', '1019').replace('{price}', '250')))];

test('letter case, punctuation and fillers never change the read (property)', () => {
  const word = fc.constantFrom(...AIR_FILLERS);
  const mark = fc.constantFrom(',', ' -', ':', '"', "'", '(', ')', '…', '--');
  const end = fc.constantFrom('', '?', '!', '?!', '...', '.', '??');
  fc.assert(
    fc.property(fc.constantFrom(...WORDINGS), fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }), fc.array(fc.tuple(fc.nat(30), fc.oneof(word, mark)), { maxLength: 6 }), end, (text, upper, inserts, last) => {
      const words = text.replace(/[?.!]+$/, '').split(' ');
      for (const [at, x] of inserts) words.splice(at % (words.length + 1), 0, x);
      let changed = words.join(' ') + last;
      changed = [...changed].map((ch, i) => (upper[i % upper.length] ? ch.toUpperCase() : ch.toLowerCase())).join('');
      assert.equal(readAgentTurn(changed).label, readAgentTurn(text).label, `${text} -> ${changed}`);
    }),
    { seed: 28, numRuns: 2000 },
  );
});

test('the lexicon is well formed: normalised cue phrases, no filler inside a cue', () => {
  const fillers = new Set(AIR_FILLERS);
  for (const [kind, phrases] of Object.entries(AIR_CUES)) {
    for (const p of phrases) {
      assert.match(p, /^[a-z0-9]+( [a-z0-9$]+)*$/, `${kind}: '${p}'`);
      for (const w of p.split(' ')) assert.ok(!fillers.has(w), `${kind}: '${p}' holds the filler '${w}'`);
    }
    assert.equal(new Set(phrases).size, phrases.length, `${kind} lists a phrase twice`);
  }
});

test('the human agents of the real AirDialogue sample are read: nearly every turn as some act (v1: about a third)', { skip: skipUnless(airDir) }, () => {
  const turns: string[] = [];
  for (const f of ['train_data.json', 'dev_data.json']) {
    for (const d of parseAirData(readFileSync(join(airDir, f), 'utf8'))) for (const u of d.dialogue ?? []) if (u.startsWith('agent: ')) turns.push(u.slice('agent: '.length));
  }
  assert.ok(turns.length > 5000, `${turns.length} agent turns`);
  const v2 = turns.filter((t) => readAgentTurn(t).acts.length > 0).length / turns.length;
  const v1 = turns.filter((t) => Object.values(readAgentUtterance(t)).some((x) => x === true || typeof x === 'number')).length / turns.length;
  assert.ok(v2 >= 0.97, `v2 reads ${v2}`);
  assert.ok(v1 < 0.5, `v1 reads ${v1}`);
});
