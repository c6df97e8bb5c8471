/**
 * Templated language of the AirDialogue simulator: several templates per dialog act for each role,
 * and the rule-based understanding each bot applies to the other's utterances.
 *
 * The customer reads the agent's requests by keyword; the agent extracts slot values (name, route,
 * dates, budget, connections, class, times, airline type) from whatever the customer says, so a
 * customer may volunteer information before it is asked for.
 */
import type { DaySegment, FlightClass, Goal, Intent, Month } from '../../formats/airdialogue.js';
import { PRICE_ANY } from './facts.js';
import { MONTHS } from '../../formats/airdialogue.js';
import type { Rng } from '../../core/rng.js';

/**
 * Fills the `{key}` placeholders of a template from `values`; unknown keys are left as they are.
 *
 * @example
 * ```ts
 * import { fill, CUSTOMER_NAME } from 'dialogym/airdialogue';
 * fill(CUSTOMER_NAME[0]!, { name: 'Emily Edwards' }); // 'My name is Emily Edwards.'
 * fill('{a} and {b}', { a: 1 });                       // '1 and {b}'
 * ```
 */
export function fill(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}

// ---------------------------------------------------------------------------------------------
// customer templates

/**
 * Customer templates: the opening utterance per goal (book, change, cancel).
 *
 * @example
 * ```ts
 * import { CUSTOMER_OPENING } from 'dialogym/airdialogue';
 * import { createRng } from 'dialogym';
 * createRng(1).pick(CUSTOMER_OPENING.cancel); // e.g. 'Hi, I have to cancel my flight.'
 * ```
 */
export const CUSTOMER_OPENING: Readonly<Record<Goal, readonly string[]>> = {
  book: [
    'Hello. I would like to book a flight.',
    'Hi, can you help me book a round trip ticket?',
    'Hi there, I need to book a flight ticket.',
    'Hello, I am planning a trip and want to book a ticket.',
  ],
  change: [
    'Hi, I need to change my existing reservation.',
    'Hello. Could you help me modify my reservation?',
    'Hi, my plans changed and I want to change my trip.',
  ],
  cancel: ['Hello, I want to cancel my reservation.', 'Hi, please help me cancel my trip.', 'Hi, I have to cancel my flight.'],
};

/**
 * Customer templates: an opening per goal that also gives the name (`{name}`).
 *
 * @example
 * ```ts
 * import { CUSTOMER_OPENING_WITH_NAME, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_OPENING_WITH_NAME.book[0]!, { name: 'Jo Lee' }); // "Hi, I'm Jo Lee. I would like to book a flight."
 * ```
 */
export const CUSTOMER_OPENING_WITH_NAME: Readonly<Record<Goal, readonly string[]>> = {
  book: ["Hi, I'm {name}. I would like to book a flight.", 'Hello, this is {name}, I want to book a ticket.'],
  change: ["Hi, I'm {name} and I need to change my reservation.", 'Hello, this is {name}. I want to modify my trip.'],
  cancel: ["Hi, I'm {name} and I want to cancel my reservation.", 'Hello, this is {name}. Please cancel my trip.'],
};

/**
 * Customer templates: giving the name (`{name}`).
 *
 * @example
 * ```ts
 * import { CUSTOMER_NAME, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_NAME[1]!, { name: 'Jo Lee' }); // "It's Jo Lee."
 * ```
 */
export const CUSTOMER_NAME = ['My name is {name}.', "It's {name}.", '{name}.', 'This is {name}.', 'Sure, my name is {name}.'];

/**
 * Customer templates: the route (`{from}`, `{to}` airport codes; `{fromCity}`, `{toCity}`).
 *
 * @example
 * ```ts
 * import { CUSTOMER_ROUTE, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_ROUTE[1]!, { from: 'DFW', to: 'IAD' }); // 'The trip is from DFW to IAD.'
 * ```
 */
export const CUSTOMER_ROUTE = [
  'I am flying from {from} ({fromCity}) to {to} ({toCity}).',
  'The trip is from {from} to {to}.',
  'I want to travel from {from} to {to}.',
  'Departing from {from} and going to {to}.',
];

