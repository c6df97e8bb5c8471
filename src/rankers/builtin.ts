/**
 * Registers the generic rankers of Table 2 (Bordes et al. 2017): `tfidf`, `tfidf+type`, `nn`,
 * `embeddings`, `memn2n` — each with the trainer beside it and its model-file loader.
 */
import { ConfigError } from '../core/errors.js';
import { trainNn, trainTfidf } from './baselines-train.js';
import { Embeddings } from './embeddings.js';
import { trainEmbeddings } from './embeddings-train.js';
import { KbTypes } from './match-type.js';
import { MemN2N } from './memn2n.js';
import { trainMemN2N } from './memn2n-train.js';
import { NearestNeighbour } from './nearest-neighbour.js';
import { models, pickTrainOptions, registerModel, type ModelEntry, type TrainOptions } from './registry.js';
import { Tfidf } from './tfidf.js';

if (!models.has('tfidf')) {
  registerModel('tfidf', 'TF-IDF match of the last user utterance against each candidate (idf over the candidates; no training)', {
    create: (ctx) => {
      if (!ctx.candidates) throw new ConfigError("model 'tfidf' ranks candidates: give a candidates file with --candidates");
      return Tfidf.fit(ctx.candidates, { input: 'last', matchType: false });
    },
    train: (data, o) => {
      const c = trainTfidf(data, { ...(o.matchType !== undefined ? { matchType: o.matchType } : {}), ...(o.input ? { inputs: [o.input] } : {}) });
      return { model: c.model, dev: c.dev[c.chosen] as number, selected: `input=${c.chosen}`, missing: 0 };
    },
    load: (c, f, kb) => Tfidf.fromModelFile(c, f, kb),
  });

  registerModel('tfidf+type', 'TF-IDF match with match-type features from the KB (§4.5; needs --kb; no training)', {
    create: (ctx) => {
      if (!ctx.candidates) throw new ConfigError("model 'tfidf+type' ranks candidates: give a candidates file with --candidates");
      if (!ctx.kb) throw new ConfigError("model 'tfidf+type' needs a KB file (--kb)");
      return Tfidf.fit(ctx.candidates, { input: 'last', matchType: true }, KbTypes.fromFacts(ctx.kb));
    },
  });

  registerModel('nn', 'nearest neighbour over training (utterance, response) pairs; key chosen on dev', {
    train: (data) => {
      const c = trainNn(data);
      return { model: c.model, dev: c.dev[c.chosen] as number, selected: `input=${c.chosen}`, missing: 0 };
    },
    load: (c, f) => NearestNeighbour.fromModelFile(c, f),
  });

  const EMBEDDINGS_KEYS = ['matchType', 'dim', 'lr', 'epochs', 'patience', 'seed', 'optimizer', 'batchSize', 'margin', 'negatives', 'sharedNegatives', 'shareAB', 'input', 'bigrams'] as const;
  const embeddings = (fixed: TrainOptions): ModelEntry => ({
    train: (data, o, hooks) => {
      const r = trainEmbeddings(data, { ...pickTrainOptions(o, EMBEDDINGS_KEYS), ...fixed }, hooks);
      return { model: r.model, dev: r.fit.bestDev, selected: `epoch=${r.fit.bestEpoch}`, missing: r.missing };
    },
    load: (c, f, kb) => Embeddings.fromModelFile(c, f, kb),
  });
  registerModel('embeddings', 'supervised embeddings: margin ranking loss, sampled negatives (§4.3)', embeddings({}));
  // The paper's appendix Table 10 variants (model files say `embeddings`: they load through that entry).
  registerModel('embeddings+match', 'supervised embeddings with match-type features (appendix Table 10; needs --kb)', embeddings({ matchType: true }));
  registerModel('embeddings+bigrams', 'supervised embeddings over bags of words and bigrams (appendix Table 10)', embeddings({ bigrams: true }));

  registerModel('memn2n', 'end-to-end memory network over the dialog history (§4.4; --match-type for §4.5)', {
    train: (data, o, hooks) => {
      const r = trainMemN2N(data, pickTrainOptions(o, ['matchType', 'hops', 'dim', 'lr', 'epochs', 'patience', 'seed', 'optimizer', 'batchSize', 'memorySize', 'negatives', 'hardNegatives']), hooks);
      return { model: r.model, dev: r.fit.bestDev, selected: `epoch=${r.fit.bestEpoch}`, missing: r.missing };
    },
    load: (c, f, kb) => MemN2N.fromModelFile(c, f, kb),
  });
}
