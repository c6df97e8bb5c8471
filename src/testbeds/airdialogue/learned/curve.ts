/**
 * The learning curve of a supervised training as a self-contained SVG: per epoch the training
 * and dev language-model loss (nats per token) and the dev state loss (nats per dialogue), the
 * selected (best dev) epoch marked.
 */
import type { EpochPoint } from './train.js';

const W = 640;
const H = 340;
const PAD = { l: 56, r: 16, t: 36, b: 44 };

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The SVG document of `curve` with `title` on top; `best` is the selected epoch. */
export function trainingCurveSvg(curve: readonly EpochPoint[], best: number, title: string): string {
  const series: { name: string; color: string; ys: number[] }[] = [
    { name: 'train LM loss / token', color: '#888', ys: curve.map((p) => p.trainLm) },
    { name: 'dev LM loss / token', color: '#1f77b4', ys: curve.map((p) => p.devLm) },
    { name: 'dev state loss / dialogue', color: '#ff7f0e', ys: curve.map((p) => p.devState) },
  ];
  const all = series.flatMap((s) => s.ys).filter((y) => Number.isFinite(y));
  const yMax = Math.max(1, Math.ceil(Math.max(0, ...all)));
  const xMax = Math.max(1, curve.length);
  const px = (x: number) => PAD.l + ((W - PAD.l - PAD.r) * (x - 1)) / Math.max(1, xMax - 1);
  const py = (y: number) => PAD.t + ((H - PAD.t - PAD.b) * (yMax - Math.min(y, yMax))) / yMax;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(`<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>`);
  for (let k = 0; k <= 4; k++) {
    const y = (yMax * k) / 4;
    out.push(`<line x1="${PAD.l}" x2="${W - PAD.r}" y1="${py(y).toFixed(1)}" y2="${py(y).toFixed(1)}" stroke="#ddd"/>`);
    out.push(`<text x="${PAD.l - 6}" y="${(py(y) + 4).toFixed(1)}" text-anchor="end">${y.toFixed(2)}</text>`);
  }
  for (const p of curve) out.push(`<text x="${px(p.epoch).toFixed(1)}" y="${H - PAD.b + 18}" text-anchor="middle">${p.epoch}</text>`);
  out.push(`<text x="${W / 2}" y="${H - 8}" text-anchor="middle">epoch</text>`);
  out.push(`<line x1="${PAD.l}" x2="${PAD.l}" y1="${PAD.t}" y2="${H - PAD.b}" stroke="#333"/><line x1="${PAD.l}" x2="${W - PAD.r}" y1="${H - PAD.b}" y2="${H - PAD.b}" stroke="#333"/>`);
  if (best >= 1) out.push(`<line x1="${px(best).toFixed(1)}" x2="${px(best).toFixed(1)}" y1="${PAD.t}" y2="${H - PAD.b}" stroke="#2ca02c" stroke-dasharray="4 3"/>`);
  series.forEach((s) => {
    const pts = s.ys.map((y, i) => `${px(i + 1).toFixed(1)},${py(y).toFixed(1)}`);
    out.push(`<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${pts.join(' ')}"/>`);
    s.ys.forEach((y, i) => out.push(`<circle cx="${px(i + 1).toFixed(1)}" cy="${py(y).toFixed(1)}" r="2.5" fill="${s.color}"/>`));
  });
  out.push(`<text x="${W - PAD.r - 4}" y="${PAD.t + 12}" text-anchor="end">${series.map((s) => `<tspan fill="${s.color}">${esc(s.name)}</tspan>`).join('  ')}  <tspan fill="#2ca02c">best dev epoch ${best}</tspan></text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}
