// The load comparison as a console table and as Markdown.

const fmt = (n, digits = 0) => (n === null || n === undefined || Number.isNaN(n) ? 'n/a' : n.toFixed(digits));
const ratio = (x) => (x === null ? 'n/a' : `${x.toFixed(2)}x`);
const pct = (x) => `${(x * 100).toFixed(0)}%`;

/** "92% (t0 80%, t1 12%) / 8%", or why there is no figure. */
export function tierCell(tiers) {
  if (!tiers) return 'n/a';
  if (tiers.total === 0) return tiers.streamsCreated > 0 ? 'no chunk counted' : 'counters idle';
  const t0 = tiers.tier0 / tiers.total;
  const t1 = tiers.tier1 / tiers.total;
  return `${pct(t0 + t1)} (t0 ${pct(t0)}, t1 ${pct(t1)}) / ${pct(tiers.tier2 / tiers.total)}`;
}

const fallbackCell = (tiers) => {
  if (!tiers || !tiers.fallbacks) return '0';
  const reasons = Object.entries(tiers.fallbackReasons ?? {}).sort((a, b) => b[1] - a[1]).slice(0, 3);
  return `${tiers.fallbacks}${reasons.length ? ` (${reasons.map(([r, c]) => `${r} ${c}`).join(', ')})` : ''}`;
};

function cells(row) {
  const { native: n, fast: f } = row;
  return [
    row.route,
    fmt(n.requestsPerSecond),
    fmt(f.requestsPerSecond),
    ratio(row.ratio),
    `${fmt(n.latencyP50)} / ${fmt(n.latencyP99)}`,
    `${fmt(f.latencyP50)} / ${fmt(f.latencyP99)}`,
    `${n.errors + n.non2xx} / ${f.errors + f.non2xx}`,
    tierCell(row.tiers),
    fallbackCell(row.tiers),
  ];
}

const HEADER = ['route', 'native req/s', 'fast req/s', 'fast/native', 'native p50/p99 ms', 'fast p50/p99 ms',
  'errors n/f', 'chunks on tiers 0+1 / 2', 'fallbacks'];

export function renderTable({ meta, rows }) {
  const table = [HEADER, ...rows.map(cells)];
  const widths = HEADER.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (i === 0 || i >= 7 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [
    `Node ${meta.node}, ${meta.cores} cores, git ${meta.gitRev}; ${meta.duration} s per route per implementation, ${meta.connections} connections`,
    line(table[0]),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...table.slice(1).map(line),
  ].join('\n');
}

export function renderMarkdown({ meta, rows }) {
  const out = [
    `# Load comparison: native Web Streams vs fast-webstreams (Node ${meta.node})`,
    '',
    `${meta.date}; ${meta.cores} cores (${meta.cpu}), ${meta.platform}; git ${meta.gitRev}.`,
    `Each route: ${meta.warmup} s warm-up, then ${meta.duration} s measured per implementation with autocannon, ` +
      `${meta.connections} connections; the two servers run in separate processes (the upstream in a third), alternating which goes first.`,
    `Command: \`${meta.command}\`.`,
    '',
    `| ${HEADER.join(' | ')} |`,
    `| ${HEADER.map((_, i) => (i === 0 || i >= 7 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((r) => `| ${cells(r).join(' | ')} |`),
    '',
    'Routes:',
    ...rows.map((r) => `- \`${r.route}\` (${r.path}): ${r.label}`),
    '',
    'Tier columns come from the fast server\'s `/metrics`, scraped before and after each measured window: ' +
      'tier 0 = chunks moved by fused pipe chains, tier 1 = reads/writes/pipe chunks served synchronously, ' +
      'tier 2 = the same on the spec path (see docs/metrics.md).',
    '',
  ];
  return out.join('\n');
}
