// npm run load (bench/load/run.mjs) when a child dies: the runner must name the
// child, its exit code or signal and its last output lines, mark the route it
// served as FAILED, go on with the other routes, write what it measured, and
// exit non-zero. The crash comes from bench/load/crash-hook.mjs, switched on by
// LOAD_TEST_CRASH (test only). Also the report's pieces that need no server.
// Every child run is bounded by a timeout; nothing asserts a timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineRing, describeExit, startChild } from '../../bench/load/children.mjs';
import { parseArgs, parseCrashHook } from '../../bench/load/options.mjs';
import { textTable } from '../../bench/load/report.mjs';
import { verdictLine } from '../../bench/load/verdict.mjs';
import { scaleFor } from '../../bench/load/chart.mjs';
import { renderTimelineSvg, tierRates } from '../../bench/load/timeline.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RUNNER = join(ROOT, 'bench', 'load', 'run.mjs');
const RUN_TIMEOUT_MS = 150_000;

/** Runs the load runner to its end (or kills it at the bound); resolves with its exit and output. */
function runLoad(args, crash) {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, LOAD_TEST_CRASH: crash };
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, [RUNNER, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
    child.stderr.setEncoding('utf8').on('data', (d) => { out += d; });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`load runner still running after ${RUN_TIMEOUT_MS / 1000} s:\n${out}`));
    }, RUN_TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out });
    });
  });
}

