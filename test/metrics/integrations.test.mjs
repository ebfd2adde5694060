// prom-client and OpenTelemetry with the real packages (dev dependencies): our
// counters show up in the application's own registry / meter provider.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import client from 'prom-client';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { ReadableStream, TransformStream } from '../../src/index.js';
import { resetCounters } from '../../src/metrics/api.js';
import { countFallback } from '../../src/metrics/counters.js';
import { registerOpenTelemetry, registerPromClient, renderMetrics } from '../../src/metrics/integrations.js';

async function someWork() {
  let i = 0;
  const rs = new ReadableStream({ pull(c) { if (i < 10) c.enqueue(i++); else c.close(); } });
  for await (const x of rs.pipeThrough(new TransformStream())) void x;
}

test('renderMetrics() gives text to append to an existing /metrics', async () => {
  resetCounters();
  await someWork();
  const text = renderMetrics();
  assert.match(text, /^fast_webstreams_readable_streams_created_total 1$/m);
  assert.match(text, /^fast_webstreams_info\{version="[^"]+",node_version="v\d+/m);
});

test('registerPromClient: our counters in the application\'s prom-client registry, read at scrape time', async () => {
  const registry = new client.Registry();
  new client.Counter({ name: 'app_requests_total', help: 'the app\'s own', registers: [registry] }).inc(3);
  registerPromClient(client, registry);
  resetCounters();
  await someWork();
  countFallback('test-reason');
  let text = await registry.metrics();
  assert.match(text, /^app_requests_total 3$/m);
  assert.match(text, /^fast_webstreams_readable_streams_created_total 1$/m);
  assert.match(text, /^fast_webstreams_fallbacks_total\{reason="test-reason"\} 1$/m);
  assert.match(text, /^fast_webstreams_chunk_hops_total\{tier="spec"\} [1-9]\d*$/m);
  assert.match(text, /^fast_webstreams_info\{.*version=.*\} 1$/m);
  await someWork();
  text = await registry.metrics();
  assert.match(text, /^fast_webstreams_readable_streams_created_total 2$/m, 'values are read at each scrape');
});

class TestReader extends MetricReader {
  async onForceFlush() {}
  async onShutdown() {}
}

test('registerOpenTelemetry: observable counters through the application\'s meter', async () => {
  const reader = new TestReader();
  const provider = new MeterProvider({ readers: [reader] });
  const unregister = registerOpenTelemetry(provider.getMeter('fast-webstreams'));
  resetCounters();
  await someWork();
  countFallback('otel-reason');
  const { resourceMetrics, errors } = await reader.collect();
  assert.deepEqual(errors, []);
  const metrics = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics);
  const byName = (name) => metrics.find((m) => m.descriptor.name === name);
  assert.equal(byName('fast_webstreams.readable_streams_created').dataPoints[0].value, 1);
  const fallback = byName('fast_webstreams.fallbacks').dataPoints.find((p) => p.attributes.reason === 'otel-reason');
  assert.equal(fallback.value, 1);
  const spec = byName('fast_webstreams.chunk_hops').dataPoints.find((p) => p.attributes.tier === 'spec');
  assert.ok(spec.value > 0);
  unregister();
  await provider.shutdown();
});
