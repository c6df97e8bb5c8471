/**
 * Training a Hybrid Code Network: templates, vocabulary and slot types are read from the training
 * dialogs (with the KB lexicon), then the GRU and the template softmax are trained on whole
 * dialogs (teacher forcing, backpropagation through time) with Adam; the epoch with the best dev
 * per-response accuracy is kept.
 */
import type { Dialog, Turn } from '../../../core/dialog.js';
import { dstc6History, entryError, type Dstc6Entry, type Dstc6Result } from '../../../formats/dstc6.js';
import { createRng, type Rng } from '../../../core/rng.js';
import { CommitModel, commitExamples } from './commit.js';
import { ConfigError, errorText, optionName } from '../../../core/errors.js';
import type { KbFact } from '../../../formats/babi.js';
import { evaluateDialogs } from '../../../rankers/evaluate-responses.js';
import { accuracy, type AccuracyState } from '../../../metrics/ranking.js';
import { Hcn, HCN_DEFAULTS, type HcnConfig } from './hcn.js';
import { HcnLexicon, NAME_TYPE, emptyTracker, trackTurn, userTokens } from './entities.js';
import { CONTEXT_FLAGS, delexicaliseUser } from './features.js';
import { TemplateSet, delexicaliseBot } from './templates.js';
import { templateOf } from '../patterns.js';
import { encodeHistory } from './encode.js';
import { completeOnlyTemplates } from './unseen-slots.js';
import { ADVICE_PRIOR, RulesAdvisor, type HcnAdvisor } from './advice.js';
import { adam } from '../../../nn/params.js';
import { fitMiniBatches, miniBatchBasics, type FitHooks, type FitResult } from '../../../train/loop.js';
import type { TrainHooks } from '../../../rankers/train-data.js';

/** Without dev dialogs, hcn selects its epoch on this many of the first training dialogs (which it also trains on). */
export const HCN_DEV_FALLBACK = 200;

/**
 * Options of `trainHcn` (defaults in `HCN_TRAIN_DEFAULTS`; `trainHcn` takes any subset).
 *
 * @example
 * ```ts
 * import { HCN_TRAIN_DEFAULTS, type HcnTrainOptions } from 'dialogym/restaurant';
 * const opts: HcnTrainOptions = { ...HCN_TRAIN_DEFAULTS, epochs: 20, hidden: 32 };
 * ```
 */
export interface HcnTrainOptions extends HcnConfig {
  /** Maximum number of epochs. */
  readonly epochs: number;
  /** Early stopping: epochs without a better dev accuracy before stopping. */
  readonly patience: number;
  /** Adam learning rate. */
  readonly lr: number;
  /** Dialogs per update. */
  readonly batchSize: number;
  /** Global gradient-norm clipping. */
  readonly maxGradNorm: number;
  /** Seed of initialisation and shuffling. */
  readonly seed: number;
  /**
   * `hcn+rules` (advice.ts): the task-6 rules' response (`dstc2-heard`, learned from the training
   * dialogs and the KB) flags its templates in every step's input. Absent or false: plain `hcn`.
   */
  readonly rulesAdvice?: boolean;
  /** Initial output weight of a template from its own advice flag (default `ADVICE_PRIOR`). */
  readonly advicePrior?: number;
  /** Keep those weights at `advicePrior` (the rest of the network learns around a fixed vote for the rules). */
  readonly adviceFrozen?: boolean;
  /** With `rulesAdvice`: the model says its own choice only at this probability or more, else the rules' response (default 0: always its own). */
  readonly adviceGate?: number;
}

/**
 * Default {@link HcnTrainOptions}: hidden 64, 12 epochs, patience 4, lr 0.01, batches of 4
 * dialogs, gradient norm clipped at 5, seed 1.
 *
 * @example
 * ```ts
 * import { HCN_TRAIN_DEFAULTS } from 'dialogym/restaurant';
 * HCN_TRAIN_DEFAULTS.epochs; // 12
 * ```
 */
export const HCN_TRAIN_DEFAULTS: HcnTrainOptions = {
  ...HCN_DEFAULTS,
  epochs: 12,
  patience: 4,
  lr: 0.01,
  batchSize: 4,
  maxGradNorm: 5,
  seed: 1,
};

