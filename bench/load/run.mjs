#!/usr/bin/env node
// npm run load: the example server (examples/server), and on request framework
// apps (--apps=next,hono,ai: bench/load/apps.mjs), under load, natively and
// with fast-webstreams switched on the way users switch it on (NODE_OPTIONS
// preload), each in its own process, with the backends they call in others.
//
// One measurement window is noisy on a small shared machine, so the run is
// made of rounds: each round drives every route once per implementation, the
// native and fast windows of a route back to back, and which one goes first
// alternates between routes and between rounds. Every server gets a warm-up
// per route before any timing. Reported: a verdict line per route, medians over
// the rounds (requests/s, p50, p99) with their range, the median of the
// per-round fast/native ratios, errors, and the tier shares of the fast
// server's counters summed over its measured windows.
//
// When a child dies, the runner says which one, how, and its last output lines;
// the route it was serving is marked FAILED, the child is restarted for the
// other routes, and everything measured is written (docs/load.md).
//
//   npm run load [-- --rounds=3 --duration=8 --warmup=2 --connections=10 --apps=example,next,hono,ai --routes=ssr,proxy --node=24 --no-codecs]
//   npm run load -- --quick          (2 rounds of 3 s: a check that it works, not a measurement)
//
// Writes bench/load/results/load-node<major>.{json,md,svg} and
// load-node<major>-timeline.svg: requests/s and the fast servers' tier hits per
// second over the run (each one's /metrics scraped every second while it is driven).
// Exit code 1 when a server died or a response failed, 2 on bad options.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { diffCounters, tierHops } from '../../src/metrics/api.js';
import { ALL_ROUTES, APPS, SERVERS } from './apps.mjs';
import { prepareApp } from './app-cache.mjs';
import { ChildError, deathRecord, describeExit, startChild } from './children.mjs';
import { USAGE, parseArgs, parseCrashHook } from './options.mjs';
import { parsePrometheus } from './prometheus-parse.mjs';
import { Progress } from './progress.mjs';
import { IMPLS, IMPL_NAME, childSpec, implOf, isBackend, neededBy, roleName, roleOf, routeRoles, serverOf, serverRole, stepUses } from './roles.mjs';
import { renderMarkdown, renderTable } from './report.mjs';
import { renderSvg } from './chart.mjs';
import { renderTimelineSvg, tierRates } from './timeline.mjs';
import { summarizeRoute, sumCounters } from './stats.mjs';
import { bodyDifference, failureReason } from './verdict.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const SETTLE_MS = 250; // after a window: cut-off requests finish, a crash they cause shows
const MAX_RESTARTS = 2; // per child; after that its implementation (or the upstream's routes) is given up
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The request a route is driven with (GET unless it says otherwise). */
const requestOf = (route) => {
  const { method = 'GET', headers, body } = ALL_ROUTES[route];
  return { method, ...(headers && { headers }), ...(body && { body }) };
};

const live = new Set(); // every child not yet reaped, killed on the way out
function killAll() {
  for (const proc of live) proc.kill();
}
process.on('exit', killAll);

/** A port free now, for a server that cannot be told to take any (next start). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject).listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Node version a >= b, both "x.y.z" (a may start with v). */
function atLeast(a, b) {
  const [x, y] = [a, b].map((v) => v.replace(/^v/, '').split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return true;
}

/** The framework versions an app's package.json pins (the lock file pins the rest). */
function pinnedVersions(server) {
  if (!SERVERS[server].source) return undefined;
  try {
    return JSON.parse(readFileSync(join(ROOT, SERVERS[server].source, 'package.json'), 'utf8')).dependencies;
  } catch {
    return undefined;
  }
}

function cleanEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('FAST_WEBSTREAMS') || key.startsWith('LOAD_TEST_') || key === 'NODE_OPTIONS') delete env[key];
  }
  return env;
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

function gitRev() {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) return 'unknown';
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' });
  return `${r.stdout.trim()}${dirty.stdout?.trim() ? ' (modified)' : ''}`;
}

