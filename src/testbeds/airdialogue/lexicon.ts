/**
 * The lexicon of the `airdialogue-v2` customer: the data its reader (`reader.ts`) reads agent
 * turns with, and that `docs/airdialogue-contract.md`'s tables are made from (`test/air-contract.ts`).
 *
 * A turn is lower-cased, contractions are expanded, punctuation other than sentence ends is
 * dropped and filler words are removed; each sentence is then matched, left to right and longest
 * phrase first, against the cue phrases below. Each cue phrase marks one or more kinds: a topic
 * (what the agent asks about), a direction (outbound or return), or a marker (an open question,
 * a general "requirements" question, a proposal, a greeting, …). `AIR_ACTS` lists every act the
 * reader can produce, how the customer answers it and example wordings (each checked by a test to
 * read as its act).
 */

/**
 * A kind a cue phrase marks: a topic (`name`, `airport`, `date`, `time`, `budget`, `connections`,
 * `class`, `airline`), a direction (`airportOut`, `airportBack`, `travelOut`, `travelBack`) or a
 * marker (`requirements`, `examples`, `open`, `flightWord`, `propose`, `goal`, `greet`, `wait`,
 * `close`, `neutral`).
 *
 * @example
 * ```ts
 * import { AIR_CUES, type CueKind } from 'dialogym/airdialogue';
 * const kind: CueKind = 'budget';
 * AIR_CUES[kind].length;
 * ```
 */
export type CueKind =
  // topics: what a question is about
  | 'name'
  | 'airport'
  | 'date'
  | 'time'
  | 'budget'
  | 'connections'
  | 'class'
  | 'airline'
  // directions
  | 'airportOut'
  | 'airportBack'
  | 'travelOut'
  | 'travelBack'
  // markers
  | 'requirements'
  | 'examples'
  | 'open'
  | 'flightWord'
  | 'propose'
  | 'goal'
  | 'greet'
  | 'wait'
  | 'close'
  | 'neutral';

/**
 * The cue phrases of each kind, in normalised form (lower case, contractions expanded, no
 * punctuation, no fillers); `$` stands for the end of a sentence. A phrase may appear under
 * several kinds (`destination` is an airport topic and a return direction); `neutral` phrases mark
 * nothing but keep their words from being read alone (`would you like` is not the example marker
 * `like`).
 *
 * @example
 * ```ts
 * import { AIR_CUES } from 'dialogym/airdialogue';
 * AIR_CUES.budget.includes('how much'); // true
 * ```
 */
