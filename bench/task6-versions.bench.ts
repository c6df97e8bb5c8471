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
 * too, and the oracle of `hcn` and `rules-dstc2` is printed, then `hcn --rules-advice --advice-gate
 * 0.98` (the fifth session's recipe: `dstc2-heard`'s response as an input, its own choice said only
 * at probability ≥ 0.98) beside `dstc2-heard` (~10 min of CPU).
 * Rows beside the registered models: `dstc2-adapt` with the candidate list (its pool of wordings),
 * and the second session's "echo" variants of `dstc2-plus` (say the dialog's own latest pattern of
 * the decision key: any, or only one of ≥ 15 % of the key's training turns; else `dstc2-plus`'s
 * choice), rebuilt here (their code was not kept) and matching that session's figures on trn→dev,
 * and `heard:last` = `dstc2-heard` with `evidence: 'last-turn'` (its counting before the fourth session).
 * Deterministic models only: ~1 min. The tst file is not read (the candidate list is the task's).
 *
 *   node dist/bench/task6-versions.bench.js
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import type { Dialog } from '../src/core/dialog.js';
import { readBabiCandidates, readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { createModel } from '../src/rankers/registry.js';
import type { Ranker, Responder, ResponseModel } from '../src/rankers/ranker.js';
import { trainHcn } from '../src/testbeds/restaurant/hcn/train.js';
import '../src/index.js'; // every testbed, loaded
import { Dstc2PlusBot, createDstc2PlusBot } from './task6/dstc2-plus.js';
import { createDstc2AdaptBot } from './task6/dstc2-adapt.js';
import { delexicalise, fill } from '../src/testbeds/restaurant/rules/dstc2-patterns.js';
import { createDstc2HeardBot } from '../src/testbeds/restaurant/rules/dstc2-heard.js';
import { dstc2Version } from '../src/testbeds/restaurant/rules/dstc2-versions.js';
import { Dstc2RulesBot } from '../src/testbeds/restaurant/rules/dstc2.js';

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
const candidates = readBabiCandidates(`${P}-candidates.txt`).candidates;
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

/**
 * `dstc2-plus` with the second session's echo (docs/notes/hcn-dstc6-task6.md): when the latest earlier bot
 * turn of the dialog with the same decision key has a pattern that fills, it is said again (with
 * `learnedOnly`, only a pattern `dstc2-plus` may say); else `dstc2-plus`'s choice.
 */
function plusEcho(train: readonly Dialog[], learnedOnly: boolean): Responder {
  const rules = new Dstc2RulesBot(train, { kb });
  const plus = new Dstc2PlusBot(train, { kb });
  // The patterns dstc2-plus may say: ≥ 15 % of their key's training turns (its minShare).
  const counts = new Map<string, Map<string, number>>();
  for (const dialog of train) {
    dialog.turns.forEach((t, i) => {
      if (t.speaker !== 'bot') return;
      const e = rules.decide(dialog.turns.slice(0, i));
      if ('literal' in e) return;
      const m = counts.get(e.key) ?? new Map<string, number>();
      counts.set(e.key, m);
      const p = delexicalise(t.text, e.values).pattern;
      m.set(p, (m.get(p) ?? 0) + 1);
    });
  }
  const learned = (key: string, p: string): boolean => {
    const m = counts.get(key);
    const total = m ? [...m.values()].reduce((a, b) => a + b, 0) : 0;
    return (m?.get(p) ?? 0) >= 0.15 * total && total > 0;
  };
  return {
    name: 'dstc2-plus echo',
    respond(h) {
      const d = rules.decide(h);
      if ('literal' in d) return d.literal;
      for (let i = h.length - 1; i >= 0; i--) {
        const t = h[i] as Dialog['turns'][number];
        if (t.speaker !== 'bot') continue;
        const e = rules.decide(h.slice(0, i));
        if ('literal' in e || e.key !== d.key) continue;
        const p = delexicalise(t.text, e.values).pattern;
        if (learnedOnly && !learned(d.key, p)) break;
        const s = d.values['name'] !== undefined && rules.foreignName(p) ? undefined : fill(p, d.values, rules.patterns.nameForms);
        if (s !== undefined) return s;
        break;
      }
      return plus.respond(h);
    },
  };
}

const t0 = Date.now();
process.stdout.write(`${'model'.padEnd(25)} ${SIGNALS.map(([n]) => n.padStart(7)).join(' ')}\n`);
const rulesHits = new Map<string, boolean[]>();
const ROWS: readonly (readonly [string, (train: readonly Dialog[]) => ResponseModel])[] = [
  ['rules-dstc2', (tr) => createModel('rules-dstc2', { train: tr, kb })],
  ['dstc2-plus', (tr) => createDstc2PlusBot(tr, { kb })],
  ['dstc2-heard', (tr) => createDstc2HeardBot(tr, { kb })],
  ['dstc2-adapt', (tr) => createDstc2AdaptBot(tr, { kb })],
  ['heard:last', (tr) => createDstc2HeardBot(tr, { kb, evidence: 'last-turn' })],
  ['dstc2-adapt --candidates', (tr) => createDstc2AdaptBot(tr, { kb, candidates })],
  ['dstc2-plus echo, any', (tr) => plusEcho(tr, false)],
  ['dstc2-plus echo, learned', (tr) => plusEcho(tr, true)],
];
for (const [name, make] of ROWS) {
  const cells = SIGNALS.map(([signal, tr, te]) => {
    const hits = hitsOf(predict(make(tr), te), truths(te));
    if (name === 'rules-dstc2') rulesHits.set(signal, hits);
    return pct(count(hits), hits.length);
  });
  process.stdout.write(`${name.padEnd(25)} ${cells.join(' ')}\n`);
}
process.stdout.write(`(${((Date.now() - t0) / 1000).toFixed(1)} s, load ${load()})\n`);

if (process.env['TASK6_HCN'] === '1') {
  const seed = Number(process.env['TASK6_HCN_SEED'] ?? 1);
  for (const [signal, tr, te] of SIGNALS.filter(([n]) => n === 'A->B' || n === 'B->A')) {
    const t1 = Date.now();
    const { model } = trainHcn({ train: tr, dev: [], facts: kb, candidates }, { epochs: 9, seed });
    const hits = hitsOf(predict(model, te, candidates), truths(te));
    const rules = rulesHits.get(signal) as boolean[];
    const oracle = hits.filter((h, i) => h || rules[i]).length;
    process.stdout.write(`hcn seed ${seed} ${signal}: ${pct(count(hits), hits.length)}  oracle with rules-dstc2 ${pct(oracle, hits.length)}  (${((Date.now() - t1) / 1000).toFixed(0)} s, load ${load()})\n`);
    const t2 = Date.now();
    const advised = trainHcn({ train: tr, dev: [], facts: kb, candidates }, { epochs: 9, seed, rulesAdvice: true, adviceGate: 0.98 }).model;
    const ah = hitsOf(predict(advised, te, candidates), truths(te));
    const heard = hitsOf(predict(createDstc2HeardBot(tr, { kb }), te), truths(te));
    process.stdout.write(`hcn --rules-advice --advice-gate 0.98 seed ${seed} ${signal}: ${pct(count(ah), ah.length)} (${count(ah)} turns; dstc2-heard ${count(heard)})  (${((Date.now() - t2) / 1000).toFixed(0)} s, load ${load()})\n`);
  }
}
