// Tier counters as users see them: getCounters()/resetCounters(), the
// `fast-webstreams:metrics` diagnostics channel, FAST_WEBSTREAMS_METRICS=stderr
// lines, the Prometheus /metrics endpoint (scraped for real), the exit summary
// and the kill switch. Env-driven modes run in child processes with the preload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import diagnosticsChannel from 'node:diagnostics_channel';
import { getCounters, resetCounters } from '../../src/index.js'; // the same instance as the internals below
import { counters, countFallback } from '../../src/metrics/counters.js';
import { renderPrometheus, metricName } from '../../src/metrics/prometheus.js';
import { CHANNEL_NAME, enableMetricsChannel } from '../../src/metrics/channel.js';
import { diffCounters, formatSummary, tierShares } from '../../src/metrics/api.js';
import { metricsPlan } from '../../src/metrics/from-env.js';
import { switchProblems } from '../../src/patch/features.js';
import { startMetricsPort } from '../../src/metrics/port.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const REGISTER = pathToFileURL(join(ROOT, 'register.mjs')).href;
const FIELDS = Object.keys(counters);
const CHILD_TIMEOUT_MS = 20000;

// A small workload for child processes: streams of every class, a chain, reads.
const WORKLOAD = `
  const rs = new ReadableStream({ start(c) { for (let i = 0; i < 50; i++) c.enqueue(i); c.close(); } });
  const t = new TransformStream({ transform(x, c) { c.enqueue(x * 2); } });
  let sum = 0;
  await rs.pipeThrough(t).pipeTo(new WritableStream({ write(x) { sum += x; } }));
  for await (const x of ReadableStream.from([1, 2, 3])) sum += x;
`;

/** Runs `node --import register -e script` (ESM) with extra env; collects output. */
function runChild(script, env = {}, { onStderrLine, onStdoutLine, preload = true } = {}) {
  const args = [...(preload ? ['--import', REGISTER] : []), '--input-type=module', '-e', script];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', FAST_WEBSTREAMS: '', FAST_WEBSTREAMS_METRICS: '',
      FAST_WEBSTREAMS_METRICS_PORT: '', FAST_WEBSTREAMS_METRICS_SUMMARY: '', FAST_WEBSTREAMS_METRICS_INTERVAL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const lines = (onLine) => {
    let pending = '';
    return (data) => {
      pending += data;
      let nl;
      while ((nl = pending.indexOf('\n')) !== -1) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        onLine?.(line, child);
      }
    };
  };
  const errLines = lines(onStderrLine);
  const outLines = lines(onStdoutLine);
  child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; outLines(d); });
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; errLines(d); });
  const killer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
  const done = new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, done };
}

const stderrJsonLines = (stderr) => stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));

test('getCounters() returns a detached snapshot of every field; resetCounters() zeroes them', () => {
  resetCounters();
  const first = getCounters();
  for (const field of FIELDS) assert.equal(first[field], 0, field);
  assert.deepEqual(first.fallbackReasons, {});

  counters.syncReads += 3;
  counters.fusedChunks += 5;
  countFallback('promise-transform');
  countFallback('promise-transform');
  countFallback('prevent-close');
  const snap = getCounters();
  assert.equal(snap.syncReads, 3);
  assert.equal(snap.fusedChunks, 5);
  assert.equal(snap.fallbacks, 3);
  assert.deepEqual(snap.fallbackReasons, { 'promise-transform': 2, 'prevent-close': 1 });

  snap.syncReads = 1000; // a snapshot is a copy
  snap.fallbackReasons['promise-transform'] = 1000;
  assert.equal(getCounters().syncReads, 3);
  assert.equal(getCounters().fallbackReasons['promise-transform'], 2);

  resetCounters();
  const after = getCounters();
  for (const field of FIELDS) assert.equal(after[field], 0, field);
  assert.deepEqual(after.fallbackReasons, {});
});

