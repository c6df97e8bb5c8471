/**
 * The documentation's commands and links, read from the Markdown itself: every `dialogym …` command in
 * a shell block of README.md and docs/*.md (research notes apart), joined over `\` continuations,
 * with its verb path and flags; every relative link with its target file and anchor. Read by
 * `test/docs.test.ts` (verbs and flags exist, links resolve, the README stays short) and by
 * `bench/docs-sweep.ts` (runs every command).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './shared-data.js';

/** The pages a newcomer reads: the README, ARCHITECTURE.md and docs/*.md (not docs/notes/, not the generated API). */
export function docPages(): string[] {
  const docs = readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join('docs', f));
  return ['README.md', 'ARCHITECTURE.md', ...docs.sort()];
}

/** One command of a page: where it is, its text (continuations joined) and its words. */
export interface DocCommand {
  readonly page: string;
  readonly line: number;
  readonly text: string;
  /** Words after `dialogym` (quotes respected, `[…]` optional parts kept as they are written). */
  readonly words: readonly string[];
}

/** Splits a shell line into words, keeping quoted strings whole (quotes removed). */
export function shellWords(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let any = false;
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      any = true;
    } else if (/\s/.test(ch)) {
      if (cur !== '' || any) out.push(cur);
      cur = '';
      any = false;
    } else cur += ch;
  }
  if (cur !== '' || any) out.push(cur);
  return out;
}

/**
 * Per line of a page, whether it lies inside a shell code block (```, ```sh, ```bash, ```shell or
 * ```console, or the languages `langs` names; the fence lines themselves are not). Any fence opens a
 * block and the next fence closes it: the closing fence of a ```json block does not open a shell block.
 */
export function shellBlockLines(lines: readonly string[], langs: readonly string[] = ['sh', 'bash', 'shell', 'console']): boolean[] {
  let fence: 'shell' | 'other' | null = null;
  return lines.map((raw) => {
    if (/^\s*```/.test(raw)) {
      const lang = /^\s*```\s*(\S*)\s*$/.exec(raw)?.[1];
      fence = fence !== null ? null : lang !== undefined && (lang === '' || langs.includes(lang)) ? 'shell' : 'other';
      return false;
    }
    return fence === 'shell';
  });
}

/** The `dialogym` commands of the shell blocks of one page. */
export function docCommands(page: string, md = readFileSync(join(repoRoot, page), 'utf8')): DocCommand[] {
  const out: DocCommand[] = [];
  const lines = md.split('\n');
  const inShell = shellBlockLines(lines);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (!inShell[i]) continue;
    let text = raw.replace(/^\s*\$\s+/, '');
    const start = i;
    while (/\\\s*$/.test(text) && i + 1 < lines.length) text = text.replace(/\\\s*$/, ' ') + (lines[++i] as string).trim();
    const code = text.replace(/\s#\s.*$/, '').replace(/^\s*#.*$/, '').trim();
    const m = /(?:^|[;&|(]\s*|\bdo\s+)(?:npx\s+)?dialogym\s+(.*)$/.exec(code);
    if (!m) continue;
    const rest = (m[1] as string).split(/\s(?:&&|\|\||\|)\s|;/)[0] as string;
    out.push({ page, line: start + 1, text: code, words: shellWords(rest) });
  }
  return out;
}

/** A relative link of a page: its line, target path (from the repo root) and anchor. */
export interface DocLink {
  readonly page: string;
  readonly line: number;
  readonly target: string;
  readonly anchor: string | undefined;
}

/** The relative Markdown links `[text](path#anchor)` of a page (outside code blocks and spans). */
export function docLinks(page: string, md = readFileSync(join(repoRoot, page), 'utf8')): DocLink[] {
  const out: DocLink[] = [];
  const dir = page.includes('/') ? page.slice(0, page.lastIndexOf('/')) : '';
  let inCode = false;
  md.split('\n').forEach((raw, i) => {
    if (/^\s*```/.test(raw)) inCode = !inCode;
    if (inCode) return;
    const line = raw.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const href = m[1] as string;
      if (/^[a-z]+:/i.test(href)) continue; // http:, mailto:
      const [path, anchor] = href.split('#') as [string, string | undefined];
      const target = path === '' ? page : normalise(dir === '' ? path : `${dir}/${path}`);
      out.push({ page, line: i + 1, target, anchor: anchor === '' ? undefined : anchor });
    }
  });
  return out;
}

function normalise(p: string): string {
  const parts: string[] = [];
  for (const s of p.split('/')) {
    if (s === '..') parts.pop();
    else if (s !== '.' && s !== '') parts.push(s);
  }
  return parts.join('/');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped (but `-` and `_`), spaces to `-`. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown page's headings (duplicates get GitHub's `-1`, `-2` suffixes). */
export function pageAnchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let inCode = false;
  for (const raw of md.split('\n')) {
    if (/^\s*```/.test(raw)) inCode = !inCode;
    const m = inCode ? null : /^#{1,6}\s+(.*)$/.exec(raw);
    if (!m) continue;
    const base = headingAnchor(m[1] as string);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Words of the README's prose (code blocks included, as a reader reads them), for the length limit. */
export function wordCount(md: string): number {
  return md.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}
