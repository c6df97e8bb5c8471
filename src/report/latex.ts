/**
 * LaTeX tables in the booktabs style (`\toprule`, `\midrule`, `\bottomrule`, no vertical rules),
 * as a paper prints results: a `table` float with its caption and label around one `tabular`.
 * Needs `\usepackage{booktabs}` in the preamble; nothing else.
 */

/** Escapes the characters LaTeX reads as commands in running text (`& % $ # _ { } ~ ^ \`). */
export function latexEscape(s: string): string {
  return s.replace(/[\\&%$#_{}~^]/g, (c) => {
    switch (c) {
      case '\\':
        return '\\textbackslash{}';
      case '~':
        return '\\textasciitilde{}';
      case '^':
        return '\\textasciicircum{}';
      default:
        return `\\${c}`;
    }
  });
}

/**
 * One booktabs table. Cells are LaTeX already (escape text with `latexEscape`); every row has
 * one cell per column of `align`.
 */
export interface BooktabsTable {
  /** Column alignments, one letter each (`l`, `c`, `r`), e.g. `lrrr`. */
  readonly align: string;
  /** Header rows (the first under `\toprule`); a cell may span columns with `\multicolumn`, counted by its span. */
  readonly header: readonly (readonly string[])[];
  /** Body rows; `'midrule'` puts a `\midrule` between groups. */
  readonly body: readonly (readonly string[] | 'midrule')[];
  /** Caption (LaTeX). */
  readonly caption: string;
  /** `\label` key. */
  readonly label: string;
  /** Set in `\small` (default) or `\footnotesize` to fit a column. */
  readonly size?: 'small' | 'footnotesize';
  /** Across both columns of a two-column page (`table*`). */
  readonly wide?: boolean;
  /** `\cmidrule` lines under the first header row, e.g. `\cmidrule(lr){2-4}`. */
  readonly headerRules?: string;
}

/** The columns a row spans: its cells, a `\multicolumn{n}` counting n. */
export function rowSpan(cells: readonly string[]): number {
  return cells.reduce((n, c) => n + (Number(/^\\multicolumn\{(\d+)\}/.exec(c)?.[1] ?? 1)), 0);
}

/**
 * A `table` float with one booktabs `tabular`, ending in a newline; throws an Error for a row
 * whose span is not the number of columns (a programming error, not bad input).
 */
export function booktabsTable(t: BooktabsTable): string {
  const cols = t.align.length;
  const line = (cells: readonly string[]): string => {
    if (rowSpan(cells) !== cols) throw new Error(`booktabsTable: a row spans ${rowSpan(cells)} columns, the table has ${cols}: ${cells.join(' & ')}`);
    return `${cells.join(' & ')} \\\\`;
  };
  const env = t.wide ? 'table*' : 'table';
  const header = t.header.map(line);
  if (t.headerRules && header.length > 1) header.splice(1, 0, t.headerRules);
  return [
    `\\begin{${env}}[t]`,
    '\\centering',
    `\\${t.size ?? 'small'}`,
    `\\begin{tabular}{${t.align}}`,
    '\\toprule',
    ...header,
    '\\midrule',
    ...t.body.map((r) => (r === 'midrule' ? '\\midrule' : line(r))),
    '\\bottomrule',
    '\\end{tabular}',
    `\\caption{${t.caption}}`,
    `\\label{${t.label}}`,
    `\\end{${env}}`,
  ].join('\n') + '\n';
}