test('tier shares, window differences and the summary line', () => {
  const snap = { ...Object.fromEntries(FIELDS.map((f) => [f, 0])), fallbackReasons: {} };
  assert.equal(tierShares(snap).fastShare, null);
  Object.assign(snap, { fusedChunks: 60, syncReads: 20, syncWrites: 10, specReads: 5, specPipeChunks: 5, fallbacks: 2 });
  snap.fallbackReasons = { 'native-stream': 2 };
  const t = tierShares(snap);
  assert.deepEqual([t.fused, t.sync, t.spec, t.total], [60, 30, 10, 100]);
  assert.equal(t.fastShare, 0.9);
  const before = { ...snap, fusedChunks: 10, fallbacks: 1, fallbackReasons: { 'native-stream': 1 } };
  const d = diffCounters(snap, before);
  assert.equal(d.fusedChunks, 50);
  assert.deepEqual(d.fallbackReasons, { 'native-stream': 1 });
  const line = formatSummary(snap);
  assert.equal(line.includes('\n'), false);
  assert.match(line, /^fast-webstreams: /);
  assert.match(line, /chunk hops 100: fused 60\.0%, sync 30\.0%, spec 10\.0%/);
  assert.match(line, /fallbacks 2 \(native-stream 2\)/);
});

test('Prometheus rendering: HELP/TYPE per counter, _total names, fallbacks by reason', () => {
  const snap = { ...Object.fromEntries(FIELDS.map((f) => [f, 1])), fallbacks: 4, fallbackReasons: { 'a"b': 1, 'promise-transform': 2 } };
  const text = renderPrometheus(snap, { installed: true });
  assert.ok(text.endsWith('\n'));
  assert.match(text, /^# TYPE fast_webstreams_installed gauge$/m);
  assert.match(text, /^fast_webstreams_installed 1$/m);
  for (const field of FIELDS) {
    const name = metricName(field);
    assert.match(name, /^fast_webstreams_[a-z0-9_]+_total$/);
    assert.match(text, new RegExp(`^# HELP ${name} \\S`, 'm'), name);
    assert.match(text, new RegExp(`^# TYPE ${name} counter$`, 'm'), name);
  }
  assert.equal(metricName('syncPipeChunks'), 'fast_webstreams_sync_pipe_chunks_total');
  assert.match(text, /^fast_webstreams_sync_reads_total 1$/m);
  assert.match(text, /^fast_webstreams_fallbacks_total\{reason="promise-transform"\} 2$/m);
  assert.match(text, /^fast_webstreams_fallbacks_total\{reason="a\\"b"\} 1$/m);
  assert.match(text, /^fast_webstreams_fallbacks_total\{reason="unspecified"\} 1$/m);
  // Every sample line is `name{labels} value`.
  for (const line of text.split('\n').filter((l) => l && !l.startsWith('#'))) {
    assert.match(line, /^[a-z_]+(\{[a-z_]+="(?:[^"\\]|\\.)*"(,[a-z_]+="(?:[^"\\]|\\.)*")*\})? \d+(\.\d+)?$/, line);
  }
  // The tier family adds the per-field counters up; the share is fast / all.
  assert.match(text, /^fast_webstreams_chunk_hops_total\{tier="fused"\} 1$/m);
  assert.match(text, /^fast_webstreams_chunk_hops_total\{tier="sync"\} 3$/m);
  assert.match(text, /^fast_webstreams_chunk_hops_total\{tier="spec"\} 3$/m);
  assert.match(text, /^fast_webstreams_fast_share 0\.571429$/m);
  assert.doesNotMatch(renderPrometheus({ ...snap, ...Object.fromEntries(FIELDS.map((f) => [f, 0])) }), /fast_share \d/);
});

test('environment parsing', () => {
  const plan = metricsPlan({ FAST_WEBSTREAMS_METRICS: 'stderr', FAST_WEBSTREAMS_METRICS_INTERVAL: '250',
    FAST_WEBSTREAMS_METRICS_PORT: '9464', FAST_WEBSTREAMS_METRICS_SUMMARY: '1' });
  assert.deepEqual(plan, { enabled: true, intervalMs: 250, stderr: true, port: 9464,
    host: '127.0.0.1', summary: true, sites: false });
  assert.equal(metricsPlan({ FAST_WEBSTREAMS_METRICS_SITES: '1' }).sites, true);
  assert.equal(metricsPlan({}).intervalMs, 10000);
  assert.equal(metricsPlan({}).port, null);
  assert.equal(metricsPlan({ FAST_WEBSTREAMS: '0' }).enabled, false);
  // The metrics switches read the words every switch reads (src/patch/features.js).
  for (const word of ['0', 'false', 'off', 'OFF', 'no', ' No ', '']) {
    assert.equal(metricsPlan({ FAST_WEBSTREAMS_METRICS_SUMMARY: word }).summary, false, `SUMMARY=${JSON.stringify(word)}`);
    assert.equal(metricsPlan({ FAST_WEBSTREAMS_METRICS_SITES: word }).sites, false, `SITES=${JSON.stringify(word)}`);
  }
  for (const word of ['1', 'true', 'on', 'YES']) {
    assert.equal(metricsPlan({ FAST_WEBSTREAMS_METRICS_SUMMARY: word }).summary, true, `SUMMARY=${word}`);
  }
  const badEnv = { FAST_WEBSTREAMS_METRICS_INTERVAL: 'soon', FAST_WEBSTREAMS_METRICS_PORT: '99999',
    FAST_WEBSTREAMS_METRICS: 'statsd', FAST_WEBSTREAMS_METRICS_SUMMARY: 'maybe' };
  const bad = metricsPlan(badEnv);
  assert.equal(bad.intervalMs, 10000);
  assert.equal(bad.port, null);
  assert.equal(bad.summary, false);
  assert.deepEqual(switchProblems(badEnv), [
    'ignoring FAST_WEBSTREAMS_METRICS_INTERVAL=soon (want an integer >= 10, in ms); using 10000',
    'ignoring FAST_WEBSTREAMS_METRICS_PORT=99999 (want a port number, 0-65535)',
    "ignoring unknown FAST_WEBSTREAMS_METRICS value 'statsd' (known: stderr)",
    'FAST_WEBSTREAMS_METRICS_SUMMARY=maybe is neither on (1, true, on, yes) nor off (0, false, off, no): left off',
  ]);
});

test('diagnostics channel: no timer until subscribed, a record per interval while subscribed', async () => {
  const channel = enableMetricsChannel(20);
  assert.equal(channel, diagnosticsChannel.channel(CHANNEL_NAME));
  assert.equal(Object.hasOwn(channel, 'subscribe'), true, 'armed: the first subscribe() starts the timer');
  const got = [];
  const onMessage = (message, name) => got.push([message, name]);
  diagnosticsChannel.subscribe(CHANNEL_NAME, onMessage);
  assert.equal(Object.hasOwn(channel, 'subscribe'), false, 'the one-shot hook removed itself');
  await new Promise((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error('no metrics record published')), 5000);
    const poll = setInterval(() => {
      if (got.length >= 2) {
        clearInterval(poll);
        clearTimeout(deadline);
        resolve();
      }
    }, 10);
  });
  const [message, name] = got[0];
  assert.equal(name, CHANNEL_NAME);
  assert.equal(message.source, 'fast-webstreams');
  assert.equal(message.pid, process.pid);
  assert.equal(typeof message.installed, 'boolean');
  for (const field of FIELDS) assert.equal(typeof message.counters[field], 'number', field);
  assert.deepEqual(Object.keys(message.tiers).sort(), ['fastShare', 'fused', 'spec', 'sync', 'total']);
  diagnosticsChannel.unsubscribe(CHANNEL_NAME, onMessage);
  // The next tick sees no subscriber, stops the timer and re-arms the hook.
  await new Promise((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error('timer did not stop')), 5000);
    const poll = setInterval(() => {
      if (Object.hasOwn(channel, 'subscribe')) {
        clearInterval(poll);
        clearTimeout(deadline);
        resolve();
      }
    }, 10);
  });
  const count = got.length;
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(got.length, count, 'nothing published without subscribers');
});

