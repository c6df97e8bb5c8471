/**
 * The inputs of the PyTorch peer (bench/airdialogue-learned-torch.py): every training example of
 * the learned AirDialogue models prepared as dialogym prepares it (word ids, speakers, contexts,
 * the positions each model predicts, the match and constraint features of each stretch, the
 * state model's inputs and targets), the sizes and the step (batch, Adam rate, clipping, the
 * seeded order of the epoch), as one JSON object — so the peer runs the same architecture on
 * the same numbers without re-implementing the features.
 */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import type { AirExample } from '../src/formats/airdialogue.js';
import { createRng } from '../src/core/rng.js';
import { CONSTRAINT_FEATURES, GLOBAL_FEATURES } from '../src/testbeds/airdialogue/learned/constraints.js';
import { countOwn, prepare } from '../src/testbeds/airdialogue/learned/model.js';
import { toLearned } from '../src/testbeds/airdialogue/learned/data.js';
import { FIELDS, FLIGHT_FIELDS } from '../src/testbeds/airdialogue/learned/tokens.js';
import { trainAirModels, type AirModels, type AirTrainOptions } from '../src/testbeds/airdialogue/learned/train.js';

const list = (a: ArrayLike<number>): number[] => Array.from(a);

/** The models' vocabulary and sizes for `train` (an epoch-0 run of the trainer: the vocabulary, no weights trained). */
function modelsFor(train: readonly AirExample[], o: AirTrainOptions): AirModels {
  return trainAirModels(train, [], { ...o, epochs: 0 }).models;
}

/** One example as the peer reads it (module description). */
export function preparedExample(models: AirModels, ex: AirExample): unknown {
  const p = prepare(toLearned(ex), models.vocab);
  const side = (m: typeof models.customer) => {
    const plan = m.readoutPlan(p);
    return { pos: plan.positions, seg: list(plan.segment), feats: plan.features.map(list) };
  };
  const st = models.agent.stateInputs(p);
  return {
    ids: list(p.ids),
    speaker: list(p.speaker),
    intentIds: list(p.intentIds),
    intentFields: list(p.intentFields),
    slots: list(p.slots),
    flightIds: list(p.flightIds),
    flightFields: list(p.flightFields),
    flightSlots: list(p.flightSlots),
    nFlights: p.nFlights,
    resId: p.resId,
    resField: p.resField,
    customer: side(models.customer),
    agent: side(models.agent),
    countC: Math.max(1, countOwn(p, 0)),
    countA: Math.max(1, countOwn(p, 1)),
    endPos: p.endPos,
    namePositions: list(p.namePositions),
    mention: list(p.mention),
    status: p.status,
    flight: p.flight,
    first: p.first,
    last: p.last,
    match: st.match ? list(st.match) : null,
    global: st.global ? list(st.global) : null,
  };
}

type ExportOptions = AirTrainOptions & { seed: number; batch: number; lr: number; clip: number; dim: number; hidden: number };

/** The header of the peer's input: sizes, step and the epoch's order. */
function header(models: AirModels, n: number, o: ExportOptions): Record<string, unknown> {
  return {
    V: models.vocab.size,
    D: o.dim,
    H: o.hidden,
    NF: FLIGHT_FIELDS.length,
    fields: FIELDS.length,
    MF: FLIGHT_FIELDS.length + CONSTRAINT_FEATURES,
    G: GLOBAL_FEATURES,
    batch: o.batch,
    lr: o.lr,
    clip: o.clip,
    seed: o.seed,
    order: createRng(o.seed).fork('order').shuffle(Array.from({ length: n }, (_, i) => i)),
  };
}

export function exportPrepared(train: readonly AirExample[], o: ExportOptions): unknown {
  const models = modelsFor(train, o);
  return { ...header(models, train.length, o), examples: train.map((ex) => preparedExample(models, ex)) };
}

/**
 * The same input for many examples, streamed: `<file>.jsonl` gets one example a line and `file`
 * the header with `examplesFile` (that JSONL) and `offsets` (each line's byte offset), which the
 * peer reads a batch at a time.
 */
export function exportPreparedLines(train: readonly AirExample[], o: ExportOptions, file: string): void {
  const models = modelsFor(train, o);
  const lines = `${file}.jsonl`;
  const fd = openSync(lines, 'w');
  const offsets: number[] = [];
  let at = 0;
  try {
    for (const ex of train) {
      const buf = Buffer.from(`${JSON.stringify(preparedExample(models, ex))}\n`);
      offsets.push(at);
      writeSync(fd, buf);
      at += buf.length;
    }
  } finally {
    closeSync(fd);
  }
  writeFileSync(file, JSON.stringify({ ...header(models, train.length, o), examplesFile: lines, offsets }));
}
