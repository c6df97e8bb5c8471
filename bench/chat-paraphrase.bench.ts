/**
 * The paraphrase test with full-size models: replays test/fixtures/paraphrases.tsv (hand-written
 * booking requests and the api_call each means) through a chat session on the original bAbI KB
 * (dialog-babi-kb-all.txt) with the rules bot and an HCN trained on the original task-5 trn file
 * (default hyper-parameters, best dev epoch), and prints the rate per model and the failures. The
 * test suite gates the same fixture with a small HCN trained on generated dialogs.
 *
 *   npm run bench -- chat-paraphrase
 *   node dist/bench/chat-paraphrase.bench.js [model.dgm …]   # also (or instead) trained model files
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readBabiDialogs, readBabiKb } from '../src/formats/babi.js';
import { chatModelOf } from '../src/testbeds/restaurant/chat/chat-model.js';
import { setupBot } from '../src/testbeds/restaurant/chat/setup.js';
import { createRulesBot } from '../src/testbeds/restaurant/rules/rules.js';
import { trainHcn } from '../src/testbeds/restaurant/hcn/train.js';
import { babiDir } from '../test/shared-data.js';
import { paraphraseReport, readParaphrases, replayParaphrases } from '../test/paraphrases.js';

const kbFile = join(babiDir, 'dialog-babi-kb-all.txt');
if (!existsSync(kbFile)) {
  process.stdout.write(`skipped: ${kbFile} not found (set DIALOGYM_DATA)\n`);
  process.exit(0);
}
const cases = readParaphrases();
const files = process.argv.slice(2);
const print = (lines: string[]): void => void process.stdout.write(lines.join('\n') + '\n');

const setup = setupBot({ model: 'rules', kb: kbFile });
const facts = readBabiKb(kbFile).facts;
print(paraphraseReport('rules (original KB)', replayParaphrases(chatModelOf(createRulesBot({ kb: facts })), setup.kb, cases)));
if (files.length === 0) {
  const t0 = performance.now();
  const read = (s: string) => readBabiDialogs(join(babiDir, `dialog-babi-task5-full-dialogs-${s}.txt`)).dialogs;
  const r = trainHcn({ train: read('trn'), dev: read('dev'), facts }, { seed: 1 });
  const seconds = (performance.now() - t0) / 1000;
  print([`hcn trained on the original task-5 trn: dev per-response ${(100 * r.fit.bestDev).toFixed(1)} % (epoch ${r.fit.bestEpoch}), ${seconds.toFixed(0)} s`]);
  print(paraphraseReport('hcn (original task-5 trn, full size)', replayParaphrases(chatModelOf(r.model), setup.kb, cases)));
}
for (const f of files) {
  const s = setupBot({ model: f, kb: kbFile });
  print(paraphraseReport(f, replayParaphrases(s.model, s.kb, cases)));
  s.close();
}
setup.close();
