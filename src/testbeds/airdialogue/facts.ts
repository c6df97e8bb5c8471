/**
 * Known facts and priors of the AirDialogue world (Wei et al. 2018, Tables 2 and 3).
 *
 * The original resource files (first/last names, airport list) ship only inside the data tarball,
 * so the lists here are our own: the 24 airport codes seen in the released sample data, and common
 * US first/last names in the same "First Last" shape. The out-of-domain lists add more of each.
 */

/** Airline → cost type. Standard-fare ("normal-cost") vs low-cost. */
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
export const AIRLINES: readonly string[] = Object.keys(AIRLINE_TYPES);

/** True for a standard-fare airline (UA, AA, Delta, Hawaiian). */
export function isStandardFare(airline: string): boolean {
  return AIRLINE_TYPES[airline] === 'normal-cost';
}

/** A discrete distribution: values and their probabilities (summing to 1). */
export interface Prior<T> {
  readonly values: readonly T[];
  readonly probs: readonly number[];
}

/** Customer-side priors; `null` stands for "any" (the key is left out of the intent). */
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

export const PRICE_ANY = 5000;

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

/** Out-of-domain: uniform goals and a reservation 70% of the time (names/airports: larger sets). */
export const OOD_PRIORS: ContextPriors = {
  ...IN_DOMAIN_PRIORS,
  goal: { values: ['book', 'change', 'cancel'], probs: [1 / 3, 1 / 3, 1 / 3] },
  reservation: 0.7,
};

/** Mean flight price per class, and σ = mean · β[connections]. */
export const PRICE_MEAN: Readonly<Record<'economy' | 'business', number>> = { economy: 210, business: 650 };
export const PRICE_BETA: readonly number[] = [0.2, 0.4, 0.6];

/** The 24 airports of the released data, with their cities (for templated language). */
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

/** Extra airports for the out-of-domain generator. */
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

export const LAST_NAMES: readonly string[] = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
  'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores',
  'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts',
  'Gomez', 'Phillips', 'Evans', 'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes',
];

export const OOD_EXTRA_FIRST_NAMES: readonly string[] = [
  'Aaron', 'Adrian', 'Bradley', 'Caleb', 'Dylan', 'Elijah', 'Felix', 'Gavin', 'Harold', 'Isaac',
  'Julian', 'Keith', 'Lucas', 'Marcus', 'Nathan', 'Oscar', 'Philip', 'Quentin', 'Russell', 'Travis',
  'Abigail', 'Beatrice', 'Chloe', 'Diana', 'Eleanor', 'Fiona', 'Grace', 'Hannah', 'Irene', 'Julia',
  'Kayla', 'Lillian', 'Madison', 'Natalie', 'Olivia', 'Penelope', 'Rosa', 'Sophia', 'Tiffany', 'Victoria',
];

export const OOD_EXTRA_LAST_NAMES: readonly string[] = [
  'Morris', 'Murphy', 'Cook', 'Rogers', 'Morgan', 'Peterson', 'Cooper', 'Reed', 'Bailey', 'Bell',
  'Kelly', 'Howard', 'Ward', 'Cox', 'Richardson', 'Wood', 'Watson', 'Brooks', 'Bennett', 'Gray',
  'James', 'Hughes', 'Price', 'Sanders', 'Myers', 'Long', 'Ross', 'Foster', 'Powell', 'Jenkins',
];

/** Number of candidate airports drawn per context (origin, destination and the decoys). */
export const CANDIDATE_AIRPORTS = 3;
/** Days between departure and return. */
export const BOOK_WINDOW_DAYS = 2;
/** Flights in each agent database, numbered 1000, 1001, … */
export const FLIGHTS_PER_KB = 30;
export const FIRST_FLIGHT_NUMBER = 1000;
/** Departure dates are drawn uniformly over a year from this epoch (2011-03-13, as the original). */
export const BASE_EPOCH = 1300000000;
/** Flight dates deviate from the customer's dates with this σ (seconds). */
export const FLIGHT_TIME_SD = 12 * 3600;
