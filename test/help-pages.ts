/**
 * The help pages of src/cli/help-pages.json, made from the fully loaded program: for the program
 * and every verb and sub-verb, the parts commander's `Help.formatHelp` lays out (usage,
 * description, term width, each list's heading and items), taken from the calls formatHelp makes
 * to format each item and list. test/cli-startup.test.ts checks the file against them and the
 * CommonJS entry's layout against commander's; after changing a verb's flags or descriptions,
 * rewrite the file with `npx tsc -p . && node dist/test/help-pages.js --write`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command, Help } from 'commander';
import { buildProgram } from '../src/cli/program.js';
import type { HelpPage } from '../src/cli/help.cjs';
import { repoRoot } from './shared-data.js';

export const HELP_PAGES_FILE = join(repoRoot, 'src', 'cli', 'help-pages.json');

/** One command's page: what formatHelp hands to formatItem and formatItemList. */
function pageOf(cmd: Command): HelpPage {
  const helper = cmd.createHelp() as Help & { formatItemList(heading: string, items: string[], helper: Help): string[] };
  const items: [string, string][] = [];
  const lists: [string, [string, string][]][] = [];
  let termWidth = 0;
  helper.formatItem = (term: string, width: number, description: string): string => {
    termWidth = width;
    items.push([term, description]);
    return String(items.length - 1);
  };
  helper.formatItemList = (heading: string, list: string[]): string[] => {
    if (list.length > 0) lists.push([heading, list.map((i) => items[Number(i)] as [string, string])]);
    return [];
  };
  helper.formatHelp(cmd, helper);
  return { usage: helper.commandUsage(cmd), description: helper.commandDescription(cmd), termWidth, lists };
}

/** Every page of `program`, by the words that name the command ('' for the program). */
export function helpPages(program: Command): Record<string, HelpPage> {
  const pages: Record<string, HelpPage> = {};
  const visit = (cmd: Command, words: readonly string[]): void => {
    pages[words.join(' ')] = pageOf(cmd);
    for (const sub of cmd.commands) visit(sub, [...words, sub.name()]);
  };
  visit(program, []);
  return pages;
}

/** The text of src/cli/help-pages.json for `pages`: JSON, an item a line. */
export function renderHelpPages(pages: Record<string, HelpPage>): string {
  const j = JSON.stringify;
  const list = ([heading, items]: HelpPage['lists'][number]): string => `[${j(heading)}, [\n${items.map((item) => `  ${j(item)}`).join(',\n')}\n]]`;
  const page = ([key, p]: [string, HelpPage]): string =>
    `${j(key)}: {"usage": ${j(p.usage)}, "description": ${j(p.description)}, "termWidth": ${p.termWidth}, "lists": [\n${p.lists.map(list).join(',\n')}\n]}`;
  return `{\n${Object.entries(pages).map(page).join(',\n\n')}\n}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) {
  writeFileSync(HELP_PAGES_FILE, renderHelpPages(helpPages(await buildProgram())));
}
