/**
 * Test helper (not part of the public API): an AirDialogue agent that asks every question in its
 * own words — three or more wordings per act, none of them the simulator's or the dataset's, in
 * mixed letter case, punctuation and fillers, each drawn from a seeded stream — reads the
 * customer's answers, searches its flight table and ends the dialog with a tool call.
 */
import type { Rng } from '../../../core/rng.js';
import type { KbLine, Month } from '../../../formats/airdialogue.js';
import { MONTHS } from '../../../formats/airdialogue.js';
import type { ToolCall } from '../../../env/env.js';
import { readCustomerUtterance, slotsQuery, type Slots } from '../language.js';
import { cheapestMatching, standardizeName } from '../logic.js';

/** What the agent can ask or say, each with its own wordings. */
export const OWN_WORDS = {
  goal: ['What do you need help with today?', 'In what way can I assist?', 'Tell me, do you want a new booking, a change or a cancellation?'],
  greetGoal: ['Hey there! What do you need help with?', 'Good afternoon, in what way can I assist you?', 'Hi, welcome. Tell me, is it a new booking, a change or a cancellation?'],
  name: ["Could I get the traveller's name?", 'whose name should the ticket be under', 'And you are...? Your name, I mean.'],
  open: ['Walk me through your travel details.', 'could you describe the trip you have in mind', 'Give me the full picture of your itinerary.'],
  route: ['Between which two airports will you travel?', 'what cities are we talking about, from and to', 'Tell me the airport codes for this trip.'],
  origin: ['Which airport will you be departing from?', "what's your point of departure", 'Where does your journey start?'],
  destination: ['Where will you be landing?', 'which airport are you travelling to', "What's the arrival airport?"],
  dates: ['Which days are you planning to travel?', 'when is the trip', 'What dates are you looking at?'],
  departureDate: ['On what day do you fly out?', 'when is your outbound flight', 'What date do you set off?'],
  returnDate: ['On what day do you fly home?', 'when is your return flight', 'What date are you coming back?'],
  departureTime: ['At what hour would you like the outbound flight?', 'morning, afternoon or evening for leaving?', 'what time should the first flight depart'],
  returnTime: ['At what hour should the return flight be?', 'evening or morning for the trip back?', 'what time do you want to fly home'],
  budget: ['How much are you willing to pay?', "what's the most you'd spend on this ticket", 'Is there a cap on the fare?'],
  connections: ['Would a connecting flight be acceptable?', 'how many layovers can you handle', 'Are you okay with a stopover?'],
  class: ['Which cabin would you like to sit in?', 'economy, or maybe business?', 'What seating class do you want?'],
  airline: ['Is there an airline you like best?', "Any carrier you'd rather fly with?", 'do you care which airline operates it'],
  requirements: ['Anything specific you need from the flight?', 'do you have any restrictions i should keep in mind', 'Any other constraints, for example on price or stops?'],
  wait: ['Give me a second to look this up.', 'hold the line while i search', 'One moment while I check our flights.'],
  propose: ['Flight {flight} fits all that, want it?', 'how does flight number {flight} sound to you', 'I can offer you flight #{flight} for {price} dollars. Good?'],
} as const;

/** The acts of `OWN_WORDS` with the read each must get (`info.read` of `airdialogue-v2`). */
export const OWN_WORDS_READ: Readonly<Record<keyof typeof OWN_WORDS, string>> = {
  goal: 'ask(goal)',
  greetGoal: 'ask(goal)',
  name: 'ask(name)',
  open: 'ask(open)',
  route: 'ask(route)',
  origin: 'ask(origin)',
  destination: 'ask(destination)',
  dates: 'ask(dates)',
  departureDate: 'ask(departure date)',
  returnDate: 'ask(return date)',
  departureTime: 'ask(departure time)',
  returnTime: 'ask(return time)',
  budget: 'ask(budget)',
  connections: 'ask(connections)',
  class: 'ask(class)',
  airline: 'ask(airline)',
  requirements: 'ask(requirements)',
  wait: 'wait',
  propose: 'propose(<flight>)',
};

const FILLER_LEADS = ['', '', 'ok, ', 'so ', 'alright, ', 'um, ', 'well, ', 'Okay so, '];

