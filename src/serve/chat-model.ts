/**
 * Any response model as a chat bot: a Responder answers directly; a Ranker picks the best of a
 * candidate set. Each answer comes with its explanation (rules state, attention, ranking, …).
 */
import type { Turn } from '../core/dialog.js';
import { ConfigError } from '../core/errors.js';
import { trackState } from '../domains/restaurant/rules-state.js';
import { readBotAct } from '../domains/restaurant/rules-phrases.js';
import { argmax, isResponder, type Ranker, type ResponseModel } from '../models/ranker.js';
import { attentionOf } from './memn2n-attention.js';
import { hasTemplate, type Explanation, type RulesExplanation, type ScoredCandidate } from './explanation.js';

export interface BotAnswer {
  readonly text: string;
  readonly explanation: Explanation;
}

export interface ChatModel {
  readonly name: string;
  /** The next bot turn after `history` (whose last turn is the user's, or a KB turn). */
  answer(history: readonly Turn[]): BotAnswer;
}

export interface ChatModelOptions {
  /** Candidate responses (needed by rankers). */
  readonly candidates?: readonly string[];
  /** How many top candidates an explanation lists (default 5). */
  readonly topK?: number;
}

const RULES_WHY: Readonly<Record<string, string>> = {
  greet: 'greet back',
  'on-it': 'acknowledge the booking request',
  ask: 'ask the first missing slot',
  search: 'all slots known: announce the search',
  'api-call': 'call the KB with the goal',
  updated: 'goal updated after the call: ask for more updates',
  propose: 'propose the best-rated option not proposed yet',
  another: 'option rejected: look for another one',
  reserve: 'option accepted: book it',
  info: 'give the booked restaurant’s KB fact',
  'anything-else': 'thanks during a booking: offer more help',
  welcome: 'close the dialog',
  wait: 'wait for the user',
  sorry: 'not understood / out of scope',
  recall: 'repeat an earlier option',
  other: 'other',
};

/** The rules bot's view of the turn: the tracked state and the rule (user act → bot act). */
export function explainRules(model: string, history: readonly Turn[], reply: string): RulesExplanation {
  const st = trackState(history);
  const userAct = st.lastUser?.kind ?? 'none';
  const botAct = readBotAct(reply).kind;
  const slots: Record<string, string> = {};
  for (const [k, v] of Object.entries(st.slots)) if (v !== undefined) slots[k] = v;
  return {
    type: 'rules',
    model,
    userAct,
    botAct,
    rule: `${userAct}${st.lastBot ? ` after ${st.lastBot.kind}` : ''} → ${botAct} (${RULES_WHY[botAct] ?? botAct})`,
    state: {
      slots,
      asked: st.asked ?? null,
      apiCalls: st.apiCalls,
      results: st.results.slice(),
      proposed: st.proposed.slice(),
      current: st.current ?? null,
      booked: st.booked ?? null,
    },
  };
}

function topOf(scores: Float32Array, candidates: readonly string[], k: number): ScoredCandidate[] {
  const idx = Array.from(scores.keys()).sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
  return idx.slice(0, k).map((i) => ({ text: candidates[i] as string, score: scores[i] as number }));
}

function rankerBot(r: Ranker, candidates: readonly string[], topK: number): ChatModel {
  const attention = attentionOf(r);
  return {
    name: r.name,
    answer(history) {
      const scores = r.rank(history, candidates);
      const best = candidates[argmax(scores)] as string;
      const top = topOf(scores, candidates, topK);
      if (attention) {
        const a = attention.attention(history, candidates);
        return { text: best, explanation: { type: 'attention', model: r.name, memories: a.memories, hops: a.hops.map((w) => ({ weights: w })), candidates: candidates.length, top } };
      }
      return { text: best, explanation: { type: 'ranking', model: r.name, candidates: candidates.length, top } };
    },
  };
}

/** Wraps a registry model or a loaded model file for chatting. */
export function chatModelOf(model: ResponseModel, opts: ChatModelOptions = {}): ChatModel {
  const topK = opts.topK ?? 5;
  if (isResponder(model)) {
    return {
      name: model.name,
      answer(history) {
        const text = model.respond(history);
        if (hasTemplate(model)) return { text, explanation: { type: 'template', model: model.name, ...model.explainTemplate(history) } };
        if (model.name === 'rules') return { text, explanation: explainRules(model.name, history, text) };
        return { text, explanation: { type: 'none', model: model.name, note: 'this model does not explain its turns' } };
      },
    };
  }
  if (!opts.candidates || opts.candidates.length === 0) throw new ConfigError(`model '${model.name}' ranks candidate responses: give a candidates file (--candidates)`);
  return rankerBot(model, opts.candidates, topK);
}
