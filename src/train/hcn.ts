/**
 * Training a Hybrid Code Network: templates, vocabulary and slot types are read from the training
 * dialogs (with the KB lexicon), then the GRU and the template softmax are trained on whole
 * dialogs (teacher forcing, backpropagation through time) with Adam; the epoch with the best dev
 * per-response accuracy is kept.
 */
import type { Dialog, Turn } from '../core/dialog.js';
import { dstc6History, entryError, type Dstc6Entry, type Dstc6Result } from '../formats/dstc6.js';
import { createRng, type Rng } from '../core/rng.js';
import { CommitModel, commitExamples } from '../models/hcn-commit.js';
import { ConfigError } from '../core/errors.js';
import type { KbFact } from '../formats/babi.js';
import { evaluateDialogs } from '../models/evaluate.js';
import { accuracy, type AccuracyState } from '../metrics/ranking.js';
import { Hcn, HCN_DEFAULTS, type HcnConfig } from '../models/hcn.js';
import { HcnLexicon, NAME_TYPE, emptyTracker, trackTurn } from '../models/hcn-entities.js';
import { delexicaliseUser } from '../models/hcn-features.js';
import { TemplateSet, delexicaliseBot } from '../models/hcn-templates.js';
import { encodeHistory } from '../models/hcn-encode.js';
import { adam } from '../models/tensor/params.js';
import { fit, miniBatchEpoch, type FitHooks, type FitResult } from './loop.js';
import type { TrainHooks } from './data.js';

export interface HcnTrainOptions extends HcnConfig {
  readonly epochs: number;
  readonly patience: number;
  readonly lr: number;
  /** Dialogs per update. */
  readonly batchSize: number;
  readonly maxGradNorm: number;
  readonly seed: number;
}

export const HCN_TRAIN_DEFAULTS: HcnTrainOptions = {
  ...HCN_DEFAULTS,
  epochs: 12,
  patience: 4,
  lr: 0.01,
  batchSize: 4,
  maxGradNorm: 5,
  seed: 1,
};

export interface HcnTrainData {
  readonly train: readonly Dialog[];
  /** Dev dialogs for model selection (empty: the first 200 training dialogs are used). */
  readonly dev: readonly Dialog[];
  /** KB facts (entity recognition, templates). */
  readonly facts: readonly KbFact[];
}

/**
 * The KB lexicon adapted to the training dialogs:
 * - restaurant names said in more than half of the dialogs are ordinary words, not entities (task 6
 *   has a restaurant called `ask`, and its greeting says `you can ask for restaurants`);
 * - api_call arguments unknown to the KB get the type of their position, read from the calls whose
 *   arguments the KB knows (task 6 users ask for cuisines no restaurant serves: `api_call canapes …`).
 */
export function trainingLexicon(train: readonly Dialog[], facts: readonly KbFact[]): { lexicon: HcnLexicon; notEntities: string[] } {
  const kb = HcnLexicon.fromFacts(facts);
  const df = new Map<string, number>();
  for (const d of train) {
    const seen = new Set<string>();
    for (const t of d.turns) if (t.speaker !== 'kb') for (const w of t.text.toLowerCase().split(/\s+/)) if (kb.type(w) === NAME_TYPE) seen.add(w);
    for (const w of seen) df.set(w, (df.get(w) ?? 0) + 1);
  }
  const notEntities = [...df].filter(([, n]) => n > train.length / 2).map(([w]) => w).sort();
  const lexicon = kb.without(notEntities);
  const calls = train.flatMap((d) => d.turns.filter((t) => t.speaker === 'bot' && t.text.startsWith('api_call ')).map((t) => t.text.split(' ').slice(1)));
  const votes = new Map<number, Map<string, number>>();
  for (const args of calls)
    args.forEach((a, i) => {
      const ty = lexicon.type(a);
      if (ty === undefined || ty === NAME_TYPE) return;
      let m = votes.get(i);
      if (!m) votes.set(i, (m = new Map()));
      m.set(ty, (m.get(ty) ?? 0) + 1);
    });
  const typeAt = new Map<number, string>();
  for (const [i, m] of votes) typeAt.set(i, [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] as string);
  for (const args of calls)
    args.forEach((a, i) => {
      const ty = typeAt.get(i);
      if (ty !== undefined && lexicon.type(a) === undefined && !/^R_/.test(a) && !notEntities.includes(a)) lexicon.add(a, ty);
    });
  return { lexicon, notEntities };
}

