/**
 * Per-turn explanation of an HCN decision, for the chat UI and the REPL: the chosen template and
 * its filled text, the entities the tracker holds, the action mask (which templates were
 * available), the most probable alternatives and the active input features.
 */
import type { HcnStep } from './encode.js';
import type { Featurizer } from './features.js';
import type { TemplateSet } from './templates.js';

export interface HcnAlternative {
  readonly template: string;
  readonly probability: number;
  /** Filled text ('' when masked). */
  readonly text: string;
}

export interface HcnExplanation {
  readonly model: 'hcn';
  readonly template: string;
  readonly text: string;
  readonly probability: number;
  /** Tracked entities: user values per type, the restaurant in focus, the next proposal. */
  readonly entities: Readonly<Record<string, string>>;
  /** One entry per template: 1 = available (every placeholder fillable), 0 = masked. */
  readonly mask: readonly number[];
  /** Available templates, in template order. */
  readonly available: readonly string[];
  /** The most probable templates (at most 5), best first. */
  readonly alternatives: readonly HcnAlternative[];
  /** Non-zero input features other than the previous action and the mask. */
  readonly features: readonly string[];
}

interface Explainable {
  readonly templates: TemplateSet;
  readonly featurizer: Featurizer;
}

export function explainStep(m: Explainable, p: { text: string; template: number; probs: Float32Array; step: HcnStep }, proposal: string | undefined): HcnExplanation {
  const tpl = m.templates.templates;
  const entities: Record<string, string> = {};
  for (const [k, v] of [...p.step.slots].sort(([a], [b]) => a.localeCompare(b))) entities[k] = v;
  if (p.step.focus !== undefined) entities.focus = p.step.focus;
  if (proposal !== undefined) entities['next-proposal'] = proposal;
  const order = [...tpl.keys()].filter((t) => p.step.mask[t]).sort((a, b) => (p.probs[b] as number) - (p.probs[a] as number) || a - b);
  return {
    model: 'hcn',
    template: p.template >= 0 ? (tpl[p.template] as string) : '',
    text: p.text,
    probability: p.template >= 0 ? (p.probs[p.template] as number) : 0,
    entities,
    mask: Array.from(p.step.mask),
    available: tpl.filter((_, t) => p.step.mask[t]),
    alternatives: order.slice(0, 5).map((t) => ({ template: tpl[t] as string, probability: p.probs[t] as number, text: p.step.fills[t] ?? '' })),
    features: m.featurizer.describe(p.step.x),
  };
}
