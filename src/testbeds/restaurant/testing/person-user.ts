/**
 * A scripted person playing the user of the restaurant and DSTC6 envs (tests, and browser tests
 * that read the same text off the page): it reads only what the page shows — the goal card, the
 * hint under the dialog (`restaurantPersonView.userHint`) and what the agent said — and writes its
 * own words (none of the datasets' templates), varied by its seeded rng. It remembers what it said
 * last (to say it again when the hint asks).
 */
import type { Rng } from '../../../core/rng.js';
import type { GoalCard } from '../../../env/person.js';

/** A user-side participant (as `test/person-play.ts` names it): the page's card, hint and the agent's last words → what the person types. */
type UserParticipant = (card: GoalCard, hint: string | undefined, agentSaid: string) => string;

/** The slot names of the hints ("number of people six") → the slot. */
const SLOT_OF_WORDS: ReadonlyArray<[string, string]> = [
  ['dietary restrictions', 'restrictions'],
  ['number of people', 'number'],
  ['price range', 'price'],
  ['atmosphere', 'atmosphere'],
  ['cuisine', 'cuisine'],
  ['location', 'location'],
];

/** "cuisine spanish, location madrid, number of people six" → slot → value. */
function slotValues(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of text.split(/,\s*/)) {
    for (const [words, slot] of SLOT_OF_WORDS) {
      if (part.startsWith(`${words} `)) {
        out.set(slot, part.slice(words.length + 1).trim());
        break;
      }
    }
  }
  return out;
}

const DIGITS: Readonly<Record<string, string>> = { two: '2', four: '4', six: '6', eight: '8' };

/** One slot value in a person's words (a phrase that names what it is). */
function phrase(rng: Rng, slot: string, value: string): string {
  switch (slot) {
    case 'cuisine':
      return rng.pick([`${value} food`, `some ${value} cuisine`, `${value} cuisine if possible`]);
    case 'location':
      return rng.pick([`in ${value}`, `somewhere in ${value}`, `located in ${value}`]);
    case 'number':
      return rng.pick([`for ${value} people`, `for ${DIGITS[value] ?? value} guests`, `a party of ${value}`]);
    case 'price':
      return rng.pick([`${value} price range`, `${value} prices`, `on the ${value} side`]);
    case 'atmosphere':
      return rng.pick([`with a ${value} atmosphere`, `a ${value} ambiance`, `something ${value}`]);
    case 'restrictions':
      return rng.pick([`${value} options`, `serving ${value} dishes`, `${value} friendly`]);
    default:
      return value;
  }
}

function pickCase(rng: Rng, text: string): string {
  return rng.chance(0.3) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/**
 * A restaurant user participant (module description above), its wording drawn from `rng`.
 *
 * @example
 * ```ts
 * const say = restaurantUserParticipant(createRng(1));
 * say(card, 'Answer that the cuisine you want is italian.', 'what food?'); // e.g. 'italian food'
 * ```
 */
export function restaurantUserParticipant(rng: Rng): UserParticipant {
  let last = '';
  return (_card, hint) => {
    const h = hint ?? '';
    let m: RegExpExecArray | null;
    let text: string;
    if (/^Greet the assistant/.test(h)) text = rng.pick(['hello there', 'hey!', 'good evening']);
    else if ((m = /^Ask for a table: say you want (.*), and nothing else yet\.$/.exec(h))) {
      const parts = [...slotValues(m[1] as string)].map(([s, v]) => phrase(rng, s, v));
      const lead = rng.pick(['could you book me a table', "i'd like to reserve a table", 'i want to book a table']);
      text = parts.length > 0 ? `${lead} ${parts.join(' and ')}` : lead;
    } else if ((m = /^Ask to book a table at (\S+)\.$/.exec(h))) text = rng.pick([`please reserve a table at ${m[1]}`, `i would like a booking at ${m[1]}`, `can i get a table at ${m[1]}`]);
    else if ((m = /^Answer that the (.+) you want is (.+)\.$/.exec(h))) {
      const slot = slotValues(`${m[1]} ${m[2]}`);
      const [s, v] = [...slot][0] ?? ['', m[2] as string];
      text = s === 'number' ? rng.pick([`we will be ${v}`, `${v} of us`, `table for ${v}`]) : rng.pick([phrase(rng, s, v), `${phrase(rng, s, v)} please`]);
    } else if ((m = /^Change your request: you now want (.+) instead\.$/.exec(h))) {
      const [s, v] = [...slotValues(m[1] as string)][0] ?? ['', ''];
      text = `${rng.pick(['actually', 'actually i changed my mind,', 'on second thought, actually'])} ${s === 'number' ? `make it ${v} people` : phrase(rng, s, v)} instead`;
    } else if (/^Say there is nothing else to change/.test(h)) text = rng.pick(["no, that's all", 'nothing else', "that's it"]);
    else if (/^Accept this option/.test(h)) text = rng.pick(['yes, that one sounds great', 'perfect, i like it', "ok, i'll take it"]);
    else if (/^Decline this option/.test(h)) text = rng.pick(["no, i don't like that one", 'hmm, something else?', 'not that one, another please']);
    else if ((m = /^Ask for the (phone number|address) of the restaurant\.$/.exec(h))) text = m[1] === 'phone number' ? rng.pick(['what is their phone number?', 'can i get the phone number', 'how do i call them - phone number?']) : rng.pick(['what is their address?', 'where is it located?', 'could you give me the address']);
    else if (/^Thank the assistant/.test(h)) text = rng.pick(['thanks a lot', 'thank you so much', 'many thanks']);
    else if (/^Say you need nothing else/.test(h)) text = rng.pick(['no thanks, that is all', "nope, i'm good, thanks", 'nothing else, thank you']);
    else if (/^Say you did not understand/.test(h)) text = rng.pick(["sorry, i didn't get that", 'what do you mean?', 'pardon?']);
    else if (/^Hesitate/.test(h)) text = rng.pick(['hmm, give me a second', 'let me think for a moment', 'umm, not sure yet']);
    else if (/^Say again what you said last/.test(h) && last !== '') return last;
    else text = rng.pick(['sorry?', 'hmm']);
    last = pickCase(rng, text);
    return last;
  };
}
