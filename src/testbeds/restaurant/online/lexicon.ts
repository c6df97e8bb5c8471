/**
 * The lexicon of the -v2 restaurant and DSTC6 users: what the simulated user understands of the
 * agent's utterances, as data. `reader.ts` reads with it and `docs/restaurant-contract.md`'s tables
 * are generated from it (`test/contract-docs.ts`), so the two cannot drift apart.
 *
 * An utterance is first put in a plain form: `normaliseChatText` (lower case, punctuation out,
 * `4` → `four`), contractions written out (`you're` → `you are`, `don't` → `do not`, `dont` too),
 * filler words dropped (`FILLERS`). Then, in this order:
 * 1. a KB phone number or address in it → `inform` (the value tells which);
 * 2. a KB restaurant name in it → `recall` when a `RECALL_CUES` cue is there, else `propose`
 *    (a proposal worded as a booking, `BOOKING_CUES`, is the booking when that restaurant is the
 *    accepted one);
 * 3. the datasets' own openings with an unknown name or value (`what do you think of this option:
 *    <x>`, `here it is <x>`) → `propose(?)` / `inform(?)`, so a wrong entity is judged, not ignored;
 * 4. otherwise the cues of the acts (`ACTS`; `SLOT_CUES` for a slot question, which also needs a
 *    question form, `QUESTION_FORM`): a cue is a set of words that must all be in the utterance, in
 *    any order (hyphenated words count as their parts: `gluten-free`); the longest cue found among
 *    the tier-1 acts (those the user's reaction depends on: slot question, asking for updates,
 *    offering more help, closing) wins (ties: the earlier act in `ACTS`; between slots: a cue from
 *    the question's first question word, request or opening word on beats one before it — the
 *    words before repeat what the agent heard, `Italian food, lovely. Where would you like to
 *    eat?` — then the longest, then the slot named first), and the tier-2 acts (greeting,
 *    acknowledgement, searching, another option, booking, waiting, no answer) only when no tier-1
 *    act has a cue there — `Hello! Which city?` asks for the location;
 * 5. only filler words (`ok`, `sure`) → `ack`; nothing found → not understood.
 */
import type { CallSlot } from './goal.js';

/** The acts of the agent the -v2 user understands (besides the api_call tool). */
export type AgentAct = 'greet' | 'ack' | 'ask' | 'ask-updates' | 'search' | 'propose' | 'another' | 'recall' | 'reserve' | 'inform' | 'offer-help' | 'close' | 'wait' | 'cannot-answer';

/** One act of the lexicon: how `info.read` names it, its cues, example wordings the user understands, and what the user does. */
export interface ActEntry {
  readonly act: AgentAct;
  /** How `info.read` writes the act. */
  readonly read: string;
  /** What the agent does with it. */
  readonly meaning: string;
  /** Cue phrases (every word present, any order); empty for the acts recognised by a KB entity or a slot cue. */
  readonly cues: readonly string[];
  /** 1: an act the user's reaction depends on; 2: a social act or a statement (greeting, acknowledgement, searching, waiting, booking…), read only when no tier-1 act's cue is there (`Sure, happy to! Which city?` asks). */
  readonly tier: 1 | 2;
  /** Wordings the user reads as this act (checked by the tests; shown in the docs). */
  readonly examples: readonly string[];
  /** What the user does when it hears the act. */
  readonly reaction: string;
}

/** Words dropped before reading (they never change the act): `Ok, so... well, please tell me the city` reads as `tell me the city`. */
export const FILLERS: readonly string[] = [
  'please', 'so', 'ok', 'okay', 'well', 'alright', 'um', 'umm', 'uh', 'oh', 'ooh', 'ah', 'hmm', 'sure', 'great', 'just',
  'now', 'then', 'actually', 'yes', 'yeah', 'perfect', 'excellent', 'wonderful', 'awesome', 'cool', 'fine', 'lovely',
];

/** Contractions written out (after the apostrophe forms `n't`, `'re`, `'m`, `'ll`, `'ve`, `'d`, `'s`): the forms people type without the apostrophe. */
export const CONTRACTIONS: Readonly<Record<string, string>> = {
  "won't": 'will not', "can't": 'can not', cannot: 'can not', "let's": 'let us', "shan't": 'shall not',
  dont: 'do not', doesnt: 'does not', didnt: 'did not', cant: 'can not', wont: 'will not', isnt: 'is not', arent: 'are not',
  wasnt: 'was not', werent: 'were not', wouldnt: 'would not', couldnt: 'could not', shouldnt: 'should not', havent: 'have not',
  youre: 'you are', im: 'i am', ive: 'i have', youll: 'you will', youve: 'you have', whats: 'what is', thats: 'that is',
  theres: 'there is', heres: 'here is', wheres: 'where is', hows: 'how is', lets: 'let us',
};

