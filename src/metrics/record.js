// The record published on the diagnostics channel and printed as one JSON line
// on stderr: cumulative counters plus the derived chunk share per tier.
import { snapshotCounters } from './counters.js';
import { tierShares } from './api.js';
import { isInstalled } from '../patch/globals.js';

export function metricsRecord() {
  const counters = snapshotCounters();
  return {
    source: 'fast-webstreams',
    time: new Date().toISOString(),
    pid: process.pid,
    installed: isInstalled(),
    tiers: tierShares(counters),
    counters,
  };
}