test('diagnostics channel through the preload, in a fresh process', { timeout: 30000 }, async () => {
  const script = `
    import dc from 'node:diagnostics_channel';
    ${WORKLOAD}
    setInterval(() => {}, 1000); // the channel's timer is unref'd: keep this process alive meanwhile
    const message = await new Promise((resolve) => dc.subscribe('fast-webstreams:metrics', resolve));
    console.log(JSON.stringify({ installed: message.installed, fields: Object.keys(message.counters) }));
    process.exit(0);
  `;
  const { code, stdout, stderr } = await runChild(script, { FAST_WEBSTREAMS_METRICS_INTERVAL: '50' }).done;
  assert.equal(code, 0, stderr);
  const out = JSON.parse(stdout);
  assert.equal(out.installed, true);
  for (const field of FIELDS) assert.ok(out.fields.includes(field), field);
});

test('worker threads: the preload runs there, but their channel publishes nothing', { timeout: 30000 }, async () => {
  // The main-thread check is deferred to the first subscriber (starting costs
  // nothing): a subscriber in a worker still gets no records, one in the main
  // thread does.
  const worker = `
    import dc from 'node:diagnostics_channel';
    import { parentPort } from 'node:worker_threads';
    let got = 0;
    dc.subscribe('fast-webstreams:metrics', () => got++);
    setTimeout(() => parentPort.postMessage({ got, patched: String(ReadableStream).includes('#impl') }), 300);
  `;
  const script = `
    import { Worker } from 'node:worker_threads';
    import dc from 'node:diagnostics_channel';
    const w = new Worker(new URL('data:text/javascript,' + encodeURIComponent(${JSON.stringify(worker)})));
    const fromWorker = await new Promise((resolve, reject) => { w.once('message', resolve); w.once('error', reject); });
    await w.terminate();
    setInterval(() => {}, 1000);
    await new Promise((resolve) => dc.subscribe('fast-webstreams:metrics', resolve));
    console.log(JSON.stringify(fromWorker));
    process.exit(0);
  `;
  const { code, stdout, stderr } = await runChild(script, { FAST_WEBSTREAMS_METRICS_INTERVAL: '20' }).done;
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), { got: 0, patched: true });
});

