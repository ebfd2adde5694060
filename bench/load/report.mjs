// The load comparison as console tables and as Markdown.
import { TIER_COUNTERS } from './stats.mjs';

const ok = (n) => n !== null && n !== undefined && !Number.isNaN(n);
const fmt = (n, digits = 0) => (ok(n) ? n.toFixed(digits) : 'n/a');
const pct = (x) => (ok(x) ? `${(x * 100).toFixed(0)}%` : 'n/a');
const x2 = (n) => (ok(n) ? `${n.toFixed(2)}x` : 'n/a');
/** "612 (590-640)": median and range. */
const medRange = (s, digits = 0) => (fmt(s.min, digits) === fmt(s.max, digits) ? fmt(s.median, digits)
  : `${fmt(s.median, digits)} (${fmt(s.min, digits)}-${fmt(s.max, digits)})`);
const ratioCell = (r) => (fmt(r.min, 2) === fmt(r.max, 2) ? x2(r.median) : `${x2(r.median)} (${fmt(r.min, 2)}-${fmt(r.max, 2)})`);
const latencyCell = (impl) => `${fmt(impl.latencyP50.median)} / ${fmt(impl.latencyP99.median)}`;

/** "92% (t0 30%, t1 62%) / 8%", or why there is no figure. */
export function tierCell(tiers) {
  if (!tiers) return 'n/a';
  if (tiers.total === 0) return tiers.streamsCreated > 0 ? 'no chunk counted' : 'counters idle';
  return `${pct(tiers.share0 + tiers.share1)} (t0 ${pct(tiers.share0)}, t1 ${pct(tiers.share1)}) / ${pct(tiers.share2)}`;
}

/** The tier-2 operations per request, largest first: "specReads 8.0, specPipeChunks 2.0". */
function tier2Cell(tiers) {
  if (!tiers || tiers.total === 0) return 'n/a';
  const parts = TIER_COUNTERS.tier2.map((name) => [name, tiers.perRequest[name] ?? 0]).filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1]);
  return parts.length ? parts.map(([name, v]) => `${name} ${fmt(v, 1)}`).join(', ') : 'none';
}

const fallbackCell = (tiers) => {
  if (!tiers || !tiers.counters.fallbacks) return '0';
  const reasons = Object.entries(tiers.fallbackReasons ?? {}).sort((a, b) => b[1] - a[1]).slice(0, 3);
  return `${tiers.counters.fallbacks}${reasons.length ? ` (${reasons.map(([r, c]) => `${r} ${c}`).join(', ')})` : ''}`;
};

/** "1.62 / 1.21 (0.75x)": median server CPU ms per request, native / fast, and the median per-round ratio. */
function cpuCell(row) {
  const n = row.native.cpuMsPerRequest.median;
  const f = row.fast.cpuMsPerRequest.median;
  if (!ok(n) || !ok(f)) return 'n/a';
  return `${fmt(n, 2)} / ${fmt(f, 2)} (${x2(row.cpuRatio.median)})`;
}

const MAIN_HEADER = ['route', 'native req/s', 'fast req/s', 'fast/native', 'native p50/p99 ms', 'fast p50/p99 ms',
  'server CPU ms/req n / f', 'errors n/f/warm-up', 'chunk ops on tiers 0+1 / 2'];
const mainCells = (row) => [
  row.route,
  medRange(row.native.requestsPerSecond),
  medRange(row.fast.requestsPerSecond),
  ratioCell(row.ratio),
  latencyCell(row.native),
  latencyCell(row.fast),
  cpuCell(row),
  `${row.errors.native} / ${row.errors.fast} / ${row.errors.warmup}`,
  tierCell(row.tiers),
];
const MAIN_LEFT = new Set([0, 8]);

const TIER_HEADER = ['route', 'ops/request', 'tier 0', 'tier 1', 'tier 2', 'tier-2 ops per request', 'fused chains/request', 'fallbacks'];
const tierCells = (row) => {
  const t = row.tiers;
  return [
    row.route,
    fmt(t.opsPerRequest, 1),
    pct(t.share0),
    pct(t.share1),
    pct(t.share2),
    tier2Cell(t),
    fmt(t.perRequest.fusedChains, 2),
    fallbackCell(t),
  ];
};
const TIER_LEFT = new Set([0, 5, 7]);

