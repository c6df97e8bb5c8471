/**
 * Any response model as a chat bot: a Responder answers directly; a Ranker picks the best of a
 * candidate set; an HCN fills the template it chose. Each answer comes with its explanation
 * (rules state, attention, ranking, template…).
 *
 * A chat keeps a `Conversation` per session: the history only grows between two answers, so a
 * conversation may keep what it derived from the turns it has seen (the rules bot's dialog state)
 * and apply only the new turns. When the history is not a continuation of the one it saw (turns
 * are compared by identity), it starts over, so it never answers from a stale state.
 */
import type { Turn } from '../../../core/dialog.js';
import { ConfigError, errorText, optionName } from '../../../core/errors.js';
import { applyTurn, emptyState, type DialogState } from '../rules/state.js';
import { readBotAct } from '../rules/phrases.js';
import { Hcn } from '../hcn/hcn.js';
import type { HcnExplanation } from '../hcn/explain.js';
import { hcnConversation } from '../hcn/chat.js';
import { MemN2N } from '../../../rankers/memn2n.js';
import { argmax, isResponder, type Ranker, type Responder, type ResponseModel } from '../../../rankers/ranker.js';
import { attentionOf, type RankAttention } from '../../../rankers/memn2n-attention.js';
import { continuation } from '../../../core/continuation.js';

export { continuation };
import { hasTemplate, type Explanation, type RulesExplanation, type ScoredCandidate, type TemplateExplanation } from './explanation.js';

export interface BotAnswer {
  readonly text: string;
  readonly explanation: Explanation;
}

/** One conversation's answerer; it may keep state derived from the turns it has seen. */
export interface Conversation {
  /** The next bot turn after `history` (whose last turn is the user's, or a KB turn). */
  answer(history: readonly Turn[]): BotAnswer;
}

