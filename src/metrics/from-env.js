// startFromEnv(), exported as startMetricsFromEnv and called by register.mjs
// after install(): reads the environment and starts the metrics outputs it
// asks for. Nothing here runs on a hot path; every timer and the HTTP server
// are unref'd, so they never keep a process alive.
//
//   FAST_WEBSTREAMS=0                      the kill switch: nothing at all is started
//   (always)                               the `fast-webstreams:metrics` diagnostics channel
//   FAST_WEBSTREAMS_METRICS=stderr         one JSON line per interval on stderr
//   FAST_WEBSTREAMS_METRICS_INTERVAL=ms    interval for the stderr lines and the channel (default 10000)
//   FAST_WEBSTREAMS_METRICS_PORT=port      Prometheus text on http://HOST:PORT/metrics (0 = any free port),
//                                          served by the process that streams, or by a cluster primary
//                                          for all its workers (port.js)
//   FAST_WEBSTREAMS_METRICS_HOST=host      bind address for that server (default 127.0.0.1)
//   FAST_WEBSTREAMS_METRICS_SUMMARY=1      one summary line on stderr when the process exits
//   FAST_WEBSTREAMS_METRICS_SITES=1        attribute spec-path chunks and fallbacks to the application
//                                          code that created the stream (sites.js): the top sites go
//                                          into the summary, the stderr lines and /metrics
//
// Only the main thread starts outputs: worker threads inherit the same
// environment, and their counters are their own.
//
// Every process with the preload runs this module, so it loads nothing it does
// not need: builtins are required (an ESM import of node:fs builds its
// namespace, which loads fs/promises and readline), node:worker_threads only
// when an output is asked for or the channel gets its first subscriber, and
// node:http only when a port is set.
import { enableMetricsChannel } from './channel.js';
import { metricsRecord } from './record.js';
import { formatSummary, formatSites, getCounters } from './api.js';
import { enableSites, sites, topSites } from './sites.js';
import { startMetricsPort } from './port.js';
import { builtin } from '../patch/builtins.js';
import { isOff } from '../patch/features.js';

const { writeSync } = builtin('node:fs');
const isMainThread = () => builtin('node:worker_threads').isMainThread;

const DEFAULT_INTERVAL_MS = 10000;

const say = (line) => {
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // stderr closed: nothing useful left to do.
  }
};
const warn = (message) => say(`fast-webstreams: ${message}`);

/** Parses the environment into a plan; pure, so tests can check it directly. */
const isSet = (value) => value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';

export function metricsPlan(env = process.env) {
  const plan = { enabled: !isOff(env.FAST_WEBSTREAMS), intervalMs: DEFAULT_INTERVAL_MS, stderr: false,
    port: null, host: '127.0.0.1', summary: false, sites: false, warnings: [] };
  const rawInterval = env.FAST_WEBSTREAMS_METRICS_INTERVAL;
  if (rawInterval !== undefined && rawInterval !== '') {
    const ms = Number(rawInterval);
    if (Number.isInteger(ms) && ms >= 10) plan.intervalMs = ms;
    else plan.warnings.push(`ignoring FAST_WEBSTREAMS_METRICS_INTERVAL=${rawInterval} (want an integer >= 10, in ms); using ${DEFAULT_INTERVAL_MS}`);
  }
  const mode = env.FAST_WEBSTREAMS_METRICS;
  if (mode !== undefined && mode !== '') {
    for (const part of mode.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)) {
      if (part === 'stderr') plan.stderr = true;
      else plan.warnings.push(`ignoring unknown FAST_WEBSTREAMS_METRICS value '${part}' (known: stderr)`);
    }
  }
  const rawPort = env.FAST_WEBSTREAMS_METRICS_PORT;
  if (rawPort !== undefined && rawPort !== '') {
    const port = Number(rawPort);
    if (Number.isInteger(port) && port >= 0 && port <= 65535) plan.port = port;
    else plan.warnings.push(`ignoring FAST_WEBSTREAMS_METRICS_PORT=${rawPort} (want a port number, 0-65535)`);
  }
  if (env.FAST_WEBSTREAMS_METRICS_HOST) plan.host = env.FAST_WEBSTREAMS_METRICS_HOST;
  const summary = env.FAST_WEBSTREAMS_METRICS_SUMMARY;
  plan.summary = isSet(summary);
  plan.sites = isSet(env.FAST_WEBSTREAMS_METRICS_SITES);
  return plan;
}

function startStderrLines(intervalMs) {
  const timer = setInterval(() => say(JSON.stringify(metricsRecord())), intervalMs);
  timer.unref();
}

function armExitSummary() {
  let printed = false;
  const print = () => {
    if (printed) return;
    printed = true;
    say(`${formatSummary(getCounters())} (pid ${process.pid})`);
    if (sites.on) say(formatSites(topSites()));
  };
  process.on('exit', print);
  // A signal ends the process without 'exit'. Print, then, only when nobody
  // else handles the signal, and re-raise it so the default action still happens.
  for (const signal of ['SIGTERM', 'SIGINT']) {
    const onSignal = () => {
      if (process.listenerCount(signal) > 0) return; // the application handles it and will exit
      print();
      process.kill(process.pid, signal);
    };
    process.once(signal, onSignal);
  }
}

let started = false;

/** Starts what the environment asks for (once per process). */
export function startFromEnv(env = process.env) {
  if (started) return;
  started = true;
  const plan = metricsPlan(env);
  if (!plan.enabled) return;
  if (plan.sites) enableSites();
  enableMetricsChannel(plan.intervalMs, isMainThread);
  const outputs = plan.stderr || plan.port !== null || plan.summary || plan.warnings.length > 0;
  if (!outputs || !isMainThread()) return;
  for (const w of plan.warnings) warn(w);
  if (plan.stderr) startStderrLines(plan.intervalMs);
  if (plan.port !== null) startMetricsPort(plan.port, plan.host, warn);
  if (plan.summary) armExitSummary();
}
