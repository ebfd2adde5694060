// The load comparison as console tables and as Markdown.
import { TIER_COUNTERS } from './stats.mjs';
import { GLOSSARY, verdictLine } from './verdict.mjs';

const ok = (n) => n !== null && n !== undefined && !Number.isNaN(n);
const fmt = (n, digits = 0) => (ok(n) ? n.toFixed(digits) : 'n/a');
const pct = (x) => (ok(x) ? `${(x * 100).toFixed(0)}%` : 'n/a');
const x2 = (n) => (ok(n) ? `${n.toFixed(2)}x` : 'n/a');
/** "612 (590-640)": median and range. */
const medRange = (s, digits = 0) => (fmt(s.min, digits) === fmt(s.max, digits) ? fmt(s.median, digits)
  : `${fmt(s.median, digits)} (${fmt(s.min, digits)}-${fmt(s.max, digits)})`);
const ratioCell = (r) => (fmt(r.min, 2) === fmt(r.max, 2) ? x2(r.median) : `${x2(r.median)} (${fmt(r.min, 2)}-${fmt(r.max, 2)})`);
const latencyCell = (impl) => `${fmt(impl.latencyP50.median)} / ${fmt(impl.latencyP99.median)}`;

/** "92% (fused 30%, sync 62%) / 8%", or why there is no figure. */
export function tierCell(tiers) {
  if (!tiers) return 'n/a';
  if (tiers.total === 0) return tiers.streamsCreated > 0 ? 'no chunk counted' : 'counters idle';
  return `${pct(tiers.shareFused + tiers.shareSync)} (fused ${pct(tiers.shareFused)}, sync ${pct(tiers.shareSync)}) / ${pct(tiers.shareSpec)}`;
}

/** The tier-2 operations per request, largest first: "specReads 8.0, specPipeChunks 2.0". */
function tier2Cell(tiers) {
  if (!tiers || tiers.total === 0) return 'n/a';
  const parts = TIER_COUNTERS.spec.map((name) => [name, tiers.perRequest[name] ?? 0]).filter(([, v]) => v > 0)
    .sort((a, b) => b[1] - a[1]);
  return parts.length ? parts.map(([name, v]) => `${name} ${fmt(v, 1)}`).join(', ') : 'none';
}

/** Fallbacks per response, and the most frequent reasons (per response too): "2.00 (async-write 1.50, ...)". */
const fallbackCell = (tiers) => {
  if (!tiers || !tiers.counters.fallbacks) return '0';
  const per = (n) => fmt(tiers.requests > 0 ? n / tiers.requests : null, 2);
  const reasons = Object.entries(tiers.fallbackReasons ?? {}).sort((a, b) => b[1] - a[1]).slice(0, 3);
  return `${per(tiers.counters.fallbacks)}${reasons.length ? ` (${reasons.map(([r, c]) => `${r} ${per(c)}`).join(', ')})` : ''}`;
};

/** "1.62 / 1.21 (0.75x)": median server CPU ms per request, native / fast, and the median per-round ratio. */
function cpuCell(row) {
  const n = row.native.cpuMsPerRequest.median;
  const f = row.fast.cpuMsPerRequest.median;
  if (!ok(n) || !ok(f)) return 'n/a';
  return `${fmt(n, 2)} / ${fmt(f, 2)} (${x2(row.cpuRatio.median)})`;
}

const MAIN_HEADER = ['route', 'native req/s', 'fast req/s', 'fast/native', 'native p50/p99 ms', 'fast p50/p99 ms',
  'server CPU ms/req n / f', 'errors n/f/warm-up', 'chunk ops fused+sync / spec'];
const mainCells = (row) => (row.rounds === 0 ? [row.route, row.failure ? 'FAILED' : 'not measured', ...MAIN_HEADER.slice(2).map(() => 'n/a')] : [
  row.route,
  medRange(row.native.requestsPerSecond),
  medRange(row.fast.requestsPerSecond),
  ratioCell(row.ratio),
  latencyCell(row.native),
  latencyCell(row.fast),
  cpuCell(row),
  `${row.errors.native} / ${row.errors.fast} / ${row.errors.warmup}`,
  tierCell(row.tiers),
]);
const MAIN_LEFT = new Set([0, 8]);

const TIER_HEADER = ['route', 'ops/request', 'fused', 'sync', 'spec', 'spec ops/request', 'fused chains/req', 'fallbacks/response'];
const tierCells = (row) => {
  const t = row.tiers;
  return [
    row.route,
    fmt(t.opsPerRequest, 1),
    pct(t.shareFused),
    pct(t.shareSync),
    pct(t.shareSpec),
    tier2Cell(t),
    fmt(t.perRequest.fusedChains, 2),
    fallbackCell(t),
  ];
};
const TIER_LEFT = new Set([0, 5, 7]);

