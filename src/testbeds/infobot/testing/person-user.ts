/**
 * A scripted person playing the user of the KB-InfoBot envs (tests, and browser tests that read the
 * same text off the page): it reads only the goal card, the hint (`infoBotUserHint`: the slots to
 * give and the values as the user remembers them) and the agent's words, and writes its own
 * sentences around the values (not the environment's templates), varied by its seeded rng, and
 * brings its own errors at the simulated user's rates (the hint names the card's values): given
 * the KB, it mixes a value up with another of the slot's values one time in twenty (`subProb`),
 * then misremembers half the values it gives (`errProb`). A value the hint does not quote is taken
 * from the card (its first candidate).
 */
import type { Rng } from '../../../core/rng.js';
import { corruptValue } from '../user.js';
import type { GoalCard } from '../../../env/person.js';
import type { MovieKb } from '../movie-kb.js';
import { SLOTS } from '../slots.js';
import { slotWords } from '../person.js';

/** A user-side participant (as `test/person-play.ts` names it): the page's card, hint and the agent's last words → what the person types. */
type UserParticipant = (card: GoalCard, hint: string | undefined, agentSaid: string) => string;

/** The slot names of the card and hints → the words a person uses around a value of it. */
const SAY: ReadonlyArray<[string, (rng: Rng, v: string) => string]> = [
  ['actor', (rng, v) => rng.pick([`${v} stars in it`, `the lead actor is ${v}`, `starring ${v}`])],
  ['critic rating', (rng, v) => rng.pick([`critics rated it ${v}`, `its critic rating is ${v}`, `critics scored it about ${v}`])],
  ['genre', (rng, v) => rng.pick([`the genre is ${v}`, `some kind of ${v}`, `genre: ${v}`])],
  ['MPAA rating', (rng, v) => rng.pick([`it's rated ${v}`, `mpaa rating ${v}`, `rated ${v} i believe`])],
  ['director', (rng, v) => rng.pick([`directed by ${v}`, `the director was ${v}`, `${v} directed it`])],
  ['release year', (rng, v) => rng.pick([`released in ${v}`, `it came out in ${v}`, `release year ${v}`])],
];

/** `the actor “x”` pairs of a hint → [slot words, value]. */
function quoted(text: string): Array<[string, string]> {
  return [...text.matchAll(/the ([A-Za-z ]+?) “([^”]*)”/g)].map((m) => [m[1] as string, m[2] as string]);
}

/** The words of one slot and value. */
function valueWords(rng: Rng, slot: string, value: string): string {
  const say = SAY.find(([s]) => s === slot)?.[1];
  return say ? say(rng, value) : value;
}

/**
 * How often the person misremembers a value they give (a name loses a word, a number moves): the
 * simulated user's default `errProb`. The hint names the card's value; the person brings their own
 * errors, as the simulated user does.
 */
const MISREMEMBER = 0.5;

/** How often the person mixes a value up with another of the slot (given the KB): the simulated user's default `subProb`. */
const MIX_UP = 0.05;

/** The values of each slot, by the words a person uses for it ('critic rating' → the KB's critic_rating values). */
function slotValues(kb: MovieKb): ReadonlyMap<string, readonly string[]> {
  return new Map(SLOTS.map((slot, j) => [slotWords(slot), kb.vocab[j] as readonly string[]]));
}

/** `value` of `slot` as the person gives it: mixed up with another of the slot's values (when `values` has them), then misremembered. */
function remembered(rng: Rng, slot: string, value: string, values: ReadonlyMap<string, readonly string[]> | undefined): string {
  const others = values?.get(slot);
  const v = others !== undefined && others.length > 0 && rng.chance(MIX_UP) ? rng.pick(others) : value;
  return rng.chance(MISREMEMBER) ? corruptValue(v, rng) : v;
}

/** The value of a slot on the card (its first candidate when it has several). */
function fromCard(card: GoalCard, slot: string): string | undefined {
  const line = card.lines.find((l) => l.startsWith(`${slot}: `));
  if (line === undefined) return undefined;
  const v = line.slice(slot.length + 2);
  const one = /^one of (.+?) \(/.exec(v);
  return one ? (one[1] as string).split(' / ')[0] : v;
}

/**
 * A KB-InfoBot user participant (module description above), its wording drawn from `rng`.
 *
 * @example
 * ```ts
 * const say = infoBotUserParticipant(createRng(1), splitKbs('medium', 1).full);
 * say(card, 'Answer that the director is “jo lee”.', 'request(slot=director)'); // e.g. 'directed by jo lee'
 * ```
 *
 * @param kb the environment's full KB, whose values the person may mix up (without it: no mix-ups)
 */
export function infoBotUserParticipant(rng: Rng, kb?: MovieKb): UserParticipant {
  const values = kb && slotValues(kb);
  return (card, hint) => {
    const h = hint ?? '';
    let m: RegExpExecArray | null;
    if (h.startsWith('Ask for a movie, giving ')) {
      const parts = quoted(h).map(([s, v]) => valueWords(rng, s, remembered(rng, s, v, values)));
      return `${rng.pick(["hey, i'm trying to find a film.", 'looking for a movie:', 'can you help me find a movie?'])} ${parts.join(', ')}`;
    }
    if ((m = /^Answer that the (.+?) is “([^”]*)”\.$/.exec(h))) return `${rng.pick(['hmm, ', 'i think ', ''])}${valueWords(rng, m[1] as string, remembered(rng, m[1] as string, m[2] as string, values))}`;
    if ((m = /^Say you do not know the (.+)\.$/.exec(h))) return rng.pick([`no clue about the ${m[1]}`, `sorry, can't remember the ${m[1]}`, `not sure what the ${m[1]} is`]);
    if (h.startsWith('Thank the agent')) return rng.pick(['yes! that one, thanks', 'great, that is it', 'found it, thank you']);
    if (h.startsWith('Say that your movie is not')) return rng.pick(['nope, not in there', "none of those, sorry", 'that is not the one']);
    // No hint: give what the card says of the first slot it names.
    const slot = SAY.map(([s]) => s).find((s) => fromCard(card, s) !== undefined);
    return slot === undefined ? 'i am looking for a movie' : valueWords(rng, slot, fromCard(card, slot) as string);
  };
}
