/**
 * dialogym's agents for the restaurant environments (`restaurant-*`, `dstc6-*`): `rules` (the rule
 * bot; its wording and whether the api_call carries restrictions are read off the api_call tool's
 * parameters), or any response model of the registry / a model file (hcn, memn2n, …; rankers
 * need `candidates`), answering `observation.history`.
 */
import { ConfigError } from '../../core/errors.js';
import type { Turn } from '../../core/dialog.js';
import { readBabiCandidates } from '../../formats/babi.js';
import { createModel, creatableModels, isModelFile, models, resolveModelContent } from '../../rankers/registry.js';
import { players } from '../../agents/registry.js';
import { readModelFile } from '../../formats/model-file.js';
import type { ToolSpec } from '../../env/env.js';
import { restaurantsToKbFacts, readKb } from './kb-dialects.js';
import { createRulesBot, type RulesBot } from './rules/rules.js';
import { chatModelOf, type Conversation } from './chat/chat-model.js';
import type { TestbedAgentFamily } from '../testbed.js';
import type { AgentRequest } from '../../agents/protocol.js';

/** The api_call tool's parameters by name (none without the tool). */
function apiProperties(tools: readonly ToolSpec[]): Record<string, { enum?: unknown }> {
  const props = tools.find((x) => x.function.name === 'api_call')?.function.parameters['properties'];
  return props && typeof props === 'object' ? (props as Record<string, { enum?: unknown }>) : {};
}

/**
 * The rule bot configured from the api_call tool: DSTC6 wording when the call has an atmosphere, and
 * the cuisines and locations its `enum`s list as the bot's vocabulary (as the chat gives it its KB's),
 * so that it reads them in any wording — a person's bare `london` or `London, please`.
 */
export function rulesBotForTools(tools: readonly ToolSpec[]): RulesBot {
  const props = apiProperties(tools);
  const params = Object.keys(props);
  const dstc6 = params.includes('atmosphere');
  const kb = (['cuisine', 'location'] as const).flatMap((slot) => (Array.isArray(props[slot]?.enum) ? (props[slot].enum as unknown[]) : []).filter((v): v is string => typeof v === 'string').map((value) => ({ entity: '', attr: `R_${slot}`, value })));
  return createRulesBot({ dialect: dstc6 ? 'dstc6' : 'babi', restrictions: dstc6 ? params.includes('restrictions') : false, ...(kb.length > 0 ? { kb } : {}) });
}

function historyOf(req: AgentRequest): Turn[] {
  const h = (req.observation as { history?: unknown } | null)?.history;
  if (!Array.isArray(h)) throw new ConfigError(`${req.env}: the observation has no history (this agent plays the restaurant environments)`);
  return h as Turn[];
}

// The restaurant family's players are the response models (`players.get('restaurant', 'tfidf')`).
players.adopt('restaurant', models);

/** The restaurant family of the `agents` registry (its entry point in testbed.ts; it plays the restaurant and DSTC6 environments). */
export const restaurantAgents: TestbedAgentFamily = {
  names: () => ['rules', ...creatableModels().filter((m) => m !== 'rules')],
  load(model, opts) {
    if (model === 'rules') {
      return () => {
        let bot: RulesBot | undefined;
        return {
          name: model,
          act: (req) => {
            if (req.turn === 0 || !bot) bot = rulesBotForTools(req.tools);
            return bot.respond(historyOf(req));
          },
        };
      };
    }
    if (!isModelFile(model) && !creatableModels().includes(model)) return undefined;
    const facts = opts.kb !== undefined ? (() => { const k = readKb(opts.kb); return restaurantsToKbFacts(k.restaurants, k.dialect); })() : undefined;
    const given = opts.candidates !== undefined ? readBabiCandidates(opts.candidates).candidates : undefined;
    // Read once, before the first request: a bad model file fails at start (weights and stored candidates).
    const file = isModelFile(model) ? readModelFile(model) : undefined;
    // The model itself is built at the first request (one for every lane): an InfoBot policy file is a model file too.
    let chat: ReturnType<typeof chatModelOf> | undefined;
    const chatModel = (): ReturnType<typeof chatModelOf> => {
      if (!chat) {
        const candidates = given ?? file?.candidates;
        const ctx = { ...(facts ? { kb: facts } : {}), ...(candidates ? { candidates } : {}) };
        chat = chatModelOf(file ? resolveModelContent(file, model, ctx) : createModel(model, ctx), candidates ? { candidates } : {});
      }
      return chat;
    };
    return () => {
      let conv: Conversation | undefined;
      return {
        name: model,
        act: (req) => {
          if (req.turn === 0 || !conv) conv = chatModel().conversation();
          return conv.answer(historyOf(req)).text;
        },
      };
    };
  },
};