/**
 * A slot question: its cues per slot. `Where should it be?`, `which city`, `party size?`,
 * `how much would you like to spend`: the slot whose longest cue is in the utterance (ties: the
 * one named first), when the utterance has a question form.
 */
export const SLOT_CUES: Readonly<Record<CallSlot, readonly string[]>> = {
  cuisine: ['cuisine', 'cuisines', 'food', 'foods', 'type of food', 'kind of food', 'dishes', 'dish', 'cooking', 'eat', 'craving', 'crave', 'type of restaurant', 'kind of restaurant', 'sort of restaurant'],
  location: ['where', 'location', 'area', 'city', 'town', 'neighborhood', 'neighbourhood', 'part of town', 'located', 'district', 'whereabouts'],
  number: ['how many', 'party', 'people', 'persons', 'guests', 'diners', 'group', 'party size', 'size', 'seats', 'head count', 'headcount'],
  price: ['price', 'prices', 'price range', 'pricing', 'budget', 'cost', 'expensive', 'cheap', 'spend', 'how much', 'pricey', 'afford', 'affordable', 'moderate', 'moderately', 'priced', 'upscale', 'money'],
  atmosphere: ['atmosphere', 'ambiance', 'ambience', 'vibe', 'mood', 'setting', 'feel', 'occasion', 'romantic', 'casual', 'business'],
  restrictions: ['dietary', 'diet', 'restrictions', 'restriction', 'allergies', 'allergy', 'allergic', 'food allergies', 'dietary needs', 'dietary restrictions', 'dietary requirements', 'intolerance', 'intolerances', 'food intolerances', 'can not eat', 'vegan', 'vegetarian', 'gluten', 'glutenfree'],
};

/**
 * What makes a slot cue a question: a question word anywhere, a word that opens a question (first,
 * or later followed by a subject, `Got it. Do you …`, or for a quantifier by a slot cue word,
 * `Noted. Any allergies?`), a request phrase, or nothing but the slot's cues and small words
 * (`the city`, `and your budget`).
 */
export const QUESTION_FORM = {
  questionWords: ['what', 'which', 'where', 'whereabouts', 'how', 'when', 'who', 'whom', 'whose', 'why'],
  openers: ['do', 'does', 'did', 'are', 'is', 'was', 'were', 'would', 'could', 'can', 'will', 'shall', 'should', 'may', 'might', 'have', 'has', 'any', 'anything'],
  subjects: ['you', 'your', 'anyone', 'anybody', 'someone', 'somebody', 'everyone', 'there', 'we', 'i', 'it', 'they', 'any'],
  quantifiers: ['any', 'anything'],
  requests: ['tell me', 'let me know', 'i need', 'need to know', 'give me', 'specify', 'preference', 'preferences', 'prefer', 'like to know', 'wondering', 'share', 'mind telling', 'indicate', 'particular'],
  smallWords: ['the', 'a', 'an', 'your', 'and', 'for', 'of', 'in', 'on', 'at', 'to', 'with', 'about', 'any', 'you', 'me', 'us', 'party', 'number', 'type', 'kind', 'sort', 'preferred', 'desired', 'level', 'range', 'size', 'then', 'or'],
} as const;

/** Cues that make a restaurant name a reminder of an earlier option (`the option was …`), not a proposal. */
export const RECALL_CUES: readonly string[] = ['option was', 'one was', 'again', 'earlier', 'previous', 'previously', 'reminder', 'remind', 'recall', 'mentioned', 'suggested', 'proposed', 'repeat', 'first one', 'as i said'];

/** Cues of the booking (the `reserve` act); with the accepted restaurant's name they make the booking too (`booking resto_x for you`). */
export const BOOKING_CUES: readonly string[] = ['reservation', 'reserve', 'reserving', 'reserved', 'book', 'booking', 'booked', 'confirm', 'confirmed', 'confirming', 'table is yours', 'table is set'];

/** The datasets' openings of a proposal and of information: with a name or value the KB does not have, they are still a proposal / information (a wrong one). */
export const DATASET_OPENINGS = { propose: 'what do you think of this option', inform: 'here it is' } as const;

/**
 * The acts, in the order that breaks ties between cues of the same length. The acts recognised
 * by a KB entity (`inform`, `propose`, `recall`) are read before any cue.
 */