export const AIR_CUES: Readonly<Record<CueKind, readonly string[]>> = {
  name: [
    'name', 'names', 'full name', 'who am i speaking', 'who am i talking', 'who is this', 'who is flying', 'who is traveling', 'who is travelling', 'passenger',
    'whom am i speaking', 'whom i am speaking', 'who i am speaking', 'who is the ticket for', 'who is the booking for', 'who is the reservation for',
    'who will be flying', 'who will be traveling', 'who will be travelling', 'and you are $',
  ],
  airport: [
    'airport', 'airports', 'airport code', 'airport codes', 'code', 'codes', 'city', 'cities', 'where', 'origin', 'destination', 'route',
    'boarding', 'boarding point', 'landing point', 'source', 'from where', 'where to', 'point of departure', 'departure point', 'starting point', 'location', 'locations', 'journey points',
    'to where', 'home airport',
  ],
  date: ['date', 'dates', 'day', 'days', 'when', 'what day', 'which day', 'which dates'],
  time: [
    'time', 'times', 'timing', 'timings', 'time of day', 'times of day', 'what time', 'what time of day', 'which time of day', 'morning', 'afternoon', 'evening', 'night', 'hour', 'early', 'late',
    'during the day', 'when during the day', 'part of the day', 'what part of the day', 'time of the day',
  ],
  budget: [
    'budget', 'price', 'prices', 'pricing', 'price range', 'price limit', 'cost', 'costs', 'fare', 'fares', 'afford', 'spend', 'pay',
    'how much', 'expensive', 'cheap', 'cheaper', 'money', 'dollars', 'dollar',
  ],
  connections: [
    'connection', 'connections', 'connecting', 'connection limit', 'stop', 'stops', 'stopover', 'stopovers', 'layover', 'layovers',
    'direct', 'nonstop', 'non stop', 'transfer', 'transfers', 'halt', 'halts', 'lay by', 'layby', 'way station', 'break',
  ],
  class: ['class', 'cabin', 'economy', 'business', 'first class', 'seat', 'seats', 'seating'],
  airline: ['airline', 'airlines', 'carrier', 'carriers', 'low cost', 'budget airline', 'budget airlines', 'budget carrier', 'standard fare', 'full service'],
  airportOut: ['from', 'from where', 'point of departure', 'departure point', 'starting point', 'flying out of', 'fly out of', 'origin', 'source', 'boarding', 'boarding point', 'depart', 'departing', 'departure', 'leave', 'leaving', 'out of', 'start', 'starting', 'begin', 'beginning', 'home airport'],
  airportBack: [
    'destination', 'to $', 'where to', 'to which', 'to what', 'fly to', 'flying to', 'travel to', 'traveling to', 'travelling to', 'go to',
    'going to', 'going', 'headed', 'heading', 'bound', 'arrive', 'arriving', 'arrival', 'land', 'landing', 'landing point', 'return', 'returning',
    'to where', 'go $', 'visit', 'visiting', 'end $',
  ],
  travelOut: ['there and back', 'both ways', 'each way', 'both flights', 'both legs', 'fly out of', 'flying out of', 'depart', 'departing', 'departure', 'leave', 'leaving', 'outbound', 'fly out', 'flying out', 'go', 'start', 'starting', 'onward', 'set off', 'take off', 'go out', 'going out', 'go $', 'begin', 'beginning'],
  travelBack: ['there and back', 'both ways', 'each way', 'both flights', 'both legs', 'return', 'returning', 'back', 'come back', 'coming back', 'fly back', 'flying back', 'get back', 'inbound', 'fly home', 'flying home', 'come home', 'coming home', 'go home', 'going home', 'end $'],
  requirements: [
    'requirement', 'requirements', 'preference', 'preferences', 'prefer', 'preferred', 'restriction', 'restrictions', 'constraint',
    'constraints', 'specification', 'specifications', 'special request', 'special requests', 'limitation', 'limitations', 'limit',
    'limits', 'needs', 'criteria', 'particular', 'specific', 'anything i should know', 'anything else i should know',
    'anything i ought to know', 'anything else i ought to know', 'matters to you', 'important to you', 'must haves',
  ],
  examples: ['such as', 'like', 'for example', 'for instance', 'including', 'regarding', 'e g'],
  open: [
    'details', 'detail', 'itinerary', 'plans', 'travel plans', 'information', 'tell me about', 'about your trip', 'about your travel',
    'about the trip', 'about your flight', 'describe',
    'trip look like',
  ],
  flightWord: ['flight', 'flights', 'number', 'flight number'],
  propose: [
    'shall i book', 'should i book', 'can i book', 'may i book', 'want me to book', 'book it', 'book this', 'book that', 'reserve it',
    'shall i proceed', 'should i proceed', 'can i proceed', 'may i proceed', 'proceed with', 'go ahead', 'found a flight',
    'there is a flight', 'i have a flight', 'this flight', 'that flight', 'how about', 'want me to change', 'shall i change',
    'should i change', 'does that work', 'does this work', 'would that work', 'sounds good',
  ],
  goal: [
    'help', 'assist', 'assistance', 'aid', 'serve', 'guide', 'amend', 'do for you', 'what brings you', 'book', 'booking', 'change', 'cancel', 'cancellation', 'modify',
    'what would you like to do',
    'of service',
  ],
  greet: ['hello', 'hi', 'hey', 'greetings', 'good morning', 'good afternoon', 'good evening', 'good day', 'welcome', 'nice to meet you'],
  wait: [
    'wait', 'moment', 'one second', 'a second', 'a sec', 'a minute', 'hold on', 'let me check', 'let me look', 'let me see',
    'let me search', 'check', 'checking', 'search', 'searching', 'look up', 'looking up', 'bear with me', 'take a moment', 'hold the line', 'on hold', 'stand by',
    'one sec', 'have a look', 'take a look',
  ],
  close: [
    'thank', 'thanks', 'thank you', 'anything else', 'goodbye', 'bye', 'have a nice day', 'have a good day', 'have a great day',
    'have a nice trip', 'have a safe trip', 'you are welcome', 'enjoy',
    'booked', 'reserved', 'confirmed', 'cancelled', 'canceled', 'processed', 'done', 'no flight found', 'no flights found', 'my pleasure',
    'no flight is available', 'no flights available', 'no flights are available', 'no reservation found',
    'safe travels', 'have a wonderful trip', 'have a great trip', 'have a good trip', 'bon voyage',
  ],
  neutral: ['would you like', 'would like', 'you like', 'like to', 'take your time'],
};

