import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Restaurant } from '../kb.js';
import { BOT, DSTC6_ASK } from '../patterns.js';
import { BABI, DSTC6 } from '../rules/phrases.js';
import { ACTS, FILLERS, NOT_UNDERSTOOD } from './lexicon.js';
import { contentWords, readLabel, UtteranceReader } from './utterance-reader.js';
import type { CallSlot } from './goal.js';
import { hearReading, hearV1 } from './user.js';

const NAME = 'resto_rome_cheap_italian_1stars';
const DSTC6_NAME = 'the_long_good_part_night';
const kb = [NAME, DSTC6_NAME].map((name) => ({ name, phone: `${name}_phone`, address: `${name}_address` }) as Restaurant);
const reader = new UtteranceReader(kb);
const read = (text: string): string => readLabel(reader.read(text));

/** The label an example of `act` must read as (entity acts name their entity). */
function expectedLabel(act: (typeof ACTS)[number], example: string): RegExp {
  switch (act.act) {
    case 'ask':
      return /^ask\((cuisine|location|number|price|atmosphere|restrictions)\)$/;
    case 'inform':
      return example.includes('_phone') ? /^inform\(phone\)$/ : /^inform\(address\)$/;
    case 'propose':
    case 'recall':
      return new RegExp(`^${act.act}\\(${NAME}\\)$`);
    default:
      return new RegExp(`^${act.act}$`);
  }
}

test("every example wording of the lexicon reads as its act (the docs' tables show them)", () => {
  for (const act of ACTS) {
    assert.ok(act.examples.length >= 3, `${act.act}: ${act.examples.length} examples`);
    for (const e of act.examples) assert.match(read(e), expectedLabel(act, e), `${act.act}: ${JSON.stringify(e)}`);
  }
});

/** Wordings other agents use (written apart from the lexicon's examples and the test agent's words). */
const OTHER_AGENTS: Readonly<Record<string, readonly string[]>> = {
  greet: ['Hello! Welcome to the restaurant booking service. How can I help you today?', 'Hey, how can I help?', 'Hello! How can I assist you today?', 'Hi there, welcome!', 'Good afternoon! What can I do for you?', 'Hey! Looking for a place to eat?', "Greetings! I'm your restaurant assistant.", 'Welcome! How may I help you?'],
  ack: ['Right.', "I'd be happy to help with that!", 'Certainly!', 'Of course.', 'Sure, I can help with that.', "Absolutely, I'd be glad to help.", 'No problem!', 'Got it, working on it.', 'Noted.', 'Will do.', 'Alright!'],
  'ask(cuisine)': ['What type of cuisine would you like?', 'What kind of food are you craving?', 'Do you have a cuisine preference?', 'Which cuisine?', 'Any particular type of food in mind?', 'What would you like to eat?', 'Cuisine?', "I'd be happy to help! What type of cuisine would you like?", 'Please let me know your preferred cuisine.'],
  'ask(location)': ['Which city should the restaurant be in?', 'Where would you like to eat?', 'In what area are you looking?', 'What location do you prefer?', 'Where?', 'Which part of town?', 'Could you tell me the city?', 'Great! Where would you like the restaurant to be?', 'What neighborhood works for you?'],
  'ask(number)': ['Number of guests?', 'Table for how many?', 'How big is your group?', 'How many people will be dining?', 'For how many guests?', 'How many are in your party?', "What's the party size?", 'Party size?', 'How many of you will there be?', 'Could you tell me the number of people?', 'How many seats do you need?'],
  'ask(price)': ["What's your budget?", 'Do you prefer cheap, moderate or expensive?', 'How much would you like to spend?', 'Any budget in mind?', 'Price range?', 'Are you looking for something cheap or more expensive?', 'What is your preferred price level?', "Let me look for restaurants. What's your budget?"],
  'ask(atmosphere)': ['Preferred ambiance?', 'Vibe?', 'What kind of atmosphere are you looking for?', 'Do you prefer a casual, business or romantic setting?', 'What ambiance would you like?', 'Any preference on the vibe?'],
  'ask(restrictions)': ['Diet?', 'Do you need glutenfree, vegan or vegetarian options?', 'Any food allergies I should know about?', 'Do you need vegan or vegetarian options?', 'Does anyone in your party have dietary needs?', 'Are there any diet requirements?'],
  'ask-updates': ['Changes?', 'Got it, I have updated your request. Anything else you would like to change?', "Is there anything else you'd like to update?", 'Would you like to change anything?', 'Any other changes?', 'Do you want to modify anything else in your request?', 'Should I update anything else?', "Anything else you'd like to adjust?"],
  search: ['Let me search for available restaurants.', "I'll look for options now.", 'Searching the database...', 'Let me find some restaurants for you.', 'Give me a moment while I look up options.', 'Checking availability for you.', 'One moment while I search.'],
  another: ['Next.', 'Okay, let me see what else is available.', 'Sure, I will look for something different.', "No problem, I'll look for something else.", 'Sure, let me suggest a different restaurant.', "I'll find an alternative.", 'Okay, let me look for another one.', 'Let me see what other options there are.'],
  reserve: ['Booked.', 'Wonderful! I have booked a table for you.', 'Booking it now!', "I'll reserve a table for you.", 'Your reservation is confirmed.', 'Perfect, let me book that for you.', "Excellent, I'm making the booking.", 'Done! Your table has been reserved.'],
  'offer-help': ['Need more?', 'More help?', 'Can I help with anything else?', 'Anything else I can do for you?', 'Do you need help with anything else?', 'Is there something more I can assist with?', "Let me know if there's anything else I can help with."],
  close: ['You are welcome, have a great day!', 'Enjoy your meal!', 'My pleasure. Bye!', 'Have a nice evening!', 'Take care!', "You're welcome, enjoy your dinner!"],
  wait: ["Sure, let me know when you've decided.", 'Take time.', 'No rush.', "I'll wait for you.", 'Sure, take all the time you need.', "Let me know when you're ready."],
  'cannot-answer': ['No idea.', "Don't know.", "Sorry, I don't know.", "I'm afraid I don't have that information.", "I can't answer that, sorry.", "I'm not sure about that.", "Unfortunately I can't help with that question."],
  [`propose(${DSTC6_NAME})`]: ['I found {N}. Would you like to book it?', '{N} is a great choice, what do you think?', 'I recommend {N}.', "There's a nice place called {N}. Interested?", 'What about {N}? It has excellent ratings.', 'Would {N} work for you?'],
  [`recall(${DSTC6_NAME})`]: ['As I mentioned, it was {N}.', 'The first one I suggested was {N}.', 'Just to remind you, the previous option was {N}.'],
  'inform(phone)': ["Here's the phone number: {N}_phone", 'You can reach them at {N}_phone.', 'Sure! Call them on {N}_phone.'],
  'inform(address)': ["It's located at {N}_address.", 'Here is the address: {N}_address', "You'll find them at {N}_address."],
};

