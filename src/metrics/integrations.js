// Our counters where operators already look, without a dependency of ours:
// the application passes its own prom-client module or OpenTelemetry meter.
//   renderMetrics()                      Prometheus text to append to an existing /metrics
//   registerPromClient(client, registry) a collector on a prom-client registry
//   registerOpenTelemetry(meter)         observable counters on an @opentelemetry/api Meter
import { snapshotCounters } from './counters.js';
import { metricName, COUNTER_HELP, renderPrometheus } from './prometheus.js';
import { tierHops } from './api.js';
import { infoLabels } from './info.js';
import { sites, topSites } from './sites.js';
import { isInstalled } from '../patch/globals.js';

/** This process's counters as Prometheus text (append it to your own /metrics body). */
export function renderMetrics() {
  return renderPrometheus(snapshotCounters(),
    { installed: isInstalled(), info: infoLabels(), sites: sites.on ? topSites() : undefined });
}

const numericFields = (snap) => Object.keys(snap).filter((k) => typeof snap[k] === 'number' && k !== 'fallbacks');

/**
 * Registers our counters on a prom-client registry (default: client.register).
 * Values are read at each scrape (collect), never pushed. Returns the metrics.
 */
export function registerPromClient(client, registry = client.register) {
  const registers = [registry];
  const made = [];
  const counter = (name, help, labelNames, collect) => {
    const m = new client.Counter({ name, help, labelNames, registers, collect });
    made.push(m);
  };
  for (const field of numericFields(snapshotCounters())) {
    counter(metricName(field), COUNTER_HELP[field] ?? `Counter ${field}.`, [], function collect() {
      this.reset();
      this.inc(snapshotCounters()[field]);
    });
  }
  counter(metricName('fallbacks'), COUNTER_HELP.fallbacks, ['reason'], function collect() {
    this.reset();
    for (const [reason, n] of Object.entries(snapshotCounters().fallbackReasons)) this.inc({ reason }, n);
  });
  counter('fast_webstreams_chunk_hops_total', 'Chunk hops by tier: fused = tier 0, sync = tier 1, spec = tier 2.', ['tier'], function collect() {
    this.reset();
    for (const [tier, n] of Object.entries(tierHops(snapshotCounters()))) this.inc({ tier }, n);
  });
  const labels = infoLabels();
  const info = new client.Gauge({ name: 'fast_webstreams_info', help: 'Always 1; which fast-webstreams, Node and features.',
    labelNames: Object.keys(labels), registers });
  info.set(labels, 1);
  made.push(info);
  return made;
}

/**
 * Observable counters on an OpenTelemetry Meter (from the application's
 * @opentelemetry/api: metrics.getMeter('fast-webstreams')). One batch callback
 * reads a snapshot per collection. Returns a function that unregisters it.
 */
export function registerOpenTelemetry(meter) {
  const instruments = {};
  for (const field of numericFields(snapshotCounters())) {
    const name = metricName(field).replace(/_total$/, '').replace(/^fast_webstreams_/, 'fast_webstreams.');
    instruments[field] = meter.createObservableCounter(name, { description: COUNTER_HELP[field] ?? field });
  }
  const fallbacks = meter.createObservableCounter('fast_webstreams.fallbacks', { description: COUNTER_HELP.fallbacks });
  const hops = meter.createObservableCounter('fast_webstreams.chunk_hops', { description: 'Chunk hops by tier (fused, sync, spec).' });
  const callback = (result) => {
    const snap = snapshotCounters();
    for (const [field, instrument] of Object.entries(instruments)) result.observe(instrument, snap[field]);
    for (const [reason, n] of Object.entries(snap.fallbackReasons)) result.observe(fallbacks, n, { reason });
    for (const [tier, n] of Object.entries(tierHops(snap))) result.observe(hops, n, { tier });
  };
  const all = [...Object.values(instruments), fallbacks, hops];
  meter.addBatchObservableCallback(callback, all);
  return () => meter.removeBatchObservableCallback(callback, all);
}
