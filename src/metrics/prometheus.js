// Prometheus text exposition format (version 0.0.4) for the tier counters.
// Every numeric counter field becomes `fast_webstreams_<snake_case>_total`;
// fallbacks carry their reason as a label. Fields added to counters.js later
// are exposed automatically (with a generic HELP line until described here).
import { tierHops } from './api.js';

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** HELP text per counter field. docs/metrics.md describes the same names at length. */
export const COUNTER_HELP = {
  readableStreamsCreated: 'ReadableStreams made by new ReadableStream(), ReadableStream.from() and Readable.toWeb() (not the sides of TransformStreams or tee branches).',
  writableStreamsCreated: 'WritableStreams made by new WritableStream() and Writable.toWeb().',
  transformStreamsCreated: 'TransformStreams made by new TransformStream() and the codec classes (TextEncoderStream, CompressionStream, ...).',
  fusedChains: 'Tier 0: pipeThrough chains resolved at their sink (chunks then cross the whole chain in one go).',
  fusedStreams: 'Tier 0: TransformStreams linked inside fused chains (piped into and out of).',
  fusedChunks: 'Tier 0: chunks a pipe wrote directly into a TransformStream of a chain (one per chunk per transform).',
  syncReads: 'Tier 1: read() / async-iterator next() answered synchronously from the queue.',
  syncWrites: 'Tier 1: chunks a pipe wrote directly into an idle sink (no write request queued).',
  syncPipeChunks: 'Tier 1: chunks a pipe took straight from its source\'s queue.',
  specReads: 'Tier 2: reads that took the spec algorithm (a read request and a Promise).',
  specWrites: 'Tier 2: writes that took the spec algorithm: writer.write() calls (by user code, or by a native adapter writing into our stream) and pipe writes into a sink that was busy.',
  specPipeChunks: 'Tier 2: chunks that reached a pipe through a pending read request (a microtask per chunk).',
  nativeBridges: 'Tier 3: bridges made to or from a native Node stream at a boundary.',
  fallbacks: 'Fast paths that handed over to the spec path, by reason.',
};

/** `syncPipeChunks` -> `fast_webstreams_sync_pipe_chunks_total`. */
export function metricName(field) {
  return `fast_webstreams_${field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}_total`;
}

const escapeLabel = (value) => String(value).replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const escapeHelp = (text) => String(text).replace(/\\/g, '\\\\').replace(/\n/g, '\\n');

const labelText = (labels) => Object.entries(labels).map(([k, v]) => `${k}="${escapeLabel(v)}"`).join(',');

function family(lines, name, type, help, samples) {
  lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${type}`);
  for (const [labels, value] of samples) lines.push(`${name}${labels ? `{${labelText(labels)}}` : ''} ${value}`);
}

/**
 * Renders a counters snapshot (see getCounters()) as Prometheus text.
 * `extra.installed` (boolean) adds the `fast_webstreams_installed` gauge;
 * `extra.info` (labels) the `fast_webstreams_info` gauge; `extra.workers`
 * ([{ id, pid, counters }], a cluster primary's live workers) and `extra.children`
 * ([{ pid, counters }], the child processes that report to this one) the
 * per-process families (`snap` is then the sum over this process and all of
 * them, those gone included: aggregate.js);
 * `extra.sites` (topSites()) the per-site family of FAST_WEBSTREAMS_METRICS_SITES.
 */
export function renderPrometheus(snap, extra = {}) {
  const lines = [];
  if (extra.info !== undefined) {
    family(lines, 'fast_webstreams_info', 'gauge', 'Always 1; the labels say which fast-webstreams, which Node, and which preload features are on.',
      [[extra.info, 1]]);
  }
  if (typeof extra.installed === 'boolean') {
    lines.push('# HELP fast_webstreams_installed 1 when the global Web Streams classes are fast-webstreams\' (the preload is active).');
    lines.push('# TYPE fast_webstreams_installed gauge');
    lines.push(`fast_webstreams_installed ${extra.installed ? 1 : 0}`);
  }
  for (const [field, value] of Object.entries(snap)) {
    if (typeof value !== 'number') continue;
    const name = metricName(field);
    lines.push(`# HELP ${name} ${escapeHelp(COUNTER_HELP[field] ?? `Counter ${field}.`)}`);
    lines.push(`# TYPE ${name} counter`);
    if (field === 'fallbacks') {
      const reasons = Object.entries(snap.fallbackReasons ?? {});
      let labelled = 0;
      for (const [reason, count] of reasons.sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
        lines.push(`${name}{reason="${escapeLabel(reason)}"} ${count}`);
        labelled += count;
      }
      // Never let the family's sum disagree with the plain counter.
      if (value > labelled) lines.push(`${name}{reason="unspecified"} ${value - labelled}`);
    } else {
      lines.push(`${name} ${value}`);
    }
  }
  const hops = tierHops(snap);
  family(lines, 'fast_webstreams_chunk_hops_total', 'counter',
    'Chunk operations (reads, writes, hops through a transform) by tier: fused = tier 0, sync = tier 1, spec = tier 2. Same counts as the per-field counters, summed.',
    Object.entries(hops).map(([tier, v]) => [{ tier }, v]));
  const total = hops.fused + hops.sync + hops.spec;
  if (total > 0) {
    family(lines, 'fast_webstreams_fast_share', 'gauge',
      'Share of chunk hops on the fast tiers (fused + sync) / all, since start or resetCounters(); use chunk_hops_total for a windowed share.',
      [[null, Number(((hops.fused + hops.sync) / total).toFixed(6))]]);
  }
  if (extra.sites !== undefined && extra.sites.length > 0) {
    const samples = [];
    for (const row of extra.sites) {
      for (const [kind, n] of Object.entries(row.events)) samples.push([{ site: row.site, kind }, n]);
    }
    family(lines, 'fast_webstreams_site_events_total', 'counter',
      'With FAST_WEBSTREAMS_METRICS_SITES=1: spec-path chunks and fallbacks by the application code that created the stream (the 10 sites with the most).',
      samples);
  }
  if (extra.workers !== undefined) {
    family(lines, 'fast_webstreams_cluster_workers', 'gauge', 'Cluster workers whose counters this primary has received and that are still alive.',
      [[null, extra.workers.length]]);
  }
  if (extra.children !== undefined) {
    family(lines, 'fast_webstreams_child_processes', 'gauge',
      'Child processes (of npm start, a supervisor, ...) that reported their counters to this one in the last 5 s.',
      [[null, extra.children.length]]);
  }
  const processes = [...(extra.workers ?? []).map((w) => ({ worker: String(w.id), ...w })),
    ...(extra.children ?? []).map((c) => ({ worker: 'child', ...c }))];
  if (processes.length > 0) {
    const perWorker = [];
    const created = [];
    for (const w of processes) {
      const id = { worker: w.worker, pid: String(w.pid) };
      for (const [tier, v] of Object.entries(tierHops(w.counters))) perWorker.push([{ ...id, tier }, v]);
      const c = w.counters;
      created.push([id, (c.readableStreamsCreated ?? 0) + (c.writableStreamsCreated ?? 0) + (c.transformStreamsCreated ?? 0)]);
    }
    family(lines, 'fast_webstreams_worker_chunk_hops_total', 'counter',
      'Chunk hops by tier for each live cluster worker (worker="<id>") or child process (worker="child"); already included in fast_webstreams_chunk_hops_total.',
      perWorker);
    family(lines, 'fast_webstreams_worker_streams_created_total', 'counter',
      'Streams created (readable + writable + transform) by each live cluster worker or child process.', created);
  }
  return `${lines.join('\n')}\n`;
}
