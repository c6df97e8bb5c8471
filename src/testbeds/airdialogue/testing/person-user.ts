/**
 * A scripted person playing the customer of the AirDialogue envs (tests, and browser tests that
 * read the same text off the page): it reads only the goal card (the travel context, as the
 * person view writes it), the hint (`airUserHint`: what to tell the agent now) and the agent's
 * words, and answers in its own sentences (not the simulator's templates), varied by its seeded
 * rng. Without a hint (airdialogue-v1 tells none) it answers what the agent's words ask about.
 */
import type { Rng } from '../../../core/rng.js';
import type { GoalCard } from '../../../env/person.js';

/** The card's lines by their label (`your name: Jo Lee` → `your name` → `Jo Lee`). */
function cardValues(card: GoalCard): Map<string, string> {
  const out = new Map<string, string>();
  for (const l of card.lines) {
    const i = l.indexOf(': ');
    if (i > 0) out.set(l.slice(0, i), l.slice(i + 2));
  }
  return out;
}

/** An airport as the card shows it (`LGA (New York)`) → its code. */
function code(v: string | undefined): string {
  return (v ?? '').split(' ')[0] ?? '';
}

/** What the customer says about one thing it is asked (`topic`: the hint's words for it). */
function answer(rng: Rng, c: Map<string, string>, topic: string): string {
  const from = code(c.get('from'));
  const to = code(c.get('to'));
  const dep = c.get('departure date') ?? '';
  const ret = c.get('return date') ?? '';
  const budget = c.get('budget') ?? 'any';
  const conn = c.get('connections') ?? 'any';
  const cls = c.get('class') ?? 'any';
  const depTime = c.get('departure time') ?? 'any';
  const retTime = c.get('return time') ?? 'any';
  const airline = c.get('airline') ?? 'any';
  const price = (): string => (budget === 'any' ? rng.pick(['price is no issue', 'money is not a concern']) : rng.pick([`i can pay up to ${budget.replace(/\D+/g, '')}`, `my budget is ${budget.replace(/\D+/g, '')} dollars`]));
  const stops = (): string => (conn === 'any' ? rng.pick(['stops are fine', 'layovers are ok']) : conn.startsWith('none') ? rng.pick(['it has to be direct', 'nonstop only']) : rng.pick(['at most one stop', 'one connection is ok']));
  const cabin = (): string => (cls === 'any' ? rng.pick(['any cabin will do', 'cabin does not matter']) : rng.pick([`${cls} class please`, `i fly ${cls} class`]));
  const times = (which: 'both' | 'departure' | 'return'): string => {
    const ps: string[] = [];
    if (which !== 'return' && depTime !== 'any') ps.push(rng.pick([`leaving in the ${depTime}`, `departure in the ${depTime}`]));
    if (which !== 'departure' && retTime !== 'any') ps.push(rng.pick([`coming back in the ${retTime}`, `return in the ${retTime}`]));
    return ps.length > 0 ? ps.join(', ') : rng.pick(['the time of day does not matter', 'any hour works']);
  };
  const carrier = (): string => (airline === 'any' ? rng.pick(['any carrier', 'whatever airline']) : rng.pick(['a normal-cost airline please', 'only full-service carriers']));
  switch (topic) {
    case 'what you want to do (book, change or cancel)': {
      const goal = c.get('you want to') ?? '';
      return goal.startsWith('cancel') ? rng.pick(['i need to cancel my reservation', 'please cancel my trip']) : goal.startsWith('change') ? rng.pick(['i would like to change my reservation', 'i need to change my trip']) : rng.pick(['i need to book a trip', 'i want to book a ticket']);
    }
    case 'your full name':
      return rng.pick([`this is ${c.get('your name')}`, `I'm ${c.get('your name')}`]);
    case 'both airports':
      return rng.pick([`flying from ${from} to ${to}`, `going from ${from} to ${to}`]);
    case 'your departure airport':
      return `leaving from ${from}`;
    case 'your destination airport':
      return `heading to ${to}`;
    case 'both dates':
    case 'your departure date':
    case 'your return date':
      return rng.pick([`out on ${dep}, back on ${ret}`, `${dep} there and ${ret} back`]);
    case 'your route, your dates and your other requirements':
      return `from ${from} to ${to}, ${dep} to ${ret}; ${price()}, ${stops()}, ${cabin()}, ${times('both')}`;
    case 'your times of day for both flights (or that any time is fine)':
      return times('both');
    case 'your departure time of day (or that any is fine)':
      return times('departure');
    case 'your return time of day (or that any is fine)':
      return times('return');
    case 'your budget (or that you have no limit)':
      return price();
    case 'your connection limit (or that any number is fine)':
      return stops();
    case 'your cabin class (or that any class is fine)':
      return cabin();
    case 'your airline preference (or that any airline is fine)':
      return carrier();
    case 'all your other requirements (budget, connections, class, times, airline), or that you have none':
      return `${price()}; ${stops()}; ${cabin()}; ${times('both')}; ${carrier()}`;
    default:
      return '';
  }
}

