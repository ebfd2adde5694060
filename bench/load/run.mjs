#!/usr/bin/env node
// npm run load: the example server (examples/server) under load, natively and
// with fast-webstreams switched on the way users switch it on (NODE_OPTIONS
// preload), each in its own process, with the upstream in a third process.
//
// One measurement window is noisy on a small shared machine, so the run is
// made of rounds: each round drives every route once per implementation, the
// native and fast windows of a route back to back, and which one goes first
// alternates between routes and between rounds. Every server gets a warm-up
// per route before any timing. Reported: medians over the rounds (requests/s,
// p50, p99) with their range, the median of the per-round fast/native ratios,
// errors summed over every window, and the tier shares of the fast server's
// counters summed over its measured windows (scraped from /metrics around each).
//
//   npm run load [-- --rounds=3 --duration=8 --warmup=2 --connections=10 --routes=ssr,proxy,forward,ndjson --node=24]
//   npm run load -- --quick          (2 rounds of 3 s: a check that it works, not a measurement)
//
// Writes bench/load/results/load-node<major>.{json,md,svg}. Docs: docs/load.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { diffCounters } from '../../src/metrics/api.js';
import { parsePrometheus } from './prometheus-parse.mjs';
import { renderMarkdown, renderTable } from './report.mjs';
import { renderSvg } from './chart.mjs';
import { summarizeRoute, sumCounters } from './stats.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const ALL_ROUTES = {
  ssr: { path: '/ssr', label: 'React SSR (renderToReadableStream + inject transform)' },
  proxy: { path: '/proxy', label: 'fetch proxy, 64 KB through 3 TransformStreams' },
  forward: { path: '/forward', label: 'Response forwarding (fetch-style handler)' },
  ndjson: { path: '/ndjson', label: 'NDJSON streaming, 500 rows' },
};
const DEFAULTS = { rounds: 3, duration: 8, warmup: 2, connections: 10 };
const QUICK = { rounds: 2, duration: 3, warmup: 1 };
const USAGE = 'npm run load -- [--rounds=3] [--duration=8] [--warmup=2] [--connections=10] ' +
  '[--routes=ssr,proxy,forward,ndjson] [--node=24] [--out=dir] [--quick]';

function parseArgs(argv) {
  const opts = { ...DEFAULTS, routes: Object.keys(ALL_ROUTES), node: null, out: join(HERE, 'results'), quick: false };
  const given = new Set();
  for (const arg of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!m) throw new Error(`unknown argument ${arg} (${USAGE})`);
    const [, key, value = ''] = m;
    if (key === 'help') {
      console.log(USAGE);
      process.exit(0);
    } else if (key === 'quick') {
      opts.quick = true;
    } else if (key in DEFAULTS) {
      const n = Number(value);
      const min = key === 'warmup' ? 0 : 1;
      const max = key === 'rounds' ? 50 : key === 'connections' ? 1000 : 3600;
      if (!Number.isInteger(n) || n < min || n > max) throw new Error(`bad --${key}=${value} (an integer from ${min} to ${max})`);
      opts[key] = n;
      given.add(key);
    } else if (key === 'routes') {
      opts.routes = value.split(',').map((s) => s.trim()).filter(Boolean);
      if (opts.routes.length === 0) throw new Error('--routes needs at least one route');
      for (const r of opts.routes) if (!ALL_ROUTES[r]) throw new Error(`unknown route ${r} (known: ${Object.keys(ALL_ROUTES).join(', ')})`);
    } else if (key === 'node') {
      opts.node = value;
    } else if (key === 'out') {
      opts.out = value;
    } else {
      throw new Error(`unknown option --${key} (${USAGE})`);
    }
  }
  // --quick sets what was not given explicitly.
  if (opts.quick) for (const [key, value] of Object.entries(QUICK)) if (!given.has(key)) opts[key] = value;
  return opts;
}

const children = new Set();
function killAll() {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}
process.on('exit', killAll);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { killAll(); process.exit(130); });

/** Starts a process and resolves with its URL once it prints "listening on <url>". */
function startProcess(name, argv, env) {
  const child = spawn(argv[0], argv.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
  child.on('exit', () => children.delete(child));
  const wait = (which, re, what) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: no ${what} after 30 s\n${stdout}${stderr}`)), 30000);
    const check = () => {
      const m = re.exec(which === 'stdout' ? stdout : stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child[which].on('data', check);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code ?? signal}) before ${what}:\n${stdout}${stderr}`));
    });
    check();
  });
  return { child, wait, output: () => stdout + stderr };
}

function cleanEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('FAST_WEBSTREAMS') || key === 'NODE_OPTIONS') delete env[key];
  return env;
}

async function scrape(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return parsePrometheus(await res.text());
}

// CPU time of a server process (user + system), from /proc on Linux; null elsewhere.
// Requests/s depends on whatever else the machine runs; the server's CPU time per
// request much less so, which makes it the steadier figure on a shared machine.
const CLOCK_TICKS = (() => {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const n = Number(r.stdout?.trim());
  return r.status === 0 && Number.isInteger(n) && n > 0 ? n : 100;
})();
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS; // utime + stime
  } catch {
    return null;
  }
}