/**
 * Customer templates: travel dates (`{depMonth} {depDay}`, `{retMonth} {retDay}`).
 *
 * @example
 * ```ts
 * import { CUSTOMER_DATES, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_DATES[1]!, { depMonth: 'June', depDay: 12, retMonth: 'June', retDay: 14 }); // 'Departure on June 12, return on June 14.'
 * ```
 */
export const CUSTOMER_DATES = [
  'I will leave on {depMonth} {depDay} and return on {retMonth} {retDay}.',
  'Departure on {depMonth} {depDay}, return on {retMonth} {retDay}.',
  'My travel dates are {depMonth} {depDay} to {retMonth} {retDay}.',
  'Outbound {depMonth} {depDay}, coming back {retMonth} {retDay}.',
];

/**
 * Customer phrases: the budget (`{price}`), joined into one preferences sentence.
 *
 * @example
 * ```ts
 * import { CUSTOMER_PRICE, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_PRICE[0]!, { price: 500 }); // 'my budget is 500 dollars'
 * ```
 */
export const CUSTOMER_PRICE = ['my budget is {price} dollars', 'the price should be under {price}', 'I can not pay more than {price}'];
/**
 * Customer phrases: the connection limit, for 0 and 1 connections.
 *
 * @example
 * ```ts
 * import { CUSTOMER_CONNECTIONS } from 'dialogym/airdialogue';
 * CUSTOMER_CONNECTIONS[0]?.[0]; // 'I need a direct flight'
 * ```
 */
export const CUSTOMER_CONNECTIONS: Readonly<Record<number, readonly string[]>> = {
  0: ['I need a direct flight', 'no connections please', 'it has to be a non-stop flight'],
  1: ['at most one connection', 'one stop is fine but not more', 'no more than 1 connection'],
};
/**
 * Customer phrases: the cabin class (`{cls}`).
 *
 * @example
 * ```ts
 * import { CUSTOMER_CLASS, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_CLASS[1]!, { cls: 'business' }); // 'business class please'
 * ```
 */
export const CUSTOMER_CLASS = ['I want to fly in {cls} class', '{cls} class please', 'I prefer {cls} class'];
/**
 * Customer phrases: the departure day segment (`{seg}`).
 *
 * @example
 * ```ts
 * import { CUSTOMER_DEP_TIME, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_DEP_TIME[0]!, { seg: 'morning' }); // 'I want to depart in the morning'
 * ```
 */
export const CUSTOMER_DEP_TIME = ['I want to depart in the {seg}', 'leaving in the {seg} would be best', 'departure in the {seg}'];
/**
 * Customer phrases: the return day segment (`{seg}`).
 *
 * @example
 * ```ts
 * import { CUSTOMER_RET_TIME, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_RET_TIME[2]!, { seg: 'evening' }); // 'return in the evening'
 * ```
 */
export const CUSTOMER_RET_TIME = ['I want to return in the {seg}', 'coming back in the {seg}', 'return in the {seg}'];
/**
 * Customer phrases: asking for a standard-fare airline.
 *
 * @example
 * ```ts
 * import { CUSTOMER_AIRLINE, readCustomerUtterance } from 'dialogym/airdialogue';
 * readCustomerUtterance(CUSTOMER_AIRLINE[0]!).airline; // 'normal-cost'
 * ```
 */
export const CUSTOMER_AIRLINE = ['I prefer a standard-fare airline', 'it should be a standard-fare carrier like UA, AA, Delta or Hawaiian'];
/**
 * Customer phrases: what the preferences sentence starts with (possibly nothing).
 *
 * @example
 * ```ts
 * import { CUSTOMER_PREFS_LEAD, CUSTOMER_PRICE, fill } from 'dialogym/airdialogue';
 * const s = CUSTOMER_PREFS_LEAD[0] + fill(CUSTOMER_PRICE[0]!, { price: 200 }) + '.'; // 'Yes: my budget is 200 dollars.'
 * ```
 */
export const CUSTOMER_PREFS_LEAD = ['Yes: ', 'Sure, ', 'Well, ', ''];
/**
 * Customer templates: having no other requirement.
 *
 * @example
 * ```ts
 * import { CUSTOMER_NO_PREFS } from 'dialogym/airdialogue';
 * CUSTOMER_NO_PREFS.includes('No preferences.'); // true
 * ```
 */
