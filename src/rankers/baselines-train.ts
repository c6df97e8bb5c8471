/** "Training" the count-based baselines: fit statistics, then pick the input mode on dev. */
import { Tfidf, type TypeAs } from './tfidf.js';
import { NearestNeighbour, type NnInput } from './nearest-neighbour.js';
import type { InputMode } from './input.js';
import { ConfigError, errorText, optionName } from '../core/errors.js';
import { devAccuracy, type TrainData } from './train-data.js';

export interface Choice<M> {
  readonly model: M;
  /** Dev per-response accuracy of every mode tried. */
  readonly dev: Record<string, number>;
  readonly chosen: string;
}

function choose<M>(modes: readonly string[], make: (mode: string) => M, score: (m: M) => number): Choice<M> {
  let best: { model: M; mode: string; acc: number } | undefined;
  const dev: Record<string, number> = {};
  for (const mode of modes) {
    const model = make(mode);
    const acc = score(model);
    dev[mode] = acc;
    if (!best || acc > best.acc) best = { model, mode, acc };
  }
  const b = best as { model: M; mode: string };
  return { model: b.model, dev, chosen: b.mode };
}

export interface TfidfTrainOptions {
  readonly matchType: boolean;
  /** Input modes to choose from on dev. */
  readonly inputs: readonly InputMode[];
  /** How matched types are added, to choose from on dev (match types only); default `feature`, the paper's (`word` is dialogym's `tfidf+type-word`). */
  readonly typeAs: readonly TypeAs[];
}

/** TF-IDF with idf fitted on training utterances and candidates; input mode chosen on dev. */
export function trainTfidf(data: TrainData, options: Partial<TfidfTrainOptions> = {}): Choice<Tfidf> {
  const o: TfidfTrainOptions = { matchType: false, inputs: ['last', 'history'], typeAs: ['feature'], ...options };
  if (o.matchType && !data.kb) throw new ConfigError(errorText`tfidf ${optionName('matchType')} needs a KB file (${optionName('kb')})`);
  const docs: string[] = [...data.candidates];
  for (const d of data.train) for (const t of d.turns) if (t.speaker !== 'kb') docs.push(t.text);
  const base = Tfidf.fit(docs, { input: 'last', matchType: o.matchType }, data.kb);
  const modes = o.matchType ? o.inputs.flatMap((input) => o.typeAs.map((as) => `${input},type=${as}`)) : o.inputs;
  return choose(
    modes,
    (mode) => {
      const [input, as] = mode.split(',type=') as [InputMode, TypeAs | undefined];
      return new Tfidf({ input, matchType: o.matchType, ...(as ? { typeAs: as } : {}) }, base.idf, base.documents, o.matchType ? data.kb : undefined);
    },
    (m) => devAccuracy(m, data.dev, data.candidates),
  );
}

/** dialogym's nearest neighbour (`nn+prev`): word overlap over training pairs; key (last utterance, or with the bot turn before) chosen on dev. */
export function trainNn(data: TrainData, inputs: readonly NnInput[] = ['last', 'pair']): Choice<NearestNeighbour> {
  return choose(
    inputs,
    (mode) => NearestNeighbour.fit(data.train, { input: mode as NnInput, match: 'overlap' }),
    (m) => devAccuracy(m, data.dev, data.candidates),
  );
}