function textTable(header, rows, left) {
  const table = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => (left.has(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function mdTable(header, rows, left) {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (left.has(i) ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function describeRun(meta) {
  return `${meta.rounds} round${meta.rounds === 1 ? '' : 's'} of ${meta.duration} s windows per route per implementation ` +
    `after ${meta.warmup} s of warm-up each, ${meta.connections} connections`;
}

export function renderTable({ meta, rows }) {
  return [
    `Node ${meta.node}, ${meta.cores} cores, git ${meta.gitRev}; ${describeRun(meta)}${meta.quick ? ' (--quick)' : ''}`,
    'Medians over the rounds, range in parentheses; fast/native = median of the per-round ratios;',
    'server CPU = the server process\'s user+system CPU time per request (lower is better; the ratio is fast/native).',
    '',
    textTable(MAIN_HEADER, rows.map(mainCells), MAIN_LEFT),
    '',
    'Tier shares of the fast server\'s counted chunk operations, summed over its measured windows (docs/load.md):',
    '',
    textTable(TIER_HEADER, rows.map(tierCells), TIER_LEFT),
  ].join('\n');
}

const ROUND_HEADER = ['round', 'route', 'first', 'native req/s', 'native p50/p99 ms', 'fast req/s', 'fast p50/p99 ms', 'fast/native',
  'server CPU ms/req n / f'];
const cpuPair = (n, f) => (ok(n.cpuMsPerRequest) && ok(f.cpuMsPerRequest) ? `${fmt(n.cpuMsPerRequest, 2)} / ${fmt(f.cpuMsPerRequest, 2)}` : 'n/a');

function roundRows(rows) {
  const out = [];
  const rounds = Math.max(0, ...rows.map((r) => r.rounds));
  for (let i = 0; i < rounds; i++) {
    for (const row of rows) {
      const n = row.native.windows[i];
      const f = row.fast.windows[i];
      if (!n || !f) continue;
      out.push([String(i + 1), row.route, n.first ? 'native' : 'fast', fmt(n.requestsPerSecond), `${n.latencyP50} / ${n.latencyP99}`,
        fmt(f.requestsPerSecond), `${f.latencyP50} / ${f.latencyP99}`, x2(row.ratio.perRound[i]), cpuPair(n, f)]);
    }
  }
  return out;
}

export function renderMarkdown({ meta, rows }) {
  const out = [
    `# Load comparison: native Web Streams vs fast-webstreams (Node ${meta.node})`,
    '',
    `${meta.date}; ${meta.cores} cores (${meta.cpu}), ${meta.platform}; git ${meta.gitRev}; ` +
      `load average ${fmt(meta.loadAverageAtStart, 1)} at the start, ${fmt(meta.loadAverageAtEnd, 1)} at the end.`,
    `${describeRun(meta)}${meta.quick ? ' (`--quick`: a check that the command works, not a measurement)' : ''}. ` +
      'The two servers run in separate processes (the upstream in a third); in each round a route\'s native and fast windows ' +
      'run back to back, and which goes first alternates between routes and rounds.',
    `Command: \`${meta.command}\`.`,
    '',
    'Medians over the rounds, range (min-max) in parentheses. fast/native is the median of the per-round ratios ' +
      '(each round pairs two adjacent windows). Server CPU is the user+system CPU time of the server process per request ' +
      '(from /proc; lower is better, the ratio in parentheses is fast/native): it depends much less than requests/s on what ' +
      'else the machine runs. Errors: connection errors, timeouts and non-2xx responses in the measured ' +
      'windows (native / fast) and in the warm-ups.',
    '',
    mdTable(MAIN_HEADER, rows.map(mainCells), MAIN_LEFT),
    '',
    '## Tiers',
    '',
    'From the fast server\'s `/metrics`, scraped before and after each of its measured windows and summed over them. ' +
      'A chunk operation is one increment of a tier counter: tier 0 = `fusedChunks` (a chunk a pipe wrote straight into a ' +
      'TransformStream of a fused chain, one per transform), tier 1 = `syncReads + syncWrites + syncPipeChunks`, tier 2 = ' +
      '`specReads + specWrites + specPipeChunks` (docs/metrics.md). A chunk is counted once per operation on it, so a chunk ' +
      'a pipe takes from a queue and writes into a sink counts twice.',
    '',
    mdTable(TIER_HEADER, rows.map(tierCells), TIER_LEFT),
    '',
    '## Rounds',
    '',
    mdTable(ROUND_HEADER, roundRows(rows), new Set([1, 2])),
    '',
    'Routes:',
    ...rows.map((r) => `- \`${r.route}\` (${r.path}): ${r.label}`),
    '',
  ];
  return out.join('\n');
}
