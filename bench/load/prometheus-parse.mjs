// Reads the fast-webstreams /metrics text back into a counters snapshot
// (the shape getCounters() returns), so windows can be diffed.
import { counters } from '../../src/metrics/counters.js';
import { metricName } from '../../src/metrics/prometheus.js';

const fieldByName = new Map(Object.keys(counters).map((field) => [metricName(field), field]));

export function parsePrometheus(text) {
  const snap = { fallbackReasons: {} };
  for (const field of fieldByName.values()) snap[field] = 0;
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const [, name, labels, raw] = m;
    const value = Number(raw);
    if (name === 'fast_webstreams_installed') {
      snap.installed = value === 1;
      continue;
    }
    const field = fieldByName.get(name);
    if (field === undefined) continue;
    if (field === 'fallbacks') {
      const reason = /reason="((?:[^"\\]|\\.)*)"/.exec(labels ?? '')?.[1]?.replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
      snap.fallbacks += value;
      if (reason !== undefined) snap.fallbackReasons[reason] = (snap.fallbackReasons[reason] ?? 0) + value;
    } else {
      snap[field] = value;
    }
  }
  return snap;
}
