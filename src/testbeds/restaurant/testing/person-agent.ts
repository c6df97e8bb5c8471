/**
 * A scripted person playing the restaurant agent (bAbI task 5, -v2; tests, and browser tests that
 * read the same text off the page): it reads only the dialog's text, the KB tables of the agent
 * view (`restaurantPersonView.agentView`) and the api_call tool's form (its enum values), asks for
 * what is missing in its own words, fills the api_call form, lets the user change its request,
 * proposes the found restaurants best-rated first, books the one accepted and gives its phone
 * number or address.
 */
import type { ViewSection } from '../../../env/person.js';
import type { ToolSpec } from '../../../env/env.js';

/** A dialog line as the page shows it. */
interface Line {
  readonly speaker: 'user' | 'agent';
  readonly text: string;
}

const ASK: Readonly<Record<string, string>> = {
  cuisine: 'What kind of food would you like?',
  location: 'Which city should it be in?',
  number: 'How many people will be dining?',
  price: 'What price range do you have in mind?',
  atmosphere: 'What kind of atmosphere do you prefer?',
  restrictions: 'Any dietary restrictions?',
};

const SILENT = /^<silence>$/i;

/** The enum values of each argument of the api_call form. */
function formValues(tools: readonly ToolSpec[]): Map<string, readonly string[]> {
  const t = tools.find((x) => x.function.name === 'api_call');
  const props = (t?.function.parameters['properties'] ?? {}) as Record<string, { enum?: string[] }>;
  return new Map(Object.entries(props).map(([k, v]) => [k, v.enum ?? []]));
}

/** A table section as records by column. */
function records(s: ViewSection | undefined): Array<Record<string, string>> {
  if (!s || s.kind !== 'table') return [];
  return s.rows.map((r) => Object.fromEntries(s.columns.map((c, i) => [c, r[i] ?? ''])));
}

/**
 * A restaurant agent participant (module description above): one per episode.
 *
 * @example
 * ```ts
 * const act = restaurantAgentParticipant();
 * act([], [{ speaker: 'user', text: 'hi' }], tools); // 'Hello! How can I help you today?'
 * ```
 */
export function restaurantAgentParticipant(): (view: readonly ViewSection[], dialog: readonly Line[], tools: readonly ToolSpec[]) => string | { tool: string; arguments: Record<string, unknown> } {
  return (view, dialog, tools) => {
    const form = formValues(tools);
    const agentLines = dialog.filter((l) => l.speaker === 'agent').map((l) => l.text);
    if (agentLines.length === 0) return 'Hello! How can I help you today?';
    // What the user wants: the form's values named in its turns, the latest of each slot.
    const want = new Map<string, string>();
    for (const l of dialog) {
      if (l.speaker !== 'user') continue;
      const words = ` ${l.text.toLowerCase().replace(/[^a-z0-9_ ]+/g, ' ')} `;
      for (const [slot, values] of form) for (const v of values) if (words.includes(` ${v} `)) want.set(slot, v);
    }
    const calls = agentLines.filter((t) => t.startsWith('api_call')).length;
    const lastCall = dialog.map((l) => l.speaker === 'agent' && l.text.startsWith('api_call')).lastIndexOf(true);
    const after = dialog.slice(lastCall + 1);
    const saidAfter = after.filter((l) => l.speaker === 'user' && !SILENT.test(l.text)).map((l) => l.text.toLowerCase());
    const lastUser = saidAfter[saidAfter.length - 1] ?? '';
    const call = () => ({ tool: 'api_call', arguments: Object.fromEntries([...form.keys()].map((s) => [s, want.get(s) as string])) });
    if (calls === 0) {
      const missing = [...form.keys()].find((s) => !want.has(s));
      return missing === undefined ? call() : (ASK[missing] ?? `What ${missing} would you like?`);
    }
    const results = view.find((s) => s.title === `Results of search ${calls}`);
    if (results === undefined) {
      // The user changes its request before the results: ask until it has nothing else to change, then search again.
      const changed = [...form.values()].some((values) => values.some((v) => ` ${lastUser.replace(/[^a-z0-9_ ]+/g, ' ')} `.includes(` ${v} `)));
      return changed ? 'Sure, anything else you would like to change?' : call();
    }
    const options = records(results).sort((a, b) => Number(b['rating']) - Number(a['rating']) || ((a['name'] ?? '') < (b['name'] ?? '') ? -1 : 1));
    const afterAgent = after.filter((l) => l.speaker === 'agent').map((l) => l.text);
    const proposed = afterAgent.map((t) => /^How about (\S+)\?$/.exec(t)?.[1]).filter((x): x is string => x !== undefined);
    const booked = afterAgent.some((t) => t.startsWith('Great, I am booking'));
    if (!booked) {
      const accepted = /\b(yes|yeah|yep|love|perfect|great|let's do it|lets do it|works|sounds good|take it|book it|looks good|fine|ok|okay|sure|excellent|wonderful|deal|nice|like it|go for it|go with)\b/.test(lastUser) && !/\b(not|no|don't|rather|else|different|another|other)\b/.test(lastUser);
      const rejected = proposed.length > 0 && !accepted;
      if (proposed.length === 0 || rejected) {
        const next = options.find((o) => !proposed.includes(o['name'] ?? ''));
        return next === undefined ? 'Sorry, there is nothing else left.' : `How about ${next['name']}?`;
      }
      return 'Great, I am booking a table there now.';
    }
    const chosen = options.find((o) => o['name'] === proposed[proposed.length - 1]) ?? {};
    if (/\bphone\b/.test(lastUser)) return `The phone number is ${chosen['phone']}.`;
    if (/\baddress\b/.test(lastUser)) return `The address is ${chosen['address']}.`;
    return 'You are welcome, goodbye!';
  };
}
