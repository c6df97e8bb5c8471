/**
 * A test agent for the -v2 restaurant and DSTC6 envs that says every act in its own words: the
 * rule bot decides (it reads the user's turns), then the act it chose is said with one of this
 * file's wordings (≥ 3 per act, none of them the datasets'), in a letter case and punctuation
 * drawn by the agent's seeded rng; the api_call goes through the tool. The rule bot sees its own
 * wording in the history (each of this agent's turns is put back as the act's dataset wording).
 * `intended` gives the act the agent meant at each turn (as `info.read` writes it).
 */
import assert from 'node:assert/strict';
import { createRng, type Rng } from '../../../core/rng.js';
import { envs, make, type Env, type ToolCall, type ToolSpec } from '../../../env/env.js';
import { playEpisode } from '../../../env/episode.js';
import type { Turn } from '../../../core/dialog.js';
import { readBotAct, type BotAct } from '../rules/phrases.js';
import type { Slot } from '../rules/nlu.js';
import type { RestaurantAction, RestaurantObservation } from '../online/env.js';
import { rulesFor } from './online.js';

/** The agent's wordings per act (`N`: a restaurant name, `V`: a phone number or address). */
export const OWN_WORDS: Wordings = {
  greet: ['Good day! What are you looking for?', 'hey, welcome. how can i be of service', 'Hi! Tell me what brings you here.'],
  'on-it': ['Sure thing, working on it.', 'Absolutely — consider it handled.', 'understood, leave it with me'],
  ask: {
    cuisine: ['What kind of cuisine are you in the mood for?', 'which type of food do you want', 'Do you have a favourite cuisine for tonight?'],
    location: ['In which city should I search?', 'where would you like to dine', 'What area do you have in mind?'],
    number: ['How many guests will there be?', 'for how many persons is the table', "What's the size of your group?"],
    price: ['What is your budget?', 'which price range suits you', 'How much do you want to spend?'],
    atmosphere: ['What kind of ambiance would you like?', "any particular vibe you're after", 'Which atmosphere do you prefer for the evening?'],
    restrictions: ['Any allergies I should know about?', 'do you follow a special diet', 'Are there dietary needs to consider?'],
  } as Readonly<Record<Slot, readonly string[]>>,
  search: ['Searching for matching restaurants!', 'let me check the listings', "I'm looking up what's available."],
  updated: ['Would you like to change anything else?', 'any further changes to your request', 'Is there something else you want to modify?'],
  propose: ['How about N?', 'I can recommend N. Does that work?', 'would N suit you'],
  another: ["No problem, I'll look for a different one.", 'okay, searching for an alternative', 'Understood, let me find you another place.'],
  reserve: ["Excellent choice, I'm booking it now.", "wonderful, i'll make the reservation", 'Great, reserving your table!'],
  phone: ['The phone number is V.', 'you can call them on V', 'Their number: V'],
  address: ['The address is V.', "they're located at V", 'You will find it at V.'],
  'anything-else': ['Can I do anything else for you?', 'is there anything more you need', 'Anything else I could help with?'],
  welcome: ["You're very welcome, goodbye!", 'my pleasure, have a lovely evening', 'Glad I could help. Bye!'],
  wait: ['No hurry, take all the time you need.', "sure, i'll wait", 'Take your time!'],
  sorry: ["I'm afraid I don't know that.", "sorry, i can't answer that one", 'Unfortunately I have no idea.'],
  recall: ['As a reminder, it was N.', 'the one i mentioned earlier was N', 'Again: N.'],
};

/** Wordings per act of an own-words agent. */
export interface Wordings {
  readonly ask: Readonly<Record<Slot, readonly string[]>>;
  readonly greet: readonly string[];
  readonly 'on-it': readonly string[];
  readonly search: readonly string[];
  readonly updated: readonly string[];
  readonly propose: readonly string[];
  readonly another: readonly string[];
  readonly reserve: readonly string[];
  readonly phone: readonly string[];
  readonly address: readonly string[];
  readonly 'anything-else': readonly string[];
  readonly welcome: readonly string[];
  readonly wait: readonly string[];
  readonly sorry: readonly string[];
  readonly recall: readonly string[];
}

/** Letter case and punctuation of a sentence, drawn by the rng. */
function restyle(rng: Rng, text: string): string {
  const cased = [(s: string) => s, (s: string) => s.toUpperCase(), (s: string) => s.toLowerCase(), (s: string) => s.replace(/\b\w/g, (c) => c.toUpperCase())][rng.int(4)] as (s: string) => string;
  const end = ['', '!', '...', ' :)', '?!'][rng.int(5)] as string;
  const body = cased(text);
  return rng.chance(0.5) ? body + end : body.replace(/[.!?]+$/, '') + end;
}

