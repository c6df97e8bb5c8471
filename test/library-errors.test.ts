/**
 * Library errors never name a CLI flag: a library user reads the option of the call
 * (`models`, `systemPrompt`), the CLI says its flag (`--models`) when it prints the error
 * (src/cli/option-flags.ts). Scans the library sources (src/ but src/cli/, tests and testing
 * fixtures) with the TypeScript parser for string texts naming a flag (`--x`) inside a `throw` or
 * an error's constructor (`new …Error(`, `new …Failure(`), and lists each as file:line.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ConfigError, DialogymError, errorText, optionName } from '../src/core/errors.js';
import { describeForCli, flagOf } from '../src/cli/option-flags.js';
import { repoRoot } from './shared-data.js';

/** Folders not scanned yet: none (src/llm/ moved to option names when its rewrite landed). */
const NOT_YET: readonly string[] = [];

/** A flag in a text: `--` and a letter, at the start or after a space, quote or bracket. */
const FLAG = /(^|[\s(['"`,])--[a-z]/;

function libraryFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const rel = relative(repoRoot, p);
    if (e.isDirectory()) {
      if (rel === join('src', 'cli') || e.name === 'testing') continue;
      out.push(...libraryFiles(p));
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Whether `node` is inside a throw statement or the arguments of an error's constructor. */
function inErrorText(node: ts.Node, source: ts.SourceFile): boolean {
  for (let n: ts.Node | undefined = node.parent; n !== undefined; n = n.parent) {
    if (ts.isThrowStatement(n)) return true;
    if (ts.isNewExpression(n) && /(Error|Failure)$/.test(n.expression.getText(source))) return true;
    if (ts.isFunctionLike(n) || ts.isSourceFile(n)) return false;
  }
  return false;
}

/** `file:line: text` of each error text naming a flag in the library sources under `root`. */
function flagNamingErrors(root: string): string[] {
  const found: string[] = [];
  for (const file of libraryFiles(join(root, 'src'))) {
    const rel = relative(root, file);
    if (NOT_YET.some((d) => rel.startsWith(d))) continue;
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) && FLAG.test(node.text) && inErrorText(node, source)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
        found.push(`${rel}:${line}: ${node.text.trim()}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

test('no library error text names a CLI flag (say the option name; the CLI maps it to its flag)', () => {
  const files = libraryFiles(join(repoRoot, 'src'));
  assert.ok(files.length > 200, `only ${files.length} library files found: is the scan right?`);
  assert.deepEqual(flagNamingErrors(repoRoot), []);
});

test('every option a library error names is said by the CLI as a flag documented in docs/cli.md', () => {
  const cliDoc = readFileSync(join(repoRoot, 'docs', 'cli.md'), 'utf8');
  const named = new Set<string>();
  for (const file of libraryFiles(join(repoRoot, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/optionName\('([A-Za-z]+)'\)|\{ option: '([A-Za-z]+)' \}/g)) named.add((m[1] ?? m[2]) as string);
    // The options of an advised run: `{ run: 'train', options: [['model', name], ['out', 'model.dgm']] }`.
    for (const run of text.matchAll(/\{ run: '[^']+', options: \[(.*?)\] \}/g)) for (const m of (run[1] ?? '').matchAll(/\['([A-Za-z]+)', /g)) named.add(m[1] as string);
  }
  assert.ok(named.size >= 15, `only ${named.size} option names found: ${[...named].join(', ')}`);
  const undocumented = [...named].flatMap((o) => flagOf(o).split(', ').filter((f) => !new RegExp(`${f}\\b`).test(cliDoc)).map((f) => `${o} → ${f}`));
  assert.deepEqual(undocumented, []);
});

test('the scan finds a flag in a throw and in an error constructor, not elsewhere', () => {
  const source = ts.createSourceFile('x.ts', "throw new ConfigError('--models: bad');\nconst e = new HttpError(404, `use ${x} --port 0`);\nconst table = '|---|';\nthrow new Error('x-y --');\n", ts.ScriptTarget.Latest, true);
  const hits: number[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isTemplateTail(node)) && FLAG.test(node.text) && inErrorText(node, source)) hits.push(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(source);
  assert.deepEqual(hits, [1, 2]);
});

test('an error names the option to a library user and its flag to the CLI user', () => {
  const unknown = new ConfigError("unknown model 'gpt' (expected tfidf, nn)", { option: 'models' });
  assert.equal(unknown.message, "models: unknown model 'gpt' (expected tfidf, nn)");
  assert.equal(describeForCli(unknown), "--models: unknown model 'gpt' (expected tfidf, nn)");
  const gate = new ConfigError(errorText`${optionName('adviceGate')} needs ${optionName('rulesAdvice')}`);
  assert.equal(gate.message, 'adviceGate needs rulesAdvice');
  assert.equal(describeForCli(gate), '--advice-gate needs --rules-advice');
  const data = new ConfigError('folder /x/data not found', { option: 'source' });
  assert.equal(describeForCli(data), '--data: folder /x/data not found');
  const train = new DialogymError(errorText`needs a trained policy: run ${{ run: 'infobot train', options: [['agent', 'rl-hard'], ['split', 'small']] }}`);
  assert.equal(train.message, 'needs a trained policy: run infobot train (agent: rl-hard, split: small)');
  assert.equal(describeForCli(train), 'needs a trained policy: run dialogym infobot train --agent rl-hard --split small');
});
