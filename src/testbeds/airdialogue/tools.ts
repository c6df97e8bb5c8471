/**
 * The tool view of the AirDialogue environment: the agent's end states as tools — `book(name,
 * flight)`, `change(name, flight)`, `cancel(name)`, `no_flight(name)`, `no_reservation(name)` —
 * each with an optional closing `utterance`; a text action is an utterance that does not end the
 * dialog.
 */
import { InvalidActionError } from '../../core/errors.js';
import type { ToolCall, ToolSpec } from '../../env/env.js';
import type { AgentMove } from './policies.js';

const END_STATES: ReadonlyArray<[string, string, boolean]> = [
  ['book', 'Book the flight for the customer and end the dialog.', true],
  ['change', "Change the customer's reservation to the flight and end the dialog.", true],
  ['cancel', "Cancel the customer's reservation and end the dialog.", false],
  ['no_flight', 'Tell the customer no flight fits and end the dialog.', false],
  ['no_reservation', 'Tell the customer there is no reservation to change or cancel and end the dialog.', false],
];

/**
 * The AirDialogue tools, OpenAI tool-call shape (listed in `info.tools` of `reset`).
 *
 * @example
 * ```ts
 * import { AIR_TOOLS } from 'dialogym/airdialogue';
 * AIR_TOOLS.map((t) => t.function.name); // ['book', 'change', 'cancel', 'no_flight', 'no_reservation']
 * ```
 */
export const AIR_TOOLS: readonly ToolSpec[] = END_STATES.map(([name, description, flight]) => ({
  type: 'function',
  function: {
    name,
    description,
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', description: "the customer's name" },
        ...(flight ? { flight: { type: 'integer', description: 'flight number from the flight table' } } : {}),
        utterance: { type: 'string', description: 'what the agent says while acting' },
      },
      required: flight ? ['name', 'flight'] : ['name'],
      additionalProperties: false,
    },
  },
}));

/** The agent move of a text action or a tool call; an InvalidActionError for another tool. */
export function airMoveOf(action: AgentMove | ToolCall | string): AgentMove {
  if (typeof action === 'string') return { utterance: action };
  if (!('tool' in action)) return action;
  const spec = END_STATES.find((s) => s[0] === action.tool);
  if (!spec) throw new InvalidActionError(`unknown tool '${action.tool}' (tools: ${END_STATES.map((s) => s[0]).join(', ')})`);
  const a = action.arguments;
  const flight = a['flight'];
  return { utterance: typeof a['utterance'] === 'string' ? a['utterance'] : '', action: { status: action.tool, name: typeof a['name'] === 'string' ? a['name'] : '', flight: typeof flight === 'number' ? [flight] : [] } };
}
