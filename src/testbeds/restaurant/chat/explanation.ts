/**
 * Why the bot said what it said: one explanation per bot turn, as JSON for the API and the web UI.
 *
 * - `rules`: the rule-based bot's dialog state and the rule that fired (user act → bot act);
 * - `ranking`: any Ranker: the best-scoring candidates with their scores;
 * - `attention`: a Ranker that exposes its memory attention (MemN2N): per hop, one weight per
 *   memory (the bAbI paper's Tables 3–7), plus the ranking;
 * - `template`: a model that fills a template (the solver): template, entities and mask.
 */
import type { Turn } from '../../../core/dialog.js';
import type { AttentionSource } from '../../../rankers/memn2n-attention.js';

export interface ScoredCandidate {
  readonly text: string;
  /** Rounded to 4 decimals in explanations. */
  readonly score: number;
}

export interface RulesExplanation {
  readonly type: 'rules';
  readonly model: string;
  /** What the bot understood of the last user turn (`greet`, `inform`, `silence`, …). */
  readonly userAct: string;
  /** The act of the answer (`ask`, `api-call`, `propose`, …) */
  readonly botAct: string;
  /** The rule that fired, in words. */
  readonly rule: string;
  /** The tracked dialog state the rule read. */
  readonly state: {
    readonly slots: Readonly<Record<string, string>>;
    readonly asked: string | null;
    readonly apiCalls: number;
    readonly results: readonly string[];
    readonly proposed: readonly string[];
    readonly current: string | null;
    readonly booked: string | null;
  };
}

export interface RankingExplanation {
  readonly type: 'ranking';
  readonly model: string;
  readonly candidates: number;
  readonly top: readonly ScoredCandidate[];
}

export interface AttentionHop {
  /** One weight per memory (same order as `memories`), summing to 1 (each rounded to 4 decimals). */
  readonly weights: readonly number[];
}

export interface AttentionExplanation {
  readonly type: 'attention';
  readonly model: string;
  /** The memories attended over (history turns as the model saw them), oldest first. */
  readonly memories: readonly string[];
  readonly hops: readonly AttentionHop[];
  readonly candidates: number;
  readonly top: readonly ScoredCandidate[];
}

export interface TemplateExplanation {
  readonly type: 'template';
  readonly model: string;
  readonly template: string;
  readonly entities: Readonly<Record<string, string>>;
  /** The action mask: one entry per template, 1 = available (every placeholder fillable), 0 = masked. */
  readonly mask: readonly number[];
  /** Probability of the chosen template (HCN). */
  readonly probability?: number;
  /** Every template, in mask order (HCN). */
  readonly templates?: readonly string[];
  /** The available templates (mask = 1), in template order (HCN). */
  readonly available?: readonly string[];
  /** The most probable available templates, best first, with their filled text (HCN). */
  readonly alternatives?: readonly { readonly template: string; readonly probability: number; readonly text: string }[];
  /** The active input features of the turn (HCN). */
  readonly features?: readonly string[];
}

export interface PlainExplanation {
  readonly type: 'none';
  readonly model: string;
  readonly note: string;
}

export type Explanation = RulesExplanation | RankingExplanation | AttentionExplanation | TemplateExplanation | PlainExplanation;

/** What a model that can show its attention implements, next to `Ranker.rank`. */
export type { AttentionSource };

export function hasAttention(m: unknown): m is AttentionSource {
  return typeof (m as Partial<AttentionSource>).attention === 'function';
}

/** What a template model (the solver) implements to explain a turn. */
export interface TemplateSource {
  explainTemplate(history: readonly Turn[]): { template: string; entities: Record<string, string>; mask: number[] };
}

export function hasTemplate(m: unknown): m is TemplateSource {
  return typeof (m as Partial<TemplateSource>).explainTemplate === 'function';
}

/** A one-paragraph text form of an explanation (the REPL's `/explain`). */
export function explanationText(e: Explanation): string[] {
  const pct = (x: number): string => `${(100 * x).toFixed(0).padStart(3)}%`;
  switch (e.type) {
    case 'rules': {
      const s = e.state;
      const slots = Object.entries(s.slots).map(([k, v]) => `${k}=${v}`).join(' ') || '(none)';
      return [
        `model ${e.model}: rule ${e.rule}`,
        `  understood: ${e.userAct}; answered with: ${e.botAct}`,
        `  goal: ${slots}; asked: ${s.asked ?? '-'}; api_calls: ${s.apiCalls}`,
        `  results: ${s.results.length}; proposed: ${s.proposed.join(', ') || '-'}; booked: ${s.booked ?? '-'}`,
      ];
    }
    case 'ranking':
      return [`model ${e.model}: best of ${e.candidates} candidates`, ...e.top.map((c) => `  ${c.score.toFixed(3).padStart(9)}  ${c.text}`)];
    case 'attention': {
      const lines = [`model ${e.model}: attention over ${e.memories.length} memories, ${e.hops.length} hops`];
      lines.push('  ' + e.hops.map((_, h) => `hop${h + 1}`.padStart(5)).join(' ') + '  memory');
      e.memories.forEach((m, i) => lines.push('  ' + e.hops.map((h) => pct(h.weights[i] ?? 0).padStart(5)).join(' ') + '  ' + m));
      lines.push(...e.top.map((c) => `  ${c.score.toFixed(3).padStart(9)}  ${c.text}`));
      return lines;
    }
    case 'template': {
      const on = e.mask.reduce((a, b) => a + b, 0);
      const lines = [
        `model ${e.model}: template ${e.template}${e.probability !== undefined ? ` (p ${e.probability.toFixed(3)})` : ''}`,
        `  entities: ${Object.entries(e.entities).map(([k, v]) => `${k}=${v}`).join(' ') || '(none)'}`,
        `  mask: ${on} of ${e.mask.length} templates available`,
      ];
      if (e.alternatives) lines.push(...e.alternatives.map((a) => `  ${a.probability.toFixed(3).padStart(9)}  ${a.template}`));
      if (e.features?.length) lines.push(`  features: ${e.features.join(' ')}`);
      return lines;
    }
    case 'none':
      return [`model ${e.model}: ${e.note}`];
  }
}
