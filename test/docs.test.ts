/**
 * The documentation stays true to the program: the README is short, every relative link of the
 * README and docs/ resolves (file and heading), and every `dialogym …` command they show names a verb
 * that exists with flags that verb takes (`bench/docs-sweep.ts` runs them all).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/program.js';
import { expandAlias } from '../src/cli/commands/index.js';
import { creatableModels, trainableModels } from '../src/rankers/registry.js';
import { docCommands, docLinks, docPages, pageAnchors, shellWords, wordCount } from './docs-commands.js';
import { repoRoot } from './shared-data.js';

const read = (page: string): string => readFileSync(join(repoRoot, page), 'utf8');

test('the README is a guide a newcomer reads in five minutes: at most 1,500 words', () => {
  const n = wordCount(read('README.md'));
  assert.ok(n <= 1500, `README.md has ${n} words`);
  assert.ok(n > 300, `README.md has only ${n} words`);
});

test('every relative link of the README and docs/ (research notes too) resolves, headings included', () => {
  const problems: string[] = [];
  const notes = readdirSync(join(repoRoot, 'docs', 'notes')).filter((f) => f.endsWith('.md')).map((f) => `docs/notes/${f}`);
  const pages = [...docPages(), ...notes];
  for (const page of pages) {
    for (const l of docLinks(page)) {
      const path = join(repoRoot, l.target);
      if (!existsSync(path)) {
        problems.push(`${l.page}:${l.line}: ${l.target} does not exist`);
        continue;
      }
      if (l.anchor !== undefined && statSync(path).isFile() && l.target.endsWith('.md') && !pageAnchors(read(l.target)).has(l.anchor)) {
        problems.push(`${l.page}:${l.line}: ${l.target} has no heading #${l.anchor}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});

test('the link checker finds a broken file and a broken heading', () => {
  const md = 'see [a](docs/none.md) and [b](docs/cli.md#no-such-heading) and [c](docs/cli.md#every-verb-and-flag) and `[d](x.md)`\n';
  const links = docLinks('README.md', md);
  assert.deepEqual(links.map((l) => [l.target, l.anchor]), [['docs/none.md', undefined], ['docs/cli.md', 'no-such-heading'], ['docs/cli.md', 'every-verb-and-flag']]);
  assert.ok(pageAnchors(read('docs/cli.md')).has('every-verb-and-flag'));
  assert.ok(!pageAnchors(read('docs/cli.md')).has('no-such-heading'));
});

/** The command of a verb path (`dstc6 score`), or where the path stops matching. */
function resolveVerb(program: Command, words: readonly string[]): { cmd: Command; used: number } {
  let cmd = program;
  let used = 0;
  for (const w of words) {
    const sub = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
    if (!sub) break;
    cmd = sub;
    used++;
  }
  return { cmd, used };
}

test('every dialogym command in the README and docs/ names a real verb and only flags it takes', async () => {
  const program = await buildProgram();
  const globalFlags = new Set(['--help', '-h', '--debug', '--version', '-V']);
  const models = new Set([...creatableModels(), ...trainableModels()]);
  const problems: string[] = [];
  let commands = 0;
  for (const page of docPages()) {
    for (const c of docCommands(page)) {
      commands++;
      // an old top-level name (`dialogym eval`) is read as the verb it stands for (`babi eval`)
      const words = expandAlias(c.words);
      const { cmd, used } = resolveVerb(program, words);
      if (used === 0) {
        if (!words.every((w) => globalFlags.has(w.replace(/^\[|\]$/g, '')))) problems.push(`${c.page}:${c.line}: no verb in: dialogym ${c.words.join(' ')}`);
        continue;
      }
      if (cmd.commands.length > 0 && !words.slice(used).some((w) => globalFlags.has(w))) {
        problems.push(`${c.page}:${c.line}: "${words.slice(0, used).join(' ')}" needs a sub-verb (${cmd.commands.map((s) => s.name()).join(', ')})`);
        continue;
      }
      const known = new Set(cmd.options.flatMap((o) => [o.long, o.short].filter((x): x is string => x !== undefined)));
      for (const w of words.slice(used)) {
        const flag = w.replace(/^\[+/, '').replace(/\]+$/, '').split('=')[0] as string;
        if (!/^--?[a-zA-Z]/.test(flag)) continue;
        if (!known.has(flag) && !globalFlags.has(flag)) problems.push(`${c.page}:${c.line}: dialogym ${words.slice(0, used).join(' ')} has no flag ${flag}`);
      }
      // The restaurant verbs' --model names a registered model (a model file has a dot or a path).
      const verb = words.slice(0, used).join(' ');
      if (['babi eval', 'babi train', 'babi chat', 'serve'].includes(verb)) {
        const i = words.indexOf('--model');
        const name = i < 0 ? undefined : words[i + 1];
        if (name !== undefined && /^[a-z][a-z0-9+-]*$/.test(name) && !models.has(name)) problems.push(`${c.page}:${c.line}: dialogym ${verb} --model ${name}: no such model`);
      }
    }
  }
  assert.deepEqual(problems, []);
  assert.ok(commands > 80, `only ${commands} commands found`);
});

test('the command reader joins continuations, drops comments and keeps quoted words whole', () => {
  const md = ['```sh', 'dialogym evaluate --env x \\', '  --agent-cmd "python3 a.py" --json   # a comment', '# dialogym not-a-command', 'for s in 1 2; do dialogym eval --data f; done', '```', 'dialogym outside --a-block'].join('\n');
  const cs = docCommands('README.md', md);
  assert.deepEqual(cs.map((c) => [c.line, c.words]), [
    [2, ['evaluate', '--env', 'x', '--agent-cmd', 'python3 a.py', '--json']],
    [5, ['eval', '--data', 'f']],
  ]);
  assert.deepEqual(shellWords(`a 'b c' "" d`), ['a', 'b c', '', 'd']);
});
