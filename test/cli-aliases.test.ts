/**
 * The bAbI verbs' old top-level names (`dialogym eval`) are aliases of `dialogym babi <verb>`: each
 * alias runs once and its new name once with the same arguments, through the package's bin (whose
 * CommonJS help path answers `--help`), and both print the same stdout and stderr and exit alike.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BABI_VERBS, expandAlias, verbName } from '../src/cli/commands/index.js';
import { HELP_PAGES, helpPageOf } from '../src/cli/help.cjs';
import { repoRoot } from './shared-data.js';

const binPath = join(repoRoot, 'dist', 'src', 'cli', 'main.cjs');
const tmp = mkdtempSync(join(tmpdir(), 'dialogym-aliases-'));
test.after(() => rmSync(tmp, { recursive: true, force: true }));

/** A bAbI dialog file of two short dialogs. */
const dialogs = join(tmp, 'tiny.txt');
writeFileSync(
  dialogs,
  [
    '1 hi\thello what can i help you with today',
    '2 can you book a table in paris\ti\'m on it',
    '',
    '1 good morning\thello what can i help you with today',
    '2 thanks\tyou\'re welcome',
    '',
    '',
  ].join('\n'),
);

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function bin(args: readonly string[]): Run {
  const r = spawnSync(process.execPath, [binPath, ...args], { encoding: 'utf8', input: '' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Each alias once, with arguments that are cheap for its verb, and what its run must show. */
const CASES: readonly { readonly alias: readonly string[]; readonly now: readonly string[]; readonly shows: RegExp; readonly code: number }[] = [
  { alias: ['stats', dialogs], now: ['babi', 'stats', dialogs], shows: /dialogs\D+2\b/, code: 0 },
  { alias: ['walk', dialogs, '--dialog', '2'], now: ['babi', 'walk', dialogs, '--dialog', '2'], shows: /good morning/, code: 0 },
  { alias: ['train', '--hlep'], now: ['babi', 'train', '--hlep'], shows: /^error: unknown option '--hlep'\n\(Did you mean --help\?\)\n$/, code: 2 },
  { alias: ['eval', '--help'], now: ['babi', 'eval', '--help'], shows: /^Usage: dialogym babi eval \[options\]\n\n.*`dialogym evaluate` plays an\s+environment online/s, code: 0 },
  { alias: ['benchmark', '--seeds', '0'], now: ['babi', 'benchmark', '--seeds', '0'], shows: /^error: .*--seeds.*\n$/, code: 2 },
  { alias: ['kb', 'query', join(tmp, 'none.sqlite'), 'api_call italian'], now: ['babi', 'kb', 'query', join(tmp, 'none.sqlite'), 'api_call italian'], shows: /^error: .*none\.sqlite.*\n$/, code: 1 },
  { alias: ['chat', '--model', 'no-such-model'], now: ['babi', 'chat', '--model', 'no-such-model'], shows: /^error: .*no-such-model.*\n$/, code: 2 },
  { alias: ['demo', '-h'], now: ['babi', 'demo', '-h'], shows: /^Usage: dialogym babi demo \[options\]\n/, code: 0 },
];

test('every bAbI verb has one alias case, and the top-level help lists them under "Aliases:"', () => {
  assert.deepEqual(CASES.map((c) => c.alias[0]), BABI_VERBS.map(verbName));
  const help = bin(['--help']);
  assert.equal(help.code, 0);
  const aliases = help.stdout.slice(help.stdout.indexOf('\nAliases:\n'));
  for (const v of BABI_VERBS) assert.match(aliases, new RegExp(`\\n  ${verbName(v)} +dialogym babi ${verbName(v)}\\n`), verbName(v));
  assert.match(help.stdout, /\n  babi +bAbI dialog tasks/);
  assert.match(help.stdout, /\n  evaluate \[options\] +play an online environment.*`dialogym babi eval` scores\s+a\s+model\s+offline/s);
});

for (const c of CASES) {
  test(`dialogym ${c.alias.join(' ')} runs as dialogym ${c.now.join(' ')}`, () => {
    const now = bin(c.now);
    const output = now.code === 0 ? now.stdout : now.stderr;
    assert.equal(now.code, c.code, `${c.now.join(' ')}: ${now.stderr}`);
    assert.match(output, c.shows);
    assert.deepEqual(bin(c.alias), now);
  });
}

test('the other spellings of an alias: help <alias>, <alias> help <sub-verb>, after --debug', () => {
  for (const [alias, now] of [
    [['help', 'eval'], ['babi', 'eval', '--help']],
    [['kb', 'help', 'import'], ['babi', 'kb', 'import', '--help']],
    [['--debug', 'train', '--hlep'], ['--debug', 'babi', 'train', '--hlep']],
  ] as const) {
    assert.deepEqual(bin(alias), bin(now), alias.join(' '));
  }
  assert.match(bin(['help', 'eval']).stdout, /^Usage: dialogym babi eval /);
});

test('a mistyped alias gets its suggestion, as a mistyped verb does', () => {
  assert.deepEqual(bin(['evl']), { code: 2, stdout: '', stderr: "error: unknown command 'evl'\n(Did you mean eval?)\n" });
  assert.deepEqual(bin(['evalute']), { code: 2, stdout: '', stderr: "error: unknown command 'evalute'\n(Did you mean evaluate?)\n" });
});

test('an alias expands to its verb only where a verb is read', () => {
  assert.deepEqual(expandAlias(['eval', '--model', 'rules']), ['babi', 'eval', '--model', 'rules']);
  assert.deepEqual(expandAlias(['--debug', 'help', 'kb']), ['--debug', 'babi', 'help', 'kb']);
  assert.deepEqual(expandAlias(['evaluate', '--agent', 'eval']), ['evaluate', '--agent', 'eval']);
  assert.deepEqual(expandAlias(['dstc6', 'walk']), ['dstc6', 'walk']);
  assert.deepEqual(expandAlias(['babi', 'eval']), ['babi', 'eval']);
});

test("an alias's help is answered by the CommonJS help pages, as the new name's", () => {
  const evalPage = HELP_PAGES['babi eval'];
  assert.ok(evalPage !== undefined);
  assert.equal(helpPageOf(['eval', '--help'], HELP_PAGES), evalPage);
  assert.equal(helpPageOf(['help', 'eval'], HELP_PAGES), evalPage);
  assert.equal(helpPageOf(['babi', 'eval', '--help'], HELP_PAGES), evalPage);
  assert.equal(helpPageOf(['babi', 'kb', 'import', '-h'], HELP_PAGES), HELP_PAGES['babi kb import']);
  assert.equal(helpPageOf(['kb', 'help', 'import'], HELP_PAGES), HELP_PAGES['babi kb import']);
  assert.equal(helpPageOf(['evaluate', '--help'], HELP_PAGES), HELP_PAGES['evaluate']);
  assert.equal(helpPageOf(['nosuchverb', '--help'], HELP_PAGES), undefined);
});
