// What the process holding the metrics port adds to its own counters: the
// last snapshot of each cluster worker (over IPC, cluster.js) and of each
// child process that reported over HTTP (child-report.js). Sums never go
// down: a worker that exited, or a child that stopped reporting, still counts
// with its last snapshot; only the per-process series drop it.
import { snapshotCounters } from './counters.js';
import { sumCounters } from './api.js';
import { TAG } from './cluster.js';
import { mergeSites } from './sites.js';

/** A child that has not reported for this long is left out of the per-process series (its counts stay in the sums). */
export const CHILD_STALE_MS = 5000;
// Beyond this many children (a restart loop), the oldest is folded into the sums and forgotten.
const MAX_CHILDREN = 1000;

export class Aggregate {
  constructor() {
    this.workers = new Map(); // cluster worker id -> { id, pid, counters }
    this.children = new Map(); // pid -> { pid, counters, seen }, least recently reported first
    this.retired = { fallbackReasons: {} };
    this.clusterSeen = false; // a cluster worker has reported: this process is a cluster's primary
    this.attached = false;
    this.notPrimary = false;
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
      this.recordWorker(worker.id, message.pid, message.counters, message.sites);
    });
    cluster.on('exit', (worker) => this.retireWorker(worker.id));
  }

  recordWorker(id, pid, counters, sites = undefined) {
    this.clusterSeen = true;
    this.workers.set(id, { id, pid, counters, sites });
  }

  retireWorker(id) {
    const last = this.workers.get(id);
    if (last === undefined) return;
    this.workers.delete(id);
    this.retired = sumCounters([this.retired, last.counters]);
  }

  recordChild(pid, counters, sites = undefined, now = Date.now()) {
    this.children.delete(pid); // re-inserted last: the Map stays in order of the latest report
    this.children.set(pid, { pid, counters, sites, seen: now });
    if (this.children.size > MAX_CHILDREN) {
      const [oldest, { counters: last }] = this.children.entries().next().value;
      this.children.delete(oldest);
      this.retired = sumCounters([this.retired, last]);
    }
  }

  /**
   * The sum over this process, its workers and children (live or not), and the
   * live ones one by one: `workers` only on a cluster primary, `children` only
   * once a child has reported (undefined otherwise, so neither family shows
   * where it means nothing). `sites`: this process's top sites (`ownSites`)
   * merged with the live ones' (undefined when none has any).
   */
  view(own = snapshotCounters(), ownSites = undefined, now = Date.now()) {
    const workers = [...this.workers.values()].sort((a, b) => a.id - b.id);
    const all = [...this.children.values()];
    const total = sumCounters([own, this.retired, ...workers.map((w) => w.counters), ...all.map((c) => c.counters)]);
    const children = all.filter((c) => now - c.seen < CHILD_STALE_MS).sort((a, b) => a.pid - b.pid);
    const siteLists = [ownSites, ...workers.map((w) => w.sites), ...children.map((c) => c.sites)].filter((l) => l !== undefined);
    return {
      total, workers: this.clusterSeen ? workers : undefined, children: all.length > 0 ? children : undefined,
      sites: siteLists.length > 0 ? mergeSites(siteLists) : undefined,
    };
  }
}