/**
 * A plain-text table no wider than maxWidth: when it would be wider, the widest
 * left-aligned columns (never the first) are clipped with "...".
 */
export function textTable(header, rows, left, maxWidth = 100) {
  const table = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...table.map((r) => r[i].length)));
  const total = () => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  while (total() > maxWidth) {
    const clippable = [...left].filter((i) => i > 0 && widths[i] > 12);
    if (clippable.length === 0) break;
    const widest = clippable.reduce((a, b) => (widths[b] > widths[a] ? b : a));
    widths[widest] = Math.max(12, widths[widest] - (total() - maxWidth));
  }
  const clip = (c, w) => (c.length > w ? `${c.slice(0, w - 3)}...` : c);
  const line = (r) => r.map((c, i) => (left.has(i) ? clip(c, widths[i]).padEnd(widths[i]) : clip(c, widths[i]).padStart(widths[i])))
    .join('  ').trimEnd();
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

const STATUS = {
  complete: null,
  failed: 'a server died during the run; what was measured before and after is below',
  interrupted: 'interrupted; what was measured before is below',
  aborted: 'the run stopped early; what was measured before is below',
};

// The terminal's main table: one line per route, under 100 columns.
const arrow = (a, b, digits = 0) => `${fmt(a, digits)} -> ${fmt(b, digits)}`;
const SHORT_HEADER = ['route', 'req/s n -> f', 'fast/native', 'p50 ms n -> f', 'p99 ms n -> f', 'CPU ms/req n -> f', 'errors', 'fused+sync'];
const shortCells = (row) => {
  if (row.rounds === 0) return [row.route, row.failure ? 'FAILED' : 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a', 'n/a'];
  const e = row.errors;
  return [
    row.failure ? `${row.route} (FAILED)` : row.route,
    arrow(row.native.requestsPerSecond.median, row.fast.requestsPerSecond.median),
    ratioCell(row.ratio),
    arrow(row.native.latencyP50.median, row.fast.latencyP50.median),
    arrow(row.native.latencyP99.median, row.fast.latencyP99.median),
    arrow(row.native.cpuMsPerRequest.median, row.fast.cpuMsPerRequest.median, 2),
    e.native + e.fast + e.warmup === 0 ? '0' : `${e.native}/${e.fast}/${e.warmup}`,
    row.tiers && row.tiers.total > 0 ? pct(row.tiers.shareFused + row.tiers.shareSync) : 'n/a',
  ];
};
const SHORT_LEFT = new Set([0]);

/** The failure section, as plain lines (terminal) or Markdown. */
function failureLines(failures, markdown) {
  const out = [];
  for (const f of failures) {
    const where = [f.route && `route ${f.route}`, f.phase === 'round' ? `round ${f.round}` : f.phase].filter(Boolean).join(', ');
    if (f.kind === 'error') {
      out.push(markdown ? `- ${where ? `${where}: ` : ''}${f.message}` : `- ${where ? `${where}: ` : ''}${f.message}`);
      continue;
    }
    const head = `${f.server} ${f.exit}${f.uptimeSeconds !== null ? ` after ${f.uptimeSeconds} s` : ''}${where ? ` (${where})` : ''}` +
      `${f.action ? `; ${f.action}` : ''}`;
    const cut = f.partialWindow ? `The window it cut short (not counted): ${f.partialWindow.requests} responses, ` +
      `${f.partialWindow.errors} errors.` : null;
    if (markdown) {
      out.push(`### ${head}`, '', `Command: \`${f.command}\``, '', ...(cut ? [cut, ''] : []),
        `Last ${f.tail.length} lines of its ${f.tailStream}:`, '', '```', ...(f.tail.length ? f.tail : ['(nothing)']), '```', '');
    } else {
      out.push(`- ${head}`, `  command: ${f.command}`, ...(cut ? [`  ${cut.toLowerCase()}`] : []),
        `  last ${f.tail.length} lines of its ${f.tailStream}:`, ...(f.tail.length ? f.tail : ['(nothing)']).map((l) => `  | ${l}`));
    }
  }
  return out;
}

export function renderTable({ meta, rows, failures = [] }) {
  const status = STATUS[meta.status ?? 'complete'];
  const out = [
    `Node ${meta.node}, ${meta.cores} cores, git ${meta.gitRev}; ${meta.rounds} rounds of ${meta.duration} s per route and ` +
      `implementation, ${meta.connections} connections${meta.codecs === false ? ', fast server with FAST_WEBSTREAMS_CODECS=0 (Node\'s codec classes)' : ''}` +
      `${meta.quick ? ' (--quick: not a measurement)' : ''}`,
  ];
  if (status) out.push(`RUN ${meta.status.toUpperCase()}: ${status}.`);
  out.push('', 'Verdict (fast-webstreams compared with native Web Streams):', ...rows.map((r) => `  ${verdictLine(r)}`), '',
    'n = native, f = fast-webstreams; medians over the rounds:', '',
    textTable(SHORT_HEADER, rows.map(shortCells), SHORT_LEFT), '');
  const measured = rows.filter((r) => r.rounds > 0);
  if (measured.length) {
    out.push('Chunk operations of the fast server per tier (summed over its measured windows):', '',
      textTable(TIER_HEADER, measured.map(tierCells), TIER_LEFT), '');
  }
  if (failures.length) out.push('FAILURES:', ...failureLines(failures, false), '');
  out.push(...GLOSSARY);
  return out.join('\n');
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

export function renderMarkdown({ meta, rows, failures = [] }) {
  const status = STATUS[meta.status ?? 'complete'];
  const measured = rows.filter((r) => r.rounds > 0);
  const out = [
    `# Load comparison: native Web Streams vs fast-webstreams (Node ${meta.node})`,
    '',
    `${meta.date}; ${meta.cores} cores (${meta.cpu}), ${meta.platform}; git ${meta.gitRev}; ` +
      `load average ${fmt(meta.loadAverageAtStart, 1)} at the start, ${fmt(meta.loadAverageAtEnd, 1)} at the end.`,
    `${describeRun(meta)}${meta.quick ? ' (`--quick`: a check that the command works, not a measurement)' : ''}` +
      `${meta.codecs === false ? '; the fast server keeps Node\'s codec classes (`FAST_WEBSTREAMS_CODECS=0`)' : ''}. ` +
      'The two servers run in separate processes (the upstream in a third); in each round a route\'s native and fast windows ' +
      'run back to back, and which goes first alternates between routes and rounds.',
    `Command: \`${meta.command}\`.`,
    '',
  ];
  if (status) out.push(`**Run ${meta.status}**: ${status}.`, '');
  out.push('## Verdict', '', ...rows.map((r) => `- ${verdictLine(r)}`), '');
  if (failures.length) out.push('## Failures', '', ...failureLines(failures, true));
  out.push(
    '## Details',
    '',
    ...GLOSSARY.map((l) => (l.startsWith('  ') ? `  ${l.trim()}` : `- ${l}`)),
    '',
    'Medians over the rounds, range (min-max) in parentheses. Server CPU: native / fast, and in parentheses the median ' +
      'per-round ratio fast/native. Errors: in the measured windows (native / fast) and in the warm-ups.',
    '',
    mdTable(MAIN_HEADER, rows.map(mainCells), MAIN_LEFT),
    '',
  );
  if (measured.length) {
    out.push(
      '## Tiers',
      '',
      'From the fast server\'s `/metrics`, scraped before and after each of its measured windows and summed over them. ' +
        'A chunk operation is one increment of a tier counter: fused (tier 0) = `fusedChunks` (a chunk a pipe wrote straight into a ' +
        'TransformStream of a fused chain, one per transform), sync (tier 1) = `syncReads + syncWrites + syncPipeChunks`, spec (tier 2) = ' +
        '`specReads + specWrites + specPipeChunks` (docs/metrics.md). A chunk is counted once per operation on it, so a chunk ' +
        'a pipe takes from a queue and writes into a sink counts twice.',
      '',
      mdTable(TIER_HEADER, measured.map(tierCells), TIER_LEFT),
      '',
      '## Over the run',
      '',
      'Requests/s of both servers second by second, and, on the same time axis, the fast server\'s chunk hops per ' +
        'second by tier (its /metrics scraped every second while it was driven): where a route leaves the fused and ' +
        'sync tiers, and whether that moves with the load.',
      '',
      `![requests/s and tier hits over the run](${meta.timelineSvg ?? 'timeline.svg'})`,
      '',
      '## Rounds',
      '',
      mdTable(ROUND_HEADER, roundRows(rows), new Set([1, 2])),
      '',
    );
  }
  out.push('Routes:', ...rows.map((r) => `- \`${r.route}\` (${r.app ?? 'example'} app, ${r.path}): ${r.label}`), '');
  const servers = Object.entries(meta.servers ?? {}).filter(([, s]) => s.pinned);
  if (servers.length) {
    out.push('Framework versions (pinned by the apps\' lock files):',
      ...servers.map(([name, s]) => `- ${name}: ${Object.entries(s.pinned).map(([p, v]) => `${p} ${v}`).join(', ')}`), '');
  }
  return out.join('\n');
}