const isTTY = process.stderr.isTTY;
let lastProgressLength = 0;
function progress(text, final = false) {
  if (isTTY) {
    process.stderr.write(`\r${text.padEnd(lastProgressLength)}${final ? '\n' : ''}`);
    lastProgressLength = final ? 0 : text.length;
  } else if (final) {
    process.stderr.write(`${text}\n`);
  }
}

/** One autocannon window; resolves with the figures we report. */
async function drive(url, seconds, connections, label, pid) {
  const cpuBefore = pid === undefined ? null : cpuMs(pid);
  const instance = autocannon({ url, duration: seconds, connections, timeout: 10 });
  let done = 0;
  let elapsed = 0;
  instance.on('response', () => { done++; });
  instance.on('tick', () => {
    elapsed++;
    progress(`[load] ${label}  ${Math.min(elapsed, seconds)}/${seconds} s  ${done} responses`);
  });
  const r = await instance;
  const cpuAfter = cpuBefore === null ? null : cpuMs(pid);
  const serverCpuMs = cpuAfter === null ? null : cpuAfter - cpuBefore;
  return {
    requestsPerSecond: r.requests.average,
    requests: r.requests.total,
    latencyP50: r.latency.p50,
    latencyP99: r.latency.p99,
    latencyAverage: r.latency.average,
    throughputBytesPerSecond: r.throughput.average,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    serverCpuMs,
    cpuMsPerRequest: serverCpuMs !== null && r.requests.total > 0 ? serverCpuMs / r.requests.total : null,
    seconds,
  };
}

function gitRev() {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' });
  return `${r.stdout.trim()}${dirty.stdout?.trim() ? ' (modified)' : ''}`;
}

const IMPL_NAME = { native: 'native', fast: 'fast-webstreams' };
const SETTLE_MS = 250;

