/**
 * A scripted person playing the DSTC6 restaurant agent (task 5, -v2; tests, and browser tests that
 * read the same text off the page). The DSTC6 user talks more than bAbI's: it thinks aloud before
 * some answers ("let me check if rome or paris would work"), names two values and settles on one
 * ("i want british food but my friend insists on french"), asks questions the agent cannot answer
 * ("is there a good bar nearby"), asks to hear an earlier option again and then takes it or the
 * newest one, and consults its friend before asking for the phone number or the address. The
 * person reads those turns as a person would — waits when the user thinks aloud, says it has no
 * answer to an off-topic question, repeats the option asked for — and otherwise plays as the
 * restaurant person (`restaurantAgentParticipant`) on the dialog as it understood it: the value
 * settled on, the acceptance or the rejection in plain words, the recalled option proposed again.
 */
import type { ViewSection } from '../../../env/person.js';
import type { ToolSpec } from '../../../env/env.js';
import { restaurantAgentParticipant } from '../../restaurant/testing/person-agent.js';

/** A dialog line as the page shows it. */
interface Line {
  readonly speaker: 'user' | 'agent';
  readonly text: string;
}

/** The user thinks aloud: it has not decided yet (or consults its friend). */
const THINKING = /\b(let me (think|check)|let's see|i am not sure|due for a change|variety|so many other options|something else entirely|not ideal|i always go there|nice last time|good to change|aren't bad|hard on the wallet|may be more reasonable|more time)\b|asking my friend if/;
/** A question about something else than the restaurant search. */
const OFF_TOPIC = /^(is (this|there|it|the) |should i |do they |what time |will it )/;
/** A question about an option proposed before: the first one, or the one before the last. */
const RECALL = /\b(first|previous|before)\b.*\b(one|option|suggested|proposed)\b|\b(one|option)\b.*\b(first|previous|before)\b/;
/** Words that settle on a value when two are named: the value right after them is the one. */
const SETTLE = /(?:insists on|let's do|stick to|prefers|wants a|she wants(?: with| in| for| a)?|let's go with|let's try|find me one in|i want(?= \S+ food please))\s+([a-z0-9_']+)/;
const REJECT = /\b(something else|does not work|don't like|no good|still)\b|^(no|hmm no)\b/;
const ACCEPT = /\b(ok|okay|perfect|great|let's do|go with|like it|like that|want that|last one|last option|new one)\b/;

/** The values of the api_call form. */
function formValues(tools: readonly ToolSpec[]): string[] {
  const t = tools.find((x) => x.function.name === 'api_call');
  const props = (t?.function.parameters['properties'] ?? {}) as Record<string, { enum?: string[] }>;
  return Object.values(props).flatMap((p) => p.enum ?? []);
}

/** A user's sentence naming two values of the form, reduced to the one it settles on. */
function settled(text: string, values: readonly string[]): string {
  const words = ` ${text.toLowerCase().replace(/[^a-z0-9_' ]+/g, ' ')} `;
  const named = values.filter((v) => words.includes(` ${v} `));
  if (named.length < 2) return text;
  const m = SETTLE.exec(text.toLowerCase());
  return m && named.includes(m[1] as string) ? (m[1] as string) : text;
}

/** The names of the restaurants proposed so far (the person's own `How about X?`), in order. */
function proposals(lines: readonly Line[]): string[] {
  return lines.filter((l) => l.speaker === 'agent').map((l) => /^How about (\S+)\?$/.exec(l.text)?.[1]).filter((x): x is string => x !== undefined);
}

/**
 * A DSTC6 agent participant (module description above): one per episode.
 *
 * @example
 * ```ts
 * const act = dstc6AgentParticipant();
 * act([], [{ speaker: 'user', text: 'hi' }], tools); // 'Hello! How can I help you today?'
 * ```
 */
export function dstc6AgentParticipant(): (view: readonly ViewSection[], dialog: readonly Line[], tools: readonly ToolSpec[]) => string | { tool: string; arguments: Record<string, unknown> } {
  const restaurant = restaurantAgentParticipant();
  return (view, dialog, tools) => {
    const values = formValues(tools);
    // The dialog as the person understood it.
    const plain: Line[] = [];
    let info: string | undefined; // what the friend may need: the phone number or the address
    let recalled: string | undefined;
    for (let i = 0; i < dialog.length; i++) {
      const l = dialog[i] as Line;
      if (l.speaker === 'agent') {
        plain.push(l);
        continue;
      }
      const text = l.text.toLowerCase();
      const reply = dialog[i + 1];
      if (THINKING.test(text) || OFF_TOPIC.test(text) || RECALL.test(text)) {
        if (/asking my friend if we need the (phone|address)/.test(text)) info = /address/.test(text) ? 'address' : 'phone';
        if (RECALL.test(text) && reply !== undefined) recalled = /^The \w+ one I suggested was (\S+)\.$/.exec(reply.text)?.[1];
        i++; // the person's answer to it (a wait, no answer, the repeated option) is not part of the search
        continue;
      }
      if (info !== undefined && /\bwhat is it\b/.test(text)) {
        plain.push({ speaker: 'user', text: `what is the ${info}` });
        info = undefined;
        continue;
      }
      const proposed = proposals(plain);
      const agentSaid = plain.filter((x) => x.speaker === 'agent').map((x) => x.text);
      if (proposed.length > 0 && !/^api_call/.test(agentSaid.at(-1) ?? '') && !agentSaid.some((t) => t.startsWith('Great, I am booking'))) {
        // An answer to a proposal, in plain words; a recalled option taken is proposed again.
        if (REJECT.test(text)) plain.push({ speaker: 'user', text: 'no, something else' });
        else if (ACCEPT.test(text)) {
          if (recalled !== undefined && !/\b(last|new)\b/.test(text)) plain.push({ speaker: 'agent', text: `How about ${recalled}?` }, { speaker: 'user', text: 'yes' });
          else plain.push({ speaker: 'user', text: 'yes' });
        } else plain.push({ ...l, text: settled(l.text, values) });
        recalled = undefined;
        continue;
      }
      plain.push({ ...l, text: settled(l.text, values) });
    }
    const last = dialog.at(-1);
    if (last?.speaker === 'user') {
      const text = last.text.toLowerCase();
      if (THINKING.test(text)) return 'Take your time, whenever you are ready.';
      if (OFF_TOPIC.test(text)) return 'Sorry, I do not have an answer to that question.';
      if (RECALL.test(text)) {
        const proposed = proposals(plain);
        const name = /\bfirst\b/.test(text) ? proposed[0] : proposed.at(-2);
        if (name !== undefined) return `The ${/\bfirst\b/.test(text) ? 'first' : 'previous'} one I suggested was ${name}.`;
      }
    }
    return restaurant(view, plain, tools);
  };
}
