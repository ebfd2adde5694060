// Hand-written SVG bar chart of each implementation's ratio to native:
// horizontal bars (scenario names stay readable), one group per scenario, one
// bar per implementation, and a vertical line at 1.0x (native). Memory rows
// are left out: their ratio means "lower is better", which would read
// backwards next to throughput bars; the Markdown table has them.
import { formatRatio, metaLine } from './format.mjs';

const COLORS = { native: '#a0a0a0', fast: '#1f6fb4', peer: '#e07b12', 'node-stream': '#2b9a3e' };
const CAP = 4; // ratios above this are clipped and labelled, so one outlier cannot squash every other bar

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function renderSvg(result) {
  const impls = result.impls;
  const scenarios = result.scenarios.filter((s) => s.unit !== 'memory' && s.results.native);
  const ratios = scenarios.flatMap((s) => impls.map((i) => s.results[i.key]?.ratio).filter(Number.isFinite));
  const top = Math.min(CAP, Math.max(1.5, Math.ceil(Math.max(0, ...ratios) * 2) / 2));

  const width = 960;
  const labelRight = 250; // scenario names end here
  const x0 = 262;
  const x1 = width - 70; // room for value labels
  const barH = 12;
  const barGap = 2;
  const groupGap = 14;
  const headerH = 86;
  const x = (r) => x0 + (Math.min(r, top) / top) * (x1 - x0);

  const rowsOf = (s) => impls.filter((i) => s.results[i.key]);
  const groupH = (s) => rowsOf(s).length * (barH + barGap) - barGap;
  const plotH = scenarios.reduce((h, s) => h + groupH(s) + groupGap, 0);
  const height = headerH + plotH + 40;

  const parts = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="16" y="24" font-size="16" font-weight="bold">Throughput relative to native Web Streams (higher is better)</text>`);
  parts.push(`<text x="16" y="42" fill="#555">${esc(metaLine(result.meta))}</text>`);

  // Legend.
  let lx = 16;
  for (const i of impls) {
    parts.push(`<rect x="${lx}" y="54" width="12" height="12" fill="${COLORS[i.key]}"/>`);
    parts.push(`<text x="${lx + 16}" y="64">${esc(i.label)}</text>`);
    lx += 30 + i.label.length * 7;
  }

  // Grid and axis labels every 0.5x.
  const gridTop = headerH - 6;
  const gridBottom = headerH + plotH - groupGap + 6;
  for (let r = 0; r <= top + 1e-9; r += 0.5) {
    const gx = x(r).toFixed(1);
    parts.push(`<line x1="${gx}" y1="${gridTop}" x2="${gx}" y2="${gridBottom}" stroke="#e4e4e4"/>`);
    parts.push(`<text x="${gx}" y="${gridBottom + 16}" text-anchor="middle" fill="#555">${r.toFixed(1)}x</text>`);
  }

  let y = headerH;
  for (const s of scenarios) {
    const rows = rowsOf(s);
    const h = groupH(s);
    parts.push(`<text x="${labelRight}" y="${(y + h / 2 + 4).toFixed(1)}" text-anchor="end">${esc(s.name)}</text>`);
    rows.forEach((i, k) => {
      const r = s.results[i.key];
      const by = y + k * (barH + barGap);
      const title = `${s.name}, ${i.label}: ${r.error ? `failed: ${r.error}` : formatRatio(r.ratio)}`;
      if (r.error || !Number.isFinite(r.ratio)) {
        parts.push(`<text x="${x0 + 4}" y="${by + barH - 2}" fill="#b00020" font-size="11"><title>${esc(title)}</title>${esc(i.label)}: failed</text>`);
        return;
      }
      const w = Math.max(1, x(r.ratio) - x0);
      parts.push(`<rect x="${x0}" y="${by}" width="${w.toFixed(1)}" height="${barH}" fill="${COLORS[i.key]}"><title>${esc(title)}</title></rect>`);
      const clipped = r.ratio > top;
      parts.push(`<text x="${(x0 + w + 4).toFixed(1)}" y="${by + barH - 2}" font-size="11" fill="#333">${formatRatio(r.ratio)}${clipped ? ' (clipped)' : ''}</text>`);
    });
    y += h + groupGap;
  }

  // The native line goes on top of the bars.
  const nx = x(1).toFixed(1);
  parts.push(`<line x1="${nx}" y1="${gridTop}" x2="${nx}" y2="${gridBottom}" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="5 3"/>`);
  parts.push(`<text x="${nx}" y="${gridTop - 4}" text-anchor="middle" fill="#c0392b">native = 1.0x</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
