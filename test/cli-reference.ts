/**
 * The flag reference of docs/cli.md ("## Every verb and flag"), made from the loaded program: one
 * section per verb and sub-verb (its usage line) with a table of its visible flags — name,
 * default (what `--help` shows after `default:`, `required`, or `—` for a switch) and meaning.
 * `test/cli-reference.test.ts` checks the page against it; after changing a verb's flags, rewrite
 * the section with `npx tsc -p . && node dist/test/cli-reference.js --write`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/program.js';
import { repoRoot } from './shared-data.js';

/** The heading of the generated section and the heading that follows it in docs/cli.md. */
export const REFERENCE_START = '## Every verb and flag';
export const REFERENCE_END = '## Flags that belong to some models only';

/** One visible flag of one verb, as `--help` shows it. */
export interface FlagRow {
  readonly flags: string;
  readonly defaultText: string;
  readonly meaning: string;
}

/** One verb or sub-verb: its usage line and its flags (none for a group of sub-verbs). */
export interface VerbReference {
  readonly verb: string;
  readonly usage: string;
  readonly summary: string;
  readonly flags: readonly FlagRow[];
}

/** Splits a help description into its meaning and its trailing `(default: …)` / `(required …)`. */
export function splitDefault(shown: string): { meaning: string; defaultText: string } {
  const text = shown.replace(/\s+/g, ' ').trim();
  if (text.endsWith(')')) {
    let depth = 0;
    for (let i = text.length - 1; i >= 0; i--) {
      if (text[i] === ')') depth++;
      else if (text[i] === '(' && --depth === 0) {
        const group = text.slice(i + 1, -1);
        const m = /^(default|required)\b:?\s*(.*)$/s.exec(group);
        if (m === null) break;
        return { meaning: text.slice(0, i).trim(), defaultText: m[1] === 'required' ? group : (m[2] as string) };
      }
    }
  }
  return { meaning: text, defaultText: '—' };
}

/** Every verb and sub-verb of the program with its visible flags, in help order. */
export function cliReference(program: Command): VerbReference[] {
  const out: VerbReference[] = [];
  const walk = (c: Command, path: string[]): void => {
    for (const s of c.commands) {
      const verbPath = [...path, s.name()];
      const help = s.createHelp();
      const flags = s.options
        .filter((o) => !o.hidden && o.long !== '--help')
        .map((o) => {
          const { meaning, defaultText } = splitDefault(help.optionDescription(o));
          return { flags: o.flags, defaultText: o.mandatory && defaultText === '—' ? 'required' : defaultText, meaning };
        });
      out.push({ verb: verbPath.join(' '), usage: `dialogym ${verbPath.join(' ')} ${s.usage()}`, summary: s.description().replace(/\s+/g, ' '), flags });
      walk(s, verbPath);
    }
  };
  walk(program, []);
  return out;
}

/** A table cell: GitHub's tables split on `|` even inside code spans. */
const cell = (s: string): string => s.replace(/\|/g, '\\|');
/** Markdown text: outside code spans, `<name>` would be read as an HTML tag and vanish. */
const markdownText = (s: string): string =>
  s
    .split('`')
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/&/g, '&amp;').replace(/</g, '&lt;')))
    .join('`');

/** The Markdown of the section (from its heading up to, not including, the next section). */
export function renderReference(verbs: readonly VerbReference[]): string {
  const lines = [
    REFERENCE_START,
    '',
    'Made from the program itself (`test/cli-reference.ts`; `test/cli-reference.test.ts` checks every',
    "flag's name and default against `--help`). Every verb also takes `-h, --help`; `dialogym --debug`",
    'prints stack traces on errors, `dialogym -V` the version. Defaults: what `--help` shows, `required`',
    'for a flag the verb needs, `—` for a switch (off unless given).',
    '',
  ];
  for (const v of verbs) {
    lines.push(`### ${v.verb}`, '', `\`${v.usage}\` — ${markdownText(v.summary)}`, '');
    if (v.flags.length === 0) continue;
    lines.push('| flag | default | meaning |', '|---|---|---|');
    for (const f of v.flags) lines.push(`| \`${cell(f.flags)}\` | ${cell(markdownText(f.defaultText))} | ${cell(markdownText(f.meaning))} |`);
    lines.push('');
  }
  return lines.join('\n');
}

/** docs/cli.md with the section replaced by `section`. */
export function replaceSection(md: string, section: string): string {
  const start = md.indexOf(REFERENCE_START);
  const end = md.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error(`docs/cli.md: no "${REFERENCE_START}" section before "${REFERENCE_END}"`);
  return `${md.slice(0, start)}${section}\n${md.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) {
  const file = join(repoRoot, 'docs', 'cli.md');
  writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), renderReference(cliReference(await buildProgram()))));
  console.log(`wrote ${file}`);
}
