// One line per route that says what the run found, for the top of every
// output: "proxy: 1.68x requests/s (rounds 1.54-2.07), p99 119 -> 49 ms,
// CPU/request 1.98 -> 1.26 ms, no errors" or "proxy: FAILED (fast server exited with code 1 in round 2)".

const ok = (n) => typeof n === 'number' && Number.isFinite(n);

/** "fast server exited with code 1 in round 2" */
export function failureReason(f) {
  const where = f.phase === 'warm-up' ? 'during the warm-up' : f.phase === 'start-up' ? 'at start-up'
    : f.round ? `in round ${f.round}` : '';
  return [f.reason ?? `${f.server} ${f.exit}`, where].filter(Boolean).join(' ');
}

/** Where a fast server's body first differs from the native one's. */
export function bodyDifference(native, fast) {
  let i = 0;
  while (i < native.length && i < fast.length && native[i] === fast[i]) i++;
  const around = (b) => JSON.stringify(b.subarray(Math.max(0, i - 20), i + 40).toString());
  return `a body unlike native's (${fast.length} bytes, native ${native.length}; first difference at byte ${i}: ` +
    `${around(fast)}, native ${around(native)})`;
}

export function verdictLine(row) {
  if (row.failure) {
    const measured = row.rounds > 0 ? `; ${row.rounds} of ${row.plannedRounds} rounds measured before it, ` +
      `${ok(row.ratio.median) ? `${row.ratio.median.toFixed(2)}x` : 'n/a'} requests/s` : '';
    return `${row.route}: FAILED (${failureReason(row.failure)}${measured})`;
  }
  if (row.rounds === 0) return `${row.route}: not measured`;
  const r = row.ratio;
  const parts = [];
  let head = `${r.median.toFixed(2)}x requests/s`;
  if (row.rounds > 1 && r.max > r.min) {
    head += ` (rounds ${r.min.toFixed(2)}-${r.max.toFixed(2)}${r.min < 1 && r.max > 1 ? ': no clear difference' : ''})`;
  }
  parts.push(head);
  const p99n = row.native.latencyP99.median;
  const p99f = row.fast.latencyP99.median;
  if (ok(p99n) && ok(p99f)) parts.push(`p99 ${Math.round(p99n)} -> ${Math.round(p99f)} ms`);
  const cpuN = row.native.cpuMsPerRequest?.median;
  const cpuF = row.fast.cpuMsPerRequest?.median;
  if (ok(cpuN) && ok(cpuF)) parts.push(`CPU/request ${cpuN.toFixed(2)} -> ${cpuF.toFixed(2)} ms`);
  const t = row.tokensPerSecond;
  if (t && ok(t.native) && ok(t.fast)) parts.push(`tokens/s ${Math.round(t.native)} -> ${Math.round(t.fast)}`);
  const e = row.errors;
  const errors = e.native + e.fast + e.warmup;
  parts.push(errors === 0 ? 'no errors' : `${errors} errors (native ${e.native}, fast ${e.fast}, warm-ups ${e.warmup})`);
  if (row.plannedRounds && row.rounds < row.plannedRounds) parts.push(`only ${row.rounds} of ${row.plannedRounds} rounds`);
  return `${row.route}: ${parts.join(', ')}`;
}

/** What the terminal and the Markdown say once about the words they use. */
export const GLOSSARY = [
  'req/s: requests per second (higher is better). fast/native: fast-webstreams\' req/s over native\'s,',
  '  per round (the two windows run back to back), median over the rounds, range in parentheses.',
  'p50/p99: the latency half / 99% of the requests stayed under (lower is better).',
  'CPU/request: the server process\'s user+system CPU time per request (lower is better; steadier',
  '  than req/s on a busy machine). errors: failed connections, timeouts and non-2xx responses.',
  'tiers: how fast-webstreams ran each chunk operation: fused (tier 0) = a fused pipe chain, sync (1) =',
  '  the synchronous fast path, spec (2) = the full spec path with promises (slowest). docs/load.md.',
];