export const CUSTOMER_NO_PREFS = ['No, I do not have other requirements.', 'Nothing else, thanks.', 'No preferences.', 'No, any flight is fine.'];
/**
 * Customer templates: accepting a proposed flight, for a booking or a change.
 *
 * @example
 * ```ts
 * import { CUSTOMER_ACCEPT, isAcceptance } from 'dialogym/airdialogue';
 * CUSTOMER_ACCEPT.book.every(isAcceptance); // true
 * ```
 */
export const CUSTOMER_ACCEPT: Readonly<Record<'book' | 'change', readonly string[]>> = {
  book: ['Yes, please book it.', 'That works for me, go ahead.', 'Sounds good, please proceed.'],
  change: ['Yes, please change my reservation to that flight.', 'That works, go ahead with the change.', 'Sounds good, please proceed.'],
};
/**
 * Customer templates: thanking the agent.
 *
 * @example
 * ```ts
 * import { CUSTOMER_THANKS } from 'dialogym/airdialogue';
 * CUSTOMER_THANKS[0]; // 'Thank you.'
 * ```
 */
export const CUSTOMER_THANKS = ['Thank you.', 'Thanks for your help.', 'Okay, thank you.'];
/**
 * Customer templates: asking the agent to repeat (when no request was recognised).
 *
 * @example
 * ```ts
 * import { CUSTOMER_REPEAT } from 'dialogym/airdialogue';
 * CUSTOMER_REPEAT[1]; // 'Sorry, I did not get that.'
 * ```
 */
export const CUSTOMER_REPEAT = ['Sorry, could you say that again?', 'Sorry, I did not get that.'];

/**
 * Customer templates (`airdialogue-v2`): the departure airport alone (`{from}`, `{fromCity}`).
 *
 * @example
 * ```ts
 * import { CUSTOMER_ORIGIN, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_ORIGIN[0]!, { from: 'DFW', fromCity: 'Dallas' }); // 'I am departing from DFW.'
 * ```
 */
export const CUSTOMER_ORIGIN = ['I am departing from {from}.', 'I will fly from {from} ({fromCity}).', 'The flight should leave from {from}.'];
/**
 * Customer templates (`airdialogue-v2`): the destination airport alone (`{to}`, `{toCity}`).
 *
 * @example
 * ```ts
 * import { CUSTOMER_DESTINATION, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_DESTINATION[0]!, { to: 'IAD', toCity: 'Washington' }); // 'I am going to IAD.'
 * ```
 */
export const CUSTOMER_DESTINATION = ['I am going to {to}.', 'I want to fly to {to} ({toCity}).', 'I am heading to {to}.'];
/**
 * Customer templates (`airdialogue-v2`): the departure date alone (`{depMonth} {depDay}`).
 *
 * @example
 * ```ts
 * import { CUSTOMER_DEP_DATE, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_DEP_DATE[0]!, { depMonth: 'June', depDay: 12 }); // 'I will leave on June 12.'
 * ```
 */
export const CUSTOMER_DEP_DATE = ['I will leave on {depMonth} {depDay}.', 'My departure date is {depMonth} {depDay}.', 'I want to depart on {depMonth} {depDay}.'];
/**
 * Customer templates (`airdialogue-v2`): the return date alone (`{retMonth} {retDay}`).
 *
 * @example
 * ```ts
 * import { CUSTOMER_RET_DATE, fill } from 'dialogym/airdialogue';
 * fill(CUSTOMER_RET_DATE[0]!, { retMonth: 'June', retDay: 14 }); // 'I will return on June 14.'
 * ```
 */
export const CUSTOMER_RET_DATE = ['I will return on {retMonth} {retDay}.', 'My return date is {retMonth} {retDay}.', 'Coming back on {retMonth} {retDay}.'];
/**
 * Customer templates (`airdialogue-v2`): having no requirement on a topic it is asked about.
 *
 * @example
 * ```ts
 * import { CUSTOMER_NO_LIMIT } from 'dialogym/airdialogue';
 * CUSTOMER_NO_LIMIT.budget[0]; // 'I do not have a budget limit.'
 * ```
 */
