// Per-process counters of which tier handled the streams (see docs/architecture.md).
// The core increments plain number fields on one object with a fixed shape, so
// counting costs an add on a hot path and nothing else. Exposure (getCounters,
// diagnostics_channel, stderr lines, Prometheus) lives beside this module.

import { sites, countAtSite } from './sites.js';
import { MapCtor, mapGet, mapSet } from '../intrinsics.js';

/** The live counters. Fields are only ever incremented; resetCounters() zeroes them. */
export const counters = {
  // Streams created, per class.
  readableStreamsCreated: 0,
  writableStreamsCreated: 0,
  transformStreamsCreated: 0,
  // Tier 0, fused: pipeThrough chains resolved at the sink into one pump.
  fusedChains: 0, // chains resolved
  fusedStreams: 0, // streams (readable, transforms, writable) inside those chains
  fusedChunks: 0, // chunks the fused pumps moved through a chain
  // Tier 1, sync: served without a request object or a Promise per hop.
  syncReads: 0, // read() / next() answered from the queue
  syncWrites: 0, // write() that reached an idle sink directly
  syncPipeChunks: 0, // chunks pipeTo moved in a batch of buffered reads
  // Tier 2, spec: the general algorithm, a Promise per operation.
  specReads: 0,
  specWrites: 0,
  specPipeChunks: 0,
  // Tier 3, native: a bridge to or from a native stream, made once at a boundary.
  nativeBridges: 0,
  // Fast paths that handed over to the spec path (reasons in fallbackReasons).
  fallbacks: 0,
};

const zero = { ...counters };

/** Fallback reason (a short kebab-case string) -> how many times it happened. */
export const fallbackReasons = new MapCtor();

/** Records that a fast path fell back to the spec path, and why; `record` is the stream it fell back on. */
export function countFallback(reason, record) {
  counters.fallbacks++;
  mapSet(fallbackReasons, reason, (mapGet(fallbackReasons, reason) ?? 0) + 1);
  if (sites.on) countAtSite(record, `fallback:${reason}`);
}

/** A snapshot: a plain object with every counter and a `fallbackReasons` object. */
export function snapshotCounters() {
  const out = { ...counters, fallbackReasons: {} };
  for (const [reason, n] of fallbackReasons) out.fallbackReasons[reason] = n;
  return out;
}

/** Zeroes every counter. */
export function zeroCounters() {
  for (const key of Object.keys(zero)) counters[key] = 0;
  fallbackReasons.clear();
}
