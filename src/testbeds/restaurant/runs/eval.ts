/**
 * The `eval` run: a response model (a registered name or a model file) on a bAbI dialog file,
 * scored offline turn by turn against the file's answers — per-response and per-dialog accuracy,
 * optionally every prediction written to a JSON Lines file. `dialogym eval` (`babi eval`) is this
 * run's CLI; a library user calls `evalRun.run(options)`.
 */
import type { Dialog } from '../../../core/dialog.js';
import { errorText, optionName, type ErrorText } from '../../../core/errors.js';
import { AtomicFileWriter } from '../../../core/files.js';
import { shardItems, type Shard, type ShardItem } from '../../../core/shard.js';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../../../formats/babi.js';
import { accuracy } from '../../../metrics/ranking.js';
import { evaluateDialogs } from '../../../rankers/evaluate-responses.js';
import { checkModelName, createModel, isModelFile, resolveModelContent } from '../../../rankers/registry.js';
import { restaurantModelsReady } from '../model-list.js';
import { agreementIssueText, candidateCoverage, checkAgreements, kbCoverage, storedRestaurants, CANDIDATES_ADVICE, KB_ADVICE, STORED_KB_ADVICE } from '../agreement.js';
import { checkAllowCheckpoint, checkContextOptions, modelArg } from '../model-context.js';
import { defineRun, type RunDefinition, type RunParts, type RunPart } from '../../../runs/run.js';

/**
 * Options of the `eval` run (schemas/run-eval.schema.json).
 *
 * @example
 * ```ts
 * import type { EvalOptions } from 'dialogym';
 * const o: EvalOptions = { model: 'tfidf', data: 'tst.txt', candidates: 'candidates.txt', predictions: 'preds.jsonl' };
 * ```
 */
export interface EvalOptions {
  /** A registered model (`rules`, `tfidf`, …) or a model file written by `train` (`*.dgm`). */
  readonly model: string;
  /** The bAbI dialog file. */
  readonly data: string;
  /** The candidates file (default for a model file: the candidates it stores). */
  readonly candidates?: string;
  /** A KB file (match-type features; replaces the KB a model file stores). */
  readonly kb?: string;
  /** Training dialog files, for a model that learns from them when built (rules-dstc2). */
  readonly train?: readonly string[];
  /** Where to write one `{"dialog","turn","prediction"}` line per bot turn. */
  readonly predictions?: string;
  /** Accept the checkpoint of an unfinished `train` run as the model. */
  readonly allowCheckpoint?: boolean;
  /** Evaluate even when the inputs disagree (a warning instead of the refusal). */
  readonly force?: boolean;
}

/**
 * What the `eval` run reports as it goes.
 *
 * @example
 * ```ts
 * import type { EvalHooks } from 'dialogym';
 * const hooks: EvalHooks = { onProgress: (done, total) => console.error(`${done}/${total}`), onWarning: (t) => console.error(t.join('')) };
 * ```
 */
export interface EvalHooks {
  /** `done` of the part's `total` dialogs scored. */
  onProgress?(done: number, total: number): void;
  /** An input that disagrees, run anyway (`force`). */
  onWarning?(text: ErrorText): void;
}

/**
 * The result of the `eval` run.
 *
 * @example
 * ```ts
 * import type { EvalResult } from 'dialogym';
 * const r: EvalResult = { data: 'tst.txt', perResponse: 0.5, perDialog: 0, turns: 4, correctTurns: 2, dialogs: 1, correctDialogs: 0 };
 * ```
 */
export interface EvalResult {
  /** The dialog file scored. */
  readonly data: string;
  readonly perResponse: number;
  readonly perDialog: number;
  /** Bot turns scored, and how many the model got right. */
  readonly turns: number;
  readonly correctTurns: number;
  readonly dialogs: number;
  /** Dialogs with every bot turn right. */
  readonly correctDialogs: number;
}

/** An item of the run: one dialog (k = its index in the file), which of its bot turns were right ('1'/'0'), and its predictions when kept. */
type EvalItem = ShardItem & { marks: string; predictions?: string[] };

/** One line of the predictions file. */
function predictionLine(dialog: number, turn: number, prediction: string): string {
  return JSON.stringify({ dialog, turn, prediction }) + '\n';
}

