// A hand-written SVG bar chart of the load comparison: per route, native and
// fast-webstreams requests/s on a scale shared by the pair, with the ratio.

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function renderSvg({ meta, rows }) {
  const width = 860;
  const left = 170;
  const right = 190;
  const barH = 18;
  const groupH = barH * 2 + 34;
  const top = 64;
  const height = top + rows.length * groupH + 40;
  const plotW = width - left - right;
  const colors = { native: '#8c8c8c', fast: '#1f6feb' };
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="16" y="24" font-size="16" font-weight="600">Requests/s: native Web Streams vs fast-webstreams</text>`,
    `<text x="16" y="44" fill="#555">${esc(`Node ${meta.node}, ${meta.cores} cores, git ${meta.gitRev}, ${meta.duration} s per route, ${meta.connections} connections`)}</text>`,
  ];
  rows.forEach((row, i) => {
    const y = top + i * groupH;
    const max = Math.max(row.native.requestsPerSecond, row.fast.requestsPerSecond, 1);
    parts.push(`<text x="${left - 10}" y="${y + barH + 4}" text-anchor="end" font-weight="600">${esc(row.route)}</text>`);
    ['native', 'fast'].forEach((impl, j) => {
      const r = row[impl];
      const w = Math.max(1, (r.requestsPerSecond / max) * plotW);
      const by = y + j * (barH + 2);
      parts.push(`<rect x="${left}" y="${by}" width="${w.toFixed(1)}" height="${barH}" fill="${colors[impl]}"/>`);
      parts.push(`<text x="${left + w + 6}" y="${by + barH - 5}" fill="#222">${esc(`${r.requestsPerSecond.toFixed(0)} req/s, p99 ${r.latencyP99} ms`)}</text>`);
    });
    const ratioText = row.ratio === null ? 'n/a' : `${row.ratio.toFixed(2)}x`;
    const good = row.ratio !== null && row.ratio >= 1;
    parts.push(`<text x="${left - 10}" y="${y + barH + 18}" text-anchor="end" fill="${good ? '#1a7f37' : '#cf222e'}">${esc(ratioText)}</text>`);
    const t = row.tiers;
    if (t && t.total > 0) {
      parts.push(`<text x="${left - 10}" y="${y + barH + 32}" text-anchor="end" fill="#666" font-size="11">${esc(`tiers 0+1: ${((t.tier0 + t.tier1) / t.total * 100).toFixed(0)}% of chunks`)}</text>`);
    }
  });
  const ly = height - 18;
  parts.push(`<rect x="${left}" y="${ly - 10}" width="12" height="12" fill="${colors.native}"/><text x="${left + 18}" y="${ly}">native</text>`);
  parts.push(`<rect x="${left + 90}" y="${ly - 10}" width="12" height="12" fill="${colors.fast}"/><text x="${left + 108}" y="${ly}">fast-webstreams (--import fast-webstreams/register)</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
