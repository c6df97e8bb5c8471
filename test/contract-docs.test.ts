/**
 * docs/restaurant-contract.md, docs/airdialogue-contract.md and docs/infobot-contract.md hold the
 * tables the code makes (the restaurant and DSTC6 -v2 user's lexicon and what the user says; the
 * AirDialogue customer's lexicon, answers, tools and failure reasons; KB-InfoBot's tools, actions,
 * the user's sentences and rewards), so the pages cannot drift from what the environments do.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MONTHS } from '../src/formats/airdialogue.js';
import { AIR_ACTS, AIR_FAILURES, readAgentTurn } from '../src/testbeds/airdialogue/index.js';
import { make } from '../src/env/env.js';
import '../src/index.js'; // every testbed, loaded
import { RESTAURANT_ENV_OPTIONS } from '../src/testbeds/restaurant/online/env.js';
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
  // an agent matches the customer's dates against the table: the page spells the months as the table does ('June', 'Sept')
  assert.ok(md.includes(MONTHS.map((m) => `\`${m}\``).join(', ')), `the page does not spell the table's months ${MONTHS.join(' ')}`);
});

test('writeParts replaces a part between its markers and names a missing part', () => {
  const md = 'a\n<!-- generated: x (test/contract-docs.ts) -->\nold\n<!-- end: x -->\nb';
  assert.equal(documentedPart(writeParts(md, { x: 'new' }, 'f.md'), 'x'), 'new');
  assert.throws(() => writeParts(md, { y: 'new' }, 'f.md'), /^Error: f\.md: no "<!-- generated: y/);
});

test('docs/restaurant-contract.md names the options, the info keys and the failure reasons the restaurant envs have', () => {
  const md = readFileSync(join(repoRoot, 'docs', 'restaurant-contract.md'), 'utf8');
  for (const o of RESTAURANT_ENV_OPTIONS) assert.ok(md.includes(`\`${o}\``), `option ${o} not documented`);
  const env = make('restaurant-task5-v2', { maxTurns: 3 });
  const reset = env.reset({ seed: 1 });
  for (const k of Object.keys(reset.info)) assert.ok(md.includes(`\`${k}\``), `reset info ${k} not documented`);
  for (const k of Object.keys((reset.info['goal'] ?? {}) as object)) assert.ok(md.includes(k), `goal key ${k} not documented`);
  let last = env.step('hi');
  for (const k of Object.keys(last.info)) assert.ok(md.includes(`\`${k}\``), `step info ${k} not documented`);
  while (!last.truncated && !last.terminated) last = env.step('hi');
  for (const k of Object.keys(last.info)) assert.ok(md.includes(`\`${k}\``), `final info ${k} not documented`);
  const rows = [...md.matchAll(/^\| `([^`]+)` \| /gm)].map((m) => m[1]);
  for (const f of ['invalid api_call', 'unknown option', 'option not matching the goal', 'option order', 'information', 'api_call', 'no api_call', 'max turns']) assert.ok(rows.includes(f), `failure ${f}`);
});
