/**
 * Known facts and priors of the AirDialogue world (Wei et al. 2018, Tables 2 and 3).
 *
 * The original resource files (first/last names, airport list) ship only inside the data tarball,
 * so the lists here are our own: the 24 airport codes seen in the released sample data, and common
 * US first/last names in the same "First Last" shape. The out-of-domain lists add more of each.
 */

/**
 * Airline → cost type: standard-fare (`normal-cost`: UA, AA, Delta, Hawaiian) or `low-cost`
 * (Southwest, Frontier, JetBlue, Spirit).
 *
 * @example
 * ```ts
 * import { AIRLINE_TYPES } from 'dialogym/airdialogue';
 * AIRLINE_TYPES['Spirit']; // 'low-cost'
 * ```
 */
export const AIRLINE_TYPES: Readonly<Record<string, 'normal-cost' | 'low-cost'>> = {
  UA: 'normal-cost',
  AA: 'normal-cost',
  Delta: 'normal-cost',
  Hawaiian: 'normal-cost',
  Southwest: 'low-cost',
  Frontier: 'low-cost',
  JetBlue: 'low-cost',
  Spirit: 'low-cost',
};
/**
 * The eight airline names of the world, in `AIRLINE_TYPES` order.
 *
 * @example
 * ```ts
 * import { AIRLINES } from 'dialogym/airdialogue';
 * AIRLINES.length; // 8
 * ```
 */
export const AIRLINES: readonly string[] = Object.keys(AIRLINE_TYPES);

/**
 * True for a standard-fare airline (UA, AA, Delta, Hawaiian); false for low-cost or unknown ones.
 *
 * @example
 * ```ts
 * import { isStandardFare } from 'dialogym/airdialogue';
 * isStandardFare('Delta');    // true
 * isStandardFare('Frontier'); // false
 * ```
 */
export function isStandardFare(airline: string): boolean {
  return AIRLINE_TYPES[airline] === 'normal-cost';
}

/**
 * A discrete distribution: values and their probabilities (same order, summing to 1).
 *
 * @example
 * ```ts
 * import type { Prior } from 'dialogym/airdialogue';
 * const goal: Prior<'book' | 'change' | 'cancel'> = { values: ['book', 'change', 'cancel'], probs: [0.8, 0.1, 0.1] };
 * ```
 */
export interface Prior<T> {
  readonly values: readonly T[];
  readonly probs: readonly number[];
}

/**
 * The priors of the context generator (paper Tables 2 and 3): customer side (`null` stands for
 * "any": the key is left out of the intent), flight side, and the reservation probability.
 *
 * @example
 * ```ts
 * import { IN_DOMAIN_PRIORS, generateContext, type ContextPriors } from 'dialogym/airdialogue';
 * import { createRng } from 'dialogym';
 * const allChanges: ContextPriors = { ...IN_DOMAIN_PRIORS, goal: { values: ['book', 'change', 'cancel'], probs: [0, 1, 0] }, reservation: 1 };
 * generateContext(createRng(1), { priors: allChanges }).expected.status; // 'change' or 'no_flight'
 * ```
 */
export interface ContextPriors {
  goal: Prior<'book' | 'change' | 'cancel'>;
  class: Prior<'economy' | 'business' | null>;
  /** 5000 = any price. */
  maxPrice: Prior<number>;
  airlinePreference: Prior<'normal-cost' | null>;
  time: Prior<'morning' | 'afternoon' | 'evening' | null>;
  maxConnections: Prior<number | null>;
  /** Flight-side priors. */
  flightClass: Prior<'economy' | 'business'>;
  flightConnections: Prior<number>;
  /** P(the customer already holds a reservation). */
  reservation: number;
}

/**
 * The `max_price` that means "any price" (5000).
 *
 * @example
 * ```ts
 * import { PRICE_ANY } from 'dialogym/airdialogue';
 * import type { Intent } from 'dialogym';
 * const caresAboutPrice = (i: Intent) => i.max_price < PRICE_ANY;
 * ```
 */
export const PRICE_ANY = 5000;