/**
 * What `trainHcn` learns from: dialogs, KB facts and (optionally) the candidate responses.
 *
 * @example
 * ```ts
 * import { readBabiDialogs, readBabiKb, readBabiCandidates } from 'dialogym';
 * import type { HcnTrainData } from 'dialogym/restaurant';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const data: HcnTrainData = {
 *   train: readBabiDialogs(dir + 'dialog-babi-task5-full-dialogs-trn.txt').dialogs,
 *   dev: readBabiDialogs(dir + 'dialog-babi-task5-full-dialogs-dev.txt').dialogs,
 *   facts: readBabiKb(dir + 'dialog-babi-kb-all.txt').facts,
 *   candidates: readBabiCandidates(dir + 'dialog-babi-candidates.txt').candidates,
 * };
 * ```
 */
export interface HcnTrainData {
  /** Training dialogs. */
  readonly train: readonly Dialog[];
  /** Dev dialogs for model selection (empty: the first `HCN_DEV_FALLBACK` training dialogs are used). */
  readonly dev: readonly Dialog[];
  /** KB facts (entity recognition, templates). */
  readonly facts: readonly KbFact[];
  /** The task's candidate responses, if given: slot values they say beyond the KB's (see `valuesFromCandidates`). */
  readonly candidates?: readonly string[];
}

/**
 * The KB lexicon adapted to the training dialogs:
 * - restaurant names said in more than half of the dialogs are ordinary words, not entities (task 6
 *   has a restaurant called `ask`, and its greeting says `you can ask for restaurants`);
 * - api_call arguments unknown to the KB get the type of their position, read from the calls whose
 *   arguments the KB knows (task 6 users ask for cuisines no restaurant serves: `api_call canapes …`).
 */
export function trainingLexicon(train: readonly Dialog[], facts: readonly KbFact[], candidates: readonly string[] = []): { lexicon: HcnLexicon; notEntities: string[] } {
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
      if (ty !== undefined && lexicon.type(a) === undefined && !/^R_/.test(a) && !notEntities.includes(a)) lexicon.addUnserved(a, ty);
    });
  learnAliases(train, lexicon);
  valuesFromCandidates(train, candidates, lexicon, new Set(typeAt.values()));
  return { lexicon, notEntities };
}

/**
 * Values the task's candidate list says in the place of a slot value of a training bot turn
 * (`You are looking for a australian restaurant right?` beside the training turn `You are looking
 * for a thai restaurant right?`) are values of that slot no KB restaurant has. Only unknown words
 * in the place of a type the api_calls use are taken.
 */
export function valuesFromCandidates(train: readonly Dialog[], candidates: readonly string[], lexicon: HcnLexicon, types: ReadonlySet<string>): void {
  if (candidates.length === 0 || types.size === 0) return;
  const templates = new Map<string, string[][]>();
  for (const d of train)
    for (const t of d.turns) {
      if (t.speaker !== 'bot' || t.text.startsWith('api_call ')) continue;
      const words = delexicaliseBot(t.text, lexicon).split(' ');
      if (!words.some((w) => types.has(w.slice(1, -1)))) continue;
      const key = `${words.length}`;
      const l = templates.get(key) ?? [];
      if (!l.some((x) => x.join(' ') === words.join(' '))) l.push(words);
      templates.set(key, l);
    }
  const found: [string, string][] = [];
  for (const c of candidates) {
    const words = c.split(' ');
    for (const tpl of templates.get(`${words.length}`) ?? []) {
      let ok = true;
      const slots: [string, string][] = [];
      for (let i = 0; i < words.length && ok; i++) {
        const tw = tpl[i] as string;
        const w = words[i] as string;
        if (tw === w) continue;
        const ty = tw.startsWith('<') && tw.endsWith('>') ? tw.slice(1, -1) : undefined;
        if (ty === undefined) ok = false;
        else if (types.has(ty) && lexicon.type(w) === undefined) slots.push([w, ty]);
        else if (lexicon.type(w) !== ty) ok = false;
      }
      if (ok) found.push(...slots);
    }
  }
  for (const [w, ty] of found) lexicon.addUnserved(w, ty);
}

/** Shortest common prefix of an alias and its value (`moderately` / `moderate`, `center` / `centre`). */
const ALIAS_PREFIX = 4;
/** Calls an alias must explain, and the share of the calls after its word it must explain. */
const ALIAS_MIN_COUNT = 3;
const ALIAS_MIN_SHARE = 0.5;

