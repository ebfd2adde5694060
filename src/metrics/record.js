// The record published on the diagnostics channel and printed as one JSON line
// on stderr: cumulative counters plus the derived chunk share per tier.
import { snapshotCounters } from './counters.js';
import { tierShares } from './api.js';
import { isInstalled } from '../patch/globals.js';
import { sites, topSites } from './sites.js';

export function metricsRecord() {
  const counters = snapshotCounters();
  const record = {
    source: 'fast-webstreams',
    time: new Date().toISOString(),
    pid: process.pid,
    installed: isInstalled(),
    tiers: tierShares(counters),
    counters,
  };
  if (sites.on) record.sites = topSites();
  return record;
}