/**
 * The in-domain priors (goal book 80%, change 10%, cancel 10%; reservation 10%; the other
 * customer and flight priors of the paper's tables).
 *
 * @example
 * ```ts
 * import { IN_DOMAIN_PRIORS } from 'dialogym/airdialogue';
 * IN_DOMAIN_PRIORS.goal.probs; // [0.8, 0.1, 0.1]
 * ```
 */
export const IN_DOMAIN_PRIORS: ContextPriors = {
  goal: { values: ['book', 'change', 'cancel'], probs: [0.8, 0.1, 0.1] },
  class: { values: ['economy', 'business', null], probs: [0.07, 0.03, 0.9] },
  maxPrice: { values: [200, 500, 1000, PRICE_ANY], probs: [0.25, 0.25, 0.25, 0.25] },
  airlinePreference: { values: ['normal-cost', null], probs: [0.05, 0.95] },
  time: { values: ['morning', 'afternoon', 'evening', null], probs: [0.03, 0.04, 0.03, 0.9] },
  maxConnections: { values: [0, 1, null], probs: [0.07, 0.9, 0.03] },
  flightClass: { values: ['economy', 'business'], probs: [0.9, 0.1] },
  flightConnections: { values: [0, 1, 2], probs: [0.07, 0.9, 0.03] },
  reservation: 0.1,
};

/**
 * Out-of-domain priors: uniform goals and a reservation 70% of the time, the rest as in-domain
 * (the OOD generator also draws from larger name and airport sets).
 *
 * @example
 * ```ts
 * import { OOD_PRIORS } from 'dialogym/airdialogue';
 * OOD_PRIORS.reservation; // 0.7
 * ```
 */
export const OOD_PRIORS: ContextPriors = {
  ...IN_DOMAIN_PRIORS,
  goal: { values: ['book', 'change', 'cancel'], probs: [1 / 3, 1 / 3, 1 / 3] },
  reservation: 0.7,
};

/**
 * Mean flight price per class (economy 210, business 650); a flight's price is drawn with
 * σ = mean · `PRICE_BETA`[connections].
 *
 * @example
 * ```ts
 * import { PRICE_MEAN, PRICE_BETA } from 'dialogym/airdialogue';
 * const sd = PRICE_MEAN.business * (PRICE_BETA[1] ?? 0); // 260 for a one-connection business flight
 * ```
 */
export const PRICE_MEAN: Readonly<Record<'economy' | 'business', number>> = { economy: 210, business: 650 };
/**
 * Price spread factor per number of connections (0, 1, 2): σ = `PRICE_MEAN`[class] · β.
 *
 * @example
 * ```ts
 * import { PRICE_BETA } from 'dialogym/airdialogue';
 * PRICE_BETA; // [0.2, 0.4, 0.6]
 * ```
 */
export const PRICE_BETA: readonly number[] = [0.2, 0.4, 0.6];

/**
 * The 24 airports of the released data (code → city, for templated language); the in-domain
 * generator draws routes from these.
 *
 * @example
 * ```ts
 * import { AIRPORTS } from 'dialogym/airdialogue';
 * AIRPORTS['DFW']; // 'Dallas'
 * ```
 */
export const AIRPORTS: Readonly<Record<string, string>> = {
  ATL: 'Atlanta',
  AUS: 'Austin',
  BOS: 'Boston',
  CLT: 'Charlotte',
  DCA: 'Washington',
  DEN: 'Denver',
  DFW: 'Dallas',
  DTW: 'Detroit',
  EWR: 'Newark',
  HOU: 'Houston',
  IAD: 'Washington',
  IAH: 'Houston',
  JFK: 'New York',
  LAS: 'Las Vegas',
  LAX: 'Los Angeles',
  LGA: 'New York',
  MCO: 'Orlando',
  MSP: 'Minneapolis',
  OAK: 'Oakland',
  ORD: 'Chicago',
  PHL: 'Philadelphia',
  PHX: 'Phoenix',
  SEA: 'Seattle',
  SFO: 'San Francisco',
};