export const ACTS: readonly ActEntry[] = [
  {
    act: 'inform',
    read: 'inform(phone) / inform(address)',
    meaning: 'give the phone number or the address: the KB value (`resto_…_phone`, `resto_…_address`) anywhere in the utterance',
    cues: [],
    tier: 1,
    examples: ['here it is resto_rome_cheap_italian_1stars_phone', 'Sure! The phone number is resto_rome_cheap_italian_1stars_phone.', 'You can find them at resto_rome_cheap_italian_1stars_address'],
    reaction: 'when it asked for that information: checks the value (wrong: failure `information`), then asks for the next one or thanks (task 4 ends); otherwise repeats what it said last',
  },
  {
    act: 'recall',
    read: 'recall(<name>)',
    meaning: 'remind an earlier option: a KB restaurant name with a reminder cue',
    cues: RECALL_CUES,
    tier: 1,
    examples: ['the option was resto_rome_cheap_italian_1stars', 'As I said, resto_rome_cheap_italian_1stars.', 'The one I mentioned before was resto_rome_cheap_italian_1stars'],
    reaction: 'stays silent (`<SILENCE>`)',
  },
  {
    act: 'propose',
    read: 'propose(<name>)',
    meaning: 'propose a restaurant: a KB restaurant name, any wording',
    cues: [],
    tier: 1,
    examples: ['what do you think of this option: resto_rome_cheap_italian_1stars', 'How about resto_rome_cheap_italian_1stars?', 'I found resto_rome_cheap_italian_1stars, would you like it?'],
    reaction: 'judges it against the options of the last api_call (not among them: `unknown option`; not matching the goal; not the best-rated left: `option order`), then accepts (25 %, always the last option) or rejects; after an acceptance, the accepted name with a booking cue is the booking',
  },
  {
    act: 'ask',
    read: 'ask(<slot>)',
    meaning: 'ask for a slot of the request: a cue of the slot (`SLOT_CUES`) in a question form',
    cues: [],
    tier: 1,
    examples: ['where should it be', 'Which city?', 'How many people will be joining you?', 'And your budget?', 'What kind of food would you like?', 'Please tell me the price range.'],
    reaction: 'answers with its value of the slot (before the first api_call: the first request; after: the updated one); a slot the environment does not have: repeats what it said last',
  },
  {
    act: 'ask-updates',
    read: 'ask-updates',
    meaning: 'ask whether the request changes, after the first api_call',
    cues: ['update', 'updates', 'updated', 'change', 'changes', 'modify', 'modification', 'modifications', 'adjust', 'anything else', 'anything else to update', 'change else', 'changes else', 'modify else', 'update else', 'updates else', 'further changes', 'other changes', 'more changes', 'change anything', 'modify anything', 'update anything', 'other updates', 'modify anything else', 'change anything else', 'update anything else', 'alter anything else', 'amend', 'amendment', 'amendments', 'alter', 'alteration', 'alterations', 'anything further'],
    tier: 1,
    examples: ['sure is there anything else to update', 'Anything else you would like to change?', 'Any other updates?', "Got it. Anything else?"],
    reaction: 'gives its next update, or `no` when there is none left (then waits for the api_call)',
  },
  {
    act: 'offer-help',
    read: 'offer-help',
    meaning: 'offer more help',
    cues: ['help else', 'assist else', 'help more', 'assist more', 'help anything else', 'assist anything else', 'anything i can help', 'anything i can assist', 'anything else i can do', 'else can i do', 'need anything else', 'anything more', 'need more', 'more help', 'help anything further', 'anything further i can do', 'else you need'],
    tier: 1,
    examples: ['is there anything i can help you with', 'Can I help you with anything else?', 'Is there anything more I can do for you?'],
    reaction: 'after its thanks: `no thanks`-like answer (the next agent turn ends the dialog); otherwise repeats what it said last (an offer to help at the opening is `greet`)',
  },
  {
    act: 'close',
    read: 'close',
    meaning: 'close the dialog',
    cues: ['you are welcome', 'goodbye', 'bye', 'good bye', 'have a nice day', 'have a good day', 'have a great day', 'have a nice evening', 'enjoy your meal', 'enjoy', 'my pleasure', 'take care', 'see you', 'glad i could help', 'farewell', 'have a lovely evening', 'have a good one', 'have a good night', 'have a great night', 'good night', 'cheerio', 'cheers', 'bon appetit', 'anytime'],
    tier: 1,
    examples: ["you're welcome", 'Goodbye!', 'My pleasure, enjoy your meal!'],
    reaction: 'after its thanks: ends the dialog; otherwise repeats what it said last',
  },
  {
    act: 'greet',
    read: 'greet',
    meaning: 'greet the user, or offer help at the opening',
    cues: ['how can i help', 'how may i help', 'how can i assist', 'how may i assist', 'what can i do for you', 'can i help you', 'help you find', 'hello', 'hi', 'hey', 'good day', 'good morning', 'good afternoon', 'good evening', 'greetings', 'welcome', 'howdy', 'hiya'],
    tier: 2,
    examples: ['hello what can i help you with today', 'Hi there!', 'Good evening, how may I help?'],
    reaction: 'the first turn of the agent (any act it understands): the user says its request (task 4: the restaurant to book)',
  },
  {
    act: 'reserve',
    read: 'reserve',
    meaning: 'confirm the booking of the accepted restaurant',
    cues: BOOKING_CUES,
    tier: 2,
    examples: ['great let me do the reservation', "I'll book it for you.", 'Your table is reserved!'],
    reaction: "the agent's turn after an acceptance (any act it understands) is the booking: task 3 ends, tasks 4–5 ask for the phone number or address; otherwise silent",
  },
  {
    act: 'another',
    read: 'another',
    meaning: 'say another option is coming',
    cues: ['another', 'other option', 'other options', 'find another', 'find other option', 'let me find another', 'let me find other', 'look for alternative', 'find alternative', 'something else', 'alternative', 'alternatives', 'different one', 'different option', 'next option', 'next one', 'other one', 'different', 'other restaurant', 'other restaurants', 'what else', 'see what else', 'something different', 'another one', 'what other', 'see what other', 'next', 'another option', 'another restaurant', 'another place', 'another idea', 'different restaurant', 'find something else', 'find you something else'],
    tier: 2,
    examples: ['sure let me find an other option for you', 'Let me look for an alternative.', 'No problem, I will find something else.'],
    reaction: 'stays silent (`<SILENCE>`)',
  },
  {
    act: 'wait',
    read: 'wait',
    meaning: 'wait for the user',
    cues: ['whenever you are ready', 'when you are ready', 'let me know when', 'when you have decided', 'when you decide', 'i will wait', 'take your time', 'take time', 'time you need', 'no rush', 'no hurry', 'wait', 'waiting', 'ready when you are', 'i will hold', 'get back to me', 'give you a minute', 'give you a moment'],
    tier: 2,
    examples: ["whenever you're ready", 'Take your time.', 'No rush!'],
    reaction: 'stays silent (`<SILENCE>`); after a hesitation it gives its real answer (to any agent turn)',
  },
  {
    act: 'cannot-answer',
    read: 'cannot-answer',
    meaning: 'say it cannot answer an off-topic question',
    cues: ['do not have an answer', 'no answer', 'do not know', 'not know', 'no idea', 'not sure', 'can not answer', 'can not help with that', 'unable to answer', 'no information', 'not able to answer', 'can not tell', 'unable to say', 'can not say', 'no way of knowing'],
    tier: 2,
    examples: ["i am sorry, i don't have an answer to that question", "Sorry, I can't answer that.", 'I have no idea, unfortunately.'],
    reaction: 'stays silent (`<SILENCE>`); after an off-topic question it gives its real answer (to any agent turn)',
  },
  {
    act: 'search',
    read: 'search',
    meaning: 'say it is searching',
    cues: ['while i search', 'while i look', 'while i check', 'look into', 'look for', 'looking', 'look up', 'search', 'searching', 'let me find', 'find you', 'finding', 'check', 'checking', 'let me see', 'options for you', 'browse', 'browsing', 'to search', 'to check', 'pull up', 'dig', 'query', 'querying'],
    tier: 2,
    examples: ['ok let me look into some options for you', 'Searching now...', 'Let me check what is available.'],
    reaction: 'stays silent (`<SILENCE>`)',
  },
  {
    act: 'ack',
    read: 'ack',
    meaning: 'acknowledge',
    cues: ['on it', 'right', 'right away', 'will do', 'got it', 'noted', 'understood', 'certainly', 'of course', 'absolutely', 'one moment', 'a moment', 'one second', 'a second', 'just a sec', 'hang on', 'bear with me', 'no problem', 'i can help', 'can help with that', 'glad to help', 'happy to help', 'help you with that', 'sure thing', 'righto'],
    tier: 2,
    examples: ["i'm on it", 'Got it!', 'Ok.', 'Right away.'],
    reaction: 'stays silent (`<SILENCE>`)',
  },
];

/**
 * What the -v2 user says when it cannot read the agent's turn (picked by the user's seeded rng;
 * counted in `info.notUnderstood`). It stays where it was: the agent may say it again otherwise.
 */
export const NOT_UNDERSTOOD: readonly string[] = ['sorry what do you mean', "sorry i don't understand", "i'm not sure what you mean", 'could you say that again', "sorry i didn't get that"];
