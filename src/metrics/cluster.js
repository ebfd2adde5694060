// Counters across a node:cluster (or any IPC parent that runs the preload).
//
// A cluster worker does not serve /metrics itself: it sends its snapshot to its
// primary over the IPC channel once per second (process.send needs no
// 'message' listener, so nothing here refs the channel or keeps the worker
// alive). The primary keeps the last snapshot of each live worker, adds the
// final one of each worker that exited (so sums never go down), and serves the
// total, and per-worker figures, on the one port.
//
// How a worker knows its primary listens: the primary (any process with the
// port set) writes its pid in FAST_WEBSTREAMS_METRICS_PRIMARY; cluster.fork()
// copies process.env into the worker. A worker whose variable names its parent
// (process.ppid) reports; any other process (a child of `npm start`, a PM2
// cluster worker whose daemon has no preload) serves its own port instead.
import { snapshotCounters } from './counters.js';
import { sumCounters } from './api.js';
import { builtin } from '../patch/builtins.js';
import { isBuiltinLoaded } from '../node-internals/loaded-builtins.js';

export const PRIMARY_ENV = 'FAST_WEBSTREAMS_METRICS_PRIMARY';
const TAG = 'fast-webstreams:counters';
export const REPORT_INTERVAL_MS = 1000;

/** Is this process a cluster worker whose primary aggregates our counters? */
export function reportsToPrimary(env = process.env) {
  // Node reads NODE_UNIQUE_ID and deletes it before the preload runs, but has
  // loaded node:cluster by then in a worker.
  if (env[PRIMARY_ENV] !== String(process.ppid) || typeof process.send !== 'function') return false;
  return loadedCluster()?.isWorker === true;
}

/** Marks this process as the aggregator for the cluster workers it will fork. */
export function announcePrimary(env = process.env) {
  env[PRIMARY_ENV] = String(process.pid);
}

/** Worker side: a snapshot to the primary now and then once per interval (unref'd). */
export function startReporting(intervalMs = REPORT_INTERVAL_MS) {
  const send = () => {
    if (!process.connected) return;
    try {
      process.send({ [TAG]: 1, pid: process.pid, counters: snapshotCounters() });
    } catch {
      // the channel closed between the check and the send: the next tick checks again
    }
  };
  send();
  const timer = setInterval(send, intervalMs);
  timer.unref();
  return timer;
}

/** Primary side: the workers' last snapshots and those of exited workers. */
export class ClusterAggregate {
  constructor() {
    this.live = new Map(); // worker id -> { id, pid, counters }
    this.retired = { fallbackReasons: {} };
    this.attached = false;
    this.notPrimary = false;
    this.onFirstReport = undefined;
  }

  /** Listens on node:cluster once the application has loaded it (and is its primary). */
  attach(cluster) {
    if (this.attached || this.notPrimary) return;
    if (!cluster.isPrimary) {
      this.notPrimary = true; // a worker of a primary without the preload: nothing to aggregate
      return;
    }
    this.attached = true;
    cluster.on('message', (worker, message) => {
      if (message === null || typeof message !== 'object' || message[TAG] !== 1) return;
      this.record(worker.id, message.pid, message.counters);
    });
    cluster.on('exit', (worker) => this.retire(worker.id));
  }

  record(id, pid, counters) {
    const first = this.live.size === 0;
    this.live.set(id, { id, pid, counters });
    if (first) this.onFirstReport?.();
  }

  retire(id) {
    const last = this.live.get(id);
    if (last === undefined) return;
    this.live.delete(id);
    this.retired = sumCounters([this.retired, last.counters]);
  }

  /** The primary's own counters plus every worker's, and the live workers one by one. */
  view(own = snapshotCounters()) {
    const workers = [...this.live.values()].sort((a, b) => a.id - b.id);
    return { total: sumCounters([own, this.retired, ...workers.map((w) => w.counters)]), workers };
  }
}

/**
 * node:cluster if the application has loaded it, else undefined. Loading it
 * ourselves costs ~10 ms, so a process that never asked for it never pays.
 */
export function loadedCluster() {
  // (When Node does not say, src/node-internals/loaded-builtins.js, it is loaded.)
  if (isBuiltinLoaded('cluster') === false) return undefined;
  return builtin('node:cluster');
}