/**
 * Learns aliases of KB values from the api_calls of the training dialogs: an unknown user word that
 * shares a prefix with a call argument the user never said (`moderately` before
 * `api_call … moderate`) becomes a way of saying it, when it does so often and in most of the calls
 * that follow it.
 */
export function learnAliases(train: readonly Dialog[], lexicon: HcnLexicon): void {
  const hits = new Map<string, Map<string, number>>();
  const seen = new Map<string, number>();
  for (const d of train) {
    const words = new Set<string>();
    for (const t of d.turns) {
      if (t.speaker === 'user') for (const w of userTokens(t.text)) words.add(w);
      if (t.speaker !== 'bot' || !t.text.startsWith('api_call ')) continue;
      const unknown = [...words].filter((w) => lexicon.type(w) === undefined && w.length >= ALIAS_PREFIX);
      for (const w of unknown) seen.set(w, (seen.get(w) ?? 0) + 1);
      for (const a of t.text.split(' ').slice(1)) {
        const ty = lexicon.type(a);
        if (ty === undefined || ty === NAME_TYPE || words.has(a)) continue;
        for (const w of unknown) {
          if (w.slice(0, ALIAS_PREFIX) !== a.slice(0, ALIAS_PREFIX)) continue;
          let m = hits.get(w);
          if (!m) hits.set(w, (m = new Map()));
          m.set(a, (m.get(a) ?? 0) + 1);
        }
      }
    }
  }
  for (const [w, m] of [...hits].sort((a, b) => a[0].localeCompare(b[0]))) {
    const [v, n] = [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0] as [string, number];
    if (n >= ALIAS_MIN_COUNT && n >= ALIAS_MIN_SHARE * (seen.get(w) ?? 0)) lexicon.addAlias(w, v);
  }
}

