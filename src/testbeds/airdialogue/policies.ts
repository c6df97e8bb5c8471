/**
 * Dialog policies for AirDialogue self-play. A customer policy sees only the customer's intent; an
 * agent policy sees only the flight database and the reservation flag. They talk in text; the
 * agent ends the dialog with an action (status, name, flight).
 */
import type { Action, Intent, KbLine } from '../../formats/airdialogue.js';
import { Registry } from '../../core/registry.js';
import type { Rng } from '../../core/rng.js';
import { AIRPORTS, OOD_EXTRA_AIRPORTS, PRICE_ANY } from './facts.js';
import {
  AGENT_ASK_DATES,
  AGENT_ASK_GOAL,
  AGENT_ASK_NAME,
  AGENT_ASK_PREFS,
  AGENT_ASK_ROUTE,
  AGENT_FINAL,
  AGENT_PROPOSE,
  AGENT_REPEAT_GOAL,
  CUSTOMER_ACCEPT,
  CUSTOMER_AIRLINE,
  CUSTOMER_CLASS,
  CUSTOMER_CONNECTIONS,
  CUSTOMER_DATES,
  CUSTOMER_DEP_TIME,
  CUSTOMER_NAME,
  CUSTOMER_NO_PREFS,
  CUSTOMER_OPENING,
  CUSTOMER_OPENING_WITH_NAME,
  CUSTOMER_PREFS_LEAD,
  CUSTOMER_PRICE,
  CUSTOMER_REPEAT,
  CUSTOMER_RET_TIME,
  CUSTOMER_ROUTE,
  connectionsText,
  fill,
  isAcceptance,
  readAgentUtterance,
  readCustomerUtterance,
  type Slots,
} from './language.js';
import { cheapestMatching, standardizeName } from './logic.js';

/**
 * The agent's turn: an utterance, and (to end the dialog) the final action.
 *
 * @example
 * ```ts
 * import type { AgentMove } from 'dialogym/airdialogue';
 * const ask: AgentMove = { utterance: 'May I know your name?' };
 * const done: AgentMove = { utterance: 'Your ticket is booked.', action: { status: 'book', name: 'Emily Edwards', flight: [1027] } };
 * ```
 */
export interface AgentMove {
  utterance: string;
  action?: Action;
}

/**
 * A customer in one dialog (made by a `CustomerPolicyFactory` from the customer's intent): it
 * opens the dialog and answers each agent utterance.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { customerPolicies, generateContext, type CustomerSession } from 'dialogym/airdialogue';
 * const { intent } = generateContext(createRng(1));
 * const customer: CustomerSession = customerPolicies.get('rules')(intent, createRng(2));
 * customer.open();
 * customer.respond('May I know your name?'); // e.g. 'My name is …'
 * ```
 */
export interface CustomerSession {
  /** The customer's first utterance (the customer opens every dialog). */
  open(): string;
  /** The customer's answer to an agent utterance. */
  respond(agentUtterance: string): string;
}

/**
 * An agent in one dialog (made by an `AgentPolicyFactory` from the agent's context): it answers
 * each customer utterance with a move; a move with an `action` ends the dialog.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { agentPolicies, generateContext, type AgentSession } from 'dialogym/airdialogue';
 * const { kb } = generateContext(createRng(1));
 * const agent: AgentSession = agentPolicies.get('rules')(kb, createRng(2));
 * agent.respond('Hi, I need to book a flight.').utterance;
 * ```
 */
export interface AgentSession {
  respond(customerUtterance: string): AgentMove;
}

/**
 * Builds a customer for one dialog from the customer's intent (its only knowledge) and a stream.
 *
 * @example
 * ```ts
 * import { customerPolicies, type CustomerPolicyFactory } from 'dialogym/airdialogue';
 * const quiet: CustomerPolicyFactory = () => ({ open: () => 'Hello.', respond: () => 'I do not know.' });
 * customerPolicies.register('quiet', 'says nothing useful', quiet);
 * ```
 */
export type CustomerPolicyFactory = (intent: Intent, rng: Rng) => CustomerSession;
/**
 * Builds an agent for one dialog from the agent's context (flights and reservation) and a stream.
 *
 * @example
 * ```ts
 * import { agentPolicies, type AgentPolicyFactory } from 'dialogym/airdialogue';
 * const giveUp: AgentPolicyFactory = () => ({ respond: () => ({ utterance: 'Sorry.', action: { status: 'no_flight', name: '', flight: [] } }) });
 * agentPolicies.register('give-up', 'reports no flight at once', giveUp);
 * ```
 */