test("other agents' wordings of every act are read as meant", () => {
  const wrong: string[] = [];
  for (const [label, xs] of Object.entries(OTHER_AGENTS)) for (const x of xs) if (read(x.replace('{N}', DSTC6_NAME)) !== label) wrong.push(`${label}: ${x} → ${read(x.replace('{N}', DSTC6_NAME))}`);
  assert.deepEqual(wrong, []);
});

/**
 * Wordings of agents written by outsiders from the docs alone (several personalities: terse,
 * chatty, formal and British, imperative, an LLM-like agent that repeats what it heard before it
 * asks); each was misread before the lexicon met it. Left out as genuinely ambiguous: a question
 * that only lists values (`Italian, French, Indian...? What are you after?`) and indirect ones
 * (`Just you, or are others joining?`).
 */
const OUTSIDERS: Readonly<Record<string, readonly string[]>> = {
  'ask(cuisine)': ['What type of restaurant are you looking for?', 'What are you craving?', 'Got it - six people, cheap. What cuisine?', "Ooh, nice. Any particular food you'd love to eat?"],
  'ask(location)': ['Whereabouts?', 'Whereabouts would you like to dine?', 'Italian food, lovely. Where would you like to eat?', 'Cheap, got it. Where?', 'A cheap place, noted. Which city?', 'Vegan food, sure. Where should it be?'],
  'ask(price)': ['Cheap, moderate or expensive?', 'Budget-wise, what works for you?', "Italian food for six in Rome. What's the budget?", 'Moderately priced, cheap, or upscale?', 'Is money a concern?'],
  'ask(atmosphere)': ['Romantic, casual or business?', 'What kind of place - romantic or casual?', 'Is it a business dinner or something more relaxed?', 'Cheap Italian in Rome, ok. What atmosphere would you like?'],
  'ask(restrictions)': ['Great - a cheap place. Any dietary restrictions?', 'Got it: a business atmosphere. Any allergies I should know about?', 'A casual atmosphere, noted. Does anyone need vegan, vegetarian or gluten-free food?', 'Dietary restrictions?', 'Dietary requirements?', "Are there foods you can't eat?", 'Any food intolerances?', 'Should I look for gluten-free options?', 'Does anyone in your group have dietary restrictions?', 'Have any of your guests dietary restrictions?', "Anything you can't eat?"],
  'ask-updates': ['Do you need to modify anything else?', 'Shall I amend the request?', 'Noted. Is there anything further you wish to amend?', 'Would you like to alter anything else?'],
  search: ['Give me a moment to search.', 'Let me pull up some options.', "Let me dig through what's out there for you...", 'Give me a second to check.', 'Querying the system now.'],
  another: ['Let me look for another option.', 'No worries at all, let me find you something else!', "Totally fine - I'll look for another option.", 'Of course. Allow me to look for another restaurant.', 'Let me look for a different restaurant.', "No problem, here's another idea coming up."],
  'offer-help': ['Might I help you with anything further?', 'Is there something else you need?', 'Anything further I can do for you?'],
  close: ['Have a lovely evening!', 'Cheerio!', 'Have a good one!', 'No problem at all, have a great night!', 'Anytime! Bon appetit!', 'Cheers, take care.'],
  wait: ["Go ahead and check, I'll hold.", 'Sure, ask your friend and get back to me.', "Okay, I'll give you a minute."],
  'cannot-answer': ['I am sorry, I am unable to say.', "I'm afraid I have no way of knowing that.", "I can't say, unfortunately."],
  ack: ['Sure thing.', 'Righto.'],
};

