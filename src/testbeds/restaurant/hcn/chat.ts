/**
 * An HCN over one conversation: the entity tracker and the GRU state advance with the new turns
 * only (a `StepEncoder` and the GRU states per conversation), where `Hcn.explain` keeps one such
 * cache for the whole model — which many interleaved sessions would keep throwing away, replaying
 * every history from its first turn. Same decision and explanation as `Hcn.explain` (a test checks
 * it turn by turn on the original dialogs).
 */
import type { Turn } from '../../../core/dialog.js';
import { continuation } from '../../../core/continuation.js';
import type { Hcn } from './hcn.js';
import { StepEncoder, type HcnStep } from './encode.js';
import { nextProposal } from './entities.js';
import { explainStep, type HcnExplanation } from './explain.js';

export interface HcnConversation {
  explain(history: readonly Turn[]): HcnExplanation;
}

export function hcnConversation(m: Hcn): HcnConversation {
  let seen: Turn[] = [];
  let enc = new StepEncoder(m);
  let hs: Float32Array[] = [];
  return {
    explain(history) {
      if (continuation(seen, history) < 0) {
        enc = new StepEncoder(m);
        hs = [];
      }
      for (let i = enc.length; i < history.length; i++) enc.push(history[i] as Turn);
      seen = history.slice();
      let h: Float32Array = hs[hs.length - 1] ?? new Float32Array(m.config.hidden);
      for (let k = hs.length; k < enc.steps.length; k++) {
        const s = enc.steps[k] as HcnStep;
        h = m.net.step(s.x, h, s.mask).h;
        hs.push(h);
      }
      const step = enc.pending();
      const { probs } = m.net.step(step.x, h, step.mask);
      let best = -1;
      for (let t = 0; t < probs.length; t++) if (step.mask[t] && (best < 0 || (probs[t] as number) > (probs[best] as number))) best = t;
      const text = best >= 0 ? step.fills[best] ?? '' : '';
      return explainStep(m, { text, template: best, probs, step }, nextProposal(enc.state));
    },
  };
}
