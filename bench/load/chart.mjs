// A hand-written SVG bar chart of the load comparison: per route, the median
// requests/s of native and fast-webstreams over the rounds (bars, on a scale
// shared by the pair) with the range of the rounds (a whisker), the median
// fast/native ratio and the share of chunk operations on tiers 0 and 1.

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const ok = (n) => typeof n === 'number' && Number.isFinite(n);

export function renderSvg({ meta, rows }) {
  const width = 900;
  const left = 210;
  const right = 260;
  const barH = 18;
  const groupH = barH * 2 + 48;
  const top = 80;
  const height = top + rows.length * groupH + 40;
  const plotW = width - left - right;
  const colors = { native: '#8c8c8c', fast: '#1f6feb' };
  const subtitle = `Node ${meta.node}, ${meta.cores} cores, git ${meta.gitRev}; ${meta.rounds} rounds of ${meta.duration} s per route, ` +
    `${meta.connections} connections${meta.quick ? ' (--quick)' : ''}`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    '<text x="16" y="24" font-size="16" font-weight="600">Requests/s: native Web Streams vs fast-webstreams</text>',
    `<text x="16" y="44" fill="#555">${esc(subtitle)}</text>`,
    '<text x="16" y="62" fill="#555">bars: median over the rounds; whiskers: slowest to fastest round; ratio: median of the per-round ratios</text>',
  ];
  rows.forEach((row, i) => {
    const y = top + i * groupH;
    const max = Math.max(row.native.requestsPerSecond.max, row.fast.requestsPerSecond.max, 1);
    const xOf = (v) => left + Math.max(0, (ok(v) ? v : 0) / max) * plotW;
    parts.push(`<text x="${left - 10}" y="${y + barH + 4}" text-anchor="end" font-weight="600">${esc(row.route)}</text>`);
    ['native', 'fast'].forEach((impl, j) => {
      const s = row[impl].requestsPerSecond;
      const p99 = row[impl].latencyP99.median;
      const by = y + j * (barH + 2);
      const w = Math.max(1, xOf(s.median) - left);
      parts.push(`<rect x="${left}" y="${by}" width="${w.toFixed(1)}" height="${barH}" fill="${colors[impl]}"/>`);
      if (ok(s.min) && ok(s.max) && s.max > s.min) {
        const mid = by + barH / 2;
        const x1 = xOf(s.min).toFixed(1);
        const x2 = xOf(s.max).toFixed(1);
        parts.push(`<path d="M${x1} ${mid}H${x2}M${x1} ${by + 4}V${by + barH - 4}M${x2} ${by + 4}V${by + barH - 4}" stroke="#222" stroke-width="1.2" fill="none"/>`);
      }
      const label = `${ok(s.median) ? s.median.toFixed(0) : 'n/a'} req/s` +
        (ok(s.min) && s.max > s.min ? ` (${s.min.toFixed(0)}-${s.max.toFixed(0)})` : '') + `, p99 ${ok(p99) ? Math.round(p99) : 'n/a'} ms`;
      parts.push(`<text x="${(xOf(Math.max(s.median, s.max || 0)) + 6).toFixed(1)}" y="${by + barH - 5}" fill="#222">${esc(label)}</text>`);
    });
    const r = row.ratio;
    const ratioText = ok(r.median) ? `${r.median.toFixed(2)}x` + (r.max > r.min ? ` (${r.min.toFixed(2)}-${r.max.toFixed(2)})` : '') : 'n/a';
    const good = ok(r.median) && r.median >= 1;
    parts.push(`<text x="${left - 10}" y="${y + barH + 18}" text-anchor="end" fill="${good ? '#1a7f37' : '#cf222e'}">${esc(ratioText)}</text>`);
    const t = row.tiers;
    if (t && t.total > 0) {
      parts.push(`<text x="${left - 10}" y="${y + barH + 32}" text-anchor="end" fill="#666" font-size="11">${esc(`tiers 0+1: ${((t.share0 + t.share1) * 100).toFixed(0)}% of chunk ops`)}</text>`);
    }
    if (ok(row.cpuRatio?.median)) {
      parts.push(`<text x="${left - 10}" y="${y + barH + 45}" text-anchor="end" fill="#666" font-size="11">${esc(`server CPU/request: ${row.cpuRatio.median.toFixed(2)}x`)}</text>`);
    }
  });
  const ly = height - 18;
  parts.push(`<rect x="${left}" y="${ly - 10}" width="12" height="12" fill="${colors.native}"/><text x="${left + 18}" y="${ly}">native</text>`);
  parts.push(`<rect x="${left + 90}" y="${ly - 10}" width="12" height="12" fill="${colors.fast}"/><text x="${left + 108}" y="${ly}">fast-webstreams (--import fast-webstreams/register)</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
