/**
 * Every symbol of the documented entry points has a TSDoc comment with an `@example` whose
 * ```ts snippet imports from 'dialogym' (or a subpath). Read from the TypeScript sources with the
 * compiler API, so the rule holds for the public API as it grows.
 */
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { repoRoot } from './shared-data.js';

/** The documented entry points: the root `dialogym` and every subpath typedoc renders (typedoc.json). */
const ENTRY_POINTS: readonly string[] = (JSON.parse(readFileSync(join(repoRoot, 'typedoc.json'), 'utf8')) as { entryPoints: string[] }).entryPoints;

interface Finding {
  readonly entry: string;
  readonly symbol: string;
  readonly where: string;
  readonly problem: string;
}

function findUndocumented(entries: readonly string[]): { findings: Finding[]; total: number } {
  const config = ts.getParsedCommandLineOfConfigFile(join(repoRoot, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  assert.ok(config, 'tsconfig.json could not be read');
  const program = ts.createProgram(
    entries.map((e) => join(repoRoot, e)),
    { ...config.options, noEmit: true },
  );
  const checker = program.getTypeChecker();
  const findings: Finding[] = [];
  let total = 0;
  for (const entry of entries) {
    const source = program.getSourceFile(join(repoRoot, entry));
    assert.ok(source, `${entry} not found`);
    const module = checker.getSymbolAtLocation(source);
    assert.ok(module, `${entry} is not a module`);
    for (const exported of checker.getExportsOfModule(module)) {
      total++;
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const decl = symbol.declarations?.[0];
      const where = decl ? `${relative(repoRoot, decl.getSourceFile().fileName)}:${decl.getSourceFile().getLineAndCharacterOfPosition(decl.getStart()).line + 1}` : '?';
      const doc = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
      const examples = symbol.getJsDocTags(checker).filter((t) => t.name === 'example').map((t) => ts.displayPartsToString(t.text));
      let problem: string | undefined;
      if (doc === '') problem = 'no doc comment';
      else if (examples.length === 0) problem = 'no @example';
      else if (!examples.some((x) => /```ts\n[\s\S]*from '(dialogym(\/[a-z0-9-]+)?)'/.test(x))) problem = "@example has no ```ts block importing from 'dialogym'";
      if (problem) findings.push({ entry, symbol: exported.name, where, problem });
    }
  }
  return { findings, total };
}

test('every export of the public entry points has a doc comment and an @example', () => {
  assert.ok(ENTRY_POINTS.includes('src/index.ts'), 'typedoc.json lists the entry points, src/index.ts first');
  const { findings, total } = findUndocumented(ENTRY_POINTS);
  assert.ok(total > 500, `only ${total} exports found: is the entry point list right?`);
  assert.deepEqual(
    findings.map((f) => `${f.entry}: ${f.symbol} (${f.where}): ${f.problem}`),
    [],
    'document these symbols (what it does, inputs, output, errors) with an @example importing from dialogym',
  );
});

/** Every ```ts block of a doc comment in src/ that imports from 'dialogym', with where it stands. */
function docExamples(): { where: string; code: string }[] {
  const out: { where: string; code: string }[] = [];
  const walk = (dir: string): string[] =>
    readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [join(dir, d.name)] : []));
  for (const file of walk('src')) {
    const text = readFileSync(join(repoRoot, file), 'utf8');
    for (const c of text.matchAll(/\/\*\*([\s\S]*?)\*\//g)) {
      const body = (c[1] as string).split('\n').map((l) => l.replace(/^\s*\* ?/, '')).join('\n');
      const line = text.slice(0, c.index).split('\n').length;
      for (const m of body.matchAll(/```ts\n([\s\S]*?)```/g)) if (/from 'dialogym/.test(m[1] as string)) out.push({ where: `${file}:${line}`, code: m[1] as string });
    }
  }
  return out;
}

test('every doc example type-checks against the built package (imports from dialogym resolve through its exports)', () => {
  const examples = docExamples();
  assert.ok(examples.length > 500, `only ${examples.length} examples found`);
  // Inside the package (the self-reference 'dialogym' resolves through package.json exports to dist/).
  const dir = join(repoRoot, 'dist', 'doc-examples');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = examples.map((x, i) => {
    const f = join(dir, `ex${i}.ts`);
    writeFileSync(f, `// ${x.where}\n${x.code}\nexport {};\n`);
    return f;
  });
  const config = ts.getParsedCommandLineOfConfigFile(join(repoRoot, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  assert.ok(config);
  const program = ts.createProgram(files, { ...config.options, noEmit: true, rootDir: repoRoot, noUnusedLocals: false, noUnusedParameters: false });
  const errors = ts.getPreEmitDiagnostics(program).map((d) => {
    const file = d.file ? readFileSync(d.file.fileName, 'utf8').split('\n')[0]?.slice(3) : '?';
    return `${file}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
  rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(errors.slice(0, 20), [], `${errors.length} doc examples do not type-check`);
});

test('the API reference builds: typedoc over the entry points reports no error and no warning', () => {
  const r = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'typedoc', 'bin', 'typedoc'), '--emit', 'none'], { cwd: repoRoot, encoding: 'utf8', timeout: 120_000 });
  const out = `${r.stdout}${r.stderr}`;
  assert.equal(r.status, 0, out);
  assert.doesNotMatch(out, /\[(warning|error)\]/, out);
});
