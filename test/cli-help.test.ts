/**
 * The help of every verb, walked on the fully loaded program (no process spawned): one spelling
 * per concept (docs/cli.md), old spellings only as documented hidden aliases that set the same
 * option, `--seed` defaulting to 1 everywhere, and every option with a default showing it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { buildProgram } from '../src/cli/program.js';
import { repoRoot } from './shared-data.js';
import { MEMN2N_TRAIN_DEFAULTS } from '../src/rankers/memn2n-train.js';
import { EMBEDDINGS_TRAIN_DEFAULTS } from '../src/rankers/embeddings-train.js';
import { HCN_TRAIN_DEFAULTS } from '../src/testbeds/restaurant/hcn/train.js';

interface VerbOption {
  readonly verb: string;
  readonly cmd: Command;
  readonly opt: Option;
}

function allOptions(program: Command): VerbOption[] {
  const out: VerbOption[] = [];
  const walk = (c: Command, path: string[]): void => {
    for (const s of c.commands) {
      const verb = [...path, s.name()].join(' ');
      for (const opt of s.options) if (opt.long !== '--help') out.push({ verb, cmd: s, opt });
      walk(s, [...path, s.name()]);
    }
  };
  walk(program, []);
  return out;
}

const program = await buildProgram();
const options = allOptions(program);
const visible = options.filter((o) => !o.opt.hidden);
/** Hidden options whose description says which option they stand for (`alias of --x`). */
const aliases = options.filter((o) => o.opt.hidden && /^alias of --/.test(o.opt.description));

/** The old spellings that no visible option may use (docs/cli.md, "The scheme"). */
const OLD_SPELLINGS = ['--n', '--examples', '--truth', '--max', '--batch-size', '--embed', '--output', '--size', '--count', '--num'];

/** One placeholder per concept flag, so `help` reads the same in every verb. */
const PLACEHOLDER: Record<string, string> = {
  '--seed': '<n>',
  '--kb-seed': '<n>',
  '--dialogs': '<n>',
  '--episodes': '<n>',
  '--batch': '<n>',
  '--dim': '<n>',
  '--max-results': '<n>',
  '--max-turns': '<n>',
  '--workers': '<n>',
  '--answers': '<file>',
  '--candidates': '<file>',
  '--transcripts': '<file>',
};

/** The alias table of docs/cli.md: verb, old spelling, now. */
function documentedAliases(): { verb: string; old: string; now: string }[] {
  const md = readFileSync(join(repoRoot, 'docs', 'cli.md'), 'utf8');
  const section = md.slice(md.indexOf('## Hidden aliases'), md.indexOf('## `--json`'));
  return [...section.matchAll(/^\| ([a-z0-9 -]+) \| `(--[a-z-]+)` \| `(--[a-z-]+)` \|$/gm)].map((m) => ({ verb: m[1] as string, old: m[2] as string, now: m[3] as string }));
}

test('one spelling per concept: no visible option uses an old spelling; concept flags read the same everywhere', () => {
  assert.ok(visible.length > 150, `only ${visible.length} options found`);
  for (const { verb, opt } of visible) {
    assert.ok(!OLD_SPELLINGS.includes(opt.long ?? ''), `${verb}: ${opt.flags} is an old spelling (docs/cli.md)`);
    const want = PLACEHOLDER[opt.long ?? ''];
    if (want !== undefined) assert.equal(opt.flags, `${opt.long} ${want}`, `${verb}: ${opt.flags}`);
  }
  // The counts: generated dialogs are --dialogs, simulated episodes --episodes.
  const verbsWith = (flag: string): string[] => visible.filter((o) => o.opt.long === flag).map((o) => o.verb);
  assert.deepEqual(verbsWith('--dialogs').sort(), ['airdialogue generate', 'babi demo', 'generate dstc6', 'generate restaurant']);
  assert.deepEqual(verbsWith('--episodes').sort(), ['airdialogue rl', 'airdialogue selfplay', 'airdialogue tables', 'evaluate', 'infobot eval', 'infobot table', 'infobot train']);
  assert.deepEqual(verbsWith('--answers').sort(), ['dstc6 score', 'dstc6 walk']);
});

test('every --seed defaults to 1 and says so in --help', () => {
  const seeds = visible.filter((o) => o.opt.long === '--seed');
  assert.ok(seeds.length >= 15, `${seeds.length} --seed options`);
  for (const { verb, cmd, opt } of seeds) {
    const shown = cmd.createHelp().optionDescription(opt);
    if (verb === 'babi train') assert.match(shown, /\(default: 1\)$/, verb); // per-model defaults, all 1
    else assert.equal(opt.defaultValue, 1, `${verb}: --seed defaults to ${String(opt.defaultValue)}`);
    assert.match(shown, /\(default: 1\)/, verb);
  }
});

