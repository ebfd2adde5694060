// Hand-written SVG bar chart of each implementation's ratio to native: one
// group per scenario, one bar per implementation, and a dashed line at 1.0x
// (native, whose own bar would always be that line). Bars grow from 1.0x to
// the right when faster and to the left when slower, on a log2 axis, so that
// 2x faster and 2x slower are the same length and the huge node:stream ratios
// do not flatten everything else; beyond the axis ends they are clipped and
// their value printed inside the bar. Memory rows are left out: their ratio
// means "lower is better", which would read backwards here; the Markdown
// table has them.
import { formatRatio, metaLine } from './format.mjs';

const COLORS = { fast: '#1f6fb4', 'fast-nocodecs': '#5a3fa0', 'fast-nocounters': '#8fbce6', peer: '#e07b12', 'node-stream': '#2b9a3e' };
const MIN_EXP = -4; // axis never wider than 1/16x .. 16x
const MAX_EXP = 4;

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function renderSvg(result) {
  const impls = result.impls.filter((i) => i.key !== 'native');
  const scenarios = result.scenarios.filter((s) => s.unit !== 'memory' && s.results.native && impls.some((i) => s.results[i.key]));
  const ratios = scenarios.flatMap((s) => impls.map((i) => s.results[i.key]?.ratio).filter((r) => Number.isFinite(r) && r > 0));
  const lo = Math.max(MIN_EXP, Math.min(-1, Math.floor(Math.log2(Math.min(1, ...ratios)))));
  const hi = Math.min(MAX_EXP, Math.max(1, Math.ceil(Math.log2(Math.max(1, ...ratios)))));

  const width = 980;
  const labelRight = 236; // scenario names end here
  const x0 = 250;
  const x1 = width - 24;
  const barH = 12;
  const barGap = 2;
  const groupGap = 14;
  const headerH = 96;
  const x = (r) => x0 + ((Math.min(hi, Math.max(lo, Math.log2(r))) - lo) / (hi - lo)) * (x1 - x0);
  const one = x(1);

  const rowsOf = (s) => impls.filter((i) => s.results[i.key]);
  const groupH = (s) => rowsOf(s).length * (barH + barGap) - barGap;
  const plotH = scenarios.reduce((h, s) => h + groupH(s) + groupGap, 0);
  const height = headerH + plotH + 44;

  const parts = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push('<text x="16" y="24" font-size="16" font-weight="bold">Speed relative to native Web Streams (right of the line = faster; log scale)</text>');
  parts.push(`<text x="16" y="42" fill="#555">${esc(metaLine(result.meta))}</text>`);

  // Legend: native is the dashed line, the others are bars.
  parts.push(`<line x1="16" y1="60" x2="34" y2="60" stroke="#c0392b" stroke-width="2" stroke-dasharray="5 3"/>`);
  parts.push('<text x="40" y="64">native (1.0x)</text>');
  let lx = 140;
  for (const i of impls) {
    parts.push(`<rect x="${lx}" y="54" width="12" height="12" fill="${COLORS[i.key]}"/>`);
    parts.push(`<text x="${lx + 16}" y="64">${esc(i.label)}</text>`);
    lx += 30 + i.label.length * 7;
  }

  // Grid at every power of two.
  const gridTop = headerH - 8;
  const gridBottom = headerH + plotH - groupGap + 6;
  for (let e = lo; e <= hi; e++) {
    const r = 2 ** e;
    const gx = x(r).toFixed(1);
    parts.push(`<line x1="${gx}" y1="${gridTop}" x2="${gx}" y2="${gridBottom}" stroke="#e4e4e4"/>`);
    parts.push(`<text x="${gx}" y="${gridBottom + 16}" text-anchor="middle" fill="#555">${r >= 1 ? r : `1/${1 / r}`}x</text>`);
  }
  parts.push(`<text x="${x0}" y="${gridBottom + 32}" fill="#777" font-size="11">slower than native</text>`);
  parts.push(`<text x="${x1}" y="${gridBottom + 32}" fill="#777" font-size="11" text-anchor="end">faster than native</text>`);

  let y = headerH;
  for (const s of scenarios) {
    const rows = rowsOf(s);
    const h = groupH(s);
    parts.push(`<text x="${labelRight}" y="${(y + h / 2 + 4).toFixed(1)}" text-anchor="end">${esc(s.name)}</text>`);
    rows.forEach((i, k) => {
      const r = s.results[i.key];
      const by = y + k * (barH + barGap);
      const ty = by + barH - 2;
      if (r.error || !(r.ratio > 0)) {
        const title = `${s.name}, ${i.label}: failed: ${r.error ?? 'no ratio'}`;
        parts.push(`<text x="${(one + 6).toFixed(1)}" y="${ty}" fill="#b00020" font-size="11"><title>${esc(title)}</title>${esc(i.label)}: failed</text>`);
        return;
      }
      const end = x(r.ratio);
      const left = Math.min(one, end);
      const w = Math.max(1.5, Math.abs(end - one));
      const label = formatRatio(r.ratio);
      parts.push(`<rect x="${left.toFixed(1)}" y="${by}" width="${w.toFixed(1)}" height="${barH}" fill="${COLORS[i.key]}"><title>${esc(`${s.name}, ${i.label}: ${label}`)}</title></rect>`);
      const clipped = Math.log2(r.ratio) > hi || Math.log2(r.ratio) < lo;
      const cramped = r.ratio >= 1 ? x1 - end < 44 : end - x0 < 44;
      if (clipped || cramped) {
        // No room outside the axis: print the value inside the bar's far end.
        const inside = r.ratio > 1 ? [end - 4, 'end'] : [end + 4, 'start'];
        parts.push(`<text x="${inside[0].toFixed(1)}" y="${ty}" font-size="11" font-weight="bold" fill="#fff" text-anchor="${inside[1]}">${!clipped ? label : r.ratio > 1 ? `${label} &#9656;` : `&#9666; ${label}`}</text>`);
      } else {
        const outside = r.ratio >= 1 ? [end + 4, 'start'] : [end - 4, 'end'];
        parts.push(`<text x="${outside[0].toFixed(1)}" y="${ty}" font-size="11" fill="#333" text-anchor="${outside[1]}">${label}</text>`);
      }
    });
    y += h + groupGap;
  }

  // The native line goes on top of the bars.
  parts.push(`<line x1="${one.toFixed(1)}" y1="${gridTop}" x2="${one.toFixed(1)}" y2="${gridBottom}" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="5 3"/>`);
  parts.push(`<text x="${one.toFixed(1)}" y="${gridTop - 4}" text-anchor="middle" fill="#c0392b">native = 1.0x</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