/** The things a hint asks to tell ("Tell the agent A, B and C.") — each one of `answer`'s topics. */
function topics(hint: string): string[] {
  const m = /^Tell the agent (.+?)\.(?: |$)/.exec(hint);
  if (!m) return [];
  // Topics hold commas themselves: split at the known ones, longest first.
  const known = ['what you want to do (book, change or cancel)', 'your full name', 'your route, your dates and your other requirements', 'all your other requirements (budget, connections, class, times, airline), or that you have none', 'both airports', 'your departure airport', 'your destination airport', 'both dates', 'your departure date', 'your return date', 'your times of day for both flights (or that any time is fine)', 'your departure time of day (or that any is fine)', 'your return time of day (or that any is fine)', 'your budget (or that you have no limit)', 'your connection limit (or that any number is fine)', 'your cabin class (or that any class is fine)', 'your airline preference (or that any airline is fine)'];
  const found: Array<[number, string]> = [];
  let rest = m[1] as string;
  for (const k of known) {
    const at = rest.indexOf(k);
    if (at >= 0) {
      found.push([at, k]);
      rest = rest.slice(0, at) + ' '.repeat(k.length) + rest.slice(at + k.length);
    }
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, k]) => k);
}

/** What the agent's words ask about (without a hint). */
function askedTopics(said: string): string[] {
  const s = said.toLowerCase();
  const out: string[] = [];
  if (/\bname\b/.test(s)) out.push('your full name');
  if (/\b(airport|where|from|origin|destination)\b/.test(s)) out.push('both airports');
  if (/\b(date|when)\b/.test(s)) out.push('both dates');
  if (/\b(requirement|preference|restriction)/.test(s)) out.push('all your other requirements (budget, connections, class, times, airline), or that you have none');
  if (/\b(help|book, change or cancel)\b/.test(s)) out.push('what you want to do (book, change or cancel)');
  return out;
}

/**
 * An AirDialogue customer participant (module description above), its wording drawn from `rng`.
 *
 * @example
 * ```ts
 * const say = airUserParticipant(createRng(1));
 * say(card, 'Tell the agent your full name.', 'May I know your name?'); // e.g. 'this is Jo Lee'
 * ```
 */
export function airUserParticipant(rng: Rng): (card: GoalCard, hint: string | undefined, agentSaid: string) => string {
  return (card, hint, agentSaid) => {
    const c = cardValues(card);
    const h = hint ?? '';
    const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
    if (h.startsWith('Open the conversation')) return cap(`${rng.pick(['hello,', 'hi there,', 'good morning,'])} ${answer(rng, c, 'what you want to do (book, change or cancel)')}.`);
    if (h.startsWith('Say you did not understand')) return rng.pick(['Sorry, what was that?', 'I did not get that, come again?']);
    const parts: string[] = [];
    const asked = hint === undefined ? askedTopics(agentSaid) : topics(h);
    for (const t of asked) parts.push(answer(rng, c, t));
    if (h.includes('Accept the flight') || (hint === undefined && /\bflight \d{4}\b/i.test(agentSaid))) parts.push(rng.pick(['yes, go ahead', 'sure, please do', 'sounds good, proceed']));
    if (h.includes('Say you will wait')) parts.push(rng.pick(['no rush, i can wait', 'sure, take your time']));
    if (h.includes('Thank the agent')) parts.push(rng.pick(['thanks a lot', 'much appreciated']));
    return parts.length > 0 ? cap(`${parts.join('. ')}.`) : 'Could you say that again?';
  };
}