test('FAST_WEBSTREAMS_METRICS=stderr prints one JSON line per interval', { timeout: 30000 }, async () => {
  const script = `${WORKLOAD}\nawait new Promise((r) => setTimeout(r, 400));`;
  const { code, stderr } = await runChild(script, { FAST_WEBSTREAMS_METRICS: 'stderr', FAST_WEBSTREAMS_METRICS_INTERVAL: '50' }).done;
  assert.equal(code, 0, stderr);
  const records = stderrJsonLines(stderr);
  assert.ok(records.length >= 2, `expected several lines, got:\n${stderr}`);
  for (const r of records) {
    assert.equal(r.source, 'fast-webstreams');
    assert.equal(r.installed, true);
    assert.ok(!Number.isNaN(Date.parse(r.time)));
    for (const field of FIELDS) assert.equal(typeof r.counters[field], 'number', field);
    assert.equal(typeof r.counters.fallbackReasons, 'object');
  }
  // Counters never go down between lines.
  const last = records.at(-1).counters;
  for (const field of FIELDS) assert.ok(last[field] >= records[0].counters[field], field);
});

test('the stderr timer and the metrics server never keep a process alive', { timeout: 30000 }, async () => {
  const { code, stderr } = await runChild('await 0;', {
    FAST_WEBSTREAMS_METRICS: 'stderr', FAST_WEBSTREAMS_METRICS_INTERVAL: '60000', FAST_WEBSTREAMS_METRICS_PORT: '0',
  }).done;
  assert.equal(code, 0, stderr);
});