export type AgentPolicyFactory = (context: KbLine, rng: Rng) => AgentSession;

/**
 * The customer-policy registry (`rules`: {@link RuleCustomer}); `get` throws a ConfigError for an
 * unknown name. `AirEnvOptions.customer` and `selfPlay` look names up here.
 *
 * @example
 * ```ts
 * import { customerPolicies } from 'dialogym/airdialogue';
 * [...customerPolicies]; // ['rules']
 * ```
 */
export const customerPolicies = new Registry<CustomerPolicyFactory>('customer policy');
/**
 * The agent-policy registry (`rules`: {@link RuleAgent}); `get` throws a ConfigError for an
 * unknown name. `selfPlay` looks names up here.
 *
 * @example
 * ```ts
 * import { agentPolicies } from 'dialogym/airdialogue';
 * const factory = agentPolicies.get('rules');
 * ```
 */
export const agentPolicies = new Registry<AgentPolicyFactory>('agent policy');

function cityOf(code: string): string {
  return AIRPORTS[code] ?? OOD_EXTRA_AIRPORTS[code] ?? code;
}

/** "A, B and C". */
function joinPhrases(ps: readonly string[]): string {
  if (ps.length <= 1) return ps.join('');
  return ps.slice(0, -1).join(', ') + ' and ' + ps[ps.length - 1];
}

/**
 * Rule-based customer (`rules`): opens with its goal (sometimes its name), answers each request
 * it recognises in the agent's utterance from its own intent with templated sentences, accepts
 * any proposal, and asks the agent to repeat when it recognises nothing.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { RuleCustomer, generateContext } from 'dialogym/airdialogue';
 * const c = new RuleCustomer(generateContext(createRng(1)).intent, createRng(2));
 * c.open();
 * c.respond('What are your travel dates?');
 * ```
 */
export class RuleCustomer implements CustomerSession {
  constructor(
    private readonly intent: Intent,
    private readonly rng: Rng,
  ) {}

  open(): string {
    const g = this.intent.goal;
    if (this.rng.chance(0.3)) return fill(this.rng.pick(CUSTOMER_OPENING_WITH_NAME[g]), { name: this.intent.name });
    return this.rng.pick(CUSTOMER_OPENING[g]);
  }

  private prefs(): string {
    const i = this.intent;
    const r = this.rng;
    const ps: string[] = [];
    if (i.max_price < PRICE_ANY) ps.push(fill(r.pick(CUSTOMER_PRICE), { price: i.max_price }));
    if (i.max_connections !== undefined && i.max_connections < 2) ps.push(r.pick(CUSTOMER_CONNECTIONS[i.max_connections] ?? []));
    if (i.class !== undefined) ps.push(fill(r.pick(CUSTOMER_CLASS), { cls: i.class }));
    if (i.departure_time !== undefined) ps.push(fill(r.pick(CUSTOMER_DEP_TIME), { seg: i.departure_time }));
    if (i.return_time !== undefined) ps.push(fill(r.pick(CUSTOMER_RET_TIME), { seg: i.return_time }));
    if (i.airline_preference !== undefined) ps.push(r.pick(CUSTOMER_AIRLINE));
    if (ps.length === 0) return r.pick(CUSTOMER_NO_PREFS);
    const s = r.pick(CUSTOMER_PREFS_LEAD) + joinPhrases(ps) + '.';
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  respond(agentUtterance: string): string {
    const i = this.intent;
    const r = this.rng;
    const req = readAgentUtterance(agentUtterance);
    const parts: string[] = [];
    if (req.goal) parts.push(r.pick(CUSTOMER_OPENING[i.goal]));
    if (req.name) parts.push(fill(r.pick(CUSTOMER_NAME), { name: i.name }));
    if (req.route)
      parts.push(fill(r.pick(CUSTOMER_ROUTE), { from: i.departure_airport, to: i.return_airport, fromCity: cityOf(i.departure_airport), toCity: cityOf(i.return_airport) }));
    if (req.dates) parts.push(fill(r.pick(CUSTOMER_DATES), { depMonth: i.departure_month, depDay: i.departure_day, retMonth: i.return_month, retDay: i.return_day }));
    if (req.prefs) parts.push(this.prefs());
    if (req.proposal !== null) parts.push(r.pick(CUSTOMER_ACCEPT[i.goal === 'change' ? 'change' : 'book']));
    if (parts.length === 0) return r.pick(CUSTOMER_REPEAT);
    return parts.join(' ');
  }
}

/**
 * Rule-based agent: learns the goal and name, checks the reservation, asks for the route, dates
 * and other restrictions, searches its database for the cheapest matching flight, proposes it and
 * books/changes it; or cancels, or reports no flight / no reservation. Registered as `rules`.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { RuleAgent, generateContext } from 'dialogym/airdialogue';
 * const agent = new RuleAgent(generateContext(createRng(1)).kb, createRng(2));
 * agent.respond('Hello, I want to cancel my reservation.');
 * ```
 */
export class RuleAgent implements AgentSession {
  private readonly slots: Slots = {};
  private prefsAsked = false;
  private goalAsks = 0;
  private proposed: number | null = null;

