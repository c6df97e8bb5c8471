/**
 * The tool view of the KB-InfoBot environments: `request(slot)` asks the user for a slot's value,
 * `inform(results)` ends the dialog with ranked movie rows of the agent's KB (best first).
 */
import { InvalidActionError } from '../../core/errors.js';
import type { ToolCall, ToolSpec } from '../../env/env.js';
import type { InfoBotAction } from './acts.js';
import { SLOTS } from './slots.js';

/**
 * The KB-InfoBot tools, OpenAI tool-call shape (listed in `info.tools` of `reset`).
 *
 * @example
 * ```ts
 * import { INFOBOT_TOOLS } from 'dialogym/infobot';
 * INFOBOT_TOOLS.map((t) => t.function.name); // ['request', 'inform']
 * ```
 */
export const INFOBOT_TOOLS: readonly ToolSpec[] = [
  {
    type: 'function',
    function: {
      name: 'request',
      description: "Ask the user for the value of a slot of the movie they look for.",
      parameters: { type: 'object', properties: { slot: { type: 'string', enum: [...SLOTS] } }, required: ['slot'], additionalProperties: false },
    },
  },
  {
    type: 'function',
    function: {
      name: 'inform',
      description: "End the dialog: the movies (row indices of the agent's KB), best first; success when the user's movie is among the first ones.",
      parameters: { type: 'object', properties: { results: { type: 'array', items: { type: 'integer' } } }, required: ['results'], additionalProperties: false },
    },
  },
];

/** The InfoBot action of a tool call; an InvalidActionError for another tool. */
export function infoBotActionOfTool(call: ToolCall): InfoBotAction {
  if (call.tool === 'request') return { act: 'request', slot: call.arguments['slot'] as (typeof SLOTS)[number] };
  if (call.tool === 'inform') return { act: 'inform', results: call.arguments['results'] as number[] };
  throw new InvalidActionError(`unknown tool '${call.tool}' (tools: request, inform)`);
}
