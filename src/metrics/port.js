// Which process serves FAST_WEBSTREAMS_METRICS_PORT. Every process started with
// the preload sees the variable (npm, a supervisor, each cluster worker), and
// only one can hold the port, so the first one does, from its start (a scrape
// right after a deploy finds the target up), and the others report to it:
//   - a cluster worker whose primary holds the port never binds: it reports to
//     the primary over IPC (cluster.js);
//   - any other process binds at start; when the port is taken by the process
//     that started it (or one of its ancestors: the token it inherited says so),
//     it reports to that process over HTTP (child-report.js), and takes the port
//     over if that process goes away. The holder serves its own counters plus
//     every worker's and child's (aggregate.js).
// A process whose port is taken by a stranger (no token, or another) warns once.
import { snapshotCounters } from './counters.js';
import { announcePrimary, loadedCluster, newToken, readPrimary, reportsToPrimary, startReporting } from './cluster.js';
import { Aggregate } from './aggregate.js';
import { anyWork, reportToHolder } from './child-report.js';
import { renderPrometheus } from './prometheus.js';
import { servePrometheus } from './server.js';
import { infoLabels } from './info.js';
import { sites, topSites } from './sites.js';
import { isInstalled } from '../patch/globals.js';

export const WATCH_INTERVAL_MS = 200;

/** What this process serves at /metrics: its counters plus its workers' and children's. */
function renderProcessMetrics(aggregate) {
  const view = aggregate.view(snapshotCounters(), sites.on ? topSites() : undefined);
  return renderPrometheus(view.total, { installed: isInstalled(), info: infoLabels(), workers: view.workers,
    children: view.children, sites: view.sites });
}

/** Watches for node:cluster: once the application loads it, a primary takes its workers' reports. */
function watchCluster(aggregate, watchMs) {
  const timer = setInterval(() => {
    const cluster = loadedCluster();
    if (cluster !== undefined) aggregate.attach(cluster);
    if (aggregate.attached || aggregate.notPrimary) clearInterval(timer);
  }, watchMs);
  timer.unref();
}

/**
 * Starts the port logic for this process: `out.log` prints the URL line,
 * `out.warn` a warning. Returns { role, ready }: role is 'worker' (reports to
 * its cluster primary) or 'server'; ready resolves once this process holds the
 * port (to the http.Server) or reports to its holder (to null).
 */
export function startMetricsPort(port, host, { log, warn }, { env = process.env, watchMs = WATCH_INTERVAL_MS } = {}) {
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
  const inherited = readPrimary(env);
  const token = inherited?.token ?? newToken();
  // At once, before the application can start a worker or a child.
  if (inherited === undefined) announcePrimary(env, token);
  const aggregate = new Aggregate();
  watchCluster(aggregate, watchMs);
  const handlers = {
    render: () => renderProcessMetrics(aggregate),
    token,
    onReport(report) {
      if (!Number.isInteger(report?.pid) || report.counters === null || typeof report.counters !== 'object') return false;
      aggregate.recordChild(report.pid, report.counters, Array.isArray(report.sites) ? report.sites : undefined);
      return true;
    },
  };
  const bind = async () => {
    const { server, code } = await servePrometheus(port, host, handlers, log);
    if (server !== undefined) announcePrimary(env, token); // (again, for a process that took the port over)
    return { server, code };
  };
  const ready = bind().then(({ server, code }) => {
    if (server !== undefined) return server;
    if (code === 'EADDRINUSE' && inherited !== undefined && port !== 0) {
      reportToHolder({ port, host, token, warn, onHolderGone: () => bind().then((r) => r.server !== undefined) });
      return null;
    }
    warn(`metrics server not started on ${host}:${port}: ${code}`);
    return null;
  });
  return { role: 'server', ready, aggregate };
}
