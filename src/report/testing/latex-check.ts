/**
 * A compile-free check of LaTeX tables for the tests: environments balanced and properly nested,
 * braces balanced, and every row of every `tabular` spanning its column count.
 */
import { rowSpan } from '../latex.js';

/** What `checkLatex` found: each tabular's column count and rows, and the problems (empty = fine). */
export interface LatexCheck {
  readonly tabulars: { readonly columns: number; readonly rows: number }[];
  readonly problems: string[];
}

/** Splits a row on `&` outside braces. */
function cellsOf(row: string): string[] {
  const cells: string[] = [];
  let depth = 0;
  let cur = '';
  for (let i = 0; i < row.length; i++) {
    const ch = row[i] as string;
    if (ch === '\\' && i + 1 < row.length) {
      cur += ch + (row[++i] as string);
      continue;
    }
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    if (ch === '&' && depth === 0) {
      cells.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  cells.push(cur.trim());
  return cells;
}

/** Checks LaTeX text (module description). */
export function checkLatex(text: string): LatexCheck {
  const problems: string[] = [];
  const stack: string[] = [];
  const tabulars: { columns: number; rows: number }[] = [];
  let braces = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === '{') braces++;
    else if (ch === '}' && --braces < 0) problems.push(`unbalanced } at offset ${i}`);
  }
  if (braces > 0) problems.push(`${braces} unclosed {`);
  const env = /\\(begin|end)\{([a-z*]+)\}(?:\{([lcrp{}0-9.a-z]*)\})?/g;
  let current: { columns: number; rows: number; start: number } | undefined;
  for (let m = env.exec(text); m; m = env.exec(text)) {
    const [, kind, name, spec] = m as unknown as [string, string, string, string | undefined];
    if (kind === 'begin') {
      stack.push(name);
      if (name === 'tabular') current = { columns: (spec ?? '').replace(/p\{[^}]*\}/g, 'p').replace(/[^lcrp]/g, '').length, rows: 0, start: m.index + m[0].length };
    } else {
      const open = stack.pop();
      if (open !== name) problems.push(`\\end{${name}} closes \\begin{${open ?? 'nothing'}}`);
      if (name === 'tabular' && current) {
        const body = text.slice(current.start, m.index);
        for (const raw of body.split('\\\\')) {
          const row = raw.replace(/\\(toprule|midrule|bottomrule)/g, '').replace(/\\cmidrule(\([lr]+\))?\{[^}]*\}/g, '').trim();
          if (row === '') continue;
          current.rows++;
          const span = rowSpan(cellsOf(row));
          if (span !== current.columns) problems.push(`a row spans ${span} columns, its tabular has ${current.columns}: ${row.slice(0, 80)}`);
        }
        tabulars.push({ columns: current.columns, rows: current.rows });
        current = undefined;
      }
    }
  }
  for (const open of stack) problems.push(`\\begin{${open}} is never closed`);
  return { tabulars, problems };
}
