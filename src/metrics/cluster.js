// Counters across a node:cluster (or any IPC parent that runs the preload).
//
// A cluster worker does not serve /metrics itself: it sends its snapshot to its
// primary over the IPC channel once per second (process.send needs no
// 'message' listener, so nothing here refs the channel or keeps the worker
// alive). The primary keeps the last snapshot of each live worker, adds the
// final one of each worker that exited (so sums never go down), and serves the
// total, and per-worker figures, on the one port.
//
// How a worker knows its primary listens: the process that holds the port
// writes "<pid>:<token>" in FAST_WEBSTREAMS_METRICS_PRIMARY (port.js), and
// cluster.fork() copies process.env into the worker. A worker whose variable
// names its parent (process.ppid) reports over IPC; any other process that
// inherited the variable (a child of `npm start`, a supervisor's app) reports
// to the holder over HTTP with the token (child-report.js) when the port is
// taken, and a PM2 cluster worker whose daemon has no preload serves its own port.
import { snapshotCounters } from './counters.js';
import { sites, topSites } from './sites.js';
import { builtin } from '../patch/builtins.js';
import { isBuiltinLoaded } from '../node-internals/loaded-builtins.js';

export const PRIMARY_ENV = 'FAST_WEBSTREAMS_METRICS_PRIMARY';
export const TAG = 'fast-webstreams:counters';
export const REPORT_INTERVAL_MS = 1000;

/** The holder this process inherited: { pid, token } from FAST_WEBSTREAMS_METRICS_PRIMARY, or undefined. */
export function readPrimary(env = process.env) {
  const m = /^(\d+):([0-9a-f]{32})$/.exec(env[PRIMARY_ENV] ?? '');
  return m === null ? undefined : { pid: m[1], token: m[2] };
}

/** A new token: what a report over HTTP must carry, so only this process's descendants are counted. */
export function newToken() {
  return builtin('node:crypto').randomBytes(16).toString('hex');
}

/** Is this process a cluster worker whose primary aggregates our counters? */
export function reportsToPrimary(env = process.env) {
  // Node reads NODE_UNIQUE_ID and deletes it before the preload runs, but has
  // loaded node:cluster by then in a worker.
  if (readPrimary(env)?.pid !== String(process.ppid) || typeof process.send !== 'function') return false;
  return loadedCluster()?.isWorker === true;
}

/** Marks this process as the holder of the port, for the cluster workers and child processes it will start. */
export function announcePrimary(env, token) {
  env[PRIMARY_ENV] = `${process.pid}:${token}`;
}

/** Worker side: a snapshot to the primary now and then once per interval (unref'd). */
export function startReporting(intervalMs = REPORT_INTERVAL_MS) {
  const send = () => {
    if (!process.connected) return;
    try {
      process.send({ [TAG]: 1, pid: process.pid, counters: snapshotCounters(), sites: sites.on ? topSites() : undefined });
    } catch {
      // the channel closed between the check and the send: the next tick checks again
    }
  };
  send();
  const timer = setInterval(send, intervalMs);
  timer.unref();
  return timer;
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