function withOutDir(fn) {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'load-runner-test-'));
    try {
      await fn(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

const readResults = (dir) => {
  const base = join(dir, `load-node${process.versions.node.split('.')[0]}`);
  for (const ext of ['json', 'md', 'svg']) assert.ok(existsSync(`${base}.${ext}`), `${base}.${ext} written`);
  return {
    json: JSON.parse(readFileSync(`${base}.json`, 'utf8')),
    md: readFileSync(`${base}.md`, 'utf8'),
    svg: readFileSync(`${base}.svg`, 'utf8'),
    timelineSvg: readFileSync(`${base}-timeline.svg`, 'utf8'),
  };
};

test('the fast server dies on /proxy: named, restarted for the other route, partial results written',
  { timeout: RUN_TIMEOUT_MS + 10_000 }, withOutDir(async (dir) => {
    const { code, out } = await runLoad(['--rounds=2', '--duration=1', '--warmup=0', '--routes=forward,proxy', `--out=${dir}`],
      'fast:/proxy:20');
    assert.equal(code, 1, out);
    // Which server, its command line, how it ended, and its last stderr lines.
    assert.match(out, /FAILURE: the fast server exited with code 1/, out);
    assert.match(out, /command: NODE_OPTIONS='--import fast-webstreams\/register' .*examples\/server\/server\.mjs/, out);
    assert.match(out, /\| crash-hook: request 20 to \/proxy/, out);
    assert.match(out, /\| Error: crash-hook: unhandled rejection on purpose/, out);
    assert.match(out, /proxy: FAILED \(fast server exited with code 1 in round 1\)/, out);
    assert.match(out, /restarted for the other routes/, out);

    const { json, md, svg, timelineSvg } = readResults(dir);
    assert.equal(json.meta.status, 'failed');
    const death = json.failures.find((f) => f.kind === 'death');
    assert.equal(death.role, 'fast');
    assert.equal(death.exitCode, 1);
    assert.equal(death.route, 'proxy');
    assert.ok(death.tail.some((l) => l.includes('crash-hook: request 20')), death.tail.join('\n'));
    const rows = Object.fromEntries(json.rows.map((r) => [r.route, r]));
    assert.equal(rows.proxy.failure.role, 'fast');
    assert.equal(rows.proxy.rounds, 0);
    // The other route was measured in both rounds, before and after the restart.
    assert.equal(rows.forward.failure, null);
    assert.equal(rows.forward.rounds, 2);
    assert.ok(rows.forward.fast.requestsPerSecond.median > 0);
    assert.match(md, /## Failures/);
    assert.match(md, /- proxy: FAILED/);
    assert.match(md, /- forward: \d+\.\d\dx requests\/s/);
    assert.match(svg, /FAILED: fast server exited with code 1/);
    // Over the run: requests/s of each measured window, and the fast server's tier hops beside them.
    const forward = json.timeline.filter((w) => w.route === 'forward');
    assert.deepEqual(forward.map((w) => `${w.impl}${w.round}`).sort(), ['fast1', 'fast2', 'native1', 'native2']);
    for (const w of forward) assert.ok(w.requests.reduce((a, b) => a + b, 0) > 0, `${w.impl}${w.round}: requests per second`);
    for (const w of forward.filter((x) => x.impl === 'fast')) {
      assert.ok(w.tiers.length > 0 && w.tiers.some((r) => r.fused + r.sync + r.spec > 0), `fast${w.round}: ${JSON.stringify(w.tiers)}`);
    }
    assert.match(md, new RegExp(`!\\[requests/s and tier hits over the run\\]\\(${json.meta.timelineSvg}\\)`));
    assert.match(timelineSvg, /chunk hops\/s by tier/);
  }));

test('the upstream is killed by a signal: named, its route failed, exit code 1',
  { timeout: RUN_TIMEOUT_MS + 10_000 }, withOutDir(async (dir) => {
    const { code, out } = await runLoad(['--rounds=1', '--duration=1', '--warmup=1', '--routes=proxy', `--out=${dir}`],
      'upstream:/data:10:signal');
    assert.equal(code, 1, out);
    assert.match(out, /FAILURE: the upstream killed by SIGKILL/, out);
    assert.match(out, /command: \S+ --import \S+crash-hook\.mjs examples\/server\/upstream\.mjs/, out);
    assert.match(out, /\| crash-hook: request 10 to \/data, crashing \(signal\)/, out);
    assert.match(out, /proxy: FAILED \(upstream killed by SIGKILL during the warm-up\)/, out);
    const { json } = readResults(dir);
    const death = json.failures.find((f) => f.kind === 'death');
    assert.equal(death.role, 'upstream');
    assert.equal(death.signal, 'SIGKILL');
    assert.equal(death.exitCode, null);
  }));

test('LineRing keeps the last lines, clipped, and the unfinished one', () => {
  const ring = new LineRing(3);
  ring.push('one\ntwo\nthr');
  ring.push(`ee\nfour\n${'x'.repeat(1000)}\nfi`);
  assert.deepEqual(ring.tail().slice(0, 2), ['four', `${'x'.repeat(400)}...`]);
  assert.equal(ring.tail().at(-1), 'fi');
  assert.equal(ring.lines.length, 3);
  assert.equal(ring.dropped, 2);
  assert.equal(describeExit({ code: 1, signal: null }), 'exited with code 1');
  assert.equal(describeExit({ code: null, signal: 'SIGKILL' }), 'killed by SIGKILL');
});

test('a child keeps the first line it was asked to keep, after the rings have forgotten it', { timeout: 30_000 }, async () => {
  // A fast Next.js server on Node 20 logs a stack for each request cut off at the end of a window:
  // its metrics line left the stderr ring before the first scrape, and every counter read zero.
  const script = 'console.error("fast-webstreams: Prometheus metrics at http://127.0.0.1:4242/metrics (pid 1)");' +
    'for (let i = 0; i < 100; i++) console.error("    at async frame" + i);';
  const proc = startChild({
    role: 'fast', name: 'fast server', argv: [process.execPath, '-e', script], env: { ...process.env, NODE_OPTIONS: '' }, cwd: ROOT,
    keep: { metricsUrl: { stream: 'stderr', re: /Prometheus metrics at (http:\/\/\S+\/metrics)/ } },
  });
  await proc.exited;
  assert.equal(proc.exit.code, 0);
  assert.ok(!proc.rings.stderr.tail().some((l) => l.includes('Prometheus')), 'the ring has forgotten it');
  assert.equal(proc.kept.metricsUrl, 'http://127.0.0.1:4242/metrics');
});

test('options: --node takes a major, LOAD_TEST_CRASH is checked', () => {
  assert.equal(parseArgs(['--node=24', '--quick'], '/tmp').node, 24);
  assert.equal(parseArgs(['--quick'], '/tmp').rounds, 2);
  assert.throws(() => parseArgs(['--node=v24'], '/tmp'), /--node=24/);
  assert.deepEqual(parseCrashHook('fast:/proxy:20'), { role: 'fast', path: '/proxy', after: 20, how: 'rejection' });
  assert.equal(parseCrashHook(''), null);
  assert.throws(() => parseCrashHook('server:/x'), /LOAD_TEST_CRASH/);
});

const spread = (median, min = median, max = median) => ({ median, min, max });
const row = (over = {}) => ({
  route: 'proxy', rounds: 3, plannedRounds: 3, failure: null,
  ratio: spread(1.68, 1.54, 2.07), cpuRatio: spread(0.59),
  native: { latencyP99: spread(119), cpuMsPerRequest: spread(1.98) }, fast: { latencyP99: spread(49), cpuMsPerRequest: spread(1.26) },
  errors: { native: 0, fast: 0, warmup: 0 }, ...over,
});

test('verdict lines: success, no clear difference, failure', () => {
  assert.equal(verdictLine(row()), 'proxy: 1.68x requests/s (rounds 1.54-2.07), p99 119 -> 49 ms, CPU/request 1.98 -> 1.26 ms, no errors');
  assert.match(verdictLine(row({ ratio: spread(1.02, 0.9, 1.2) })), /rounds 0\.90-1\.20: no clear difference/);
  assert.equal(verdictLine(row({ rounds: 0, failure: { reason: 'fast server exited with code 1', phase: 'round', round: 2 } })),
    'proxy: FAILED (fast server exited with code 1 in round 2)');
  assert.match(verdictLine(row({ rounds: 1, failure: { reason: 'native server killed by SIGKILL', phase: 'round', round: 2 } })),
    /FAILED \(native server killed by SIGKILL in round 2; 1 of 3 rounds measured before it, 1\.68x/);
});

test('text tables are clipped to 100 columns; the chart scale covers every whisker', () => {
  const long = 'specPipeChunks 2.0, specReads 1.0, specWrites 1.0, and a long reason for a fallback';
  const table = textTable(['route', 'a', 'reasons'], [['proxy', '123456789', long], ['ssr', '1', long]], new Set([0, 2]));
  for (const line of table.split('\n')) assert.ok(line.length <= 100, `${line.length}: ${line}`);
  assert.match(table, /\.\.\.$/m);
  assert.deepEqual(scaleFor([row()]), { max: 2.5, step: 0.5 });
  assert.deepEqual(scaleFor([row({ ratio: spread(1.3, 1.1, 1.5) })]), { max: 1.75, step: 0.25 });
  assert.deepEqual(scaleFor([row({ ratio: spread(4, 3.5, 4.7) })]), { max: 5, step: 1 });
  assert.equal(scaleFor([row({ rounds: 0 })]).max, 1.25); // room right of the native bar
});

test('the timeline: per-second tier rates from cumulative samples, drawn beside requests/s', () => {
  const rates = tierRates([{ t: 0, fused: 0, sync: 0, spec: 0 }, { t: 1, fused: 100, sync: 50, spec: 10 },
    { t: 3, fused: 300, sync: 50, spec: 10 }]);
  assert.deepEqual(rates, [{ t: 1, fused: 100, sync: 50, spec: 10 }, { t: 3, fused: 100, sync: 0, spec: 0 }]);
  const svg = renderTimelineSvg({ meta: { node: 'v24.0.0', gitRev: 'abc' }, timeline: [
    { route: 'ssr', impl: 'native', round: 1, start: 2, requests: [500, 520], tiers: [] },
    { route: 'ssr', impl: 'fast', round: 1, start: 5, requests: [700, 720], tiers: rates },
  ] });
  // One requests/s line per window, and one line per tier for the fast window.
  assert.equal(svg.match(/<path d="M/g).length, 2 + 3);
  for (const label of ['native req/s', 'fast-webstreams req/s', 'fused (tier 0) hops/s', 'sync (tier 1) hops/s', 'spec (tier 2) hops/s']) {
    assert.ok(svg.includes(label), label);
  }
  assert.match(svg, />ssr f1</);
});