export const CUSTOMER_NO_LIMIT: Readonly<Record<'budget' | 'connections' | 'class' | 'airline' | 'departureTime' | 'returnTime' | 'times', readonly string[]>> = {
  budget: ['I do not have a budget limit.', 'Any price is fine.', 'The price does not matter to me.'],
  connections: ['Any number of connections is fine.', 'I do not mind connections.'],
  class: ['Any class is fine.', 'I have no class preference.'],
  airline: ['Any airline is fine.', 'I have no airline preference.'],
  departureTime: ['Any departure time is fine.', 'I can leave at any time of day.'],
  returnTime: ['Any return time is fine.', 'I can come back at any time of day.'],
  times: ['Any time of day is fine.', 'I have no preference for the time of day.'],
};
/**
 * Customer templates (`airdialogue-v2`): agreeing to wait while the agent checks.
 *
 * @example
 * ```ts
 * import { CUSTOMER_WAIT } from 'dialogym/airdialogue';
 * CUSTOMER_WAIT[1]; // 'Sure, take your time.'
 * ```
 */
export const CUSTOMER_WAIT = ['Sure.', 'Sure, take your time.', 'Okay, I will wait.'];
/**
 * Customer templates (`airdialogue-v2`): the reaction to a turn it could not read.
 *
 * @example
 * ```ts
 * import { CUSTOMER_NOT_UNDERSTOOD } from 'dialogym/airdialogue';
 * CUSTOMER_NOT_UNDERSTOOD[0]; // 'Sorry, what do you mean?'
 * ```
 */
export const CUSTOMER_NOT_UNDERSTOOD = [
  'Sorry, what do you mean?',
  'Sorry, I did not get that.',
  'Sorry, could you say that again?',
  'I am not sure I understand, could you rephrase that?',
];

// ---------------------------------------------------------------------------------------------
// agent templates

/**
 * Agent templates: asking what the customer wants.
 *
 * @example
 * ```ts
 * import { AGENT_ASK_GOAL, readAgentUtterance } from 'dialogym/airdialogue';
 * readAgentUtterance(AGENT_ASK_GOAL[0]!).goal; // true
 * ```
 */
export const AGENT_ASK_GOAL = ['Hello. How can I help you today?', 'Hi, what can I do for you?'];
/**
 * Agent templates: asking for the customer's name.
 *
 * @example
 * ```ts
 * import { AGENT_ASK_NAME, readAgentUtterance } from 'dialogym/airdialogue';
 * readAgentUtterance(AGENT_ASK_NAME[0]!).name; // true
 * ```
 */
export const AGENT_ASK_NAME = ['May I know your name, please?', 'Sure, can I have your full name?', 'Could you tell me your name?'];
/**
 * Agent templates: asking for the origin and destination airports.
 *
 * @example
 * ```ts
 * import { AGENT_ASK_ROUTE, readAgentUtterance } from 'dialogym/airdialogue';
 * readAgentUtterance(AGENT_ASK_ROUTE[1]!).route; // true
 * ```
 */
export const AGENT_ASK_ROUTE = [
  'Which airports are you flying from and to?',
  'What are your origin and destination airport codes?',
  'Where are you departing from and where are you heading?',
];
/**
 * Agent templates: asking for the travel dates.
 *
 * @example
 * ```ts
 * import { AGENT_ASK_DATES, readAgentUtterance } from 'dialogym/airdialogue';
 * readAgentUtterance(AGENT_ASK_DATES[0]!).dates; // true
 * ```
 */
export const AGENT_ASK_DATES = ['What are your travel dates?', 'When do you plan to leave and come back?', 'Could you share your travel dates?'];
/**
 * Agent templates: asking for other requirements (price, connections, class, time, airline).
 *
 * @example
 * ```ts
 * import { AGENT_ASK_PREFS, readAgentUtterance } from 'dialogym/airdialogue';
 * readAgentUtterance(AGENT_ASK_PREFS[0]!).prefs; // true
 * ```
 */
