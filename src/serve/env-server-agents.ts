/**
 * dialogym's own agents behind the agent protocol (`dialogym agent --agent … --stdio`, and in
 * process for `dialogym evaluate --agent …`): given a protocol request, the next action.
 *
 * - Restaurant envs (`restaurant-*`, `dstc6-*`): `rules` (the rule bot; its wording and whether the
 *   api_call carries restrictions are read off the api_call tool's parameters), or any response
 *   model of the registry / a model file (hcn, memn2n, …; rankers need `candidates`), answering
 *   `observation.history`.
 * - `airdialogue-v1`: the AirDialogue agent policies by name (`rules`, …) on `observation.context`.
 * - `infobot-<split>-v1`: the KB-InfoBot agents by name (`rule-soft`, `rl-hard`, `e2e-soft`, …) or a
 *   policy file. They track the dialog from the user's utterances alone and rank rows of the agent's
 *   KB, which they rebuild as the environment builds it by default (the split's generated KB), and
 *   answer with the `request` / `inform` tools. `max` reads the user's goal and is refused.
 */
import { ConfigError } from '../core/errors.js';
import { createRng } from '../core/rng.js';
import type { Turn } from '../core/dialog.js';
import { readBabiCandidates } from '../formats/babi.js';
import { createModel, isModelFile, resolveModelContent } from '../rankers/registry.js';
import { readModelFile } from '../formats/model-file.js';
import type { ToolSpec } from '../testbeds/env.js';
import { restaurantsToKbFacts, readKb } from '../testbeds/restaurant/kb-dialects.js';
import { createRulesBot, type RulesBot } from '../testbeds/restaurant/rules/rules.js';
import '../testbeds/restaurant/models.js';
import { agentPolicies, type AgentSession } from '../testbeds/airdialogue/policies.js';
import type { KbLine } from '../formats/airdialogue.js';
import { InfoBotEnv } from '../testbeds/infobot/env.js';
import { createAgent } from '../testbeds/infobot/evaluate.js';
import type { InfoBotAgent } from '../testbeds/infobot/agents/agent.js';
import type { InfoBotAction } from '../testbeds/infobot/acts.js';
import { chatModelOf, type Conversation } from './chat-model.js';
import type { AgentRequest } from './env-server-protocol.js';

/** An agent answering protocol requests in this process. */
export interface LocalAgent {
  readonly name: string;
  /** The action for one request (a new episode starts at turn 0). */
  act(req: AgentRequest): unknown;
}

/** Options of `createLocalAgent`. */
export interface LocalAgentOptions {
  /** KB file whose entities learned models recognise (bAbI/DSTC6 text KB). */
  readonly kb?: string;
  /** Candidates file (rankers). */
  readonly candidates?: string;
}

function apiParams(tools: readonly ToolSpec[]): string[] {
  const t = tools.find((x) => x.function.name === 'api_call');
  const props = t?.function.parameters['properties'];
  return props && typeof props === 'object' ? Object.keys(props) : [];
}

/** The rule bot configured from the api_call tool (DSTC6 wording when the call has an atmosphere). */
export function rulesBotForTools(tools: readonly ToolSpec[]): RulesBot {
  const params = apiParams(tools);
  const dstc6 = params.includes('atmosphere');
  return createRulesBot({ dialect: dstc6 ? 'dstc6' : 'babi', restrictions: dstc6 ? params.includes('restrictions') : false });
}

function historyOf(req: AgentRequest): Turn[] {
  const h = (req.observation as { history?: unknown } | null)?.history;
  if (!Array.isArray(h)) throw new ConfigError(`${req.env}: the observation has no history (this agent plays the restaurant environments)`);
  return h as Turn[];
}

/** An InfoBot action as the environment's tool call. */
function infoBotToolCall(a: InfoBotAction): { tool: string; arguments: Record<string, unknown> } {
  return a.act === 'request' ? { tool: 'request', arguments: { slot: a.slot } } : { tool: 'inform', arguments: { results: [...a.results] } };
}

/**
 * An in-process agent for `model`: `rules`, an AirDialogue agent policy name (for `airdialogue-*`),
 * a KB-InfoBot agent name or policy file (for `infobot-*`), or a response model name / model file for the restaurant environments. Throws a ConfigError for
 * an unknown model or missing files.
 */
export function createLocalAgent(model: string, opts: LocalAgentOptions = {}): LocalAgent {
  let restaurant: { respond(req: AgentRequest): string } | undefined;
  if (model === 'rules') {
    let bot: RulesBot | undefined;
    restaurant = {
      respond: (req) => {
        if (req.turn === 0 || !bot) bot = rulesBotForTools(req.tools);
        return bot.respond(historyOf(req));
      },
    };
  } else {
    const facts = opts.kb !== undefined ? (() => { const k = readKb(opts.kb); return restaurantsToKbFacts(k.restaurants, k.dialect); })() : undefined;
    const given = opts.candidates !== undefined ? readBabiCandidates(opts.candidates).candidates : undefined;
    // Read once, before the first request: a bad model file fails at start (weights and stored candidates).
    const file = isModelFile(model) ? readModelFile(model) : undefined;
    let chat: ReturnType<typeof chatModelOf> | undefined;
    let conv: Conversation | undefined;
    restaurant = {
      respond: (req) => {
        if (!chat) {
          const candidates = given ?? file?.candidates;
          const ctx = { ...(facts ? { kb: facts } : {}), ...(candidates ? { candidates } : {}) };
          chat = chatModelOf(file ? resolveModelContent(file, model, ctx) : createModel(model, ctx), candidates ? { candidates } : {});
        }
        if (req.turn === 0 || !conv) conv = chat.conversation();
        return conv.answer(historyOf(req)).text;
      },
    };
  }
  let air: AgentSession | undefined;
  const infobot = new Map<string, InfoBotAgent>();
  let info: InfoBotAgent | undefined;
  return {
    name: model,
    act(req) {
      if (req.env.startsWith('airdialogue')) {
        if (req.turn === 0 || !air) {
          const o = req.observation as { context?: KbLine };
          if (!o?.context) throw new ConfigError(`${req.env}: the observation has no context`);
          air = agentPolicies.get(model)(o.context, createRng(req.seed).fork(`agent:${req.trial}`));
        }
        return air.respond((req.observation as { utterance: string }).utterance);
      }
      if (req.env.startsWith('infobot')) {
        if (req.turn === 0 || !info) {
          info = infobot.get(req.env);
          if (!info) {
            const split = /^infobot-([a-z]+)-v\d+$/.exec(req.env)?.[1];
            if (split === undefined) throw new ConfigError(`${req.env}: not a KB-InfoBot environment id (infobot-<split>-v1)`);
            const created = createAgent(model, new InfoBotEnv({ split }));
            if (created.privileged) throw new ConfigError(`${model}: this InfoBot agent reads the user's goal (an upper bound), so it cannot play through the agent protocol`);
            info = created.agent;
            infobot.set(req.env, info);
          }
          // The agent's stream as runInfoBotEpisode forks it from the episode's seed.
          info.begin(createRng(req.seed).fork('agent'));
        }
        const utterance = (req.observation as { utterance?: unknown } | null)?.utterance;
        if (typeof utterance !== 'string') throw new ConfigError(`${req.env}: the observation has no utterance`);
        return infoBotToolCall(info.act(utterance));
      }
      return restaurant.respond(req);
    },
  };
}