/**
 * Filler words dropped before matching (they never change what a turn is read as).
 *
 * @example
 * ```ts
 * import { AIR_FILLERS } from 'dialogym/airdialogue';
 * AIR_FILLERS.includes('please'); // true
 * ```
 */
export const AIR_FILLERS: readonly string[] = ['please', 'kindly', 'so', 'well', 'um', 'uh', 'er', 'hmm', 'oh', 'just', 'now', 'actually', 'basically', 'really', 'ok', 'okay', 'alright'];

/**
 * Words next to a four-digit number that make it an amount, not a flight number.
 *
 * @example
 * ```ts
 * import { AIR_MONEY_WORDS } from 'dialogym/airdialogue';
 * AIR_MONEY_WORDS.includes('dollars'); // true
 * ```
 */
export const AIR_MONEY_WORDS: readonly string[] = ['dollars', 'dollar', 'usd', 'bucks', 'price', 'budget', 'cost', 'costs', 'fare', 'under', 'below', 'than', 'over', 'above'];

/**
 * An act of the agent as the `airdialogue-v2` customer reads it.
 *
 * @example
 * ```ts
 * import type { AirAct } from 'dialogym/airdialogue';
 * const a: AirAct = 'departure date';
 * ```
 */
export type AirAct =
  | 'goal'
  | 'greet'
  | 'name'
  | 'open'
  | 'route'
  | 'origin'
  | 'destination'
  | 'dates'
  | 'departure date'
  | 'return date'
  | 'times'
  | 'departure time'
  | 'return time'
  | 'budget'
  | 'connections'
  | 'class'
  | 'airline'
  | 'requirements'
  | 'propose'
  | 'wait'
  | 'close';

/**
 * One act of the lexicon: its label in `info.read`, how the reader recognises it, what the
 * customer answers and wordings that read as it.
 *
 * @example
 * ```ts
 * import { AIR_ACTS, type AirActEntry } from 'dialogym/airdialogue';
 * const budget: AirActEntry | undefined = AIR_ACTS.find((a) => a.act === 'budget');
 * budget?.label; // 'ask(budget)'
 * ```
 */
export interface AirActEntry {
  readonly act: AirAct;
  /** How the act appears in `info.read`. */
  readonly label: string;
  /** Weak acts are read only when the turn has no other act. */
  readonly weak: boolean;
  /** How the reader recognises it (for the docs). */
  readonly heard: string;
  /** What the customer answers (for the docs). */
  readonly answer: string;
  /** Wordings that read as this act alone. */
  readonly examples: readonly string[];
}