export const AGENT_ASK_PREFS = [
  'Do you have any other requirements, like budget, connections, class, time or airline?',
  'Any preferences regarding price, number of stops, cabin class, time of day or airline?',
  'Are there any restrictions I should know about, such as price or connections?',
];
/**
 * Agent templates: proposing a flight (`{flight}`, `{airline}`, `{connections}`, `{price}`), for a
 * booking or a change.
 *
 * @example
 * ```ts
 * import { AGENT_PROPOSE, fill, connectionsText, readAgentUtterance } from 'dialogym/airdialogue';
 * const u = fill(AGENT_PROPOSE.book[0]!, { flight: 1027, airline: 'Delta', connections: connectionsText(1), price: 200 });
 * readAgentUtterance(u).proposal; // 1027
 * ```
 */
export const AGENT_PROPOSE: Readonly<Record<'book' | 'change', readonly string[]>> = {
  book: [
    'I found flight {flight} with {airline}, {connections}, for {price} dollars. Shall I book it?',
    'There is flight {flight} on {airline} with {connections} at {price} dollars. Do you want me to book it?',
    'Flight {flight} by {airline} matches your needs: {connections}, {price} dollars. Should I go ahead?',
  ],
  change: [
    'I can change your reservation to flight {flight} with {airline}, {connections}, for {price} dollars. Shall I proceed?',
    'Flight {flight} on {airline} fits your new plans: {connections}, {price} dollars. Do you want me to change to it?',
  ],
};
/**
 * Agent templates: the closing utterance per final status (book, change, cancel, no_flight,
 * no_reservation).
 *
 * @example
 * ```ts
 * import { AGENT_FINAL } from 'dialogym/airdialogue';
 * AGENT_FINAL['no_reservation']?.[0]; // 'Sorry, I could not find any reservation under your name.'
 * ```
 */
export const AGENT_FINAL: Readonly<Record<string, readonly string[]>> = {
  book: ['Your ticket has been booked. Have a nice trip!', 'Done, your booking is confirmed. Thank you for choosing us.'],
  change: ['Your reservation has been changed. Have a nice trip!', 'Done, your reservation is now on the new flight.'],
  cancel: ['I found your reservation and it has been cancelled.', 'Your reservation is cancelled now. Thank you for contacting us.'],
  no_flight: ['Sorry, there are no flights matching your requirements.', 'I am sorry, I could not find any flight that meets your needs.'],
  no_reservation: ['Sorry, I could not find any reservation under your name.', 'There is no active reservation under your name.'],
};
/**
 * Agent templates: asking again whether the customer wants to book, change or cancel.
 *
 * @example
 * ```ts
 * import { AGENT_REPEAT_GOAL, readAgentUtterance } from 'dialogym/airdialogue';
 * readAgentUtterance(AGENT_REPEAT_GOAL[0]!).goal; // true
 * ```
 */
export const AGENT_REPEAT_GOAL = ['Sorry, do you want to book, change or cancel a trip?'];

/**
 * A connection count in words: `a direct flight`, `1 connection`, `n connections`.
 *
 * @example
 * ```ts
 * import { connectionsText } from 'dialogym/airdialogue';
 * connectionsText(0); // 'a direct flight'
 * connectionsText(2); // '2 connections'
 * ```
 */
export function connectionsText(n: number): string {
  return n === 0 ? 'a direct flight' : n === 1 ? '1 connection' : `${n} connections`;
}

// ---------------------------------------------------------------------------------------------
// customer-side understanding of agent utterances

/**
 * What the customer recognises in an agent utterance (by keyword): which requests it makes, and
 * the flight number it proposes.
 *
 * @example
 * ```ts
 * import { readAgentUtterance, type AgentRequests } from 'dialogym/airdialogue';
 * const r: AgentRequests = readAgentUtterance('May I know your name and travel dates?');
 * // { goal: false, name: true, route: false, dates: true, prefs: false, proposal: null }
 * ```
 */
export interface AgentRequests {
  goal: boolean;
  name: boolean;
  route: boolean;
  dates: boolean;
  prefs: boolean;
  /** Flight number the agent proposes, if any. */
  proposal: number | null;
}

/**
 * The customer's rule-based understanding of an agent utterance: keyword tests for each request
 * (several may hold at once) and the first `flight NNNN` as the proposal.
 *
 * @example
 * ```ts
 * import { readAgentUtterance } from 'dialogym/airdialogue';
 * readAgentUtterance('I found flight 1012 with UA. Shall I book it?').proposal; // 1012
 * ```
 */
