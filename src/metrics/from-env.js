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
//                                          from the start of the first process that takes it, for itself,
//                                          its cluster workers and its child processes (port.js)
//   FAST_WEBSTREAMS_METRICS_HOST=host      bind address for that server (default 127.0.0.1)
//   FAST_WEBSTREAMS_METRICS_SUMMARY=1      the figures and a verdict (verdict.js) on stderr at exit
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
import { formatVerdict } from './verdict.js';
import { enableSites, sites, topSites } from './sites.js';
import { startMetricsPort } from './port.js';
import { builtin } from '../patch/builtins.js';
import {
  DEFAULT_INTERVAL_MS, emitFastWarning, isOff, isOn, readInterval, readOutputs, readPort, unreportedSwitchProblems,
} from '../patch/features.js';

const { writeSync } = builtin('node:fs');
const isMainThread = () => builtin('node:worker_threads').isMainThread;

const say = (line) => {
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // stderr closed: nothing useful left to do.
  }
};
const warn = (message) => emitFastWarning(message, 'FAST_WEBSTREAMS_METRICS');

/**
 * Reads the environment into a plan; pure, so tests can check it directly. A value
 * the parsers of src/patch/features.js refuse leaves the default (their warning
 * comes from switchProblems()).
 */
export function metricsPlan(env = process.env) {
  const outputs = readOutputs(env.FAST_WEBSTREAMS_METRICS);
  return {
    enabled: !isOff(env.FAST_WEBSTREAMS),
    intervalMs: readInterval(env.FAST_WEBSTREAMS_METRICS_INTERVAL) ?? DEFAULT_INTERVAL_MS,
    stderr: outputs.includes('stderr'),
    port: readPort(env.FAST_WEBSTREAMS_METRICS_PORT) ?? null,
    host: env.FAST_WEBSTREAMS_METRICS_HOST || '127.0.0.1',
    summary: isOn(env.FAST_WEBSTREAMS_METRICS_SUMMARY),
    sites: isOn(env.FAST_WEBSTREAMS_METRICS_SITES),
  };
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
    const snap = getCounters();
    const rows = sites.on ? topSites() : undefined;
    say(`${formatSummary(snap)} (pid ${process.pid})`);
    if (rows !== undefined) say(formatSites(rows));
    say(formatVerdict(snap, rows)); // last: what it means, and what to change

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
  // Once per process: install() reports them first when it ran (the preload).
  const problems = unreportedSwitchProblems(env);
  if (problems.length > 0) emitFastWarning(problems.join('; '));
  const outputs = plan.stderr || plan.port !== null || plan.summary;
  if (!outputs || !isMainThread()) return;
  if (plan.stderr) startStderrLines(plan.intervalMs);
  if (plan.port !== null) startMetricsPort(plan.port, plan.host, { log: say, warn });
  if (plan.summary) armExitSummary();
}
