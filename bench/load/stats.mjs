// The load comparison's arithmetic: medians and ranges over rounds, the paired
// fast/native ratios, and the tier shares of the fast server's counters.
import { TIERS, tierShares } from '../../src/metrics/api.js';
import { spread } from '../stats.mjs';

/** The counters that make up each tier: fused (tier 0), sync (tier 1), spec (tier 2), as every output names them. */
export const TIER_COUNTERS = TIERS;
const OTHER_COUNTERS = ['fusedChains', 'nativeBridges', 'readableStreamsCreated', 'writableStreamsCreated',
  'transformStreamsCreated', 'fallbacks'];

/** Field-by-field sum of counter deltas (numbers and fallbackReasons). */
export function sumCounters(deltas) {
  const out = { fallbackReasons: {} };
  for (const d of deltas) {
    for (const [key, value] of Object.entries(d)) {
      if (typeof value === 'number') out[key] = (out[key] ?? 0) + value;
    }
    for (const [reason, count] of Object.entries(d.fallbackReasons ?? {})) {
      out.fallbackReasons[reason] = (out.fallbackReasons[reason] ?? 0) + count;
    }
  }
  return out;
}

/**
 * Tier shares of summed counter deltas, with every counter per request, and
 * the tier-2 counter carrying most of the rest (the one to look at first).
 */
export function tierDetail(counters, requests) {
  const shares = tierShares(counters);
  const perRequest = {};
  const raw = {};
  for (const name of [...Object.values(TIER_COUNTERS).flat(), ...OTHER_COUNTERS]) {
    raw[name] = counters[name] ?? 0;
    perRequest[name] = requests > 0 ? raw[name] / requests : null;
  }
  let mainTier2 = null;
  for (const name of TIER_COUNTERS.spec) if (raw[name] > 0 && (mainTier2 === null || raw[name] > raw[mainTier2])) mainTier2 = name;
  return {
    ...shares,
    shareFused: shares.total ? shares.fused / shares.total : null,
    shareSync: shares.total ? shares.sync / shares.total : null,
    shareSpec: shares.total ? shares.spec / shares.total : null,
    opsPerRequest: requests > 0 ? shares.total / requests : null,
    requests,
    counters: raw,
    perRequest,
    mainTier2,
    fallbackReasons: counters.fallbackReasons ?? {},
    streamsCreated: raw.readableStreamsCreated + raw.writableStreamsCreated + raw.transformStreamsCreated,
  };
}

function implSummary(windows) {
  return {
    requestsPerSecond: spread(windows.map((w) => w.requestsPerSecond)),
    latencyP50: spread(windows.map((w) => w.latencyP50)),
    latencyP99: spread(windows.map((w) => w.latencyP99)),
    cpuMsPerRequest: spread(windows.map((w) => w.cpuMsPerRequest)),
    requests: windows.reduce((n, w) => n + w.requests, 0),
    windows,
  };
}

/**
 * One route's row: medians and ranges per implementation, paired ratios, errors, tiers;
 * for a route that streams a model's answer, tokens/s (median requests/s x tokens per response).
 */
export function summarizeRoute({ route, path, label, app = 'example', tokensPerResponse = null, native, fast, warmup, counters }) {
  const cpuRatios = native.map((n, i) => (n.cpuMsPerRequest > 0 && fast[i].cpuMsPerRequest !== null
    ? fast[i].cpuMsPerRequest / n.cpuMsPerRequest : NaN));
  const ratios = native.map((n, i) => (n.requestsPerSecond > 0 ? fast[i].requestsPerSecond / n.requestsPerSecond : NaN));
  const nat = implSummary(native);
  const fst = implSummary(fast);
  const errs = (ws) => ws.reduce((n, w) => n + w.errors + w.non2xx, 0);
  const warmErrors = Object.values(warmup ?? {}).reduce((n, w) => n + w.errors + w.non2xx, 0);
  return {
    route,
    path,
    label,
    app,
    tokensPerResponse,
    tokensPerSecond: tokensPerResponse ? {
      native: nat.requestsPerSecond.median * tokensPerResponse,
      fast: fst.requestsPerSecond.median * tokensPerResponse,
    } : null,
    rounds: native.length,
    native: nat,
    fast: fst,
    ratio: {
      ...spread(ratios), // median and range of the per-round (paired) ratios: the headline figure
      perRound: ratios,
      ofMedians: nat.requestsPerSecond.median > 0 ? fst.requestsPerSecond.median / nat.requestsPerSecond.median : NaN,
    },
    cpuRatio: { ...spread(cpuRatios), perRound: cpuRatios }, // fast/native server CPU per request: lower is better
    errors: { native: errs(native), fast: errs(fast), warmup: warmErrors },
    tiers: tierDetail(counters, fst.requests),
  };
}