/**
 * Extra airports (code → city) the out-of-domain generator adds to `AIRPORTS`.
 *
 * @example
 * ```ts
 * import { AIRPORTS, OOD_EXTRA_AIRPORTS } from 'dialogym/airdialogue';
 * const oodCodes = [...Object.keys(AIRPORTS), ...Object.keys(OOD_EXTRA_AIRPORTS)];
 * ```
 */
export const OOD_EXTRA_AIRPORTS: Readonly<Record<string, string>> = {
  BNA: 'Nashville',
  BWI: 'Baltimore',
  CLE: 'Cleveland',
  CMH: 'Columbus',
  HNL: 'Honolulu',
  IND: 'Indianapolis',
  MCI: 'Kansas City',
  MDW: 'Chicago',
  MIA: 'Miami',
  MSY: 'New Orleans',
  PDX: 'Portland',
  PIT: 'Pittsburgh',
  RDU: 'Raleigh',
  SAN: 'San Diego',
  SAT: 'San Antonio',
  SJC: 'San Jose',
  SLC: 'Salt Lake City',
  SMF: 'Sacramento',
  STL: 'St. Louis',
  TPA: 'Tampa',
};

/**
 * Customer first names of the in-domain generator (common US names; the original list is not
 * public).
 *
 * @example
 * ```ts
 * import { FIRST_NAMES, LAST_NAMES, generateContext } from 'dialogym/airdialogue';
 * import { createRng } from 'dialogym';
 * generateContext(createRng(1), { firstNames: FIRST_NAMES.slice(0, 3), lastNames: LAST_NAMES.slice(0, 3) });
 * ```
 */
export const FIRST_NAMES: readonly string[] = [
  'James', 'John', 'Robert', 'Michael', 'William', 'David', 'Richard', 'Joseph', 'Thomas', 'Charles',
  'Christopher', 'Daniel', 'Matthew', 'Anthony', 'Mark', 'Donald', 'Steven', 'Paul', 'Andrew', 'Joshua',
  'Kenneth', 'Kevin', 'Brian', 'George', 'Timothy', 'Ronald', 'Edward', 'Jason', 'Jeffrey', 'Ryan',
  'Jacob', 'Gary', 'Nicholas', 'Eric', 'Jonathan', 'Stephen', 'Larry', 'Justin', 'Scott', 'Brandon',
  'Benjamin', 'Samuel', 'Gregory', 'Alexander', 'Frank', 'Patrick', 'Raymond', 'Jack', 'Dennis', 'Jerry',
  'Mary', 'Patricia', 'Jennifer', 'Linda', 'Elizabeth', 'Barbara', 'Susan', 'Jessica', 'Sarah', 'Karen',
  'Lisa', 'Nancy', 'Betty', 'Margaret', 'Sandra', 'Ashley', 'Kimberly', 'Emily', 'Donna', 'Michelle',
  'Carol', 'Amanda', 'Dorothy', 'Melissa', 'Deborah', 'Stephanie', 'Rebecca', 'Sharon', 'Laura', 'Cynthia',
  'Kathleen', 'Amy', 'Angela', 'Shirley', 'Anna', 'Brenda', 'Pamela', 'Emma', 'Nicole', 'Helen',
  'Samantha', 'Katherine', 'Christine', 'Debra', 'Rachel', 'Carolyn', 'Janet', 'Catherine', 'Maria', 'Heather',
];

/**
 * Customer last names of the in-domain generator (common US names).
 *
 * @example
 * ```ts
 * import { LAST_NAMES } from 'dialogym/airdialogue';
 * LAST_NAMES.includes('Edwards');
 * ```
 */
export const LAST_NAMES: readonly string[] = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
  'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores',
  'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts',
  'Gomez', 'Phillips', 'Evans', 'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes',
];

/**
 * First names the out-of-domain generator adds to `FIRST_NAMES`.
 *
 * @example
 * ```ts
 * import { FIRST_NAMES, OOD_EXTRA_FIRST_NAMES } from 'dialogym/airdialogue';
 * const ood = [...FIRST_NAMES, ...OOD_EXTRA_FIRST_NAMES];
 * ```
 */
