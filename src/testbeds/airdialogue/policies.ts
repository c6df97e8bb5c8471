/**
 * Dialog policies for AirDialogue self-play. A customer policy sees only the customer's intent; an
 * agent policy sees only the flight database and the reservation flag. They talk in text; the
 * agent ends the dialog with an action (status, name, flight).
 */
import type { Action, Intent, KbLine } from '../../formats/airdialogue.js';
import { players } from '../../agents/registry.js';
import type { Rng } from '../../core/rng.js';
import { customerAnswers, type CustomerAnswers } from './answers.js';
import {
  AGENT_ASK_DATES,
  AGENT_ASK_GOAL,
  AGENT_ASK_NAME,
  AGENT_ASK_PREFS,
  AGENT_ASK_ROUTE,
  AGENT_FINAL,
  AGENT_PROPOSE,
  AGENT_REPEAT_GOAL,
  CUSTOMER_REPEAT,
  connectionsText,
  fill,
  isAcceptance,
  readAgentUtterance,
  readCustomerUtterance,
  slotsQuery,
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
 * The customer-policy registry, the `airdialogue` / `customer` table of `players` (`rules`: {@link RuleCustomer}; `lexicon`: {@link LexiconCustomer}, registered by `customer.ts`); `get` throws a ConfigError for an
 * unknown name. `AirEnvOptions.customer` and `selfPlay` look names up here.
 *
 * @example
 * ```ts
 * import { customerPolicies } from 'dialogym/airdialogue';
 * [...customerPolicies]; // ['lexicon', 'rules']
 * ```
 */
export const customerPolicies = players.table<CustomerPolicyFactory>('airdialogue', 'customer policy', 'customer');
/**
 * The agent-policy registry, the `airdialogue` table of `players` (`rules`: {@link RuleAgent}); `get` throws a ConfigError for an
 * unknown name. `selfPlay` looks names up here.
 *
 * @example
 * ```ts
 * import { agentPolicies } from 'dialogym/airdialogue';
 * const factory = agentPolicies.get('rules');
 * ```
 */
export const agentPolicies = players.table<AgentPolicyFactory>('airdialogue', 'agent policy');

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
  protected readonly say: CustomerAnswers;

  constructor(
    intent: Intent,
    protected readonly rng: Rng,
  ) {
    this.say = customerAnswers(intent, rng);
  }

  open(): string {
    return this.say.opening();
  }

  respond(agentUtterance: string): string {
    const say = this.say;
    const req = readAgentUtterance(agentUtterance);
    const parts: string[] = [];
    if (req.goal) parts.push(say.goal());
    if (req.name) parts.push(say.name());
    if (req.route) parts.push(say.route());
    if (req.dates) parts.push(say.dates());
    if (req.prefs) parts.push(say.requirements());
    if (req.proposal !== null) parts.push(say.accept());
    if (parts.length === 0) return this.rng.pick(CUSTOMER_REPEAT);
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

    const query = slotsQuery(s);
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