export function readAgentUtterance(text: string): AgentRequests {
  const m = /\bflight (\d{4})\b/i.exec(text);
  return {
    goal: /\b(help you|do for you|book, change or cancel)\b/i.test(text),
    name: /\bname\b/i.test(text),
    route: /\b(airports?|origin|where)\b/i.test(text),
    dates: /\b(dates?|when)\b/i.test(text),
    prefs: /\b(requirements?|preferences?|restrictions?)\b/i.test(text),
    proposal: m ? Number(m[1]) : null,
  };
}

// ---------------------------------------------------------------------------------------------
// agent-side understanding of customer utterances

/**
 * What the agent has learned of the customer's needs so far (each slot absent until heard);
 * `readCustomerUtterance` extracts the slots of one utterance.
 *
 * @example
 * ```ts
 * import { readCustomerUtterance, type Slots } from 'dialogym/airdialogue';
 * let known: Slots = {};
 * known = { ...known, ...readCustomerUtterance('My name is Jo Lee. The trip is from DFW to IAD.') };
 * ```
 */
export interface Slots {
  goal?: Goal;
  name?: string;
  from?: string;
  to?: string;
  depMonth?: Month;
  depDay?: string;
  retMonth?: Month;
  retDay?: string;
  maxPrice?: number;
  maxConnections?: number;
  class?: FlightClass;
  depTime?: DaySegment;
  retTime?: DaySegment;
  airline?: 'normal-cost';
}

/**
 * The search query of what an agent heard (`Slots`): the intent to match flights against, with
 * goal `book` when none was heard and no price limit when no budget was; the route and dates are
 * taken as heard (a flight matches no missing one).
 *
 * @example
 * ```ts
 * import { readCustomerUtterance, slotsQuery, cheapestMatching } from 'dialogym/airdialogue';
 * const q = slotsQuery(readCustomerUtterance('The trip is from DFW to IAD. Departure on June 12, return on June 14.'));
 * q.max_price; // 5000
 * ```
 */
export function slotsQuery(s: Slots): Intent {
  const query: Intent = {
    departure_airport: s.from as string,
    return_airport: s.to as string,
    departure_month: s.depMonth as Month,
    departure_day: s.depDay as string,
    return_month: s.retMonth as Month,
    return_day: s.retDay as string,
    name: s.name as string,
    goal: s.goal ?? 'book',
    max_price: s.maxPrice ?? PRICE_ANY,
  };
  if (s.maxConnections !== undefined) query.max_connections = s.maxConnections;
  if (s.class !== undefined) query.class = s.class;
  if (s.depTime !== undefined) query.departure_time = s.depTime;
  if (s.retTime !== undefined) query.return_time = s.retTime;
  if (s.airline !== undefined) query.airline_preference = s.airline;
  return query;
}

const NAME_WORD = "[\\p{Lu}][\\p{L}]*(?:['\\-][\\p{L}]+)*";
const NAME = `(${NAME_WORD}(?: ${NAME_WORD})+)`;
const NAME_CUE = new RegExp(`(?:name is|[Ii]t's|[Tt]his is|I'm|I am)\\s+${NAME}`, 'u');
const NAME_ALONE = new RegExp(`^${NAME}\\.?$`, 'u');
/**
 * A month's spellings a person writes (`september`, `sep`, `sept`, the data's `Sept`), lower case → the data's spelling.
 *
 * @example
 * ```ts
 * import { MONTH_SPELLINGS } from 'dialogym/airdialogue';
 * MONTH_SPELLINGS['september']; // 'Sept'
 * MONTH_SPELLINGS['sep']; // 'Sept'
 * ```
 */
export const MONTH_SPELLINGS: Readonly<Record<string, string>> = (() => {
  const full = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
  const m: Record<string, string> = {};
  full.forEach((f, i) => {
    const canon = MONTHS[i] as string;
    for (const w of [f, f.slice(0, 3), f.slice(0, 4), canon.toLowerCase()]) m[w] = canon;
  });
  return m;
})();
/** A date: a month in any of its spellings and case (`Sept 1`, `september 1`, `Sep. 1`), then the day. */
const MONTH_RE = new RegExp(`\\b(${Object.keys(MONTH_SPELLINGS).sort((a, b) => b.length - a.length).join('|')})\\.? (\\d{1,2})\\b`, 'gi');
const SEG = '(morning|afternoon|evening)';