export interface ChatModel {
  readonly name: string;
  /** The next bot turn after `history`, computed from the whole history (no state kept). */
  answer(history: readonly Turn[]): BotAnswer;
  /** A fresh answerer for one conversation (a session holds one, a reset starts another). */
  conversation(): Conversation;
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

/** The rules bot's view of the turn, from the state it decided on: the state and the rule (user act → bot act). */
export function explainRulesState(model: string, st: DialogState, reply: string): RulesExplanation {
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

/** The rules bot's decision function on a tracked state (`createRulesBot` has it). */
interface StateResponder extends Responder {
  respondRankedFromState(st: DialogState, candidates?: readonly string[]): readonly string[];
  /** The state before any turn (with the bot's KB vocabulary). */
  initialState?(): DialogState;
}

function isStateResponder(m: Responder): m is StateResponder {
  return typeof (m as Partial<StateResponder>).respondRankedFromState === 'function';
}

/** Rules: the dialog state is kept per conversation and each new turn applied once (no replay). */
function rulesBot(model: StateResponder): ChatModel {
  const conversation = (): Conversation => {
    const fresh = (): DialogState => model.initialState?.() ?? emptyState();
    let st = fresh();
    let seen: Turn[] = [];
    return {
      answer(history) {
        let from = continuation(seen, history);
        if (from < 0) {
          st = fresh();
          from = 0;
        }
        for (let i = from; i < history.length; i++) applyTurn(st, history[i] as Turn, i);
        seen = history.slice();
        const text = model.respondRankedFromState(st)[0] as string;
        return { text, explanation: explainRulesState(model.name, st, text) };
      },
    };
  };
  return { name: model.name, answer: (history) => conversation().answer(history), conversation };
}

/** The best `k` scores, best first (ties: lower index first), without sorting every candidate. */
export function topOf(scores: Float32Array, candidates: readonly string[], k: number): ScoredCandidate[] {
  const idx: number[] = [];
  const n = Math.min(scores.length, candidates.length);
  for (let i = 0; i < n; i++) {
    const s = scores[i] as number;
    if (idx.length === k && !(s > (scores[idx[k - 1] as number] as number))) continue;
    // Insert keeping `idx` sorted by decreasing score; equal scores keep index order.
    let j = idx.length < k ? idx.length : k - 1;
    while (j > 0 && s > (scores[idx[j - 1] as number] as number)) j--;
    idx.splice(j, 0, i);
    if (idx.length > k) idx.pop();
  }
  return idx.map((i) => ({ text: candidates[i] as string, score: scores[i] as number }));
}

/**
 * Explanation numbers to 4 decimals: a float32 printed as JSON takes up to 17 digits, and an
 * attention explanation holds a weight per memory and hop for every bot turn — the rounding
 * roughly halves the size of a reply (what the server writes and the browser parses per turn).
 */
export const round4 = (x: number): number => Math.round(x * 1e4) / 1e4;

function rounded(top: ScoredCandidate[]): ScoredCandidate[] {
  return top.map((c) => ({ text: c.text, score: round4(c.score) }));
}

function rankerBot(r: Ranker, candidates: readonly string[], topK: number): ChatModel {
  const answerWith = (attention: RankAttention | undefined) => (history: readonly Turn[]): BotAnswer => {
    if (attention) {
      // One pass gives the scores and the attention.
      const a = attention.rankWithAttention(history, candidates);
      const best = candidates[argmax(a.scores)] as string;
      return {
        text: best,
        explanation: {
          type: 'attention',
          model: r.name,
          memories: a.memories,
          hops: a.hops.map((w) => ({ weights: w.map(round4) })),
          candidates: candidates.length,
          top: rounded(topOf(a.scores, candidates, topK)),
        },
      };
    }
    const scores = r.rank(history, candidates);
    return { text: candidates[argmax(scores)] as string, explanation: { type: 'ranking', model: r.name, candidates: candidates.length, top: rounded(topOf(scores, candidates, topK)) } };
  };
  // Prepare the candidates once per model (MemN2N caches W·Φ(y) per candidate list), not per session.
  if (r instanceof MemN2N) r.candidates(candidates);
  return { name: r.name, answer: answerWith(attentionOf(r)), conversation: () => ({ answer: answerWith(attentionOf(r, true)) }) };
}

/**
 * An HCN writes its answer (the chosen template, filled): no candidate set needed. A conversation
 * keeps its own tracker and GRU state (`hcnConversation`).
 */
function hcnBot(m: Hcn): ChatModel {
  const templates = m.templates.templates.slice();
  const answerWith = (explain: (history: readonly Turn[]) => HcnExplanation) => (history: readonly Turn[]): BotAnswer => {
    const e = explain(history);
    const explanation: TemplateExplanation = {
      type: 'template',
      model: m.name,
      template: e.template,
      entities: { ...e.entities },
      mask: [...e.mask],
      templates,
      probability: round4(e.probability),
      available: [...e.available],
      alternatives: e.alternatives.map((a) => ({ template: a.template, probability: round4(a.probability), text: a.text })),
      features: [...e.features],
    };
    // Every template masked (nothing fillable): say so rather than an empty turn.
    return { text: e.text || 'sorry i do not understand', explanation };
  };
  return {
    name: m.name,
    answer: answerWith((h) => m.explain(h)),
    conversation: () => {
      const c = hcnConversation(m);
      return { answer: answerWith((h) => c.explain(h)) };
    },
  };
}

function stateless(name: string, answer: (history: readonly Turn[]) => BotAnswer): ChatModel {
  return { name, answer, conversation: () => ({ answer }) };
}

/** Wraps a registry model or a loaded model file for chatting. */
export function chatModelOf(model: ResponseModel, opts: ChatModelOptions = {}): ChatModel {
  const topK = opts.topK ?? 5;
  if (isResponder(model)) {
    if (isStateResponder(model) && model.name === 'rules') return rulesBot(model);
    return stateless(model.name, (history) => {
      const text = model.respond(history);
      if (hasTemplate(model)) return { text, explanation: { type: 'template', model: model.name, ...model.explainTemplate(history) } };
      return { text, explanation: { type: 'none', model: model.name, note: 'this model does not explain its turns' } };
    });
  }
  if (model instanceof Hcn) return hcnBot(model);
  if (!opts.candidates || opts.candidates.length === 0) throw new ConfigError(errorText`model '${model.name}' ranks candidate responses: give a candidates file (${optionName('candidates')})`);
  return rankerBot(model, opts.candidates, topK);
}