/** How `info.read` writes the act this agent meant. */
function readOf(a: BotAct, kb: ReadonlyMap<string, 'phone' | 'address'>): string {
  switch (a.kind) {
    case 'greet':
      return 'greet';
    case 'on-it':
      return 'ack';
    case 'ask':
      return `ask(${a.slot})`;
    case 'search':
      return 'search';
    case 'updated':
      return 'ask-updates';
    case 'propose':
      return `propose(${a.restaurant})`;
    case 'recall':
      return `recall(${a.restaurant})`;
    case 'another':
      return 'another';
    case 'reserve':
      return 'reserve';
    case 'info':
      return `inform(${kb.get(a.value) ?? a.info ?? '?'})`;
    case 'anything-else':
      return 'offer-help';
    case 'welcome':
      return 'close';
    case 'wait':
      return 'wait';
    case 'sorry':
      return 'cannot-answer';
    case 'api-call':
      return 'api_call';
    case 'other':
      return 'other';
  }
}

/** An own-words agent for one episode: `act(obs)` is its next action, `intended` the acts it meant so far. */
export interface OwnWordsAgent {
  act(obs: RestaurantObservation): RestaurantAction;
  readonly intended: readonly string[];
}

/** The own-words agent for an env's api_call tool and the agent's rng (`words`: its wordings). */
export function ownWordsAgent(tools: readonly ToolSpec[], rng: Rng, words: Wordings = OWN_WORDS): OwnWordsAgent {
  const bot = rulesFor(tools);
  const slots = Object.keys((tools[0]?.function.parameters['properties'] ?? {}) as object);
  const canonical: string[] = [];
  const intended: string[] = [];
  const infoKinds = new Map<string, 'phone' | 'address'>();
  return {
    intended,
    act(obs) {
      // The history with the agent's own turns put back in the dataset's wording.
      let k = 0;
      const history: Turn[] = obs.history.map((t) => (t.speaker === 'bot' ? { speaker: 'bot', text: canonical[k++] ?? t.text } : t));
      for (const t of obs.history) {
        const m = /^(\S+) [rR]_(phone|address) (\S+)$/.exec(t.text);
        if (t.speaker === 'kb' && m) infoKinds.set(m[3] as string, m[2] as 'phone' | 'address');
      }
      const said = bot.respond(history);
      canonical.push(said);
      const a = readBotAct(said);
      intended.push(readOf(a, infoKinds));
      const pick = (xs: readonly string[], fill = ''): string => restyle(rng, rng.pick(xs).replace(/\b[NV]\b/, fill));
      switch (a.kind) {
        case 'api-call': {
          const args: Record<string, string> = {};
          slots.forEach((s, i) => {
            const v = said.split(' ').slice(1)[i];
            if (v !== undefined) args[s] = v;
          });
          return { tool: 'api_call', arguments: args } satisfies ToolCall;
        }
        case 'ask':
          return pick(words.ask[a.slot]);
        case 'propose':
        case 'recall':
          return pick(words[a.kind], a.restaurant);
        case 'info': {
          const kind = infoKinds.get(a.value) ?? a.info ?? 'phone';
          return pick(words[kind], a.value);
        }
        case 'other':
          return said;
        default:
          return pick(words[a.kind]);
      }
    },
  };
}

/** Plays `episodes` episodes (seeds 0…) of the own-words agent on `id`: success rate, turns not understood, turns read otherwise than meant. */
export function ownWordsRun(id: string, episodes: number, seed0 = 0, words: Wordings = OWN_WORDS): { success: number; notUnderstood: number; misread: string[] } {
  const env = make(id) as Env<RestaurantObservation, RestaurantAction>;
  let success = 0;
  let notUnderstood = 0;
  const misread: string[] = [];
  for (let seed = seed0; seed < seed0 + episodes; seed++) {
    let agent: ReturnType<typeof ownWordsAgent> | undefined;
    const reads: string[] = [];
    let lastReward = 0;
    const e = playEpisode(env, (t) => (agent ??= ownWordsAgent(t.info['tools'] as ToolSpec[], createRng(seed).fork('own words'), words)).act(t.obs), {
      reset: { seed },
      onStep: (r) => {
        reads.push(r.info['read'] as string);
        lastReward = r.reward;
      },
    });
    success += lastReward;
    notUnderstood += e.info['notUnderstood'] as number;
    const intended = (agent as ReturnType<typeof ownWordsAgent> | undefined)?.intended ?? [];
    reads.forEach((x, i) => {
      if (x !== intended[i]) misread.push(`${id} seed ${seed} turn ${i + 1}: meant ${intended[i] ?? '?'}, read ${x}`);
    });
  }
  return { success: success / episodes, notUnderstood, misread };
}

/** Asserts the own-words agent's acceptance on each env: registered, success ≥ 0.99 over `episodes`, every turn understood and read as meant. */
export function assertOwnWords(ids: readonly string[], episodes: number): void {
  for (const id of ids) {
    assert.ok(envs.has(id), id);
    const r = ownWordsRun(id, episodes);
    assert.ok(r.success >= 0.99, `${id}: success ${r.success}`);
    assert.equal(r.notUnderstood, 0, id);
    assert.deepEqual(r.misread.slice(0, 5), [], id);
  }
}
