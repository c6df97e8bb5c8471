import { test } from 'node:test';
import assert from 'node:assert/strict';
import { synthesizeSplits } from './data.js';
import { airTables, airTablesLatex, airTablesMarkdown, airTablesSvg } from './tables.js';
import { checkLatex } from '../../../report/testing/latex-check.js';
import { trainAirModels } from './train.js';

test("Tables 8-10: rows in the paper layout, the paper's figures beside ours only in the same setting; Markdown, LaTeX and SVG", () => {
  const s = synthesizeSplits({ train: 12, dev: 3, test: 3, seed: 6 });
  const { models } = trainAirModels(s.train, s.dev, { epochs: 1, dim: 4, hidden: 6, seed: 1 });
  const steps: string[] = [];
  const t = airTables({ syn: models, synDev: s.dev, synTest: s.test, realDev: s.dev, n: 2, seed: 1, onStep: (w) => steps.push(w) });
  assert.deepEqual(t.table8.map((r) => r.data), ['synthesized dev', 'synthesized test']);
  assert.equal(t.table8[1]!.paper?.perplexity, 1.08);
  assert.deepEqual(t.table9.map((r) => r.paperTotal), [0.22, 0.41, 0.22, 0.94, undefined]);
  assert.equal(t.table9[0]!.ours?.dialogs, 2);
  assert.equal(t.table9[1]!.ours, null);
  assert.equal(t.table9[3]!.ours?.dialogs, 3); // human row: the dev examples' own actions
  assert.equal(t.table10.length, 2);
  assert.ok(steps.includes('self-play: OOD 2'));
  const md = airTablesMarkdown(t);
  // The paper's synthesized data is not ours: its figures are listed apart, labelled, not in the table.
  assert.match(md, /### Table 8[\s\S]*\| synthesized test \| [\d.]+ \| [\d.]+ \| [\d.]+ \|/);
  assert.ok(md.includes('| synthesized, self-play RL |  |  |  |  |  |  |  | no RL model given |'));
  assert.match(md, /### The paper's figures for other settings[\s\S]*- Table 8, synthesized test: perplexity 1\.08, BLEU-4 68\.70 — the paper's own synthesized data/);
  assert.match(md, /- synthesized, supervised: total 0\.22 — the paper's own synthesized data/);
  // self-play rows carry the BLEU of their turns against the simulator; the human row has none
  const bleu = (t.table9[0]!.ours as { bleu?: { both: number } }).bleu!.both;
  assert.ok(bleu >= 0 && bleu <= 100);
  assert.match(md, new RegExp(`\\| synthesized, supervised \\|[^\\n]*\\|  \\| ${bleu.toFixed(2).replace('.', '\\.')} \\|`));
  assert.match(md, /\| human [^\n]*\| 0\.94 \|  \|/);
  assert.match(md, /### Table 10[\s\S]*OOD 2/);
  const svg = airTablesSvg(t);
  assert.equal((svg.match(/<circle class="ours"/g) ?? []).length, t.table9.filter((r) => r.ours).length + t.table10.length);
  // Only the human row (the same setting) draws the paper's value.
  assert.equal((svg.match(/<circle class="reference"/g) ?? []).length, 1);
  assert.doesNotMatch(svg, /cx="[\d.]+" cy="[\d.]+" r="4.5" fill="none"[^>]*><title>synthesized/);
  const tex = airTablesLatex(t);
  const check = checkLatex(tex);
  assert.deepEqual(check.problems, []);
  assert.deepEqual(check.tabulars, [{ columns: 7, rows: 1 + t.table8.length }, { columns: 6, rows: 1 + t.table9.length + t.table10.length }]);
  assert.match(tex, /human[^\n]* & 0\.94 \\\\/);
  assert.match(tex, /synthesized, supervised[^\n]* & -- \\\\/);
});