test('Prometheus /metrics answers a real scrape', { timeout: 30000 }, async () => {
  let metricsUrl;
  let resolveUrl;
  const urlKnown = new Promise((resolve) => { resolveUrl = resolve; });
  const run = runChild(`${WORKLOAD}\nconsole.log('ready');\nsetTimeout(() => {}, 60000);`, { FAST_WEBSTREAMS_METRICS_PORT: '0' }, {
    onStderrLine(line) {
      const m = /Prometheus metrics at (http:\/\/\S+\/metrics)/.exec(line);
      if (m) resolveUrl(m[1]);
    },
  });
  try {
    metricsUrl = await Promise.race([urlKnown, run.done.then((r) => { throw new Error(`child exited: ${r.stderr}`); })]);
    assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/, 'bound to 127.0.0.1 by default');
    const res = await fetch(metricsUrl);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    assert.match(text, /^fast_webstreams_installed 1$/m);
    for (const field of FIELDS) {
      if (field === 'fallbacks') continue; // labelled series only, present once a fallback happened
      assert.match(text, new RegExp(`^${metricName(field)} \\d+$`, 'm'), field);
    }
    assert.match(text, /^# TYPE fast_webstreams_fallbacks_total counter$/m);
    const other = await fetch(metricsUrl.replace(/\/metrics$/, '/nope'));
    assert.equal(other.status, 404);
    await other.text();
  } finally {
    run.child.kill('SIGKILL');
    await run.done;
  }
});

test('a busy metrics port only warns, with a FastWebstreamsWarning; the application carries on', { timeout: 30000 }, async () => {
  const blocker = createServer();
  await new Promise((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = blocker.address();
    const script = `${WORKLOAD}\nconsole.log('app ran', sum);`;
    const { code, stdout, stderr } = await runChild(script, { FAST_WEBSTREAMS_METRICS_PORT: String(port) }).done;
    assert.equal(code, 0, stderr);
    assert.match(stdout, /app ran 2456/);
    assert.match(stderr, /FastWebstreamsWarning: metrics server not started on 127\.0\.0\.1:\d+: EADDRINUSE/);
    // One kind of warning: --no-warnings hides it as it hides Node's.
    const quiet = await runChild(script, { FAST_WEBSTREAMS_METRICS_PORT: String(port), NODE_OPTIONS: '--no-warnings' }).done;
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stderr, '');
  } finally {
    blocker.close();
  }
});

test('the metrics port answers from the start, before the process has made a stream', { timeout: 30000 }, async () => {
  let resolveUrl;
  const urlKnown = new Promise((resolve) => { resolveUrl = resolve; });
  const run = runChild(`console.log('idle'); setTimeout(() => {}, 20000);`, { FAST_WEBSTREAMS_METRICS_PORT: '0' }, {
    onStderrLine(line) {
      const m = /Prometheus metrics at (http:\/\/\S+\/metrics)/.exec(line);
      if (m) resolveUrl(m[1]);
    },
  });
  try {
    const url = await Promise.race([urlKnown, run.done.then((r) => { throw new Error(`child exited: ${r.stderr}`); })]);
    const text = await (await fetch(url)).text();
    assert.match(text, /^fast_webstreams_installed 1$/m);
    assert.match(text, /^fast_webstreams_readable_streams_created_total 0$/m);
    // Not a cluster primary, and no child reported: the per-process families mean nothing here.
    assert.doesNotMatch(text, /cluster_workers|child_processes|worker_chunk_hops/);
  } finally {
    run.child.kill('SIGKILL');
    await run.done;
  }
});

test('the holder of the port takes its children\'s reports, with the token they inherited, and no other', { timeout: 30000 }, async () => {
  const env = {};
  const warnings = [];
  const { ready } = startMetricsPort(0, '127.0.0.1', { log: () => {}, warn: (w) => warnings.push(w) }, { env });
  const server = await ready;
  try {
    const token = /^\d+:([0-9a-f]{32})$/.exec(env.FAST_WEBSTREAMS_METRICS_PRIMARY)?.[1];
    assert.ok(token, `announced: ${env.FAST_WEBSTREAMS_METRICS_PRIMARY}`);
    const base = `http://127.0.0.1:${server.address().port}`;
    const post = (headers, body) => fetch(`${base}/fast-webstreams/report`, { method: 'POST', headers, body }).then((r) => r.status);
    const counters = { ...Object.fromEntries(FIELDS.map((f) => [f, 0])), readableStreamsCreated: 7, fusedChunks: 5, fallbackReasons: {} };
    assert.equal(await post({}, JSON.stringify({ pid: 4242, counters })), 403, 'no token');
    assert.equal(await post({ 'x-fast-webstreams-token': 'f'.repeat(32) }, JSON.stringify({ pid: 4242, counters })), 403, 'another token');
    assert.equal(await post({ 'x-fast-webstreams-token': token }, '{'), 400, 'not JSON');
    assert.equal(await post({ 'x-fast-webstreams-token': token }, JSON.stringify({ pid: 4242, counters })), 204);
    const text = await (await fetch(`${base}/metrics`)).text();
    assert.match(text, /^fast_webstreams_child_processes 1$/m);
    assert.match(text, /^fast_webstreams_worker_streams_created_total\{worker="child",pid="4242"\} 7$/m);
    assert.match(text, /^fast_webstreams_worker_chunk_hops_total\{worker="child",pid="4242",tier="fused"\} 5$/m);
    assert.deepEqual(warnings, []);
  } finally {
    server.close();
  }
});

