/**
 * Supervised-embeddings training benchmark on an original bAbI task (default task 5, the full
 * profile's settings: dim 64): training examples/s and seconds per epoch of the dense SGD step
 * (every row of A and B zeroed, clipped and stepped per batch: the old path) and of the sparse one
 * (only the rows the batch used; the same weights), measured in the same run, for plain
 * embeddings and the Table 10 variants (+ match type, + bigrams: a vocabulary ~10× larger).
 *
 *   node dist/bench/embeddings.bench.js
 *
 * Environment variables (optional): EMB_BENCH_TASK=task5-full-dialogs, EMB_BENCH_EPOCHS=1,
 * EMB_BENCH_DIM=64, DIALOGYM_DATA=<dir holding dialog-bAbI-tasks/>.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { KbTypes } from '../src/rankers/match-type.js';
import { trainEmbeddings, type EmbeddingsTrainOptions } from '../src/rankers/embeddings-train.js';
import { babiDir } from '../test/shared-data.js';

const task = process.env.EMB_BENCH_TASK ?? 'task5-full-dialogs';
const epochs = Number(process.env.EMB_BENCH_EPOCHS ?? 1);
const dim = Number(process.env.EMB_BENCH_DIM ?? 64);
if (!existsSync(babiDir)) {
  process.stdout.write(`embeddings bench: skipped, ${babiDir} not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}
const file = (s: string): string => join(babiDir, `dialog-babi-${task}-${s}.txt`);
const candidates = readBabiCandidates(join(babiDir, 'dialog-babi-candidates.txt')).candidates;
const train = readBabiDialogs(file('trn')).dialogs;
const dev = readBabiDialogs(file('dev')).dialogs.slice(0, 50);
const kb = KbTypes.fromFacts(readBabiKb(join(babiDir, 'dialog-babi-kb-all.txt')).facts);
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

function perEpoch(opts: Partial<EmbeddingsTrainOptions>): { seconds: number; examplesPerSecond: number; vocab: number } {
  let seconds = 0;
  const r = trainEmbeddings({ train, dev, candidates, kb }, { dim, epochs, patience: 0, ...opts }, { onEpoch: (e) => (seconds += e.trainSeconds) });
  const examples = train.reduce((n, d) => n + d.turns.filter((t) => t.speaker === 'bot').length, 0) - r.missing;
  return { seconds: seconds / epochs, examplesPerSecond: (examples * epochs) / seconds, vocab: r.model.vocab.size };
}

process.stdout.write(`embeddings on ${task}: dim ${dim}, ${epochs} epoch(s) per path, dev = 50 dialogs (load average ${load()})\n`);
for (const [label, variant] of [['embeddings', {}], ['embeddings+match', { matchType: true }], ['embeddings+bigrams', { bigrams: true }]] as const) {
  const old = perEpoch({ ...variant, sparse: false });
  const cur = perEpoch({ ...variant, sparse: true });
  process.stdout.write(
    `${label.padEnd(19)} vocabulary ${cur.vocab}: dense ${old.seconds.toFixed(2)} s/epoch (${Math.round(old.examplesPerSecond)} examples/s) → sparse ${cur.seconds.toFixed(2)} s/epoch (${Math.round(cur.examplesPerSecond)} examples/s): ×${(cur.examplesPerSecond / old.examplesPerSecond).toFixed(2)}; load average ${load()}\n`,
  );
}