export const OOD_EXTRA_FIRST_NAMES: readonly string[] = [
  'Aaron', 'Adrian', 'Bradley', 'Caleb', 'Dylan', 'Elijah', 'Felix', 'Gavin', 'Harold', 'Isaac',
  'Julian', 'Keith', 'Lucas', 'Marcus', 'Nathan', 'Oscar', 'Philip', 'Quentin', 'Russell', 'Travis',
  'Abigail', 'Beatrice', 'Chloe', 'Diana', 'Eleanor', 'Fiona', 'Grace', 'Hannah', 'Irene', 'Julia',
  'Kayla', 'Lillian', 'Madison', 'Natalie', 'Olivia', 'Penelope', 'Rosa', 'Sophia', 'Tiffany', 'Victoria',
];

/**
 * Last names the out-of-domain generator adds to `LAST_NAMES`.
 *
 * @example
 * ```ts
 * import { LAST_NAMES, OOD_EXTRA_LAST_NAMES } from 'dialogym/airdialogue';
 * const ood = [...LAST_NAMES, ...OOD_EXTRA_LAST_NAMES];
 * ```
 */
export const OOD_EXTRA_LAST_NAMES: readonly string[] = [
  'Morris', 'Murphy', 'Cook', 'Rogers', 'Morgan', 'Peterson', 'Cooper', 'Reed', 'Bailey', 'Bell',
  'Kelly', 'Howard', 'Ward', 'Cox', 'Richardson', 'Wood', 'Watson', 'Brooks', 'Bennett', 'Gray',
  'James', 'Hughes', 'Price', 'Sanders', 'Myers', 'Long', 'Ross', 'Foster', 'Powell', 'Jenkins',
];

/**
 * Number of candidate airports drawn per context (3): the customer's route and every flight's
 * route use only these.
 *
 * @example
 * ```ts
 * import { CANDIDATE_AIRPORTS, generateContext } from 'dialogym/airdialogue';
 * import { createRng } from 'dialogym';
 * generateContext(createRng(1), { candidateAirports: CANDIDATE_AIRPORTS + 1 });
 * ```
 */
export const CANDIDATE_AIRPORTS = 3;
/**
 * Days between the customer's departure and return (2).
 *
 * @example
 * ```ts
 * import { BOOK_WINDOW_DAYS } from 'dialogym/airdialogue';
 * const returnEpoch = (departure: number) => departure + BOOK_WINDOW_DAYS * 86400;
 * ```
 */
export const BOOK_WINDOW_DAYS = 2;
/**
 * Flights in each agent database (30), numbered from `FIRST_FLIGHT_NUMBER`.
 *
 * @example
 * ```ts
 * import { FLIGHTS_PER_KB, FIRST_FLIGHT_NUMBER } from 'dialogym/airdialogue';
 * const lastNumber = FIRST_FLIGHT_NUMBER + FLIGHTS_PER_KB - 1; // 1029
 * ```
 */
export const FLIGHTS_PER_KB = 30;
/**
 * Number of the first flight of every agent database (1000).
 *
 * @example
 * ```ts
 * import { FIRST_FLIGHT_NUMBER } from 'dialogym/airdialogue';
 * const index = (flightNumber: number) => flightNumber - FIRST_FLIGHT_NUMBER;
 * ```
 */
export const FIRST_FLIGHT_NUMBER = 1000;
/**
 * Departure dates are drawn uniformly over a year from this Unix time (1300000000, 2011-03-13,
 * as the original).
 *
 * @example
 * ```ts
 * import { BASE_EPOCH, monthDay } from 'dialogym/airdialogue';
 * monthDay(BASE_EPOCH); // { month: 'Mar', day: '13', hour: 7 }
 * ```
 */
export const BASE_EPOCH = 1300000000;
/**
 * Flight departure and return times deviate from the customer's with this σ (12 h, in seconds).
 *
 * @example
 * ```ts
 * import { FLIGHT_TIME_SD } from 'dialogym/airdialogue';
 * FLIGHT_TIME_SD / 3600; // 12
 * ```
 */
export const FLIGHT_TIME_SD = 12 * 3600;