async function part(o: EvalOptions, shard: Shard | undefined, hooks: EvalHooks = {}): Promise<RunPart<EvalOptions>> {
  await restaurantModelsReady(); // the models it may run (rules, hcn), declared and loaded
  checkModelName(o.model); // unknown name: fail before reading data
  const isFile = isModelFile(o.model);
  checkAllowCheckpoint(o.model, isFile, o.allowCheckpoint);
  const m = modelArg(o.model, isFile);
  checkContextOptions(m, o, ['candidates', 'kb', 'train']);
  const { dialogs } = readBabiDialogs(o.data);
  // A model file that stores its candidates needs no candidates option (which still overrides them).
  const candidates = o.candidates ? readBabiCandidates(o.candidates).candidates : m.content?.candidates;
  const kb = o.kb ? readBabiKb(o.kb).facts : undefined;
  const train = o.train ? o.train.flatMap((f) => readBabiDialogs(f).dialogs) : undefined;
  const stored = !kb && m.content ? storedRestaurants(m.content) : undefined;
  const where = errorText`the ${optionName('data')} dialogs`;
  checkAgreements(
    [
      [optionName('kb'), kb ? agreementIssueText(kbCoverage(dialogs, kb), 'restaurants', where) : undefined, KB_ADVICE],
      [`the KB stored in ${o.model}`, stored ? agreementIssueText(kbCoverage(dialogs, stored), 'restaurants', where) : undefined, STORED_KB_ADVICE],
      [o.candidates ? optionName('candidates') : `the candidates stored in ${o.model}`, candidates ? agreementIssueText(candidateCoverage(dialogs, candidates), 'answers', where) : undefined, CANDIDATES_ADVICE],
    ],
    o.force,
    hooks.onWarning,
  );
  const ctx = { ...(candidates ? { candidates } : {}), ...(kb ? { kb } : {}), ...(train ? { train } : {}), ...(o.allowCheckpoint ? { allowCheckpoint: true } : {}) };
  const model = m.content ? resolveModelContent(m.content, o.model, ctx) : createModel(o.model, ctx);
  // The whole run streams the predictions to the file as they come (temp file, renamed at the end); a shard keeps them in its items.
  const ks = shardItems(shard, dialogs.length);
  const stream = !shard && o.predictions ? new AtomicFileWriter(o.predictions) : undefined;
  const items: EvalItem[] = ks.map((k) => ({ k, marks: '', ...(o.predictions && !stream ? { predictions: [] as string[] } : {}) }));
  try {
    evaluateDialogs(
      model,
      ks.map((k) => dialogs[k] as Dialog),
      {
        ...(candidates ? { candidates } : {}),
        onPrediction: (p) => {
          const it = items[p.dialog] as EvalItem;
          it.marks += p.prediction === p.truth ? '1' : '0';
          if (stream) stream.write(predictionLine(ks[p.dialog] as number, it.marks.length - 1, p.prediction));
          else it.predictions?.push(p.prediction);
        },
        onProgress: (d) => hooks.onProgress?.(d, ks.length),
      },
    );
    stream?.commit();
  } finally {
    stream?.abort();
  }
  return { run: 'eval', options: o, ...(shard ? { shard } : {}), total: dialogs.length, items, meta: {}, info: {} };
}

/** The accuracies from every item; for a merged run, writes the predictions file from its items (a whole run streamed it already: its items hold none). */
async function finish(p: RunParts<EvalOptions>): Promise<EvalResult> {
  const o = p.options;
  let s = accuracy.empty();
  const items = p.items as readonly EvalItem[];
  const writer = o.predictions && items.some((it) => it.predictions) ? new AtomicFileWriter(o.predictions) : undefined;
  try {
    for (const it of items) {
      s = accuracy.addDialog(s, [...it.marks].map((c) => c === '1'));
      it.predictions?.forEach((prediction, turn) => writer?.write(predictionLine(it.k, turn, prediction)));
    }
    writer?.commit();
  } finally {
    writer?.abort();
  }
  return { data: o.data, perResponse: accuracy.perResponse(s), perDialog: accuracy.perDialog(s), turns: s.turns, correctTurns: s.correctTurns, dialogs: s.dialogs, correctDialogs: s.correctDialogs };
}

/**
 * The `eval` run: `evalRun.run(options, hooks)` scores a model on a bAbI dialog file (per-response
 * and per-dialog accuracy); `part` / `finish` split it into shards and put them together. Errors:
 * a ConfigError naming the option (an unknown model, a context option the model does not read,
 * inputs that disagree without `force`), a FormatError `file:line: reason` for a bad input file.
 *
 * @example
 * ```ts
 * import { evalRun } from 'dialogym';
 * const r = await evalRun.run({ model: 'tfidf', data: 'data/dialog-bAbI-tasks/dialog-babi-task1-API-calls-tst.txt', candidates: 'data/dialog-bAbI-tasks/dialog-babi-candidates.txt' });
 * console.log(`${(100 * r.perResponse).toFixed(2)}% of ${r.turns} turns`);
 * ```
 */
export const evalRun: RunDefinition<EvalOptions, EvalResult, EvalHooks> = defineRun<EvalOptions, EvalResult, EvalHooks>({ id: 'eval', schema: 'run-eval', part, finish });
