// One vocabulary across the outputs: the tier names, the fallback reasons the
// fast paths count, the info labels, and what counts as a created stream, held
// to what docs/metrics.md says; and the exit summary's verdict.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import * as fast from '../../src/index.js';
import { TIERS, formatSummary } from '../../src/metrics/api.js';
import { counters } from '../../src/metrics/counters.js';
import { infoLabels } from '../../src/metrics/info.js';
import { renderPrometheus } from '../../src/metrics/prometheus.js';
import { metricsRecord } from '../../src/metrics/record.js';
import { FALLBACK_REASONS, formatVerdict } from '../../src/metrics/verdict.js';
import { toWebFollowed } from '../../src/bridge/node-adapters/node-behaviour.js';

const isOurs = (stream) => String(stream.constructor).includes('#impl');

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (path) => readFileSync(join(ROOT, path), 'utf8');
const METRICS_DOC = read('docs/metrics.md');
const zeroSnap = () => ({ ...Object.fromEntries(Object.keys(counters).map((k) => [k, 0])), fallbackReasons: {} });

/** The reasons src/fast/ passes to countFallback (directly, or through writesStayInFlight). */
function reasonsInCode() {
  const found = new Set();
  for (const file of ['src/fast/pipe-pump.js', 'src/fast/direct-write.js']) {
    const code = read(file).split('\n').filter((l) => !/^\s*(\/\/|\*)/.test(l)).join('\n');
    // Statements (up to their semicolon) that set a reason.
    for (const [statement] of code.matchAll(/(?:\breason =|writesStayInFlight =|countFallback\()[^;]*;/g)) {
      for (const [, reason] of statement.matchAll(/'([a-z]+(?:-[a-z]+)+)'/g)) found.add(reason);
    }
  }
  return [...found].sort();
}

/** The first column of the table under docs/metrics.md's "### Fallback reasons". */
function reasonsInDocs() {
  const section = METRICS_DOC.split('### Fallback reasons')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]).sort();
}

test('every fallback reason the code counts is explained, in the verdict and in docs/metrics.md, and no other', () => {
  const code = reasonsInCode();
  assert.ok(code.length >= 6, `found ${code}`);
  assert.deepEqual(Object.keys(FALLBACK_REASONS).sort(), code);
  assert.deepEqual(reasonsInDocs(), code);
  for (const [, reason] of METRICS_DOC.matchAll(/reason="([^"]+)"/g)) {
    if (reason !== 'unspecified' && reason !== '...') assert.ok(code.includes(reason), `docs/metrics.md shows reason="${reason}", which the code never emits`);
  }
  for (const [, reason] of METRICS_DOC.matchAll(/"fallbackReasons": \{ "([^"]+)"/g)) assert.ok(code.includes(reason), reason);
});

test('the tiers have one name in every output', () => {
  const names = Object.keys(TIERS);
  assert.deepEqual(names, ['fused', 'sync', 'spec']);
  const snap = { ...zeroSnap(), fusedChunks: 3, syncReads: 2, specReads: 1 };
  assert.deepEqual(Object.keys(metricsRecord().tiers).filter((k) => names.includes(k)), names, 'the JSON record');
  assert.match(formatSummary(snap), /fused 50\.0%, sync 33\.3%, spec 16\.7%/, 'the exit summary');
  const labels = [...renderPrometheus(snap).matchAll(/^fast_webstreams_chunk_hops_total\{tier="(\w+)"\}/gm)].map((m) => m[1]);
  assert.deepEqual(labels, names, 'Prometheus');
  assert.doesNotMatch(METRICS_DOC, /"tier[0-2]"|\btier0\b/, 'docs/metrics.md');
});

test('fast_webstreams_info\'s labels are the ones docs/metrics.md lists', () => {
  const documented = /`fast_webstreams_info\{([a-z_,]+)\} 1`/.exec(METRICS_DOC)?.[1].split(',');
  assert.deepEqual(documented, Object.keys(infoLabels()));
});

test('ReadableStream.from(), Readable.toWeb() and Writable.toWeb() count as created streams', (t) => {
  t.after(() => fast.uninstall());
  fast.install(); // Node's toWeb adapters give ours under the patch
  fast.resetCounters();
  fast.ReadableStream.from([1]);
  const viaToWeb = Readable.toWeb(Readable.from(['a']));
  const writable = Writable.toWeb(new Writable({ write(chunk, encoding, callback) { callback(); } }));
  // Node's own adapters stay on the releases ours were not compared on (src/bridge/node-adapters/node-behaviour.js).
  assert.equal(isOurs(viaToWeb) && isOurs(writable), toWebFollowed);
  const c = fast.getCounters();
  assert.equal(c.readableStreamsCreated, toWebFollowed ? 2 : 1);
  assert.equal(c.writableStreamsCreated, toWebFollowed ? 1 : 0);
});

test('the verdict: what the figures mean, and the next step', () => {
  assert.match(formatVerdict(zeroSnap()), /^fast-webstreams: verdict: this process made no Web Streams; nothing to change$/);
  const good = { ...zeroSnap(), readableStreamsCreated: 1, fusedChunks: 95, specReads: 5 };
  assert.match(formatVerdict(good), /verdict: fast, 95\.0% of 100 chunk hops on the fast tiers \(fused \+ sync\), no fallback; nothing to change$/);
  const slow = { ...zeroSnap(), readableStreamsCreated: 1, fusedChunks: 10, specWrites: 90, fallbacks: 40,
    fallbackReasons: { 'async-write': 30, 'dest-not-idle': 10 } };
  const line = formatVerdict(slow);
  assert.match(line, /verdict: mostly on the spec path, 10\.0% of 100 chunk hops/);
  assert.match(line, /40 fallbacks, most async-write \(30: a transform\(\) returned a promise/);
  assert.match(line, /Next: make that transform\(\) synchronous .*; FAST_WEBSTREAMS_METRICS_SITES=1 names the lines of your code$/);
  const sites = [{ site: '/app/a.mjs:4:9', total: 30, events: { 'fallback:async-write': 30 } },
    { site: '/app/b.mjs:1:1', total: 10, events: { 'fallback:dest-not-idle': 10 } }];
  assert.match(formatVerdict(slow, sites), /Next: make that .* \(at \/app\/a\.mjs:4:9\)$/);
  const noFallback = { ...zeroSnap(), readableStreamsCreated: 1, syncReads: 10, specReads: 90 };
  assert.match(formatVerdict(noFallback), /no fallback; most spec-path hops are reads that found nothing queued/);
});