test('every hidden alias is in docs/cli.md and sets the option it stands for', () => {
  const documented = documentedAliases();
  assert.equal(documented.length, 16, 'rows of the alias table');
  const found = aliases.map((a) => ({ verb: a.verb, old: a.opt.long as string, now: a.opt.description.replace(/^alias of /, '') }));
  const key = (a: { verb: string; old: string; now: string }): string => `${a.verb} ${a.old} → ${a.now}`;
  assert.deepEqual(found.map(key).sort(), documented.map(key).sort());
  for (const { verb, cmd, opt } of aliases) {
    const now = opt.description.replace(/^alias of /, '');
    const target = cmd.options.find((o) => o.long === now && !o.hidden);
    assert.ok(target, `${verb}: ${opt.long} stands for ${now}, which ${verb} does not have`);
    assert.equal(opt.attributeName(), target.attributeName(), `${verb}: ${opt.long}`);
    assert.match(cmd.helpInformation(), new RegExp(`${now}\\b`), `${verb}: ${now} shown`);
    assert.doesNotMatch(cmd.helpInformation(), new RegExp(`${opt.long} `), `${verb}: ${opt.long} hidden`);
  }
});

test('an alias parses like the option it stands for (same value, same checks)', async () => {
  // A fresh program: parseOptions stores the values on the commands.
  const fresh = allOptions(await buildProgram());
  const cmdOf = (verb: string): Command => (fresh.find((o) => o.verb === verb) as VerbOption).cmd;
  const parse = (verb: string, args: string[]): Record<string, unknown> => {
    const cmd = cmdOf(verb);
    cmd.parseOptions(args);
    return cmd.opts();
  };
  assert.equal(parse('airdialogue generate', ['--n', '7']).dialogs, 7);
  assert.equal(parse('airdialogue selfplay', ['--n', '9']).episodes, 9);
  assert.equal(parse('generate dstc6', ['--examples', '300']).dialogs, 300);
  assert.equal(parse('babi kb query', ['--max', '2']).maxResults, 2);
  assert.equal(parse('babi train', ['--batch-size', '16']).batch, 16);
  assert.equal(parse('infobot train', ['--embed', '12']).dim, 12);
  assert.equal(parse('babi chat', ['--seed', '5']).kbSeed, 5);
  assert.equal(parse('airdialogue splits', ['--train', '30']).trainDialogs, 30);
  assert.equal(parse('airdialogue tables', ['--splits', 'data/syn']).data, 'data/syn');
  assert.equal(parse('dstc6 score', ['--truth', 'a.answers.json']).answers, 'a.answers.json');
  assert.equal(parse('agent', ['--model', 'rules']).agent, 'rules');
  // The old spelling's value is checked as the new one's, with the old name in the message.
  assert.throws(() => parse('airdialogue generate', ['--n', '0']), /--n: must be >= 1, got 0/);
});

test('every option that takes a value shows its default, or says it is required', () => {
  const silent: string[] = [];
  for (const { verb, cmd, opt } of visible) {
    if (!opt.required && !opt.optional) continue; // a switch: off unless given
    const shown = cmd.createHelp().optionDescription(opt);
    if (opt.mandatory || /\bdefault\b|\(required\b/.test(shown)) continue;
    silent.push(`${verb} ${opt.flags}`);
  }
  assert.deepEqual(silent, []);
  // Hyper-parameters whose default depends on the model show each model's.
  const train = visible.filter((o) => o.verb === 'babi train');
  const desc = (flag: string): string => {
    const o = train.find((x) => x.opt.long === flag) as VerbOption;
    return o.cmd.createHelp().optionDescription(o.opt);
  };
  assert.ok(desc('--epochs').endsWith(`(default: memn2n ${MEMN2N_TRAIN_DEFAULTS.epochs}, embeddings ${EMBEDDINGS_TRAIN_DEFAULTS.epochs}, hcn ${HCN_TRAIN_DEFAULTS.epochs})`), desc('--epochs'));
  assert.ok(desc('--hops').endsWith(`(default: memn2n ${MEMN2N_TRAIN_DEFAULTS.hops})`), desc('--hops'));
  assert.ok(desc('--hidden').endsWith(`(default: hcn ${HCN_TRAIN_DEFAULTS.hidden})`), desc('--hidden'));
  assert.match(desc('--input'), /\(default: embeddings history, tfidf chosen on dev\)$/);
});