  constructor(
    private readonly ctx: KbLine,
    private readonly rng: Rng,
  ) {}

  private final(status: string, flight: number[]): AgentMove {
    const name = standardizeName(this.slots.name ?? '');
    return { utterance: this.rng.pick(AGENT_FINAL[status] ?? AGENT_FINAL.no_flight ?? []), action: { status, name, flight } };
  }

  respond(customerUtterance: string): AgentMove {
    const heard = readCustomerUtterance(customerUtterance);
    const s = this.slots;
    for (const [k, v] of Object.entries(heard) as Array<[keyof Slots, unknown]>) {
      if (k === 'goal' && s.goal !== undefined) continue; // the first stated goal stands
      (s as Record<string, unknown>)[k] = v;
    }
    const r = this.rng;

    if (this.proposed !== null) {
      const goal = s.goal === 'change' ? 'change' : 'book';
      if (isAcceptance(customerUtterance)) return this.final(goal, [this.proposed]);
      return this.final('no_flight', []);
    }
    if (s.goal === undefined) {
      this.goalAsks++;
      if (this.goalAsks > 2) s.goal = 'book';
      else return { utterance: r.pick(this.goalAsks === 1 ? AGENT_ASK_GOAL : AGENT_REPEAT_GOAL) };
    }
    if (s.name === undefined) return { utterance: r.pick(AGENT_ASK_NAME) };
    const hasReservation = this.ctx.reservation !== 0;
    if ((s.goal === 'change' || s.goal === 'cancel') && !hasReservation) return this.final('no_reservation', []);
    if (s.goal === 'cancel') return this.final('cancel', []);

    const asks: string[] = [];
    if (s.from === undefined || s.to === undefined) asks.push(r.pick(AGENT_ASK_ROUTE));
    if (s.depMonth === undefined || s.retMonth === undefined) asks.push(r.pick(AGENT_ASK_DATES));
    if (asks.length > 0) return { utterance: asks.join(' ') };
    if (!this.prefsAsked) {
      this.prefsAsked = true;
      return { utterance: r.pick(AGENT_ASK_PREFS) };
    }

    const query: Intent = {
      departure_airport: s.from as string,
      return_airport: s.to as string,
      departure_month: s.depMonth as Intent['departure_month'],
      departure_day: s.depDay as string,
      return_month: s.retMonth as Intent['return_month'],
      return_day: s.retDay as string,
      name: s.name,
      goal: s.goal ?? 'book',
      max_price: s.maxPrice ?? PRICE_ANY,
    };
    if (s.maxConnections !== undefined) query.max_connections = s.maxConnections;
    if (s.class !== undefined) query.class = s.class;
    if (s.depTime !== undefined) query.departure_time = s.depTime;
    if (s.retTime !== undefined) query.return_time = s.retTime;
    if (s.airline !== undefined) query.airline_preference = s.airline;
    const found = cheapestMatching(query, this.ctx.kb);
    const best = found[0];
    if (!best) return this.final('no_flight', []);
    this.proposed = best.flight_number;
    const goal = s.goal === 'change' ? 'change' : 'book';
    return {
      utterance: fill(r.pick(AGENT_PROPOSE[goal]), {
        flight: best.flight_number,
        airline: best.airline,
        connections: connectionsText(best.num_connections),
        price: best.price,
      }),
    };
  }
}

customerPolicies.register('rules', 'templated rule-based customer (answers from its own intent)', (intent, rng) => new RuleCustomer(intent, rng));
agentPolicies.register('rules', 'rule-based agent (asks for restrictions, searches the database, acts)', (ctx, rng) => new RuleAgent(ctx, rng));