/** An untrained HCN whose templates, vocabulary and slot types come from `train`. */
export function buildHcn(train: readonly Dialog[], facts: readonly KbFact[], config: HcnConfig = HCN_DEFAULTS, rng: Rng = createRng(1)): Hcn {
  const { lexicon, notEntities } = trainingLexicon(train, facts);
  const examples = commitExamples(train, lexicon);
  // Only worth a model when some mentions are not kept (bAbI: every mention is).
  const commit = examples.some((e) => !e.label) ? CommitModel.train(examples, rng.fork('commit')) : undefined;
  const templates = new TemplateSet();
  const words = new Set<string>();
  const slotTypes = new Set<string>();
  for (const d of train) {
    const st = emptyTracker();
    for (const t of d.turns) {
      if (t.speaker === 'bot') templates.add(delexicaliseBot(t.text, lexicon, st));
      trackTurn(st, lexicon, t, commit?.keep);
      if (t.speaker === 'user') {
        for (const w of delexicaliseUser(t.text, lexicon, st)) words.add(w);
        for (const ty of st.turnTypes) if (ty !== NAME_TYPE) slotTypes.add(ty);
      }
    }
  }
  if (templates.size === 0) throw new ConfigError('hcn: the training dialogs have no bot turn');
  return new Hcn(config, lexicon, templates, { words: [...words], slotTypes: [...slotTypes].sort(), templates: templates.size }, commit, notEntities);
}

interface Sequence {
  xs: Float32Array[];
  targets: number[];
  masks: Uint8Array[];
}

/** Per-response and per-dialog accuracy of the model's own responses (no candidates needed). */
export function hcnAccuracy(model: Hcn, dialogs: readonly Dialog[]): AccuracyState {
  return evaluateDialogs({ name: 'hcn', respond: (h) => model.predict(h).text }, dialogs);
}

export interface HcnTrainResult {
  readonly model: Hcn;
  readonly fit: FitResult;
  /** Training bot turns whose template the action mask ruled out (the mask was opened for them). */
  readonly maskViolations: number;
  readonly steps: number;
}

export function trainHcn(data: HcnTrainData, options: Partial<HcnTrainOptions> = {}, hooks: FitHooks & TrainHooks = {}): HcnTrainResult {
  const o: HcnTrainOptions = { ...HCN_TRAIN_DEFAULTS, ...options };
  if (data.facts.length === 0) throw new ConfigError('hcn needs a KB file (--kb) to recognise entities');
  if (data.train.length === 0) throw new ConfigError('hcn: no training dialog');
  const rng = createRng(o.seed);
  const model = buildHcn(data.train, data.facts, { hidden: o.hidden }, rng.fork('build'));
  model.net.init(rng.fork('init'));
  let maskViolations = 0;
  let steps = 0;
  const seqs: Sequence[] = data.train.map((d) => {
    const enc = encodeHistory(model, d.turns, false, model.candidateFlags((d as TrainingDialog).candidates)).steps;
    const s: Sequence = { xs: [], targets: [], masks: [] };
    for (const st of enc) {
      let mask = st.mask;
      if (!mask[st.target]) {
        maskViolations++;
        mask = mask.slice();
        mask[st.target] = 1;
      }
      s.xs.push(st.x);
      s.targets.push(st.target);
      s.masks.push(mask);
      steps++;
    }
    return s;
  });
  const dev = data.dev.length > 0 ? data.dev : data.train.slice(0, 200);
  const opt = adam(o.lr);
  const order = seqs.map((_, i) => i);
  const result = fit(
    {
      params: model.params,
      runEpoch(epoch) {
        const total = miniBatchEpoch({
          rng: rng.fork(`epoch${epoch}`),
          order,
          batchSize: o.batchSize,
          params: model.params,
          optimizer: opt,
          maxGradNorm: o.maxGradNorm,
          example(k) {
            const s = seqs[k] as Sequence;
            return s.xs.length > 0 ? model.net.lossAndGrad(s.xs, s.targets, s.masks) : 0;
          },
          onBatch: hooks.onBatch,
        });
        model.touch();
        return total / Math.max(1, steps);
      },
      evaluate: () => accuracy.perResponse(hcnAccuracy(model, dev)),
      touch: () => model.touch(),
    },
    { epochs: o.epochs, patience: o.patience },
    hooks,
  );
  return { model, fit: result, maskViolations, steps };
}

/** A training dialog; from a DSTC6 entry, with the entry's candidates (context for the last step). */
export interface TrainingDialog extends Dialog {
  readonly candidates?: readonly string[];
}

/**
 * Training dialogs from DSTC6 entries with answers: each entry's context plus its answer as the
 * last bot turn, with the entry's candidates (an input of that last step). (Redrawing the
 * distractors uniformly from the file's pool was tried: real tst3/tst4 P@1 fell from 0.98 to 0.92.)
 */
export function dstc6TrainingDialogs(entries: readonly Dstc6Entry[], file = '<dstc6>', answers?: readonly Dstc6Result[]): TrainingDialog[] {
  const truth = new Map<string, string>();
  for (const a of answers ?? []) {
    const best = a.lst_candidate_id.find((c) => c.rank === 1);
    if (best) truth.set(a.dialog_id, best.candidate_id);
  }
  const dialogs: TrainingDialog[] = entries.map((e, i) => {
    const id = truth.get(e.dialog_id);
    const answer = e.answer ?? e.candidates.find((c) => c.candidate_id === id);
    if (!answer) throw entryError(file, i, e, 'no answer (hcn trains on DSTC6 files with answers, or with their .answers.json beside them)');
    const turns: Turn[] = [...dstc6History(e.utterances), { speaker: 'bot', text: answer.utterance }];
    return { id: e.dialog_id, turns, candidates: e.candidates.map((c) => c.utterance) };
  });
  return dialogs;
}
