// Prometheus text exposition format (version 0.0.4) for the tier counters.
// Every numeric counter field becomes `fast_webstreams_<snake_case>_total`;
// fallbacks carry their reason as a label. Fields added to counters.js later
// are exposed automatically (with a generic HELP line until described here).

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/** HELP text per counter field. docs/metrics.md describes the same names at length. */
export const COUNTER_HELP = {
  readableStreamsCreated: 'ReadableStreams constructed with new ReadableStream() (not the sides of TransformStreams or tee branches).',
  writableStreamsCreated: 'WritableStreams constructed with new WritableStream().',
  transformStreamsCreated: 'TransformStreams constructed with new TransformStream().',
  fusedChains: 'Tier 0: pipeThrough chains resolved at their sink (chunks then cross the whole chain in one go).',
  fusedStreams: 'Tier 0: TransformStreams linked inside fused chains (piped into and out of).',
  fusedChunks: 'Tier 0: chunks a pipe wrote directly into a TransformStream of a chain (one per chunk per transform).',
  syncReads: 'Tier 1: read() / async-iterator next() answered synchronously from the queue.',
  syncWrites: 'Tier 1: chunks a pipe wrote directly into an idle sink (no write request queued).',
  syncPipeChunks: 'Tier 1: chunks a pipe took straight from its source\'s queue.',
  specReads: 'Tier 2: reads that took the spec algorithm (a read request and a Promise).',
  specWrites: 'Tier 2: writer.write() calls by user code (always the spec algorithm, a Promise per write).',
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

/**
 * Renders a counters snapshot (see getCounters()) as Prometheus text.
 * `extra.installed` (boolean) adds the `fast_webstreams_installed` gauge.
 */
export function renderPrometheus(snap, extra = {}) {
  const lines = [];
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
  return `${lines.join('\n')}\n`;
}