/** A wording in a random style: letter case, final punctuation and a leading filler. */
export function styled(rng: Rng, text: string): string {
  let t = rng.pick(FILLER_LEADS) + text;
  const c = rng.int(4);
  if (c === 1) t = t.toLowerCase();
  else if (c === 2) t = t.toUpperCase();
  const p = rng.int(4);
  if (p === 1) t = t.replace(/[?.!]+$/, '');
  else if (p === 2) t = t.replace(/[?.!]*$/, '?!');
  else if (p === 3) t = t.replace(/[?.!]*$/, '...');
  return t;
}

type Ask = Exclude<keyof typeof OWN_WORDS, 'propose' | 'wait' | 'greetGoal'>;

const MONTH_DAY = new RegExp(`\\b(${MONTHS.join('|')}) (\\d{1,2})\\b`);

/**
 * One episode's agent: `act(utterance)` reads the customer's last utterance and returns the next
 * move (a text turn or a tool call).
 */
export class OwnWordsAgent {
  private readonly s: Slots = {};
  private readonly plan: Ask[];
  private asked: Ask | null = null;
  private waited = false;
  private proposed = false;
  private turns = 0;

  constructor(
    private readonly ctx: KbLine,
    private readonly rng: Rng,
  ) {
    const r = rng;
    const plan: Ask[] = [];
    if (r.chance(0.4)) plan.push('open');
    else {
      if (r.chance(0.3)) plan.push('route');
      else plan.push('origin', 'destination');
      if (r.chance(0.3)) plan.push('dates');
      else plan.push('departureDate', 'returnDate');
      if (r.chance(0.3)) plan.push('requirements');
      else plan.push('departureTime', 'returnTime', 'budget', 'connections', 'class', 'airline');
    }
    this.plan = plan;
  }

  private say(what: keyof typeof OWN_WORDS, values: Record<string, string | number> = {}): string {
    const t = this.rng.pick(OWN_WORDS[what]).replace(/\{(\w+)\}/g, (m, k: string) => String(values[k] ?? m));
    return styled(this.rng, t);
  }

  private ask(a: Ask): string {
    this.asked = a;
    return this.say(a);
  }

  private hear(utterance: string): void {
    const heard = readCustomerUtterance(utterance);
    const s = this.s as Record<string, unknown>;
    for (const [k, v] of Object.entries(heard)) {
      if (k === 'goal' && this.s.goal !== undefined) continue;
      s[k] = v;
    }
    const one = MONTH_DAY.exec(utterance);
    if (one && (this.asked === 'departureDate' || this.asked === 'returnDate') && heard.depMonth === undefined) {
      const [month, day] = [one[1] as Month, String(Number(one[2]))];
      if (this.asked === 'departureDate') Object.assign(this.s, { depMonth: month, depDay: day });
      else Object.assign(this.s, { retMonth: month, retDay: day });
    }
  }

  private tool(status: string, flight?: number): ToolCall {
    const name = standardizeName(this.s.name ?? '');
    return { tool: status, arguments: { name, ...(flight !== undefined ? { flight } : {}), utterance: styled(this.rng, 'All done, thanks for calling.') } };
  }

  act(utterance: string): string | ToolCall {
    this.turns++;
    this.hear(utterance);
    const s = this.s;
    // asks for the goal when the opening did not say it, and now and then to hear it again
    if (s.goal === undefined || (this.turns === 1 && this.rng.chance(0.25))) return this.turns === 1 && this.rng.chance(0.5) ? this.say('greetGoal') : this.say('goal');
    if (s.name === undefined) return this.ask('name');
    if (s.goal !== 'book' && this.ctx.reservation === 0) return this.tool('no_reservation');
    if (s.goal === 'cancel') return this.tool('cancel');
    const next = this.plan.shift();
    if (next !== undefined) return this.ask(next);
    if (!this.waited && this.rng.chance(0.3)) {
      this.waited = true;
      return this.say('wait');
    }
    const query = slotsQuery(s);
    const best = cheapestMatching(query, this.ctx.kb)[0];
    if (!best) return this.tool('no_flight');
    if (!this.proposed && this.rng.chance(0.5)) {
      this.proposed = true;
      return this.say('propose', { flight: best.flight_number, price: best.price });
    }
    return this.tool(s.goal === 'change' ? 'change' : 'book', best.flight_number);
  }
}
