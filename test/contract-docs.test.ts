/**
 * docs/airdialogue-contract.md and docs/infobot-contract.md hold the tables the code makes (the
 * AirDialogue customer's lexicon, answers, tools and failure reasons; KB-InfoBot's tools, actions,
 * the user's sentences and rewards), so the pages cannot drift from what the environments do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AIR_ACTS, AIR_FAILURES, readAgentTurn } from '../src/testbeds/airdialogue/index.js';
import { CONTRACT_DOCS, documentedPart, writeParts } from './contract-docs.js';
import { repoRoot } from './shared-data.js';

const REWRITE = 'rewrite it with `npx tsc -p . && node dist/test/contract-docs.js --write`';

for (const [rel, parts] of CONTRACT_DOCS) {
  test(`${rel} holds the generated tables as the code makes them`, () => {
    const md = readFileSync(join(repoRoot, rel), 'utf8');
    const made = parts();
    assert.ok(Object.keys(made).length >= 5);
    for (const [name, body] of Object.entries(made)) {
      const documented = documentedPart(md, name);
      assert.ok(documented !== null, `${rel}: the part '${name}' is missing; ${REWRITE}`);
      assert.equal(documented, body.trim(), `${rel}: the part '${name}' differs from the code; ${REWRITE}`);
    }
  });
}

test('the AirDialogue page lists every act with wordings that read as it, and every failure reason', () => {
  const md = readFileSync(join(repoRoot, 'docs', 'airdialogue-contract.md'), 'utf8');
  for (const a of AIR_ACTS) {
    const row = md.split('\n').find((l) => l.startsWith(`| \`${a.label}\` |`));
    assert.ok(row, `no row for ${a.label}`);
    const wordings = [...(row.split(' | ')[3] as string).matchAll(/“([^”]+)”/g)].map((m) => m[1] as string);
    assert.ok(wordings.length >= 3, a.label);
    for (const w of wordings) assert.deepEqual(readAgentTurn(w).acts, [a.act], `${a.label}: "${w}"`);
  }
  for (const f of AIR_FAILURES) assert.ok(md.includes(`| \`${f.reason}\` |`), f.reason);
});

test('writeParts replaces a part between its markers and names a missing part', () => {
  const md = 'a\n<!-- generated: x (test/contract-docs.ts) -->\nold\n<!-- end: x -->\nb';
  assert.equal(documentedPart(writeParts(md, { x: 'new' }, 'f.md'), 'x'), 'new');
  assert.throws(() => writeParts(md, { y: 'new' }, 'f.md'), /^Error: f\.md: no "<!-- generated: y/);
});
