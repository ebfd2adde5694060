// Which process serves FAST_WEBSTREAMS_METRICS_PORT. Every process started with
// the preload sees the variable (npm, a supervisor, each cluster worker), and
// only one can hold the port, so:
//   - a cluster worker whose primary runs the preload never binds: it reports
//     to the primary over IPC (cluster.js);
//   - any other process binds lazily, when it has stream work to show (a
//     counter moved) or when a cluster worker first reports to it. A process
//     that never makes a stream (npm, a supervisor) never takes the port.
// The check is one unref'd timer that reads the counters' fields five times a
// second, and stops once there is nothing left to wait for.
import { counters, snapshotCounters } from './counters.js';
import { ClusterAggregate, announcePrimary, loadedCluster, reportsToPrimary, startReporting } from './cluster.js';
import { renderPrometheus } from './prometheus.js';
import { servePrometheus } from './server.js';
import { infoLabels } from './info.js';
import { sites, topSites } from './sites.js';
import { isInstalled } from '../patch/globals.js';

export const WATCH_INTERVAL_MS = 200;

const FIELDS = Object.keys(counters);
function anyWork() {
  for (let i = 0; i < FIELDS.length; i++) if (counters[FIELDS[i]] > 0) return true;
  return false;
}

/** What this process serves at /metrics: its counters plus its workers' ones. */
export function renderProcessMetrics(aggregate) {
  const extra = { installed: isInstalled(), info: infoLabels(), sites: sites.on ? topSites() : undefined };
  if (aggregate === undefined || !aggregate.attached) return renderPrometheus(snapshotCounters(), extra);
  const { total, workers } = aggregate.view();
  return renderPrometheus(total, { ...extra, workers });
}

/**
 * Starts the port logic for this process. `log` prints a line on stderr.
 * Returns { role, ready }: role is 'worker' (reports to its primary) or
 * 'server'; ready resolves to the http.Server once bound (or null).
 */
export function startMetricsPort(port, host, log, { env = process.env, watchMs = WATCH_INTERVAL_MS } = {}) {
  if (reportsToPrimary(env)) {
    // Report once there is something to report, then every second.
    const timer = setInterval(() => {
      if (!anyWork()) return;
      clearInterval(timer);
      startReporting();
    }, watchMs);
    timer.unref();
    return { role: 'worker', ready: Promise.resolve(null) };
  }
  announcePrimary(env);
  const aggregate = new ClusterAggregate();
  let resolveReady;
  const ready = new Promise((resolve) => { resolveReady = resolve; });
  let bound = false;
  const bind = () => {
    if (bound) return;
    bound = true;
    servePrometheus(port, host, () => renderProcessMetrics(aggregate), log).then(resolveReady);
  };
  aggregate.onFirstReport = bind;
  const timer = setInterval(() => {
    if (!aggregate.attached && !aggregate.notPrimary) {
      const cluster = loadedCluster();
      if (cluster !== undefined) aggregate.attach(cluster);
    }
    if (!bound && anyWork()) bind();
    if (bound && (aggregate.attached || aggregate.notPrimary)) clearInterval(timer);
  }, watchMs);
  timer.unref();
  return { role: 'server', ready, aggregate };
}
