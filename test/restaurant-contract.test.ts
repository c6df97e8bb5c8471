/**
 * docs/restaurant-contract.md shows what the -v2 user understands and says as the code has it:
 * its generated tables are the ones `test/restaurant-contract.ts` makes from the lexicon and the
 * user's patterns, and every env id family and failure reason it names exists.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { make } from '../src/testbeds/env.js';
import '../src/testbeds/restaurant/online/babi.js';
import '../src/testbeds/dstc6/online.js';
import { RESTAURANT_ENV_OPTIONS } from '../src/testbeds/restaurant/online/env.js';
import { CONTRACT_FILE, contractSections, replaceSections } from './restaurant-contract.js';

const REWRITE = 'rewrite it with `npx tsc -p . && node dist/test/restaurant-contract.js --write`';
const md = readFileSync(CONTRACT_FILE, 'utf8');

test('docs/restaurant-contract.md: the generated tables are those the lexicon and the patterns make', () => {
  const sections = contractSections();
  assert.deepEqual(Object.keys(sections), ['acts', 'slots', 'plain', 'sorry', 'says']);
  for (const [name, text] of Object.entries(sections)) {
    const begin = `<!-- generated: ${name} -->\n`;
    const i = md.indexOf(begin);
    assert.ok(i >= 0, `no "${begin.trim()}" in the page`);
    assert.equal(md.slice(i + begin.length, md.indexOf(`\n<!-- end generated: ${name} -->`)), text, `section "${name}" differs from the code; ${REWRITE}`);
  }
  assert.equal(replaceSections(md, sections), md);
});

test('docs/restaurant-contract.md names the options, the info keys and the failure reasons the envs have', () => {
  for (const o of RESTAURANT_ENV_OPTIONS) assert.ok(md.includes(`\`${o}\``), `option ${o} not documented`);
  const env = make('restaurant-task5-v2', { maxTurns: 3 });
  const reset = env.reset({ seed: 1 });
  for (const k of Object.keys(reset.info)) assert.ok(md.includes(`\`${k}\``), `reset info ${k} not documented`);
  for (const k of Object.keys((reset.info['goal'] ?? {}) as object)) assert.ok(md.includes(k), `goal key ${k} not documented`);
  let last = env.step('hi');
  for (const k of Object.keys(last.info)) assert.ok(md.includes(`\`${k}\``), `step info ${k} not documented`);
  while (!last.truncated && !last.terminated) last = env.step('hi');
  for (const k of Object.keys(last.info)) assert.ok(md.includes(`\`${k}\``), `final info ${k} not documented`);
  const failures = [...md.matchAll(/^\| `([^`]+)` \| /gm)].map((m) => m[1]).filter((x) => !x?.startsWith('-v'));
  for (const f of ['invalid api_call', 'unknown option', 'option not matching the goal', 'option order', 'information', 'api_call', 'no api_call', 'max turns']) assert.ok(failures.includes(f), `failure ${f}`);
});
