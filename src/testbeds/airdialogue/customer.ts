/**
 * The customer of `airdialogue-v2` (customer policy `lexicon`): it reads each agent turn with the
 * lexicon (`reader.ts`) whatever its wording, answers every act it read from its own intent in the
 * simulator's style (`answers.ts`), one reply for the whole turn in `AIR_ACTS` order, and reacts to
 * a turn it could not read with a "sorry, what do you mean?" sentence.
 */
import { CUSTOMER_NOT_UNDERSTOOD, CUSTOMER_THANKS, CUSTOMER_WAIT } from './language.js';
import type { AirAct } from './lexicon.js';
import { RuleCustomer, customerPolicies, type CustomerSession } from './policies.js';
import { readAgentTurn, type AirRead } from './utterance-reader.js';

/**
 * A customer that says how it read each agent turn: `read` gives the reading, `answer` the reply
 * to it (`respond(text)` is `answer(read(text))`). `airdialogue-v2` reports the reading as
 * `info.read`.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { LexiconCustomer, generateContext, type ReadingCustomerSession } from 'dialogym/airdialogue';
 * const c: ReadingCustomerSession = new LexiconCustomer(generateContext(createRng(1)).intent, createRng(2));
 * const r = c.read('What is your budget?');
 * console.log(r.label, c.answer(r)); // ask(budget) …
 * ```
 */
export interface ReadingCustomerSession extends CustomerSession {
  read(agentUtterance: string): AirRead;
  answer(read: AirRead): string;
}

/**
 * Whether a customer session says how it reads (`ReadingCustomerSession`).
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { customerPolicies, generateContext, isReadingCustomer } from 'dialogym/airdialogue';
 * const { intent } = generateContext(createRng(1));
 * isReadingCustomer(customerPolicies.get('lexicon')(intent, createRng(2))); // true
 * isReadingCustomer(customerPolicies.get('rules')(intent, createRng(2)));   // false
 * ```
 */
export function isReadingCustomer(c: CustomerSession): c is ReadingCustomerSession {
  return typeof (c as Partial<ReadingCustomerSession>).read === 'function' && typeof (c as Partial<ReadingCustomerSession>).answer === 'function';
}

/**
 * The lexicon customer (module description above; customer policy `lexicon`, the default of
 * `airdialogue-v2`). Asked in the simulator's wording it answers with the same words, drawn in
 * the same order, as the rule customer of `airdialogue-v1`.
 *
 * @example
 * ```ts
 * import { createRng } from 'dialogym';
 * import { LexiconCustomer, generateContext } from 'dialogym/airdialogue';
 * const c = new LexiconCustomer(generateContext(createRng(1)).intent, createRng(2));
 * c.open();
 * c.respond('ok so, when do you want to leave?'); // e.g. 'I will leave on June 12.'
 * c.respond('Purple monkeys?');                   // e.g. 'Sorry, what do you mean?'
 * ```
 */
export class LexiconCustomer extends RuleCustomer implements ReadingCustomerSession {
  read(agentUtterance: string): AirRead {
    return readAgentTurn(agentUtterance);
  }

  answer(read: AirRead): string {
    if (read.acts.length === 0) return this.rng.pick(CUSTOMER_NOT_UNDERSTOOD);
    return read.acts.map((a) => this.answerAct(a)).join(' ');
  }

  override respond(agentUtterance: string): string {
    return this.answer(this.read(agentUtterance));
  }

  private answerAct(act: AirAct): string {
    const say = this.say;
    switch (act) {
      case 'goal':
      case 'greet':
        return say.goal();
      case 'name':
        return say.name();
      case 'open':
        return `${say.route()} ${say.dates()} ${say.requirements()}`;
      case 'route':
        return say.route();
      case 'origin':
        return say.origin();
      case 'destination':
        return say.destination();
      case 'dates':
        return say.dates();
      case 'departure date':
        return say.departureDate();
      case 'return date':
        return say.returnDate();
      case 'times':
        return say.times();
      case 'departure time':
        return say.times('departure');
      case 'return time':
        return say.times('return');
      case 'budget':
        return say.budget();
      case 'connections':
        return say.connections();
      case 'class':
        return say.class();
      case 'airline':
        return say.airline();
      case 'requirements':
        return say.requirements();
      case 'propose':
        return say.accept();
      case 'wait':
        return this.rng.pick(CUSTOMER_WAIT);
      case 'close':
        return this.rng.pick(CUSTOMER_THANKS);
    }
  }
}

customerPolicies.register('lexicon', 'rule-based customer that reads any wording with the lexicon (the default of airdialogue-v2)', (intent, rng) => new LexiconCustomer(intent, rng));
