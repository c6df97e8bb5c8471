/**
 * docs/cli.md documents every verb and every visible flag with the name and default `--help`
 * shows, and nothing that does not exist (the section "Every verb and flag", made by
 * test/cli-reference.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../src/cli/program.js';
import { repoRoot } from './shared-data.js';
import { cliReference, renderReference, replaceSection, splitDefault, REFERENCE_END, REFERENCE_START } from './cli-reference.js';

const REWRITE = 'rewrite it with `npx tsc -p . && node dist/test/cli-reference.js --write`';

/** The documented verbs: heading → rows `flags | default` of its table. */
function documented(md: string): Map<string, string[]> {
  const section = md.slice(md.indexOf(REFERENCE_START), md.indexOf(REFERENCE_END));
  const verbs = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of section.split('\n')) {
    const heading = /^### (.+)$/.exec(line);
    if (heading !== null) verbs.set(heading[1] as string, (current = []));
    const row = /^\| `((?:[^`\\]|\\.)+)` \| ((?:[^|\\]|\\.)*) \| .+ \|$/.exec(line);
    const unescape = (s: string): string => s.replace(/\\\|/g, '|').replace(/&lt;/g, '<').replace(/&amp;/g, '&');
    if (row !== null && current !== undefined) current.push(`${unescape(row[1] as string)} | ${unescape(row[2] as string)}`);
  }
  return verbs;
}

const program = await buildProgram();
const reference = cliReference(program);
const md = readFileSync(join(repoRoot, 'docs', 'cli.md'), 'utf8');

test('docs/cli.md has every verb and sub-verb, and no verb that does not exist', () => {
  const docs = documented(md);
  assert.ok(reference.length >= 45, `${reference.length} verbs`);
  assert.deepEqual([...docs.keys()], reference.map((v) => v.verb), `verbs of docs/cli.md "${REFERENCE_START}" differ from the program's; ${REWRITE}`);
});

test('every visible flag is documented with the name and default --help shows, and no other flag', () => {
  const docs = documented(md);
  for (const v of reference) {
    const want = v.flags.map((f) => `${f.flags} | ${f.defaultText}`);
    assert.deepEqual(docs.get(v.verb), want, `docs/cli.md, ${v.verb}: flags or defaults differ from --help; ${REWRITE}`);
    for (const f of v.flags) assert.ok(f.meaning.length > 0, `${v.verb} ${f.flags}: no description`);
  }
});

test('the generated section is the one in docs/cli.md (meanings included)', () => {
  assert.equal(replaceSection(md, renderReference(reference)), md, `docs/cli.md is out of date; ${REWRITE}`);
});

test('no <placeholder> outside a code span of the section (GitHub would drop it as an HTML tag)', () => {
  const section = md.slice(md.indexOf(REFERENCE_START), md.indexOf(REFERENCE_END));
  const bare = section.split('\n').filter((line) => line.split('`').some((part, i) => i % 2 === 0 && part.includes('<')));
  assert.deepEqual(bare, []);
});

test('splitDefault reads the trailing (default: …) or (required …) of a description', () => {
  assert.deepEqual(splitDefault('random seed (default: 1)'), { meaning: 'random seed', defaultText: '1' });
  assert.deepEqual(splitDefault('dev dialogs (required except for hcn)'), { meaning: 'dev dialogs', defaultText: 'required except for hcn' });
  assert.deepEqual(splitDefault('workers (default: 2, or 1 on a 1-core machine (or less))'), { meaning: 'workers', defaultText: '2, or 1 on a 1-core machine (or less)' });
  assert.deepEqual(splitDefault('agent (required: one of the three)'), { meaning: 'agent', defaultText: 'required: one of the three' });
  assert.deepEqual(splitDefault('a switch (short form)'), { meaning: 'a switch (short form)', defaultText: '—' });
  assert.deepEqual(splitDefault('no default here'), { meaning: 'no default here', defaultText: '—' });
});