/** One autocannon window, stopped early if one of `watch` dies; resolves with the figures we report. */
async function drive({ url, request, seconds, connections, pid, watch, progress, onSecond }) {
  const cpuBefore = pid === undefined ? null : cpuMs(pid);
  const instance = autocannon({ url, ...request, duration: seconds, connections, timeout: 10 });
  let done = 0;
  let elapsed = 0;
  let finished = false;
  let stoppedBy = null;
  for (const proc of watch) {
    proc.exited.then(() => {
      if (finished) return;
      stoppedBy ??= proc;
      instance.stop();
    });
  }
  instance.on('response', () => { done++; });
  const perSecond = []; // requests answered in each second of the window
  instance.on('tick', (tick) => {
    progress.tick(++elapsed, done);
    // autocannon ticks once more as it stops: only the window's own seconds go on the timeline.
    if (perSecond.length >= seconds) return;
    perSecond.push(tick?.counter ?? 0);
    onSecond?.();
  });
  const r = await instance;
  finished = true;
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
    perSecond,
    stoppedBy: stoppedBy?.role ?? null,
  };
}

async function main() {
  let opts;
  let crash;
  try {
    opts = parseArgs(process.argv.slice(2), join(HERE, 'results'));
    crash = parseCrashHook(process.env.LOAD_TEST_CRASH);
  } catch (err) {
    console.error(`[load] ${err.message}`);
    process.exit(2);
  }
  if (opts.help) {
    console.log(USAGE);
    return;
  }
  let nodeBin = process.execPath;
  let nodeVersion = process.version;
  if (opts.node) {
    // Installs the binary from the npm registry into .cache/node/<major> if needed, as npm test does.
    const { resolveNode } = await import('../../test/wpt/node-versions.mjs');
    const resolved = resolveNode(opts.node);
    nodeBin = resolved.bin;
    nodeVersion = resolved.version;
  }
  const cpu = cpus();
  const meta = {
    date: new Date().toISOString(),
    node: nodeVersion,
    nodeBin,
    cores: cpu.length,
    cpu: cpu[0]?.model?.trim() ?? 'unknown',
    platform: `${process.platform}-${process.arch}`,
    loadAverageAtStart: loadavg()[0],
    gitRev: gitRev(),
    apps: opts.apps,
    servers: Object.fromEntries(neededBy(opts.routes).servers.map((s) => [s, { label: SERVERS[s].label, pinned: pinnedVersions(s) }])),
    rounds: opts.rounds,
    duration: opts.duration,
    warmup: opts.warmup,
    connections: opts.connections,
    quick: opts.quick,
    codecs: opts.codecs,
    command: `npm run load -- ${process.argv.slice(2).join(' ')}`.trim(),
    status: 'complete',
    testCrashHook: crash ?? undefined,
  };
  const progress = new Progress();
  const failures = [];
  const routeFailure = {}; // route -> the failure that ended it
  const runs = Object.fromEntries(opts.routes.map((route) => [route, { native: [], fast: [], warmup: {}, counters: [] }]));
  let finalTotals = null;
  let written = false;
  const runStartedAt = Date.now();
  const timeline = []; // the measured windows over the run (timeline.mjs)

  /** Writes what was measured so far (all of it at the end); safe to call once from any exit path. */
  function writeResults() {
    if (written) return null;
    written = true;
    const rows = opts.routes.map((route) => ({
      ...summarizeRoute({
        route, path: ALL_ROUTES[route].path, label: ALL_ROUTES[route].label, app: ALL_ROUTES[route].app,
        tokensPerResponse: ALL_ROUTES[route].tokens ?? null,
        native: runs[route].native, fast: runs[route].fast, warmup: runs[route].warmup,
        counters: sumCounters(runs[route].counters),
      }),
      plannedRounds: opts.rounds,
      failure: routeFailure[route] ?? null,
    }));
    meta.loadAverageAtEnd = loadavg()[0];
    meta.finished = new Date().toISOString();
    const base = join(opts.out, `load-node${/^v(\d+)/.exec(nodeVersion)[1]}`);
    meta.timelineSvg = `${basename(base)}-timeline.svg`;
    const result = { meta, rows, failures, fastServerTotals: finalTotals, timeline };
    mkdirSync(opts.out, { recursive: true });
    writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(`${base}.md`, renderMarkdown(result));
    writeFileSync(`${base}.svg`, renderSvg(result));
    writeFileSync(`${base}-timeline.svg`, renderTimelineSvg(result));
    console.log('');
    console.log(renderTable(result));
    console.log(`\nwrote ${relative(process.cwd(), base) || base}.{json,md,svg} and ${meta.timelineSvg}`);
    return result;
  }

  const windows = opts.routes.length * 2;
  const plannedSeconds = windows * (opts.warmup + opts.rounds * opts.duration);
  console.log(`fast-webstreams load comparison: Node ${nodeVersion}, ${meta.cores} cores (${meta.cpu}), git ${meta.gitRev}`);
  console.log(`apps: ${opts.apps.map((a) => `${a} (${SERVERS[APPS[a].server].label})`).join(', ')}`);
  console.log(`${opts.routes.length} routes x 2 implementations: ${opts.warmup} s warm-up each, then ${opts.rounds} rounds of ` +
    `${opts.duration} s windows, ${opts.connections} connections: about ${plannedSeconds + 10 < 120 ? `${plannedSeconds + 10} s`
      : `${Math.ceil((plannedSeconds + 10) / 60)} min`}${opts.quick ? ' (--quick: a check that it works, not a measurement)' : ''}`);
  if (crash) console.log(`[load] TEST HOOK: the ${isBackend(crash.role) ? roleName(crash.role) : `${crash.role} server`} will die on request ${crash.after} to ${crash.path} (${crash.how})`);

  // Ctrl-C and the watchdog keep what was measured.
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      progress.line(`[load] ${signal}: stopping; writing what was measured so far`);
      meta.status = 'interrupted';
      killAll();
      writeResults();
      process.exit(130);
    });
  }
  const watchdog = setTimeout(() => {
    progress.line('[load] giving up: the run took far longer than planned; writing what was measured so far');
    failures.push({ kind: 'error', message: 'watchdog: the run took more than twice its planned time' });
    meta.status = 'aborted';
    killAll();
    writeResults();
    process.exit(1);
  }, (plannedSeconds * 2 + 180) * 1000);
  watchdog.unref();

  // ---- children ----
  const METRICS_LINE = /Prometheus metrics at (http:\/\/\S+\/metrics)/;
  const env = { ...cleanEnv(), NODE_ENV: 'production', HOST: '127.0.0.1' };
  const restarts = {}; // role -> times restarted
  const procs = {}; // role -> the current child
  const urls = {}; // role -> its URL
  const metricsUrls = {}; // fast role -> its /metrics, once bound
  const backendPorts = {}; // a restarted backend takes the same port: the servers know its URL
  const appDirs = {}; // framework server -> its folder under .cache/load-apps
  const lastRoute = {}; // role -> { route, phase, round } it last served: a death between windows is blamed on it

  async function spawnRole(role) {
    const server = isBackend(role) ? null : SERVERS[serverOf(role)];
    const port = isBackend(role) ? backendPorts[role] ?? 0 : server.needsPort ? await freePort() : 0;
    const spec = childSpec(role, { root: ROOT, nodeBin, env, codecs: opts.codecs, port, urls, appDirs, crash });
    const keep = implOf(role) === 'fast' ? { metricsUrl: { stream: 'stderr', re: METRICS_LINE } } : {};
    const proc = startChild({ role, name: roleName(role), ...spec, keep });
    proc.port = port;
    live.add(proc);
    proc.exited.then(() => live.delete(proc));
    procs[role] = proc;
    return proc;
  }

  /** Starts a child and waits until it serves; for a server, checks it is what it claims. Throws a ChildError. */
  async function startRole(role) {
    const proc = await spawnRole(role);
    const ready = isBackend(role) ? /listening on (http:\/\/\S+)/ : SERVERS[serverOf(role)].ready;
    const url = (await proc.waitFor('stdout', ready, 'ready line')) ?? `http://127.0.0.1:${proc.port}`;
    urls[role] = url;
    if (isBackend(role)) {
      backendPorts[role] = new URL(url).port;
      return;
    }
    if (implOf(role) === 'fast') metricsUrls[role] = null; // read from its stderr line at the first scrape()
    let health;
    try {
      health = await (await fetch(`${url}${SERVERS[serverOf(role)].health}`)).json();
    } catch (err) {
      await Promise.race([proc.exited, sleep(1000)]);
      if (proc.exit) throw new ChildError(proc, `${describeExit(proc.exit)} during its health check`);
      throw err;
    }
    if (health.webStreams !== IMPL_NAME[implOf(role)]) {
      throw new Error(`${roleName(role)} reports web streams '${health.webStreams}', expected '${IMPL_NAME[implOf(role)]}'`);
    }
  }

  const usesChild = (route, role) => routeRoles(route).includes(role);

  /** Marks a route failed (once) and skips its remaining steps. */
  function failRoute(route, failure) {
    if (routeFailure[route]) return;
    routeFailure[route] = failure;
    for (const step of plan) if (step.route === route && !step.done) step.skipped = true;
  }

  /**
   * A child died: record it, say so loudly, fail the route it was serving,
   * and restart it for the other routes (up to MAX_RESTARTS times).
   */
  const deathOf = new Map(); // child -> its failure record
  async function handleDeath(proc, context) {
    if (proc.handled) return;
    proc.handled = true;
    const role = proc.role;
    const ctx = context ?? lastRoute[role] ?? { phase: 'between windows' };
    const record = deathRecord(proc, { kind: 'death', route: ctx.route ?? null, phase: ctx.phase, round: ctx.round ?? null });
    deathOf.set(proc, record);
    failures.push(record);
    const reason = `${record.server} ${record.exit}`;
    if (ctx.route && usesChild(ctx.route, role)) failRoute(ctx.route, { reason, role, phase: ctx.phase, round: ctx.round ?? null });
    progress.line(`[load] FAILURE: the ${record.server} ${record.exit} after ${record.uptimeSeconds} s` +
      `${ctx.route ? ` (route ${ctx.route}, ${ctx.phase === 'round' ? `round ${ctx.round}` : ctx.phase})` : ''}`);
    progress.line(`[load]   command: ${record.command}`);
    progress.line(`[load]   last ${record.tail.length} lines of its ${record.tailStream}:`);
    for (const line of record.tail.length ? record.tail : ['(nothing)']) progress.line(`[load]   | ${line}`);

    const remaining = plan.filter((s) => !s.done && !s.skipped && stepUses(s, role));
    if (remaining.length === 0) {
      record.action = 'not restarted: nothing left for it to serve';
    } else if ((restarts[role] ?? 0) >= MAX_RESTARTS) {
      record.action = `not restarted: it died ${restarts[role] + 1} times`;
    } else {
      restarts[role] = (restarts[role] ?? 0) + 1;
      try {
        await startRole(role);
        record.action = `restarted for the other routes (restart ${restarts[role]} of ${MAX_RESTARTS} allowed)`;
        progress.line(`[load]   ${record.action}${isBackend(role) ? '' : ', warming it up before any timing'}`);
        if (!isBackend(role)) {
          const impl = implOf(role);
          const routes = [...new Set(remaining.map((s) => s.route))];
          const steps = opts.warmup > 0 ? routes.map((route) => ({ phase: 'warm-up', route, impl, seconds: opts.warmup })) : [];
          plan.push(...steps);
          progress.plan(steps);
          for (const step of steps) {
            const w = await runStep(step, `warm-up after restart ${restarts[role]}: ${step.route} ${IMPL_NAME[impl]}`);
            if (w) runs[step.route].warmup[`${impl} after restart ${restarts[role]}`] = { errors: w.errors, non2xx: w.non2xx, requests: w.requests };
          }
        }
        return;
      } catch (err) {
        record.action = `restart failed: ${err.message.split('\n')[0]}`;
        if (procs[role]?.exit) failures.push(deathRecord(procs[role], { kind: 'death', route: null, phase: 'restart', round: null }));
      }
    }
    progress.line(`[load]   ${record.action}`);
    // Gone for good: every route still needing it fails.
    for (const step of remaining) {
      failRoute(step.route, { reason: `not measured: the ${record.server} is gone (${record.exit})`, role, phase: step.phase, round: step.round ?? null });
    }
  }

  /** Handles every child that has died (the one given first, with its context). */
  async function checkDeaths(context, roles) {
    for (const role of roles) {
      const proc = procs[role];
      if (proc?.exit && !proc.handled) await handleDeath(proc, context);
    }
  }

  const noMetricsLine = new Set(); // fast servers already warned about
  /** The counters of the fast server `role`, from its /metrics; null if it died. */
  async function scrape(role) {
    const proc = procs[role];
    metricsUrls[role] ??= proc.kept.metricsUrl ?? null;
    if (!metricsUrls[role]) {
      // The preload binds FAST_WEBSTREAMS_METRICS_PORT at start and prints the URL (port 0: a free one).
      try {
        metricsUrls[role] = await proc.waitFor('stderr', METRICS_LINE, 'metrics line', 2000);
      } catch {
        if (proc.exit) return null;
        if (!noMetricsLine.has(proc)) {
          noMetricsLine.add(proc);
          progress.line(`[load] WARNING: the ${roleName(role)} has printed no metrics line yet: its counters read as zero`);
        }
        return parsePrometheus('');
      }
    }
    try {
      const res = await fetch(metricsUrls[role]);
      if (!res.ok) throw new Error(`${metricsUrls[role]}: HTTP ${res.status}`);
      return parsePrometheus(await res.text());
    } catch (err) {
      // A fetch that fails because the fast server just died is that death, not a runner error.
      await Promise.race([proc.exited, sleep(1000)]);
      if (proc.exit) return null;
      throw new Error(`the ${roleName(role)}'s /metrics did not answer: ${err.cause?.message ?? err.message}`);
    }
  }

  /** One window (a warm-up or a measured one); returns its figures, or null if a child died. */
  async function runStep(step, label) {
    const { route, impl } = step;
    const server = serverRole(route, impl);
    const roles = [server, ...ALL_ROUTES[route].backends];
    await checkDeaths(undefined, roles);
    if (routeFailure[route] || !procs[server] || procs[server].exit) {
      step.skipped = true;
      return null;
    }
    const ctx = { route, phase: step.phase, round: step.round };
    for (const role of roles) lastRoute[role] = ctx;
    const measured = step.phase === 'round';
    progress.start(step, label);
    const before = measured && impl === 'fast' ? await scrape(server) : null;
    let r = null;
    const windowStart = Date.now();
    // The tier hops of the fast server serving this route, sampled once a second while it is driven (the timeline).
    const tierSamples = before ? [{ t: 0, ...tierHops(before) }] : [];
    const sampleTiers = () => {
      const t = (Date.now() - windowStart) / 1000;
      scrape(server).then((snap) => { if (snap) tierSamples.push({ t, ...tierHops(snap) }); }, () => {});
    };
    if (!measured || impl !== 'fast' || before) {
      r = await drive({
        url: `${urls[server]}${ALL_ROUTES[route].path}`, request: requestOf(route), seconds: step.seconds, connections: opts.connections,
        pid: measured ? procs[server].pid : undefined, watch: roles.map((role) => procs[role]), progress,
        onSecond: before ? sampleTiers : undefined,
      });
      await sleep(SETTLE_MS);
    }
    const counters = r && before ? await scrape(server) : null;
    if (r && measured) {
      timeline.push({ route, server: serverOf(server), impl, round: step.round, start: (windowStart - runStartedAt) / 1000, requests: r.perSecond,
        tiers: tierRates(tierSamples.sort((a, b) => a.t - b.t)) });
    }
    progress.finish(step);
    const dead = roles.map((role) => procs[role]).filter((proc) => proc.exit);
    if (dead.length) {
      // Recorded before the restart (handleDeath) replaces the child.
      const partial = r && { requests: r.requests, errors: r.errors + r.non2xx, seconds: step.seconds };
      for (const proc of dead) {
        await handleDeath(proc, ctx);
        if (partial && deathOf.get(proc)) deathOf.get(proc).partialWindow = partial;
      }
      return null;
    }
    if (counters) runs[route].counters.push(diffCounters(counters, before));
    return r;
  }

  // ---- the run ----
  const orderOf = (routeIndex, round) => ((routeIndex + round) % 2 === 0 ? ['native', 'fast'] : ['fast', 'native']);
  const plan = [];
  if (opts.warmup > 0) {
    for (const [i, route] of opts.routes.entries()) {
      for (const impl of orderOf(i, 0)) plan.push({ phase: 'warm-up', route, impl, seconds: opts.warmup });
    }
  }
  for (let round = 1; round <= opts.rounds; round++) {
    for (const [i, route] of opts.routes.entries()) {
      for (const impl of orderOf(i, round - 1)) plan.push({ phase: 'round', round, route, impl, seconds: opts.duration });
    }
  }
  progress.plan(plan);

  try {
    // Start-up. The framework apps are installed and built first (once: the
    // results are cached). A server or backend that cannot start fails the
    // routes that need it and the others go on; with nothing left, the run ends.
    const { servers, backends } = neededBy(opts.routes);
    const routesOf = (pred) => opts.routes.filter((r) => !routeFailure[r] && pred(ALL_ROUTES[r]));
    const failStartup = (routes, err) => {
      const proc = err.proc ?? Object.values(procs).find((p) => p.exit && !p.handled);
      if (proc) proc.handled = true; // its routes fail here; it is not restarted
      proc?.kill(); // one that never became ready
      if (proc?.exit || err.proc) failures.push(deathRecord(proc, { kind: 'death', route: null, phase: 'start-up', round: null }));
      else failures.push({ kind: 'error', phase: 'start-up', message: err.message });
      progress.line(`[load] FAILURE at start-up: ${err.message.split('\n')[0]} (${routes.join(', ')} not measured)`);
      const detail = proc ? [`command: ${proc.command}`, ...proc.tail().lines.map((l) => `| ${l}`)] : err.message.split('\n').slice(1);
      for (const line of detail) progress.line(`[load]   ${line}`);
      for (const route of routes) failRoute(route, { reason: err.message.split('\n')[0], phase: 'start-up' });
    };
    for (const server of servers) {
      const def = SERVERS[server];
      const mine = routesOf((r) => r.server === server);
      if (def.minNode && !atLeast(nodeVersion, def.minNode)) {
        failStartup(mine, new Error(`${def.label} needs Node >= ${def.minNode}`));
      } else if (def.source) {
        try {
          appDirs[server] = prepareApp({
            root: ROOT, name: server, sourceDir: def.source, build: def.build, builtMarker: def.builtMarker, nodeBin,
            env: { ...env, NEXT_TELEMETRY_DISABLED: '1' }, log: (line) => progress.line(`[load] ${line}`),
          });
        } catch (err) {
          failStartup(mine, err);
        }
      }
    }
    for (const backend of backends) {
      const mine = routesOf((r) => r.backends.includes(backend));
      if (mine.length === 0) continue;
      try {
        await startRole(backend);
      } catch (err) {
        failStartup(mine, err);
      }
    }
    for (const server of servers) {
      for (const impl of IMPLS) {
        const mine = routesOf((r) => r.server === server);
        if (mine.length === 0) break;
        try {
          await startRole(roleOf(impl, server));
        } catch (err) {
          failStartup(mine, err);
        }
      }
    }
    if (opts.routes.every((r) => routeFailure[r])) {
      throw Object.assign(new Error('nothing to measure: every route failed at start-up'), { reported: true });
    }
    // Every route must answer, and answer what it should, before any timing; one that does not is failed, the others go on.
    // The fast server must answer exactly what the native one did (drop-in), byte for byte.
    const nativeBody = {};
    for (const impl of IMPLS) {
      for (const route of opts.routes) {
        if (routeFailure[route]) continue;
        const server = serverRole(route, impl);
        let why = null;
        try {
          const res = await fetch(`${urls[server]}${ALL_ROUTES[route].path}`, requestOf(route));
          const body = Buffer.from(await res.arrayBuffer());
          if (res.status !== 200 || body.byteLength === 0) why = `HTTP ${res.status}, ${body.byteLength} bytes`;
          else why = ALL_ROUTES[route].check?.(body.toString()) ?? null;
          if (impl === 'native') nativeBody[route] = body;
          else if (!why && nativeBody[route] && !body.equals(nativeBody[route])) why = bodyDifference(nativeBody[route], body);
        } catch (err) {
          why = err.cause?.message ?? err.message;
        }
        await sleep(50);
        await checkDeaths({ route, phase: 'start-up' }, [server, ...ALL_ROUTES[route].backends]);
        if (why && !routeFailure[route]) {
          failures.push({ kind: 'error', route, phase: 'start-up', message: `${roleName(server)}: ${route} answered ${why}` });
          failRoute(route, { reason: `${roleName(server)} answered ${why}`, phase: 'start-up' });
        }
      }
    }

    // Warm-up: every server, every route, before any timing (JIT, connection
    // pools to the upstream, React's caches). Not recorded, errors aside.
    for (const step of plan.filter((s) => s.phase === 'warm-up')) {
      const w = await runStep(step, `warm-up: ${step.route} ${IMPL_NAME[step.impl]}`);
      if (w) runs[step.route].warmup[step.impl] = { errors: w.errors, non2xx: w.non2xx, requests: w.requests };
    }
    if (opts.warmup > 0) progress.line(`[load] warm-up done (${opts.warmup} s per route per server)`);

    for (let round = 1; round <= opts.rounds; round++) {
      for (const route of opts.routes) {
        const results = {};
        for (const step of plan.filter((s) => s.phase === 'round' && s.round === round && s.route === route)) {
          const r = await runStep(step, `round ${round}/${opts.rounds}: ${route} ${IMPL_NAME[step.impl]}`);
          if (!r) break;
          r.round = round;
          r.first = Object.keys(results).length === 0;
          results[step.impl] = r;
        }
        // Only complete pairs count: the ratio is taken within a round.
        if (!results.native || !results.fast) {
          if (routeFailure[route]?.round === round) progress.line(`[load] round ${round}/${opts.rounds} ${route}: FAILED (${failureReason(routeFailure[route])})`);
          continue;
        }
        runs[route].native.push(results.native);
        runs[route].fast.push(results.fast);
        const n = results.native;
        const f = results.fast;
        const ratio = n.requestsPerSecond > 0 ? f.requestsPerSecond / n.requestsPerSecond : NaN;
        progress.line(`[load] round ${round}/${opts.rounds} ${route}: ${ratio.toFixed(2)}x req/s (${n.requestsPerSecond.toFixed(0)} -> ` +
          `${f.requestsPerSecond.toFixed(0)}), p99 ${n.latencyP99} -> ${f.latencyP99} ms` +
          (n.cpuMsPerRequest !== null && f.cpuMsPerRequest !== null
            ? `, CPU/request ${n.cpuMsPerRequest.toFixed(2)} -> ${f.cpuMsPerRequest.toFixed(2)} ms` : ''));
      }
    }
    // Each fast server's counters over the whole run (warm-ups and start-up checks included), by server.
    finalTotals = {};
    for (const server of neededBy(opts.routes).servers) {
      const role = roleOf('fast', server);
      if (procs[role] && !procs[role].exit) finalTotals[server] = await scrape(role);
    }
  } catch (err) {
    if (!err.reported) failures.push({ kind: 'error', message: err.message });
    progress.line(`[load] ERROR: ${err.message}`);
    if (err.proc) {
      const { stream, lines } = err.proc.tail();
      for (const line of [`command: ${err.proc.command}`, `last ${lines.length} lines of its ${stream}:`, ...lines.map((l) => `| ${l}`)]) {
        progress.line(`[load]   ${line}`);
      }
    }
    meta.status = 'aborted';
  }
  killAll();
  clearTimeout(watchdog);
  if (meta.status === 'complete' && failures.length) meta.status = 'failed';
  const result = writeResults();
  const errors = result.rows.reduce((n, r) => n + r.errors.native + r.errors.fast + r.errors.warmup, 0);
  if (failures.length) {
    const deaths = failures.filter((f) => f.kind === 'death');
    console.log(`\n${failures.length} failure${failures.length === 1 ? '' : 's'}` +
      `${deaths.length ? ` (${deaths.map((d) => `${d.server} ${d.exit}`).join('; ')})` : ''}: see FAILURES above.`);
    process.exitCode = 1;
  }
  if (errors > 0) {
    console.log(`\n${errors} errors or non-2xx responses in all (warm-ups included): see the table and the JSON.`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(`[load] ${err.stack ?? err}`);
  killAll();
  process.exit(1);
});
