/**
 * The folders of src/ import one another in a strict order, but for the pairs ARCHITECTURE.md
 * lists and justifies ("Folders that import each other"). The folder of a module is its directory,
 * except that a testbed (`src/testbeds/<t>/…`) is one unit; the imports are dependency-cruiser's
 * with the project's configuration (tests left out). `npm run lint:deps` checks the order itself
 * (`LEVELS` in .dependency-cruiser.cjs); this test finds every pair and every circle of folders,
 * including those of folders the order treats as one (a folder and its subfolders).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './shared-data.js';

interface Cruise {
  readonly modules: readonly { readonly source: string; readonly dependencies: readonly { readonly resolved: string }[] }[];
}

/** The folder a module of src/ belongs to. */
function folderOf(path: string): string {
  const testbed = /^src\/testbeds\/[^/]+\//.exec(path);
  return testbed !== null ? testbed[0] : path.slice(0, path.lastIndexOf('/') + 1);
}

/** Folder → the folders it imports, each with the first import that makes the edge. */
function folderGraph(cruise: Cruise): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const m of cruise.modules) {
    if (!m.source.startsWith('src/')) continue;
    for (const d of m.dependencies) {
      if (!d.resolved.startsWith('src/')) continue;
      const [from, to] = [folderOf(m.source), folderOf(d.resolved)];
      if (from === to) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, `${m.source} → ${d.resolved}`);
      graph.set(from, edges);
    }
  }
  return graph;
}

/** The strongly connected components of more than one folder (Tarjan). */
function circles(graph: Map<string, Map<string, string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

/** The pairs ARCHITECTURE.md lists (`a` ↔ `b`, `<t>` standing for every testbed), as "a ↔ b" with a < b. */
function documentedPairs(): Set<string> {
  const md = readFileSync(join(repoRoot, 'ARCHITECTURE.md'), 'utf8');
  const section = /^## Folders that import each other\n([\s\S]*?)(?=^## )/m.exec(md)?.[1];
  assert.ok(section !== undefined, 'ARCHITECTURE.md has a section "Folders that import each other"');
  const testbeds = readdirSync(join(repoRoot, 'src', 'testbeds'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  const pairs = new Set<string>();
  for (const [, a, b] of section.matchAll(/^\| `([^`]+)` ↔ `([^`]+)` \|/gm)) {
    for (const t of (a! + b!).includes('<t>') ? testbeds : ['']) {
      const [x, y] = [a!, b!].map((f) => `src/${f.replace('<t>', t)}/`).sort();
      pairs.add(`${x} ↔ ${y}`);
    }
  }
  return pairs;
}

test('every pair of folders of src/ that import each other is one ARCHITECTURE.md justifies, and they make no other circle', () => {
  const run = spawnSync(process.execPath, [join(repoRoot, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'), 'src', '--config', '.dependency-cruiser.cjs', '--exclude', '\\.test\\.ts$', '--output-type', 'json'], { cwd: repoRoot, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  assert.equal(run.status, 0, run.stderr);
  const graph = folderGraph(JSON.parse(run.stdout) as Cruise);
  assert.ok(graph.size >= 20, `the folders of src/ were cruised (${graph.size})`);
  const pairs = new Map<string, string>();
  for (const [a, edges] of graph) {
    for (const [b, why] of edges) {
      const back = graph.get(b)?.get(a);
      if (a < b && back !== undefined) pairs.set(`${a} ↔ ${b}`, `${why}; ${back}`);
    }
  }
  const documented = documentedPairs();
  const unexplained = [...pairs].filter(([p]) => !documented.has(p)).map(([p, why]) => `${p} (${why})`);
  assert.deepEqual(unexplained, [], 'folders that import each other without a line in ARCHITECTURE.md');
  assert.deepEqual([...documented].filter((p) => !pairs.has(p)), [], 'pairs ARCHITECTURE.md lists that no longer import each other');
  // A circle of three or more folders is no pair: each circle must be made of the documented pairs.
  for (const component of circles(graph)) {
    const inPairs = component.every((f) => component.some((g) => documented.has([f, g].sort().join(' ↔ '))));
    assert.ok(inPairs, `a circle of folders: ${component.join(', ')}`);
  }
});

test('the folder graph finds a pair and a circle of three (the checker can fail)', () => {
  const cruise = (edges: [string, string][]): Cruise => ({
    modules: [...new Set(edges.map(([a]) => a))].map((source) => ({ source, dependencies: edges.filter(([a]) => a === source).map(([, resolved]) => ({ resolved })) })),
  });
  const g = folderGraph(cruise([['src/a/x.ts', 'src/b/y.ts'], ['src/b/y.ts', 'src/c/z.ts'], ['src/c/z.ts', 'src/a/x.ts'], ['src/testbeds/t/deep/m.ts', 'src/testbeds/u.ts'], ['src/testbeds/u.ts', 'src/testbeds/t/n.ts']]));
  assert.deepEqual(circles(g).sort(), [['src/a/', 'src/b/', 'src/c/'], ['src/testbeds/', 'src/testbeds/t/']]);
  assert.equal(g.get('src/testbeds/t/')?.get('src/testbeds/'), 'src/testbeds/t/deep/m.ts → src/testbeds/u.ts');
});
