// A hand-written SVG chart of the load comparison. Every bar is on ONE scale:
// requests/s relative to native in the same round (native = 1.0). The fast bar's
// length is the median of the per-round ratios (the figure printed next to it,
// so the two always agree); its whisker spans the lowest to the highest round.
// Absolute requests/s, p99 and CPU per request are printed as text.
import { failureReason } from './verdict.mjs';

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const ok = (n) => typeof n === 'number' && Number.isFinite(n);
const COLORS = { native: '#8c8c8c', fast: '#1f6feb', good: '#1a7f37', bad: '#cf222e', text: '#222', muted: '#595959', grid: '#e3e3e3' };

/** The scale's end and tick step: a round number at or above every whisker. */
export function scaleFor(rows) {
  const top = Math.max(1, ...rows.filter((r) => r.rounds > 0).map((r) => (ok(r.ratio.max) ? r.ratio.max : r.ratio.median)).filter(ok));
  const step = top <= 2 ? 0.25 : top <= 4 ? 0.5 : 1;
  return { max: Math.ceil((top * 1.02) / step) * step, step };
}

export function renderSvg({ meta, rows }) {
  const width = 900;
  const left = 172;
  const right = 120;
  const plotW = width - left - right;
  const barH = 20;
  const groupH = 2 * barH + 46;
  const top = 128;
  const height = top + rows.length * groupH + 76;
  const { max, step } = scaleFor(rows);
  const xOf = (v) => left + (Math.min(Math.max(v, 0), max) / max) * plotW;
  const subtitle = `Node ${meta.node}, ${meta.cores} cores, git ${meta.gitRev}; ${meta.rounds} rounds of ${meta.duration} s ` +
    `per route and implementation, ${meta.connections} connections${meta.quick ? ' (--quick: a check, not a measurement)' : ''}`;
  const p = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    '<text x="16" y="26" font-size="17" font-weight="600">fast-webstreams vs native Web Streams: requests per second</text>',
    `<text x="16" y="46" fill="${COLORS.muted}">${esc(subtitle)}</text>`,
    `<text x="16" y="64" fill="${COLORS.muted}">One scale for every bar: requests/s as a multiple of native's in the same round (native = 1.00x).</text>`,
    `<text x="16" y="80" fill="${COLORS.muted}">Blue bar: median of the per-round ratios; whisker: lowest to highest round. Longer is faster.</text>`,
    `<text x="16" y="96" fill="${COLORS.muted}">The ratio is green when fast-webstreams was faster in every round, red when slower in every round, black when the rounds disagree.</text>`,
  ];
  if (meta.status && meta.status !== 'complete') {
    p.push(`<text x="${width - 16}" y="26" text-anchor="end" font-weight="600" fill="${COLORS.bad}">run ${esc(meta.status)}</text>`);
  }
  // Axis: grid lines and tick labels, a darker line at 1.00x (native).
  // Grid lines only behind a route's bars, so no line runs through a failure's text.
  const ticks = [];
  for (let v = 0; v <= max + 1e-9; v += step) ticks.push(v);
  const grid = (y1, y2) => ticks.map((v) => {
    const x = xOf(v).toFixed(1);
    const isOne = Math.abs(v - 1) < 1e-9;
    return `<line x1="${x}" y1="${y1}" x2="${x}" y2="${y2}" stroke="${isOne ? '#555' : COLORS.grid}" stroke-width="${isOne ? 1.2 : 1}"${isOne ? ' stroke-dasharray="4 3"' : ''}/>`;
  });
  for (const v of ticks) {
    p.push(`<text x="${xOf(v).toFixed(1)}" y="${top - 14}" text-anchor="middle" fill="${COLORS.muted}" font-size="11">${Number(v.toFixed(2))}x</text>`);
  }
  rows.forEach((row, i) => {
    const y = top + i * groupH;
    p.push(`<text x="16" y="${y + 15}" font-weight="600" font-size="14">${esc(row.route)}</text>`);
    const side = [];
    if (row.rounds > 0) {
      side.push(`req/s ${row.native.requestsPerSecond.median.toFixed(0)} -> ${row.fast.requestsPerSecond.median.toFixed(0)}`);
      const p99n = row.native.latencyP99.median;
      const p99f = row.fast.latencyP99.median;
      if (ok(p99n) && ok(p99f)) side.push(`p99 ${Math.round(p99n)} -> ${Math.round(p99f)} ms`);
      const cpuN = row.native.cpuMsPerRequest.median;
      const cpuF = row.fast.cpuMsPerRequest.median;
      if (ok(cpuN) && ok(cpuF)) side.push(`CPU/req ${cpuN.toFixed(2)} -> ${cpuF.toFixed(2)} ms`);
      if (row.tiers?.total > 0) side.push(`fused+sync: ${((row.tiers.shareFused + row.tiers.shareSync) * 100).toFixed(0)}%`);
    }
    side.forEach((t, k) => p.push(`<text x="16" y="${y + 32 + k * 14}" fill="${COLORS.muted}" font-size="11">${esc(t)}</text>`));
    if (row.rounds === 0) {
      const why = row.failure ? `FAILED: ${failureReason(row.failure)}; nothing measured` : 'not measured';
      p.push(`<text paint-order="stroke" stroke="#fff" stroke-width="4" stroke-linejoin="round" x="${left}" y="${y + barH + 6}" font-weight="600" fill="${COLORS.bad}">${esc(why)}</text>`);
      return;
    }
    p.push(...grid(y - 8, y + 2 * barH + 12));
    const bars = [
      { impl: 'native', value: 1, label: 'native 1.00x' },
      { impl: 'fast', value: row.ratio.median, label: `${row.ratio.median.toFixed(2)}x` },
    ];
    bars.forEach(({ impl, value, label }, j) => {
      const by = y + j * (barH + 4);
      const w = Math.max(1, xOf(value) - left);
      p.push(`<rect x="${left}" y="${by}" width="${w.toFixed(1)}" height="${barH}" fill="${COLORS[impl]}"/>`);
      let end = xOf(value);
      if (impl === 'fast' && row.rounds > 1 && row.ratio.max > row.ratio.min) {
        const mid = by + barH / 2;
        const x1 = xOf(row.ratio.min).toFixed(1);
        const x2 = xOf(row.ratio.max).toFixed(1);
        p.push(`<path d="M${x1} ${mid}H${x2}M${x1} ${by + 4}V${by + barH - 4}M${x2} ${by + 4}V${by + barH - 4}" stroke="#111" stroke-width="1.3" fill="none"/>`);
        end = Math.max(end, xOf(row.ratio.max));
      }
      // Green or red only when every round agrees on the side of 1.00x.
      const unclear = row.rounds > 1 && row.ratio.min < 1 && row.ratio.max > 1;
      const color = impl === 'native' || unclear ? COLORS.text : value >= 1 ? COLORS.good : COLORS.bad;
      p.push(`<text paint-order="stroke" stroke="#fff" stroke-width="4" stroke-linejoin="round" x="${(end + 6).toFixed(1)}" y="${by + barH - 6}" fill="${color}"${impl === 'fast' ? ' font-weight="600"' : ''}>${esc(label)}</text>`);
    });
    if (row.failure) {
      p.push(`<text paint-order="stroke" stroke="#fff" stroke-width="4" stroke-linejoin="round" x="${left}" y="${y + 2 * barH + 20}" font-weight="600" fill="${COLORS.bad}">${esc(`FAILED: ${failureReason(row.failure)} (${row.rounds} of ${row.plannedRounds} rounds measured before)`)}</text>`);
    }
  });
  const ly = height - 50;
  p.push(`<rect x="16" y="${ly - 10}" width="12" height="12" fill="${COLORS.native}"/><text x="34" y="${ly}">native Web Streams</text>`);
  p.push(`<rect x="170" y="${ly - 10}" width="12" height="12" fill="${COLORS.fast}"/><text x="188" y="${ly}">fast-webstreams (node --import fast-webstreams/register)</text>`);
  p.push(`<text x="16" y="${ly + 22}" fill="${COLORS.muted}" font-size="11">Left of the bars: median requests/s and p99 latency (99% of requests were faster), native -> fast; server CPU time</text>`);
  p.push(`<text x="16" y="${ly + 36}" fill="${COLORS.muted}" font-size="11">per request (lower is better); share of fast-webstreams' chunk operations on its fused and sync tiers (0 and 1). docs/load.md</text>`);
  p.push('</svg>');
  return `${p.join('\n')}\n`;
}
