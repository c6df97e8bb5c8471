/**
 * bAbI task 6 (DSTC2), issue 18: selection signals that use trn and dev only, for the task-6
 * models that learn from `--train` (`rules-dstc2`, `dstc2-plus`, `dstc2-heard`), per response:
 *   held     trn without every fifth dialog → every fifth trn dialog (the same mix of versions)
 *   t->d     trn → dev;   d->t   dev → trn (two mixes of DSTC2 system versions)
 *   A->B     the trn dialogs of system version A → all dialogs (trn and dev) of version B
 *   B->A     the dialogs of version B → the trn dialogs of version A
 * The versions are read off the bot turns' wording (`dstc2Version`, rules/dstc2-versions.ts): the
 * last two rows train on one DSTC2 system and score another, as tst does (most tst dialogs come
 * from a system that trn and dev barely show). With TASK6_HCN=1, `hcn` (seed TASK6_HCN_SEED, 9
 * epochs, the first 200 training dialogs as its dev) is trained on each side of A->B and B->A
 * too, and the oracle of `hcn` and `rules-dstc2` is printed (~10 min of CPU).
 * Rows: the registered models, and `heard:last` = `dstc2-heard` with `evidence: 'last-turn'`.
 * Deterministic models only: ~1 min. The tst file is not read.
 *
 *   node dist/bench/task6-versions.bench.js
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import type { Dialog } from '../src/core/dialog.js';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { createModel } from '../src/rankers/registry.js';
import type { Ranker, ResponseModel } from '../src/rankers/ranker.js';
import { trainHcn } from '../src/testbeds/restaurant/hcn/train.js';
import '../src/testbeds/restaurant/models.js';
import { createDstc2HeardBot } from '../src/testbeds/restaurant/rules/dstc2-heard.js';
import { dstc2Version } from '../src/testbeds/restaurant/rules/dstc2-versions.js';

const dataDir = process.env['DIALOGYM_DATA'] ?? join(process.cwd(), '..', 'shared', 'data');
const babiDir = join(dataDir, 'dialog-bAbI-tasks');
const P = join(babiDir, 'dialog-babi-task6-dstc2');
if (!existsSync(`${P}-trn.txt`)) {
  process.stdout.write(`task6-versions bench: skipped, ${P}-trn.txt not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');
const trn = readBabiDialogs(`${P}-trn.txt`).dialogs;
const dev = readBabiDialogs(`${P}-dev.txt`).dialogs;
const kb = readBabiKb(`${P}-kb.txt`).facts;
const of = (ds: readonly Dialog[], v: string): Dialog[] => ds.filter((d) => dstc2Version(d) === v);
const trnA = of(trn, 'A');
const allB = [...of(trn, 'B'), ...of(dev, 'B')];
const SIGNALS: readonly (readonly [string, readonly Dialog[], readonly Dialog[]])[] = [
  ['held', trn.filter((_, i) => i % 5 !== 0), trn.filter((_, i) => i % 5 === 0)],
  ['t->d', trn, dev],
  ['d->t', dev, trn],
  ['A->B', trnA, allB],
  ['B->A', allB, trnA],
];
process.stdout.write(`versions: trn ${trnA.length} A, ${of(trn, 'B').length} B; dev ${of(dev, 'A').length} A, ${of(dev, 'B').length} B (load ${load()})\n`);

/** Each bot turn's prediction. */
function predict(model: ResponseModel, dialogs: readonly Dialog[], candidates?: readonly string[]): string[] {
  const out: string[] = [];
  for (const d of dialogs) {
    d.turns.forEach((t, i) => {
      if (t.speaker !== 'bot') return;
      const h = d.turns.slice(0, i);
      if ('respond' in model) out.push(model.respond(h));
      else {
        const s = (model as Ranker).rank(h, candidates as readonly string[]);
        let best = 0;
        for (let j = 1; j < s.length; j++) if ((s[j] as number) > (s[best] as number)) best = j;
        out.push((candidates as readonly string[])[best] as string);
      }
    });
  }
  return out;
}
const truths = (dialogs: readonly Dialog[]): string[] => dialogs.flatMap((d) => d.turns.filter((t) => t.speaker === 'bot').map((t) => t.text));
const pct = (hits: number, n: number): string => ((100 * hits) / n).toFixed(2).padStart(7);
const hitsOf = (p: readonly string[], truth: readonly string[]): boolean[] => p.map((x, i) => x === truth[i]);
const count = (b: readonly boolean[]): number => b.filter(Boolean).length;

const t0 = Date.now();
process.stdout.write(`${'model'.padEnd(12)} ${SIGNALS.map(([n]) => n.padStart(7)).join(' ')}\n`);
const rulesHits = new Map<string, boolean[]>();
// Rows: registered models, and variants of their options (`dstc2-heard` crediting each api_call to
// the user turn right before it only, its counting before the fourth session).
const ROWS: readonly (readonly [string, (train: readonly Dialog[]) => ResponseModel])[] = [
  ...['rules-dstc2', 'dstc2-plus', 'dstc2-heard'].map((name) => [name, (train: readonly Dialog[]) => createModel(name, { train, kb })] as const),
  ['heard:last', (train) => createDstc2HeardBot(train, { kb, evidence: 'last-turn' })],
];
for (const [name, create] of ROWS) {
  const cells = SIGNALS.map(([signal, tr, te]) => {
    const hits = hitsOf(predict(create(tr), te), truths(te));
    if (name === 'rules-dstc2') rulesHits.set(signal, hits);
    return pct(count(hits), hits.length);
  });
  process.stdout.write(`${name.padEnd(12)} ${cells.join(' ')}\n`);
}
process.stdout.write(`(${((Date.now() - t0) / 1000).toFixed(1)} s, load ${load()})\n`);

if (process.env['TASK6_HCN'] === '1') {
  const seed = Number(process.env['TASK6_HCN_SEED'] ?? 1);
  const candidates = readBabiCandidates(`${P}-candidates.txt`).candidates;
  for (const [signal, tr, te] of SIGNALS.filter(([n]) => n === 'A->B' || n === 'B->A')) {
    const t1 = Date.now();
    const { model } = trainHcn({ train: tr, dev: [], facts: kb, candidates }, { epochs: 9, seed });
    const hits = hitsOf(predict(model, te, candidates), truths(te));
    const rules = rulesHits.get(signal) as boolean[];
    const oracle = hits.filter((h, i) => h || rules[i]).length;
    process.stdout.write(`hcn seed ${seed} ${signal}: ${pct(count(hits), hits.length)}  oracle with rules-dstc2 ${pct(oracle, hits.length)}  (${((Date.now() - t1) / 1000).toFixed(0)} s, load ${load()})\n`);
  }
}
