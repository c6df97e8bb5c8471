/**
 * Declares the generic rankers of Table 2 (Bordes et al. 2017) and the appendix's Table 10 under
 * the names the benchmark prints: the paper's `tfidf`, `tfidf+type`, `nn`, `embeddings`
 * (`+match`, `+bigrams`), `memn2n` (`+match`), and dialogym's stronger variants of the
 * count-based baselines, `tfidf+type-word` and `nn+prev` — each with its trainer and its
 * model-file loader (a variant's file names its family, `tfidf`, `nn`, `embeddings`, `memn2n`,
 * and loads through that entry). Declared, not registered: the registry (`registry.ts`) lists
 * `RANKER_MODELS` in `models` from the start.
 */
import { ConfigError, errorText, optionName } from '../core/errors.js';
import { trainNn, trainTfidf } from './baselines-train.js';
import { Embeddings } from './embeddings.js';
import { trainEmbeddings } from './embeddings-train.js';
import { KbTypes } from './match-type.js';
import { MemN2N } from './memn2n.js';
import { trainMemN2N } from './memn2n-train.js';
import { NearestNeighbour } from './nearest-neighbour.js';
import { pickTrainOptions, type ModelDefinition, type ModelEntry, type TrainOptions } from './model-entry.js';
import { Tfidf, type TypeAs } from './tfidf.js';
import { devAccuracy } from './train-data.js';

/** A TF-IDF entry: match types (how a matched type is added, chosen on dev among `typeAs`) or none; the input chosen on dev unless given. */
function tfidfEntry(name: string, matchType: boolean, typeAs: readonly TypeAs[]): ModelEntry {
  return {
    train: (data, o) => {
      const c = trainTfidf(data, { matchType: matchType || o.matchType === true, typeAs, ...(o.input ? { inputs: [o.input] } : {}) });
      return { model: c.model, dev: c.dev[c.chosen] as number, selected: `input=${c.chosen}`, missing: 0 };
    },
    ...(name === 'tfidf' ? { load: (c, f, kb) => Tfidf.fromModelFile(c, f, kb) } : {}),
  };
}

const defs: ModelDefinition[] = [];
/** Adds one ranker to `RANKER_MODELS` (in the order the benchmark prints them). */
function ranker(name: string, description: string, entry: ModelEntry): void {
  defs.push({ name, description, entry });
}

ranker('tfidf', "the paper's TF-IDF match (§4.2; trained: input chosen on dev): a baseline, ready to use untrained", {
  create: (ctx) => {
    if (!ctx.candidates) throw new ConfigError(errorText`model 'tfidf' ranks candidates: give a candidates file with ${optionName('candidates')}`);
    return Tfidf.fit(ctx.candidates, { input: 'last', matchType: false });
  },
  ...tfidfEntry('tfidf', false, ['feature']),
});

ranker('tfidf+type', "the paper's TF-IDF + match type (§4.5; needs --kb): a baseline, ready to use untrained", {
  create: (ctx) => {
    if (!ctx.candidates) throw new ConfigError(errorText`model 'tfidf+type' ranks candidates: give a candidates file with ${optionName('candidates')}`);
    if (!ctx.kb) throw new ConfigError(errorText`model 'tfidf+type' needs a KB file (${optionName('kb')})`);
    return Tfidf.fit(ctx.candidates, { input: 'last', matchType: true }, KbTypes.fromFacts(ctx.kb));
  },
  ...tfidfEntry('tfidf+type', true, ['feature']),
});

ranker('tfidf+type-word', "dialogym's TF-IDF + match type as the type's name word, R_phone -> phone (needs --kb): a stronger baseline", tfidfEntry('tfidf+type-word', true, ['feature', 'word']));

ranker('nn', "the paper's nearest neighbour (§4.2): the answers of training utterances with the same words; a baseline", {
  train: (data) => {
    const model = NearestNeighbour.fit(data.train, { input: 'last', match: 'words' });
    return { model, dev: devAccuracy(model, data.dev, data.candidates), selected: 'input=last,match=words', missing: 0 };
  },
  load: (c, f) => NearestNeighbour.fromModelFile(c, f),
});

ranker('nn+prev', "dialogym's nearest neighbour: word overlap with the last turn(s), chosen on dev; a stronger baseline", {
  train: (data) => {
    const c = trainNn(data);
    return { model: c.model, dev: c.dev[c.chosen] as number, selected: `input=${c.chosen},match=overlap`, missing: 0 };
  },
});

type Train = NonNullable<ModelEntry['train']>;
/** A learned ranker's entry maker: its trainer reads `keys` of the options, plus what a variant fixes; only the family itself (nothing fixed) loads model files. */
function learned<K extends keyof TrainOptions, R extends { readonly model: ReturnType<Train>['model']; readonly fit: { readonly bestDev: number; readonly bestEpoch: number }; readonly missing: number }>(
  keys: readonly K[],
  trainer: (data: Parameters<Train>[0], o: Pick<TrainOptions, K> & TrainOptions, hooks: Parameters<Train>[2]) => R,
  load: NonNullable<ModelEntry['load']>,
): (fixed: TrainOptions) => ModelEntry {
  return (fixed) => ({
    train: (data, o, hooks) => {
      const r = trainer(data, { ...pickTrainOptions(o, keys), ...fixed }, hooks);
      return { model: r.model, dev: r.fit.bestDev, selected: `epoch=${r.fit.bestEpoch}`, missing: r.missing };
    },
    ...(Object.keys(fixed).length === 0 ? { load } : {}),
  });
}

const EMBEDDINGS_KEYS = ['matchType', 'dim', 'lr', 'epochs', 'patience', 'seed', 'optimizer', 'batchSize', 'margin', 'negatives', 'sharedNegatives', 'shareAB', 'input', 'bigrams'] as const;
const embeddings = learned(EMBEDDINGS_KEYS, trainEmbeddings, (c, f, kb) => Embeddings.fromModelFile(c, f, kb));
ranker('embeddings', "supervised embeddings (§4.3): the paper's learned baseline; --match-type: embeddings+match", embeddings({}));
ranker('embeddings+match', 'supervised embeddings with KB match types (appendix Table 10; needs --kb)', embeddings({ matchType: true }));
ranker('embeddings+bigrams', 'supervised embeddings over words and bigrams (appendix Table 10)', embeddings({ bigrams: true }));

const MEMN2N_KEYS = ['matchType', 'hops', 'dim', 'lr', 'epochs', 'patience', 'seed', 'optimizer', 'batchSize', 'memorySize', 'negatives', 'hardNegatives'] as const;
const memn2n = learned(MEMN2N_KEYS, trainMemN2N, (c, f, kb) => MemN2N.fromModelFile(c, f, kb));
ranker('memn2n', 'end-to-end memory network (§4.4): learns tasks 1-5 in vocabulary; --match-type: memn2n+match', memn2n({}));
ranker('memn2n+match', 'memory network with KB match types (§4.5; needs --kb): the best on unseen entities (OOV)', memn2n({ matchType: true }));

/**
 * The generic rankers (see the module description), as `models` lists them.
 *
 * @example
 * ```ts
 * import { RANKER_MODELS } from 'dialogym/rankers';
 * RANKER_MODELS.map((m) => m.name); // ['tfidf', 'tfidf+type', 'tfidf+type-word', 'nn', 'nn+prev', 'embeddings', …]
 * ```
 */
export const RANKER_MODELS: readonly ModelDefinition[] = defs;