/**
 * Every act the `airdialogue-v2` customer reads, in the order its answers are given when a turn
 * holds several (a turn's acts are answered in one reply, in this order).
 *
 * @example
 * ```ts
 * import { AIR_ACTS } from 'dialogym/airdialogue';
 * AIR_ACTS.map((a) => a.label).includes('ask(open)'); // true
 * ```
 */
export const AIR_ACTS: readonly AirActEntry[] = [
  {
    act: 'goal',
    label: 'ask(goal)',
    weak: true,
    heard: 'a `goal` cue and no other act in the turn',
    answer: 'its goal: book, change or cancel (an opening sentence)',
    examples: ['How can I help you?', 'What can I do for you today?', 'Hi! What brings you here?', 'Do you want to book, change or cancel a trip?', 'HOW MAY I ASSIST YOU'],
  },
  {
    act: 'greet',
    label: 'greet',
    weak: true,
    heard: 'a `greet` cue and no other act in the turn',
    answer: 'a greeting with its goal (an opening sentence)',
    examples: ['Hello.', 'Hi there!', 'Good morning', 'hey, welcome!'],
  },
  {
    act: 'name',
    label: 'ask(name)',
    weak: false,
    heard: 'a `name` cue',
    answer: 'its full name',
    examples: ['What is your name?', "Who am I speaking with?", 'May I have your full name, please?', "what's the passenger's name"],
  },
  {
    act: 'open',
    label: 'ask(open)',
    weak: false,
    heard: 'an `open` cue (outside a proposal)',
    answer: 'its route, its dates and its other requirements at once (or that it has none)',
    examples: ['What are your travel details?', 'Tell me about your trip.', 'Could you give me your itinerary?', 'What are your travel plans?'],
  },
  {
    act: 'route',
    label: 'ask(route)',
    weak: false,
    heard: 'an `airport` cue with both directions or none',
    answer: 'both airports (codes)',
    examples: ['Which airports are you flying between?', 'Where are you traveling?', 'What are your origin and destination?', 'Where are you flying from and to?', "what're your airport codes"],
  },
  {
    act: 'origin',
    label: 'ask(origin)',
    weak: false,
    heard: 'an `airport` cue with an outbound (`airportOut`) cue only',
    answer: 'its departure airport',
    examples: ['Where are you flying from?', 'What is your departure airport?', 'Which city are you leaving from?', 'From which airport do you start?'],
  },
  {
    act: 'destination',
    label: 'ask(destination)',
    weak: false,
    heard: 'an `airport` cue with a return (`airportBack`) cue only',
    answer: 'its destination airport',
    examples: ['Where are you flying to?', 'What is your destination?', 'Which city are you heading to?', 'Where are you going?'],
  },
  {
    act: 'dates',
    label: 'ask(dates)',
    weak: false,
    heard: 'a `date` cue with both directions or none',
    answer: 'both dates',
    examples: ['What are your travel dates?', 'When are you traveling?', 'When do you leave and when do you come back?', 'Which dates work for you?'],
  },
  {
    act: 'departure date',
    label: 'ask(departure date)',
    weak: false,
    heard: 'a `date` cue with an outbound (`travelOut`) cue only',
    answer: 'its departure date',
    examples: ['When do you want to leave?', 'What is your departure date?', 'Which day would you like to depart?', 'when do you go'],
  },
  {
    act: 'return date',
    label: 'ask(return date)',
    weak: false,
    heard: 'a `date` cue with a return (`travelBack`) cue only',
    answer: 'its return date',
    examples: ['When do you come back?', 'What is your return date?', 'Which day are you flying back?', 'when will you be returning'],
  },
  {
    act: 'times',
    label: 'ask(times)',
    weak: false,
    heard: 'a `time` cue with both directions or none',
    answer: 'its times of day for both flights (or that any time is fine)',
    examples: ['What time of day do you prefer to fly?', 'Do you like to fly in the morning or in the evening?', 'Any preferred flight times?'],
  },
  {
    act: 'departure time',
    label: 'ask(departure time)',
    weak: false,
    heard: 'a `time` cue with an outbound cue only',
    answer: 'its departure time of day (or that any is fine)',
    examples: ['What time do you want to leave?', 'Do you prefer to depart in the morning?', 'Any preferred departure time?'],
  },
  {
    act: 'return time',
    label: 'ask(return time)',
    weak: false,
    heard: 'a `time` cue with a return cue only',
    answer: 'its return time of day (or that any is fine)',
    examples: ['What time would you like to come back?', 'Do you want to return in the evening?', 'Any preferred return time?'],
  },
  {
    act: 'budget',
    label: 'ask(budget)',
    weak: false,
    heard: 'a `budget` cue (a `requirements` cue next to it is read as this topic)',
    answer: 'its maximum price (or that it has no budget limit)',
    examples: ['What is your budget?', 'How much can you spend?', 'Is there a price limit?', "what's your max price?"],
  },
  {
    act: 'connections',
    label: 'ask(connections)',
    weak: false,
    heard: 'a `connections` cue',
    answer: 'its connection limit (or that any number is fine)',
    examples: ['Do you have any connection limit?', 'How many stops are okay?', 'Do you need a direct flight?', 'Are layovers fine for you?'],
  },
  {
    act: 'class',
    label: 'ask(class)',
    weak: false,
    heard: 'a `class` cue',
    answer: 'its cabin class (or that any class is fine)',
    examples: ['Which class do you want to fly?', 'Economy or business?', 'Any cabin preference?'],
  },
  {
    act: 'airline',
    label: 'ask(airline)',
    weak: false,
    heard: 'an `airline` cue',
    answer: 'its airline preference (or that any airline is fine)',
    examples: ['any airline preference?', 'Do you prefer a particular carrier?', 'Which airline would you like?'],
  },
  {
    act: 'requirements',
    label: 'ask(requirements)',
    weak: false,
    heard: 'a `requirements` cue with no topic of budget, connections, class, airline or time, with three or more, or with an `examples` cue',
    answer: 'all its other requirements (budget, connections, class, times, airline) in one sentence, or that it has none',
    examples: ['Do you have any other requirements?', 'Any preferences?', 'Are there restrictions, such as price or class?', 'anything else i should know'],
  },
  {
    act: 'propose',
    label: 'propose(<flight>)',
    weak: false,
    heard: 'a four-digit flight number after a `flightWord` (within three words, not next to a money word), or a `propose` cue',
    answer: 'it accepts (`propose` with the flight number when one was given)',
    examples: ['I found flight 1012 with Delta. Shall I book it?', 'How about flight number 1007?', 'There is a flight with one stop for 300 dollars, shall I proceed?'],
  },
  {
    act: 'wait',
    label: 'wait',
    weak: true,
    heard: 'a `wait` cue and no strong act in the turn',
    answer: 'that it will wait',
    examples: ['Please wait a moment.', 'Let me check.', 'One second, searching.', 'hold on'],
  },
  {
    act: 'close',
    label: 'close',
    weak: true,
    heard: 'a `close` cue (thanks, goodbye, or an outcome: booked, cancelled, no flight found) and no other act in the turn',
    answer: 'thanks',
    examples: ['Thank you!', 'Is there anything else?', 'Have a nice day.', 'bye', 'Your ticket has been booked.'],
  },
];

/**
 * The label of a turn the customer could not read (`info.read`), answered with a "sorry, what do
 * you mean?" reaction and counted in `info.notUnderstood`.
 *
 * @example
 * ```ts
 * import { NOT_UNDERSTOOD } from 'dialogym/airdialogue';
 * NOT_UNDERSTOOD; // 'not understood'
 * ```
 */
export const NOT_UNDERSTOOD = 'not understood';
