/**
 * A dot plot in small multiples, as SVG, sized to be read at a paper's column width: one panel
 * per group (a model, a table), one row per item (a test set), our value as a filled dot with a
 * ± one-standard-deviation bar, the paper's as a hollow ring, and optionally the band a value
 * must fall in to count as reproduced. Colours from the Okabe–Ito palette (`palette.ts`); every
 * marker carries a `<title>` (the exact numbers) and data attributes for tests.
 */
import { CHART_COLOURS } from './palette.js';

/** One row of a panel. */
export interface DotRow {
  readonly label: string;
  /** Our value (mean) and its standard deviation over runs (0 or absent: no bar). */
  readonly ours?: { readonly mean: number; readonly sd?: number };
  /** The paper's value in the same setting (hollow ring). */
  readonly reference?: number;
  /** The interval that counts as reproduced (a grey band). */
  readonly band?: readonly [number, number];
  /** Hover text (the exact numbers). */
  readonly title?: string;
  /** `data-*` attributes of the row's markers (e.g. model, test). */
  readonly data?: Readonly<Record<string, string>>;
}

/** One panel: a title and its rows. */
export interface DotPanel {
  readonly title: string;
  readonly rows: readonly DotRow[];
}

/** What the plot says around its panels. */
export interface DotPlotOptions {
  /** Plain words: what is measured (no internal names). */
  readonly title: string;
  /** One line under the title (e.g. the number of seeds). */
  readonly subtitle?: string;
  /** The x axis's name and range. */
  readonly xLabel: string;
  readonly domain: readonly [number, number];
  readonly ticks: readonly number[];
  /** Panels side by side (default 2). */
  readonly columns?: number;
  /** Legend texts; an entry absent leaves its key out of the legend. */
  readonly legend: { readonly ours: string; readonly reference?: string; readonly band?: string };
  /** Digits of tick labels (default 0). */
  readonly tickDigits?: number;
  /** Width of the row labels (default 62 px, a test-set name). */
  readonly labelWidth?: number;
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const f = (x: number): string => x.toFixed(1);

/** The first lines of a chart's SVG (dialogym's charts: dot plots, the study's turn chart): the root element, a white background and the title. */
export function chartOpening(width: number, height: number, margin: number, title: string): string[] {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${f(height)}" viewBox="0 0 ${width} ${f(height)}" font-family="Helvetica, Arial, sans-serif" font-size="12" fill="${CHART_COLOURS.text}">`,
    `<rect width="${width}" height="${f(height)}" fill="#ffffff"/>`,
    `<text x="${margin}" y="20" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  ];
}

/** The dot plot (module description), ending in a newline. */
export function dotPlotSvg(panels: readonly DotPanel[], o: DotPlotOptions): string {
  const columns = Math.max(1, Math.min(o.columns ?? 2, panels.length));
  const width = 520;
  const margin = 12;
  const gutter = 18;
  const labelW = o.labelWidth ?? 62;
  const panelW = (width - 2 * margin - (columns - 1) * gutter) / columns;
  const rowH = 15;
  const panelTitleH = 20;
  const axisH = 30;
  const headerH = 28 + (o.subtitle ? 18 : 0) + 22;
  const gridRows: number[] = [];
  for (let i = 0; i < panels.length; i += columns) gridRows.push(Math.max(...panels.slice(i, i + columns).map((p) => p.rows.length)));
  const panelH = (rows: number): number => panelTitleH + rows * rowH + 6 + axisH;
  const height = headerH + gridRows.reduce((s, r) => s + panelH(r) + 10, 0) + 4;
  const [lo, hi] = o.domain;
  const out = chartOpening(width, height, margin, o.title);
  let y = 28;
  if (o.subtitle) {
    out.push(`<text x="${margin}" y="${y + 10}" font-size="12" fill="${CHART_COLOURS.muted}">${escapeXml(o.subtitle)}</text>`);
    y += 18;
  }
  // Legend: filled dot with a bar, hollow ring, band.
  let lx = margin;
  const ly = y + 12;
  out.push(`<line x1="${lx}" y1="${ly}" x2="${lx + 16}" y2="${ly}" stroke="${CHART_COLOURS.ours}" stroke-width="1.5"/><circle cx="${lx + 8}" cy="${ly}" r="4" fill="${CHART_COLOURS.ours}"/>`);
  out.push(`<text x="${lx + 22}" y="${ly + 4}">${escapeXml(o.legend.ours)}</text>`);
  lx += 22 + 7 * o.legend.ours.length + 16;
  if (o.legend.reference) {
    out.push(`<circle cx="${lx + 6}" cy="${ly}" r="4.5" fill="none" stroke="${CHART_COLOURS.reference}" stroke-width="1.8"/><text x="${lx + 16}" y="${ly + 4}">${escapeXml(o.legend.reference)}</text>`);
    lx += 16 + 7 * o.legend.reference.length + 16;
  }
  if (o.legend.band) out.push(`<rect x="${lx}" y="${ly - 5}" width="14" height="10" fill="${CHART_COLOURS.band}"/><text x="${lx + 20}" y="${ly + 4}">${escapeXml(o.legend.band)}</text>`);
  y = headerH;
  panels.forEach((p, i) => {
    const col = i % columns;
    const gridRow = Math.floor(i / columns);
    if (col === 0 && gridRow > 0) y += panelH(gridRows[gridRow - 1] as number) + 10;
    const x0 = margin + col * (panelW + gutter);
    const px0 = x0 + labelW;
    const pw = panelW - labelW - 6;
    const X = (v: number): number => px0 + (pw * (Math.min(hi, Math.max(lo, v)) - lo)) / (hi - lo);
    const top = y + panelTitleH;
    const bottom = top + p.rows.length * rowH + 6;
    out.push(`<g class="panel" data-title="${escapeXml(p.title)}">`);
    out.push(`<text x="${f(x0)}" y="${f(y + 13)}" font-weight="bold" font-size="12.5">${escapeXml(p.title)}</text>`);
    for (const t of o.ticks) out.push(`<line x1="${f(X(t))}" y1="${f(top)}" x2="${f(X(t))}" y2="${f(bottom)}" stroke="${CHART_COLOURS.grid}" stroke-width="0.8"/>`);
    p.rows.forEach((r, k) => {
      const cy = top + 3 + k * rowH + rowH / 2;
      const data = Object.entries(r.data ?? {}).map(([key, v]) => ` data-${key}="${escapeXml(v)}"`).join('');
      if (r.band) out.push(`<rect class="band"${data} x="${f(X(r.band[0]))}" y="${f(cy - 5)}" width="${f(Math.max(0.5, X(r.band[1]) - X(r.band[0])))}" height="10" fill="${CHART_COLOURS.band}"/>`);
      out.push(`<text x="${f(px0 - 6)}" y="${f(cy + 4)}" text-anchor="end">${escapeXml(r.label)}</text>`);
      const title = r.title ? `<title>${escapeXml(r.title)}</title>` : '';
      if (r.reference !== undefined) out.push(`<circle class="reference"${data} cx="${f(X(r.reference))}" cy="${f(cy)}" r="4.5" fill="none" stroke="${CHART_COLOURS.reference}" stroke-width="1.8">${title}</circle>`);
      if (r.ours) {
        const sd = r.ours.sd ?? 0;
        if (sd > 0) out.push(`<line class="sd"${data} x1="${f(X(r.ours.mean - sd))}" y1="${f(cy)}" x2="${f(X(r.ours.mean + sd))}" y2="${f(cy)}" stroke="${CHART_COLOURS.ours}" stroke-width="1.5"/>`);
        out.push(`<circle class="ours"${data} cx="${f(X(r.ours.mean))}" cy="${f(cy)}" r="3.5" fill="${CHART_COLOURS.ours}">${title}</circle>`);
      }
    });
    out.push(`<line x1="${f(px0)}" y1="${f(bottom)}" x2="${f(px0 + pw)}" y2="${f(bottom)}" stroke="${CHART_COLOURS.muted}" stroke-width="0.8"/>`);
    for (const t of o.ticks) out.push(`<text x="${f(X(t))}" y="${f(bottom + 13)}" text-anchor="middle" font-size="11">${t.toFixed(o.tickDigits ?? 0)}</text>`);
    out.push(`<text x="${f(px0 + pw / 2)}" y="${f(bottom + 26)}" text-anchor="middle" font-size="11" fill="${CHART_COLOURS.muted}">${escapeXml(o.xLabel)}</text>`);
    out.push('</g>');
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