test('a process that asks for no metrics loads no HTTP server (the port listens at start only when set)', { timeout: 30000 }, async () => {
  const probe = `const l = process.moduleLoadList;
    console.log(JSON.stringify(['http', 'net'].filter((m) => l.includes('NativeModule ' + m))));`;
  const { code, stdout, stderr } = await runChild(probe).done;
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout.trim()), []);
});

test('FAST_WEBSTREAMS_METRICS_SUMMARY=1 prints the figures, then the verdict, at exit', { timeout: 30000 }, async () => {
  const { code, stderr } = await runChild(WORKLOAD, { FAST_WEBSTREAMS_METRICS_SUMMARY: '1' }).done;
  assert.equal(code, 0, stderr);
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 2, stderr);
  assert.match(lines[0], /^fast-webstreams: streams created \d+ \(readable \d+, writable \d+, transform \d+\); chunk hops \d+: fused [\d.]+%, sync [\d.]+%, spec [\d.]+%/);
  assert.match(lines[0], /fallbacks \d+/);
  assert.match(lines[1], /^fast-webstreams: verdict: (fast|partly fast|mostly on the spec path), [\d.]+% of \d+ chunk hops on the fast tiers/);
});

test('the exit summary on SIGTERM, without and with an application handler', { timeout: 30000 }, async () => {
  const ready = (line, child) => { if (line === 'ready') child.kill('SIGTERM'); };
  // No handler: the summary is printed and the signal still ends the process.
  const plain = await runChild(`console.log('ready'); setTimeout(() => {}, 60000);`,
    { FAST_WEBSTREAMS_METRICS_SUMMARY: '1' }, { onStdoutLine: ready }).done;
  assert.equal(plain.signal, 'SIGTERM');
  assert.match(plain.stderr, /^fast-webstreams: streams created/m);
  // The application handles SIGTERM and exits: the summary comes once, from 'exit'.
  const handled = await runChild(`process.on('SIGTERM', () => { console.log('app shutdown'); process.exit(3); });
    console.log('ready'); setTimeout(() => {}, 60000);`, { FAST_WEBSTREAMS_METRICS_SUMMARY: '1' }, { onStdoutLine: ready }).done;
  assert.equal(handled.code, 3);
  assert.match(handled.stdout, /app shutdown/);
  assert.equal(handled.stderr.match(/^fast-webstreams: streams created/gm)?.length, 1, handled.stderr);
});

test('FAST_WEBSTREAMS=0 starts nothing and patches nothing', { timeout: 30000 }, async () => {
  const script = `
    import dc from 'node:diagnostics_channel';
    import { isInstalled } from 'fast-webstreams';
    const ch = dc.channel('fast-webstreams:metrics');
    console.log(JSON.stringify({ installed: isInstalled(), hooked: Object.hasOwn(ch, 'subscribe') }));
    await new Promise((r) => setTimeout(r, 200));
  `;
  const { code, stdout, stderr } = await runChild(script, {
    FAST_WEBSTREAMS: '0', FAST_WEBSTREAMS_METRICS: 'stderr', FAST_WEBSTREAMS_METRICS_INTERVAL: '20',
    FAST_WEBSTREAMS_METRICS_PORT: '0', FAST_WEBSTREAMS_METRICS_SUMMARY: '1',
  }).done;
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), { installed: false, hooked: false });
  assert.equal(stderr, '', 'no metrics lines, no server, no summary');
});
