/**
 * `--help` without commander and without the ES module loader: the help page of the program and
 * of every verb and sub-verb, laid out as commander's `Help.formatHelp` lays it out (the usage
 * line, the description wrapped to the width, then each list of terms with their descriptions
 * padded and wrapped), from ./help-pages.json, the pages' parts as commander hands them to its
 * layout (a JSON file: `require` reads it with JSON.parse, ~3x cheaper than compiling the same
 * object as code). test/cli-startup.test.ts checks, for every page and several widths, that this gives
 * exactly commander's help; after changing a verb's flags or descriptions, rewrite the pages with
 * `npx tsc -p . && node dist/test/help-pages.js --write`.
 */
import { fstatSync, statSync } from 'node:fs';
import pages = require('./help-pages.json');
import { writeStdoutSync } from './plain-io.cjs';

/** One help page: what commander's `formatHelp` shows, before its layout. */
export interface HelpPage {
  /** The command's usage (`dialogym dstc6 score [options]`). */
  readonly usage: string;
  /** Its description ('' for none). */
  readonly description: string;
  /** The width of the longest term of the page (terms are padded to it). */
  readonly termWidth: number;
  /** Each list in order (`Arguments:`, `Options:`, `Commands:`): its heading and its [term, description] items. */
  readonly lists: readonly (readonly [heading: string, items: readonly (readonly [term: string, description: string])[]])[];
}

/** Below this width commander does not wrap (its Help.minWidthToWrap). */
const MIN_WIDTH_TO_WRAP = 40;

/** Commander's Help.boxWrap: `text` wrapped at whitespace to `width`, its line breaks kept. */
function boxWrap(text: string, width: number): string {
  if (width < MIN_WIDTH_TO_WRAP) return text;
  const wrapped: string[] = [];
  for (const line of text.split(/\r\n|\n/)) {
    const chunks = line.match(/[\s]*[^\s]+/g);
    if (chunks === null) {
      wrapped.push('');
      continue;
    }
    let sum = [chunks[0] as string];
    let sumWidth = (chunks[0] as string).length;
    for (const chunk of chunks.slice(1)) {
      if (sumWidth + chunk.length <= width) {
        sum.push(chunk);
        sumWidth += chunk.length;
        continue;
      }
      wrapped.push(sum.join(''));
      const next = chunk.trimStart(); // trim space at line break
      sum = [next];
      sumWidth = next.length;
    }
    wrapped.push(sum.join(''));
  }
  return wrapped.join('\n');
}

/** Commander's Help.formatItem: the term padded to `termWidth`, the description wrapped beside it. */
function formatItem(term: string, termWidth: number, description: string, helpWidth: number): string {
  if (!description) return `  ${term}`;
  const remaining = helpWidth - termWidth - 4;
  const shown = remaining < MIN_WIDTH_TO_WRAP || /\n[^\S\r\n]/.test(description) ? description : boxWrap(description, remaining).replace(/\n/g, `\n${' '.repeat(termWidth + 2)}`);
  return `  ${term.padEnd(termWidth)}  ${shown.replace(/\n/g, '\n  ')}`;
}

/** A page laid out for `helpWidth` columns, as commander prints it. */
export function formatHelpPage(page: HelpPage, helpWidth: number): string {
  const out = [`Usage: ${page.usage}`, ''];
  if (page.description.length > 0) out.push(boxWrap(page.description, helpWidth), '');
  for (const [heading, items] of page.lists) {
    if (items.length > 0) out.push(heading, ...items.map(([term, description]) => formatItem(term, page.termWidth, description, helpWidth)), '');
  }
  return out.join('\n');
}

/**
 * The page a command line asks for, when it only asks for help in one of the plain ways
 * commander reads alike: `--help` or `-h` after the words of a command (none for the program),
 * `help`, `help <verb>`, `<verb> help <sub-verb>`, an alias's (`eval --help`); undefined for anything else.
 */
export function helpPageOf(args: readonly string[], pages: Readonly<Record<string, HelpPage>>): HelpPage | undefined {
  const last = args[args.length - 1];
  // A bAbI verb's old top-level name is an alias of `babi <verb>` (commands/index.ts): `eval --help`
  // is `babi eval --help`, `help eval` is `babi help eval`.
  const page = (words: readonly string[]): HelpPage | undefined => {
    const key = words.join(' ');
    if (Object.hasOwn(pages, key)) return pages[key];
    const alias = `babi ${key}`;
    return words.length > 0 && Object.hasOwn(pages, alias) ? pages[alias] : undefined;
  };
  if ((last === '--help' || last === '-h') && args.length <= 4) return page(args.slice(0, -1));
  if (args[0] === 'help' && args.length <= 2) return page(args.slice(1));
  if (args.length === 3 && args[1] === 'help') return page([args[0] as string, args[2] as string]);
  return undefined;
}

/** Every page, by the words that name its command ('' for the program). */
export const HELP_PAGES = pages as unknown as Readonly<Record<string, HelpPage>>;

/**
 * The width commander wraps help to: the terminal's columns, else 80. Only a character device
 * other than /dev/null can be a terminal, so stdout's stream (node:tty alone costs ~1.5 ms, a
 * stream over /dev/null ~3 ms) is made only then.
 */
function helpWidth(): number {
  let device = false;
  try {
    const out = fstatSync(1);
    device = out.isCharacterDevice() && out.rdev !== statSync('/dev/null').rdev;
  } catch {
    // no stdout, or no /dev/null: ask the stream
    device = true;
  }
  return (device && process.stdout.isTTY ? process.stdout.columns : undefined) ?? 80;
}

/** Prints the help page `args` asks for (`helpPageOf`) as commander would, and says whether it did. */
export function printHelpPage(args: readonly string[]): boolean {
  const page = helpPageOf(args, HELP_PAGES);
  if (page === undefined) return false;
  writeStdoutSync(formatHelpPage(page, helpWidth()));
  return true;
}