/** An untrained HCN whose templates, vocabulary and slot types come from `train`. */
export function buildHcn(train: readonly Dialog[], facts: readonly KbFact[], config: HcnConfig = HCN_DEFAULTS, rng: Rng = createRng(1), candidates: readonly string[] = [], advice?: { readonly advisor: HcnAdvisor; readonly gate: number }): Hcn {
  const { lexicon, notEntities } = trainingLexicon(train, facts, candidates);
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
  const slots = [...slotTypes].sort();
  const completeOnly = completeOnlyTemplates(train, lexicon, templates, slots, commit);
  const spec = { words: [...words], slotTypes: slots, templates: templates.size, flags: CONTEXT_FLAGS.length, actionsSoFar: true, ...(advice ? { advice: true } : {}) };
  return new Hcn(config, lexicon, templates, spec, commit, notEntities, completeOnly, advice?.advisor, advice?.gate);
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

/**
 * `hcnAccuracy(model, dialogs)` for a model whose weights change between calls (training): the
 * dialogs are encoded once (the steps' features, masks and fills do not depend on the weights:
 * the step before bot turn i is what `predict` encodes for the history before it), then each call
 * only runs the network over the steps and compares the best fill with the bot turn.
 */
export function encodedScorer(model: Hcn, dialogs: readonly Dialog[]): () => AccuracyState {
  const encoded = dialogs.map((d) => ({ steps: encodeHistory(model, d.turns, false).steps, said: d.turns.filter((t) => t.speaker === 'bot').map((t) => t.text) }));
  return () => {
    let state = accuracy.empty();
    for (const { steps, said } of encoded) {
      let h: Float32Array = new Float32Array(model.config.hidden);
      const marks = steps.map((step, k) => {
        const out = model.net.step(step.x, h, step.mask);
        h = out.h;
        const probs = out.probs;
        let best = -1;
        for (let t = 0; t < probs.length; t++) if (step.mask[t] && (best < 0 || (probs[t] as number) > (probs[best] as number))) best = t;
        return (best >= 0 ? step.fills[best] ?? '' : '') === said[k];
      });
      state = accuracy.addDialog(state, marks);
    }
    return state;
  };
}

/**
 * What `trainHcn` returns: the model of the best dev epoch, the training curve, and counts of
 * training steps and of steps whose template the action mask had ruled out.
 *
 * @example
 * ```ts
 * import { trainHcn, type HcnTrainData, type HcnTrainResult } from 'dialogym/restaurant';
 * declare const data: HcnTrainData;
 * const r: HcnTrainResult = trainHcn(data, { epochs: 5 });
 * console.log(r.fit.bestEpoch, r.fit.bestDev, r.maskViolations / r.steps);
 * ```
 */
export interface HcnTrainResult {
  /** The model with the best dev accuracy. */
  readonly model: Hcn;
  /** Per-epoch losses and dev accuracies, best epoch. */
  readonly fit: FitResult;
  /** Training bot turns whose template the action mask ruled out (the mask was opened for them). */
  readonly maskViolations: number;
  /** Training steps (bot turns) per epoch. */
  readonly steps: number;
}

/** The action mask restricted to the candidates' templates (the mask itself when none is available). */
export function candidateMask(mask: Uint8Array, cands: Uint8Array): Uint8Array {
  const out = new Uint8Array(mask.length);
  let any = false;
  for (let t = 0; t < mask.length; t++) {
    if (!mask[t] || !cands[t]) continue;
    out[t] = 1;
    any = true;
  }
  return any ? out : mask;
}

/**
 * Trains a Hybrid Code Network (module description above) with `options` over
 * `HCN_TRAIN_DEFAULTS`; `hooks` report progress. Throws a ConfigError without KB facts or training
 * dialogs.
 *
 * @example
 * ```ts
 * import { readBabiDialogs, readBabiKb, saveModel } from 'dialogym';
 * import { trainHcn } from 'dialogym/restaurant';
 * const dir = 'data/dialog-bAbI-tasks/';
 * const { model, fit } = trainHcn({
 *   train: readBabiDialogs(dir + 'dialog-babi-task1-API-calls-trn.txt').dialogs,
 *   dev: readBabiDialogs(dir + 'dialog-babi-task1-API-calls-dev.txt').dialogs,
 *   facts: readBabiKb(dir + 'dialog-babi-kb-all.txt').facts,
 * }, { epochs: 3 });
 * saveModel('out/hcn-task1.dgm', model);
 * ```
 */
export function trainHcn(data: HcnTrainData, options: Partial<HcnTrainOptions> = {}, hooks: FitHooks & TrainHooks = {}): HcnTrainResult {
  const o: HcnTrainOptions = { ...HCN_TRAIN_DEFAULTS, ...options };
  if (data.facts.length === 0) throw new ConfigError(errorText`hcn needs a KB file (${optionName('kb')}) to recognise entities`);
  if (data.train.length === 0) throw new ConfigError('hcn: no training dialog');
  const rng = createRng(o.seed);
  const gate = o.adviceGate ?? 0;
  if (!(gate >= 0 && gate <= 1)) throw new ConfigError(`hcn: the advice gate is a probability (0 to 1), got ${gate}`);
  const advisor = o.rulesAdvice ? new RulesAdvisor(data.train, data.facts) : undefined;
  const model = buildHcn(data.train, data.facts, { hidden: o.hidden }, rng.fork('build'), data.candidates, advisor ? { advisor, gate } : undefined);
  model.net.init(rng.fork('init'));
  /** Indices in Vo of each template's weight from its own advice flag. */
  const adviceDiag: number[] = [];
  if (advisor) {
    // A template's own advice flag starts as a vote for it: templates rare in training follow the rules.
    const { oAdvice, size } = model.featurizer;
    for (let t = 0; t < model.templates.size; t++) adviceDiag.push(t * size + oAdvice + t);
    for (const i of adviceDiag) model.net.Vo.data[i] = o.advicePrior ?? ADVICE_PRIOR;
  }
  const frozen = o.adviceFrozen ? adviceDiag : [];
  let maskViolations = 0;
  let steps = 0;
  const seqs: Sequence[] = data.train.map((d) => {
    const cands = model.candidateFlags((d as TrainingDialog).candidates);
    const enc = encodeHistory(model, d.turns, false, cands).steps;
    const s: Sequence = { xs: [], targets: [], masks: [] };
    for (const [k, st] of enc.entries()) {
      // DSTC6 mode: the entry's decision is a choice among its candidates, so the loss of that step
      // is taken over the candidates' templates only. Ranking is unchanged by this (renormalising
      // keeps the order), but training no longer pushes down templates the entry did not offer: a
      // tst1-style entry (no restrictions question among its candidates) then stops teaching "not
      // the restrictions question" to contexts where a tst3-style entry asks it.
      let mask = cands && k === enc.length - 1 ? candidateMask(st.mask, cands) : st.mask;
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
  const dev = data.dev.length > 0 ? data.dev : data.train.slice(0, HCN_DEV_FALLBACK);
  const devScorer = encodedScorer(model, dev);
  const batchLoss = new Map<number, number>();
  const result = fitMiniBatches(
    {
      ...miniBatchBasics(model, rng, seqs.length, o, adam(o.lr)),
      // the batch's dialogs go through the network together (packed); each example returns its loss
      beforeBatch(batch) {
        const losses = model.net.lossAndGradBatch(batch.map((k) => seqs[k] as Sequence));
        batch.forEach((k, i) => batchLoss.set(k, losses[i] as number));
      },
      example: (k) => batchLoss.get(k) ?? 0,
      afterExamples: () => {
        for (const i of frozen) model.net.Vo.grad[i] = 0;
      },
      afterEpoch: () => model.touch(),
      epochLoss: (total) => total / Math.max(1, steps),
      evaluate: () => accuracy.perResponse(devScorer()),
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

/** How DSTC6 training entries are turned into dialogs. */
export interface Dstc6TrainingOptions {
  /**
   * Redraw each entry's "hard" distractors (candidates neither the answer nor taken from the
   * context) as utterances of 3 other answer templates of the same file, drawn per entry. A DSTC6
   * file fixes one such map template → 3 distractors for all its entries, so the templates among
   * the candidates otherwise tell more about the file that drew them than about the dialog (a
   * generated restrictions set never offered "ok let me look …" beside "do you have any dietary
   * restrictions", the real tst3/tst4 always do). Entries answered by an entity template (api_call,
   * proposal, phone, …) keep their candidates (their distractors are variants of the answer).
   */
  readonly redraw: boolean;
  readonly seed: number;
}

export const DSTC6_TRAINING_DEFAULTS: Dstc6TrainingOptions = { redraw: true, seed: 1 };

/** Hard distractors drawn per file map entry, as in the DSTC6 files. */
const HARD_DISTRACTORS = 3;

/**
 * Training dialogs from DSTC6 entries with answers: each entry's context plus its answer as the
 * last bot turn, with the entry's candidates (an input of that last step), hard distractors
 * redrawn (see `Dstc6TrainingOptions.redraw`).
 */
export function dstc6TrainingDialogs(entries: readonly Dstc6Entry[], file = '<dstc6>', answers?: readonly Dstc6Result[], options: Partial<Dstc6TrainingOptions> = {}): TrainingDialog[] {
  const o: Dstc6TrainingOptions = { ...DSTC6_TRAINING_DEFAULTS, ...options };
  const truth = new Map<string, string>();
  for (const a of answers ?? []) {
    const best = a.lst_candidate_id.find((c) => c.rank === 1);
    if (best) truth.set(a.dialog_id, best.candidate_id);
  }
  const answerOf = entries.map((e, i) => {
    const id = truth.get(e.dialog_id);
    const answer = e.answer ?? e.candidates.find((c) => c.candidate_id === id);
    if (!answer) throw entryError(file, i, e, 'no answer (hcn trains on DSTC6 files with answers, or with their .answers.json beside them)');
    return answer.utterance;
  });
  // The file's answer templates, each with its utterances in order of first appearance.
  const pool = new Map<string, string[]>();
  for (const a of answerOf) {
    const t = templateOf(a);
    const l = pool.get(t);
    if (!l) pool.set(t, [a]);
    else if (!l.includes(a)) l.push(a);
  }
  const templates = [...pool.keys()];
  const rng = createRng(o.seed).fork('dstc6-distractors');
  return entries.map((e, i) => {
    const answer = answerOf[i] as string;
    const turns: Turn[] = [...dstc6History(e.utterances), { speaker: 'bot', text: answer }];
    let candidates = e.candidates.map((c) => c.utterance);
    const tpl = templateOf(answer);
    if (o.redraw && tpl === answer) {
      const r = rng.fork(`entry${i}`);
      const context = new Set(e.utterances);
      const kept = candidates.filter((c) => c === answer || context.has(c));
      const others = r.sample(
        templates.filter((t) => t !== tpl),
        Math.min(HARD_DISTRACTORS, templates.length - 1),
      );
      candidates = r.shuffle([...kept, ...others.map((t) => r.pick(pool.get(t) as string[]))]);
    }
    return { id: e.dialog_id, turns, candidates };
  });
}
