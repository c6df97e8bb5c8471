/**
 * The learning curve of a policy training as a self-contained SVG: the average return of each batch
 * (thin line: imitation batches in grey, REINFORCE batches in blue, smoothed over 10 batches) and the
 * greedy validation reward (orange dots), against the training dialogs played.
 */
import type { CurvePoint } from './reinforce.js';

const W = 720;
const H = 360;
const PAD = { l: 56, r: 16, t: 36, b: 44 };

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The learning curve of a training (module description above) as a self-contained SVG document
 * with `title` on top.
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from 'dialogym';
 * import { trainRlPolicy, learningCurveSvg } from 'dialogym/infobot';
 * const r = trainRlPolicy({ agent: 'rl-soft', split: 'small', episodes: 2000, imitation: 500 });
 * writeFileAtomic('out/rl-soft-small.svg', learningCurveSvg(r.curve, 'rl-soft, small KB'));
 * ```
 */
export function learningCurveSvg(curve: readonly CurvePoint[], title: string): string {
  const xs = curve.map((p) => p.episodes);
  const smooth = curve.map((_, i) => {
    const from = Math.max(0, i - 9);
    let s = 0;
    for (let k = from; k <= i; k++) s += (curve[k] as CurvePoint).reward;
    return s / (i - from + 1);
  });
  const valid = curve.filter((p) => p.validReward !== undefined);
  const ys = [...smooth, ...valid.map((p) => p.validReward as number), -1, 2];
  const yMin = Math.floor(Math.min(...ys) * 2) / 2;
  const yMax = Math.ceil(Math.max(...ys) * 2) / 2;
  const xMax = Math.max(1, ...xs);
  const px = (x: number): number => PAD.l + ((W - PAD.l - PAD.r) * x) / xMax;
  const py = (y: number): number => PAD.t + ((H - PAD.t - PAD.b) * (yMax - y)) / (yMax - yMin || 1);
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  out.push(`<text x="${W / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>`);
  for (let y = yMin; y <= yMax + 1e-9; y += 0.5) {
    out.push(`<line x1="${PAD.l}" x2="${W - PAD.r}" y1="${py(y).toFixed(1)}" y2="${py(y).toFixed(1)}" stroke="#ddd"/>`);
    out.push(`<text x="${PAD.l - 6}" y="${(py(y) + 4).toFixed(1)}" text-anchor="end">${y.toFixed(1)}</text>`);
  }
  for (let k = 0; k <= 4; k++) {
    const x = Math.round((xMax * k) / 4);
    out.push(`<text x="${px(x).toFixed(1)}" y="${H - PAD.b + 18}" text-anchor="middle">${x}</text>`);
  }
  out.push(`<text x="${W / 2}" y="${H - 8}" text-anchor="middle">training dialogs</text>`);
  out.push(`<text x="14" y="${H / 2}" text-anchor="middle" transform="rotate(-90 14 ${H / 2})">average reward</text>`);
  out.push(`<line x1="${PAD.l}" x2="${PAD.l}" y1="${PAD.t}" y2="${H - PAD.b}" stroke="#333"/><line x1="${PAD.l}" x2="${W - PAD.r}" y1="${H - PAD.b}" y2="${H - PAD.b}" stroke="#333"/>`);
  for (const phase of ['imitation', 'reinforce'] as const) {
    const pts = curve.map((p, i) => (p.phase === phase ? `${px(p.episodes).toFixed(1)},${py(smooth[i] as number).toFixed(1)}` : null)).filter((x) => x !== null);
    if (pts.length > 0) out.push(`<polyline fill="none" stroke="${phase === 'imitation' ? '#888' : '#1f77b4'}" stroke-width="1.5" points="${pts.join(' ')}"/>`);
  }
  for (const p of valid) out.push(`<circle cx="${px(p.episodes).toFixed(1)}" cy="${py(p.validReward as number).toFixed(1)}" r="3" fill="#ff7f0e"/>`);
  out.push(`<text x="${W - PAD.r - 4}" y="${PAD.t + 12}" text-anchor="end"><tspan fill="#888">imitation (rule agent)</tspan>  <tspan fill="#1f77b4">REINFORCE batch reward</tspan>  <tspan fill="#ff7f0e">● greedy validation</tspan></text>`);
  out.push('</svg>');
  return out.join('\n') + '\n';
}
