/**
 * The turn distributions of a study as a print-ready SVG: small multiples, one panel per agent,
 * a bar per number of turns (the share of its dialogues), the mean marked, the same axes in every
 * panel so they compare at a glance; Okabe–Ito colours (`report/palette.ts`), every bar with a
 * `<title>` (the exact count) and data attributes for tests.
 */
import { CHART_COLOURS } from '../report/palette.js';
import { chartOpening, escapeXml } from '../report/dotplot.js';

/** One agent's turns: dialogues per number of turns, and the mean. */
export interface TurnPanel {
  readonly label: string;
  /** turns → dialogues. */
  readonly counts: ReadonlyMap<number, number>;
  readonly mean: number;
}

const f = (x: number): string => x.toFixed(1);

/**
 * The chart (module description), ending in a newline.
 *
 * @example
 * ```ts
 * import { turnsChartSvg } from 'dialogym';
 * const svg = turnsChartSvg([{ label: 'rl-soft', counts: new Map([[2, 10], [3, 25], [5, 15]]), mean: 3.4 }], { title: 'Turns per dialogue' });
 * ```
 */
export function turnsChartSvg(panels: readonly TurnPanel[], o: { readonly title: string; readonly subtitle?: string }): string {
  const width = 520;
  const margin = 12;
  const gutter = 18;
  const columns = Math.max(1, Math.min(2, panels.length));
  const panelW = (width - 2 * margin - (columns - 1) * gutter) / columns;
  const plotH = 90;
  const panelH = 26 + plotH + 34;
  const headerH = 28 + (o.subtitle ? 18 : 0) + 8;
  const rows = Math.ceil(panels.length / columns);
  const height = headerH + rows * (panelH + 10) + 4;
  let maxTurns = 1;
  let maxShare = 0;
  for (const p of panels) {
    const n = [...p.counts.values()].reduce((s, c) => s + c, 0);
    for (const [t, c] of p.counts) {
      maxTurns = Math.max(maxTurns, t);
      if (n > 0) maxShare = Math.max(maxShare, c / n);
    }
  }
  const top = Math.max(0.1, Math.ceil(maxShare * 10) / 10);
  const out = chartOpening(width, height, margin, o.title);
  if (o.subtitle) out.push(`<text x="${margin}" y="38" font-size="12" fill="${CHART_COLOURS.muted}">${escapeXml(o.subtitle)}</text>`);
  panels.forEach((p, i) => {
    const x0 = margin + (i % columns) * (panelW + gutter);
    const y0 = headerH + Math.floor(i / columns) * (panelH + 10);
    const axisW = 30;
    const px0 = x0 + axisW;
    const pw = panelW - axisW - 4;
    const base = y0 + 26 + plotH;
    const slot = pw / maxTurns;
    const Y = (share: number): number => base - (plotH * share) / top;
    const n = [...p.counts.values()].reduce((s, c) => s + c, 0);
    out.push(`<g class="panel" data-agent="${escapeXml(p.label)}">`);
    out.push(`<text x="${f(x0)}" y="${f(y0 + 13)}" font-weight="bold" font-size="12.5">${escapeXml(p.label)} <tspan font-weight="normal" fill="${CHART_COLOURS.muted}">(${n} dialogue${n === 1 ? '' : 's'})</tspan></text>`);
    for (const s of [0, top / 2, top]) {
      out.push(`<line x1="${f(px0)}" y1="${f(Y(s))}" x2="${f(px0 + pw)}" y2="${f(Y(s))}" stroke="${CHART_COLOURS.grid}" stroke-width="0.8"/>`);
      out.push(`<text x="${f(px0 - 4)}" y="${f(Y(s) + 4)}" text-anchor="end" font-size="10">${Math.round(s * 100)}%</text>`);
    }
    for (let t = 1; t <= maxTurns; t++) {
      const c = p.counts.get(t) ?? 0;
      const share = n > 0 ? c / n : 0;
      const x = px0 + (t - 1) * slot;
      if (c > 0) out.push(`<rect class="bar" data-agent="${escapeXml(p.label)}" data-turns="${t}" data-count="${c}" x="${f(x + slot * 0.12)}" y="${f(Y(share))}" width="${f(slot * 0.76)}" height="${f(base - Y(share))}" fill="${CHART_COLOURS.ours}"><title>${escapeXml(`${p.label}: ${c} of ${n} dialogue${n === 1 ? '' : 's'} took ${t} turn${t === 1 ? '' : 's'}`)}</title></rect>`);
      if (maxTurns <= 20 || t % 5 === 0 || t === 1) out.push(`<text x="${f(x + slot / 2)}" y="${f(base + 12)}" text-anchor="middle" font-size="10">${t}</text>`);
    }
    if (n > 0) {
      const mx = px0 + (p.mean - 0.5) * slot;
      out.push(`<line class="mean" data-agent="${escapeXml(p.label)}" x1="${f(mx)}" y1="${f(y0 + 26)}" x2="${f(mx)}" y2="${f(base)}" stroke="${CHART_COLOURS.reference}" stroke-width="1.5" stroke-dasharray="3 2"><title>${escapeXml(`${p.label}: mean ${p.mean.toFixed(2)} turns`)}</title></line>`);
    }
    out.push(`<text x="${f(px0 + pw / 2)}" y="${f(base + 26)}" text-anchor="middle" font-size="11" fill="${CHART_COLOURS.muted}">turns (dashed: mean)</text>`);
    out.push('</g>');
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