async function main() {
  let opts;
  try {
    opts = parseArgs(process.argv.slice(2));
  } catch (err) {
    console.error(`[load] ${err.message}`);
    process.exit(2);
  }
  let nodeBin = process.execPath;
  let nodeVersion = process.version;
  if (opts.node) {
    const { resolveNode } = await import('../../test/wpt/node-versions.mjs');
    const resolved = resolveNode(opts.node);
    nodeBin = resolved.bin;
    nodeVersion = resolved.version;
  }
  const cpu = cpus();
  const meta = {
    date: new Date().toISOString(),
    node: nodeVersion,
    cores: cpu.length,
    cpu: cpu[0]?.model?.trim() ?? 'unknown',
    platform: `${process.platform}-${process.arch}`,
    loadAverageAtStart: loadavg()[0],
    gitRev: gitRev(),
    rounds: opts.rounds,
    duration: opts.duration,
    warmup: opts.warmup,
    connections: opts.connections,
    quick: opts.quick,
    command: `npm run load -- ${process.argv.slice(2).join(' ')}`.trim(),
  };
  const windows = opts.routes.length * 2;
  const plannedSeconds = windows * (opts.warmup + opts.rounds * opts.duration);
  console.log(`fast-webstreams load comparison: Node ${nodeVersion}, ${meta.cores} cores (${meta.cpu}), git ${meta.gitRev}`);
  console.log(`${opts.routes.length} routes x 2 implementations: ${opts.warmup} s warm-up each, then ${opts.rounds} rounds of ` +
    `${opts.duration} s windows, ${opts.connections} connections: about ${plannedSeconds + 10 < 120 ? `${plannedSeconds + 10} s` : `${Math.ceil((plannedSeconds + 10) / 60)} min`}` +
    (opts.quick ? ' (--quick: a check that it works, not a measurement)' : ''));

  // Whole-run watchdog: a stuck server must not hang a new user's terminal.
  const watchdog = setTimeout(() => {
    progress('[load] giving up: the run took far longer than planned', true);
    killAll();
    process.exit(1);
  }, (plannedSeconds * 2 + 120) * 1000);
  watchdog.unref();

  const env = { ...cleanEnv(), NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0' };
  const upstream = startProcess('upstream', [nodeBin, 'examples/server/upstream.mjs'], env);
  const upstreamUrl = await upstream.wait('stdout', /listening on (http:\/\/\S+)/, 'listening line');
  const serverEnv = { ...env, UPSTREAM_URL: upstreamUrl };
  const impls = {
    native: startProcess('native server', [nodeBin, 'examples/server/server.mjs'], serverEnv),
    fast: startProcess('fast server', [nodeBin, 'examples/server/server.mjs'], {
      ...serverEnv, NODE_OPTIONS: '--import fast-webstreams/register', FAST_WEBSTREAMS_METRICS_PORT: '0',
    }),
  };
  const urls = {};
  for (const [impl, proc] of Object.entries(impls)) urls[impl] = await proc.wait('stdout', /listening on (http:\/\/\S+)/, 'listening line');
  const metricsUrl = await impls.fast.wait('stderr', /Prometheus metrics at (http:\/\/\S+\/metrics)/, 'metrics line');

  // Each server must be what it claims, and every route must answer, before any timing.
  for (const [impl, url] of Object.entries(urls)) {
    const health = await (await fetch(`${url}/health`)).json();
    if (health.webStreams !== IMPL_NAME[impl]) {
      throw new Error(`${impl} server reports web streams '${health.webStreams}', expected '${IMPL_NAME[impl]}'`);
    }
    for (const route of opts.routes) {
      const res = await fetch(`${url}${ALL_ROUTES[route].path}`);
      const body = await res.arrayBuffer();
      if (res.status !== 200 || body.byteLength === 0) throw new Error(`${impl} ${route}: HTTP ${res.status}, ${body.byteLength} bytes`);
    }
  }

  // First implementation of a route's pair in a round: alternates between
  // routes and flips every round, so neither always runs first (or second).
  const orderOf = (routeIndex, round) => ((routeIndex + round) % 2 === 0 ? ['native', 'fast'] : ['fast', 'native']);

  const runs = Object.fromEntries(opts.routes.map((route) => [route, { native: [], fast: [], warmup: {}, counters: [] }]));
  const totalSteps = windows * (opts.rounds + (opts.warmup > 0 ? 1 : 0));
  let step = 0;

  // Warm-up: every server, every route, before any timing (JIT, connection
  // pools to the upstream, React's caches). Not recorded, errors aside.
  if (opts.warmup > 0) {
    for (const [i, route] of opts.routes.entries()) {
      for (const impl of orderOf(i, 0)) {
        step++;
        const tag = `warm-up ${step}/${totalSteps} ${route} ${IMPL_NAME[impl]}`;
        const w = await drive(`${urls[impl]}${ALL_ROUTES[route].path}`, opts.warmup, opts.connections, tag);
        runs[route].warmup[impl] = { errors: w.errors, non2xx: w.non2xx, requests: w.requests };
      }
    }
    progress(`[load] warm-up done (${opts.warmup} s per route per server)`, true);
  }

  for (let round = 0; round < opts.rounds; round++) {
    for (const [i, route] of opts.routes.entries()) {
      const results = {};
      for (const impl of orderOf(i, round)) {
        step++;
        const tag = `round ${round + 1}/${opts.rounds} ${step}/${totalSteps} ${route} ${IMPL_NAME[impl]}`;
        const url = `${urls[impl]}${ALL_ROUTES[route].path}`;
        const before = impl === 'fast' ? await scrape(metricsUrl) : null;
        const r = await drive(url, opts.duration, opts.connections, tag, impls[impl].child.pid);
        if (impl === 'fast') {
          // Let the requests cut off at the end of the window finish on the server,
          // so their chunks count in this window and not in the next one.
          await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
          runs[route].counters.push(diffCounters(await scrape(metricsUrl), before));
        }
        r.round = round + 1;
        r.first = Object.keys(results).length === 0;
        runs[route][impl].push(r);
        results[impl] = r;
      }
      const ratio = results.native.requestsPerSecond > 0 ? results.fast.requestsPerSecond / results.native.requestsPerSecond : NaN;
      progress(`[load] round ${round + 1}/${opts.rounds} ${route}: native ${results.native.requestsPerSecond.toFixed(0)} req/s ` +
        `(p99 ${results.native.latencyP99} ms), fast ${results.fast.requestsPerSecond.toFixed(0)} req/s ` +
        `(p99 ${results.fast.latencyP99} ms), ${ratio.toFixed(2)}x` +
        (results.native.cpuMsPerRequest !== null ? `; CPU/request ${results.native.cpuMsPerRequest.toFixed(2)} -> ` +
          `${results.fast.cpuMsPerRequest.toFixed(2)} ms` : ''), true);
    }
  }
  const finalTotals = await scrape(metricsUrl);
  killAll();
  clearTimeout(watchdog);

  const rows = opts.routes.map((route) => summarizeRoute({
    route, path: ALL_ROUTES[route].path, label: ALL_ROUTES[route].label,
    native: runs[route].native, fast: runs[route].fast, warmup: runs[route].warmup,
    counters: sumCounters(runs[route].counters),
  }));
  meta.loadAverageAtEnd = loadavg()[0];
  const result = { meta, rows, fastServerTotals: finalTotals };
  console.log('');
  console.log(renderTable(result));
  mkdirSync(opts.out, { recursive: true });
  const base = join(opts.out, `load-node${/^v(\d+)/.exec(nodeVersion)[1]}`);
  writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(`${base}.md`, renderMarkdown(result));
  writeFileSync(`${base}.svg`, renderSvg(result));
  console.log(`\nwrote ${relative(process.cwd(), base)}.{json,md,svg}`);
  const errors = rows.reduce((n, r) => n + r.errors.native + r.errors.fast + r.errors.warmup, 0);
  if (errors > 0) {
    console.log(`\n${errors} errors or non-2xx responses in all (warm-ups included): see the table and the JSON.`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  progress('', true);
  console.error(`[load] ${err.stack ?? err}`);
  killAll();
  process.exit(1);
});