/**
 * The agent's rule-based understanding: extracts every slot value present in a customer
 * utterance (goal, name, route codes, two dates, budget, connections, class, times, airline type),
 * so information volunteered early is kept. Never throws.
 *
 * @example
 * ```ts
 * import { readCustomerUtterance } from 'dialogym/airdialogue';
 * readCustomerUtterance('Departure on June 12, return on June 14. I need a direct flight.');
 * // { depMonth: 'June', depDay: '12', retMonth: 'June', retDay: '14', maxConnections: 0 }
 * ```
 */
export function readCustomerUtterance(text: string): Slots {
  const s: Slots = {};
  if (/\bcancel/i.test(text)) s.goal = 'cancel';
  else if (/\b(change|modify)/i.test(text)) s.goal = 'change';
  else if (/\b(book|ticket)/i.test(text)) s.goal = 'book';
  const nm = NAME_CUE.exec(text) ?? NAME_ALONE.exec(text.trim());
  if (nm) s.name = nm[1] as string;
  // The cue in any case (a sentence may open with it: `From ORD to IAD`), the code in capitals.
  const from = /\b(?:from|From|FROM) ([A-Z]{3})\b/.exec(text);
  if (from) s.from = from[1] as string;
  const to = /\b(?:to|To|TO) ([A-Z]{3})\b/.exec(text);
  if (to) s.to = to[1] as string;
  const dates = [...text.matchAll(MONTH_RE)];
  if (dates.length >= 2) {
    const month = (d: RegExpMatchArray): Month => MONTH_SPELLINGS[(d[1] as string).toLowerCase()] as Month;
    s.depMonth = month(dates[0] as RegExpMatchArray);
    s.depDay = String(Number((dates[0] as RegExpMatchArray)[2]));
    s.retMonth = month(dates[1] as RegExpMatchArray);
    s.retDay = String(Number((dates[1] as RegExpMatchArray)[2]));
  }
  const price = /(?:budget is|under|more than|up to|at most) \$?(\d{3,5})\b/.exec(text);
  if (price) s.maxPrice = Number(price[1]);
  if (/\b(direct|non-stop|nonstop|no connections?)\b/i.test(text)) s.maxConnections = 0;
  else if (/\b(one|1) (connection|stop)s?\b/i.test(text)) s.maxConnections = 1;
  const cls = /\b(economy|business) class\b/i.exec(text);
  if (cls) s.class = (cls[1] as string).toLowerCase() as FlightClass;
  const dep = new RegExp(`\\b(?:depart|departing|departure|leave|leaving)\\b[^.;,]*?\\b${SEG}\\b`, 'i').exec(text);
  if (dep) s.depTime = (dep[1] as string).toLowerCase() as DaySegment;
  const ret = new RegExp(`\\b(?:return|returning|come back|coming back)\\b[^.;,]*?\\b${SEG}\\b`, 'i').exec(text);
  if (ret) s.retTime = (ret[1] as string).toLowerCase() as DaySegment;
  if (/\b(standard-fare|normal-cost|full-service)\b/i.test(text)) s.airline = 'normal-cost';
  return s;
}

/**
 * Whether a customer utterance accepts a proposal (yes, sure, okay, go ahead, proceed, …).
 *
 * @example
 * ```ts
 * import { isAcceptance } from 'dialogym/airdialogue';
 * isAcceptance('Sounds good, please proceed.'); // true
 * ```
 */
export function isAcceptance(text: string): boolean {
  return /\b(yes|sure|okay|ok|go ahead|proceed|works|sounds good|please do)\b/i.test(text);
}

/**
 * A template of a list drawn from `rng` (same as `rng.pick`); a ConfigError for an empty list.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { choose, AGENT_ASK_NAME } from 'dialogym/airdialogue';
 * choose(createRng(1), AGENT_ASK_NAME);
 * ```
 */
export function choose(rng: Rng, templates: readonly string[]): string {
  return rng.pick(templates);
}