test("outsiders' wordings (agents written from the docs alone) are read as meant", () => {
  const wrong: string[] = [];
  for (const [label, xs] of Object.entries(OUTSIDERS)) for (const x of xs) if (read(x) !== label) wrong.push(`${label}: ${x} → ${read(x)}`);
  assert.deepEqual(wrong, []);
});

/** Every bot utterance of the datasets without an entity: bAbI's, and DSTC6's (the rule bot's DSTC6 phrasebook is the DSTC6 wording). */
const DATASET_BOT = [...new Set([...Object.values(BOT).flatMap((x) => (typeof x === 'string' ? [x] : Object.values(x))), ...Object.values(DSTC6_ASK), DSTC6.wait, DSTC6.sorry, BABI.another, DSTC6.another])];

test("the datasets' bot utterances are heard by -v2 as -v1 hears them (same features: same reactions)", () => {
  const slots: CallSlot[] = ['cuisine', 'location', 'number', 'price', 'atmosphere', 'restrictions'];
  const withEntities = [...DATASET_BOT, `what do you think of this option: ${NAME}`, `the option was ${NAME}`, `here it is ${NAME}_phone`, `here it is ${NAME}_address`, 'what do you think of this option: resto_nowhere', 'here it is resto_nowhere_phone'];
  assert.ok(DATASET_BOT.length >= 18, `${DATASET_BOT.length}`);
  const features = (h: ReturnType<typeof hearV1>): unknown => [h.propose, h.inform, h.close === true, h.askUpdates === true, h.ask, h.statement === true];
  for (const u of withEntities) assert.deepEqual(features(hearReading(reader.read(u))), features(hearV1(u, slots)), u);
});

test('unreadable utterances are not understood; only fillers is an acknowledgement', () => {
  for (const x of ['', '   ', 'blah', 'asdf qwerty', 'the weather is nice today', '42', '???']) assert.equal(read(x), 'not understood', x);
  for (const x of ['Ok!', 'sure', 'Alright then.']) assert.equal(read(x), 'ack', x);
  assert.equal(read('api_call italian rome six cheap'), 'not understood', 'the text api_call is the environment\'s, not a reading');
  assert.ok(NOT_UNDERSTOOD.length >= 3);
});

test('contractions are written out, with or without the apostrophe; fillers are dropped', () => {
  assert.deepEqual(contentWords("Ok, so... what's your budget? I'm sure you're fine, don't worry").words, ['what', 'is', 'your', 'budget', 'i', 'am', 'you', 'are', 'do', 'not', 'worry']);
  assert.deepEqual(contentWords('whats youre dont cant').words, contentWords("what's you're don't can't").words);
  for (const [a, b] of [["you're welcome", 'you are welcome'], ["whenever you're ready", 'whenever youre ready'], ["I'm on it", 'i am on it'], ["what's the party size", 'what is the party size']]) assert.equal(read(a as string), read(b as string), a);
});

/** Utterances of every act (examples, other agents' wordings) for the property test. */
const CORPUS = [...ACTS.flatMap((a) => a.examples), ...Object.values(OTHER_AGENTS).flat().map((x) => x.replace('{N}', DSTC6_NAME)), ...Object.values(OUTSIDERS).flat(), ...DATASET_BOT];

test('property: letter case, punctuation and filler words never change the act read', () => {
  const punct = fc.constantFrom('', ',', '.', '!', '?', '...', ';', ':', ' -', '!!', '?!');
  const filler = fc.constantFrom('', ...FILLERS, 'ok so', 'well, um,');
  fc.assert(
    fc.property(fc.constantFrom(...CORPUS), fc.array(fc.tuple(fc.nat(3), punct, filler), { minLength: 1, maxLength: 30 }), (text, edits) => {
      const words = text.split(' ');
      const out = words.map((w, i) => {
        const [casing, p, f] = edits[i % edits.length] as [number, string, string];
        const cased = casing === 0 ? w.toUpperCase() : casing === 1 ? w.toLowerCase() : casing === 2 ? w.charAt(0).toUpperCase() + w.slice(1) : w;
        // Punctuation after a word (not inside one: names and values stay whole), a filler before it.
        return `${f ? `${f} ` : ''}${cased}${p}`;
      });
      assert.equal(read(out.join(' ')), read(text), `${JSON.stringify(text)} → ${JSON.stringify(out.join(' '))}`);
    }),
    { seed: 28, numRuns: 2000 },
  );
});
