// The public face of the tier counters: getCounters() / resetCounters(), and
// the derived figures (chunk share per tier, one-line summary) that the
// stderr lines, the exit summary and the load comparison all print the same way.
import { snapshotCounters, zeroCounters } from './counters.js';
import { resetSites, topSites } from './sites.js';

/**
 * A snapshot of this process's counters: a fresh plain object (changing it
 * changes nothing), every counter field plus `fallbackReasons` (reason -> count).
 */
export function getCounters() {
  return snapshotCounters();
}

/** Zeroes every counter and forgets every fallback reason (and the per-site tallies). */
export function resetCounters() {
  zeroCounters();
  resetSites();
}

/**
 * With FAST_WEBSTREAMS_METRICS_SITES=1: the application code whose streams
 * took the spec path or fell back, most events first,
 * [{ site: 'file:line:column', total, events: { kind: count } }]; [] otherwise.
 */
export function getSites(limit = 10) {
  return topSites(limit);
}

/** The exit summary's second line: where to look first. */
export function formatSites(rows) {
  if (rows.length === 0) return 'fast-webstreams: sites: no spec-path chunk or fallback from application code';
  const listed = rows.map((r) => `${r.site} (${Object.entries(r.events).map(([k, c]) => `${k} ${c}`).join(', ')})`);
  return `fast-webstreams: sites, most spec-path chunks and fallbacks first: ${listed.join('; ')}`;
}

const n = (x) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);

/**
 * Chunk hops per tier from a snapshot. Tier 0 counts chunks moved by fused
 * chains; tier 1 the reads, writes and pipe chunks served by the sync path;
 * tier 2 the same operations on the spec path. `fastShare` is the share of
 * tiers 0 and 1 (null while nothing was counted).
 */
export function tierShares(snap) {
  const tier0 = n(snap.fusedChunks);
  const tier1 = n(snap.syncReads) + n(snap.syncWrites) + n(snap.syncPipeChunks);
  const tier2 = n(snap.specReads) + n(snap.specWrites) + n(snap.specPipeChunks);
  const total = tier0 + tier1 + tier2;
  return { tier0, tier1, tier2, total, fastShare: total === 0 ? null : (tier0 + tier1) / total };
}

/** Field-by-field difference `after - before` of two snapshots (for one measured window). */
export function diffCounters(after, before) {
  const out = { fallbackReasons: {} };
  for (const [key, value] of Object.entries(after)) {
    if (typeof value === 'number') out[key] = value - n(before[key]);
  }
  const reasons = after.fallbackReasons ?? {};
  for (const [reason, count] of Object.entries(reasons)) {
    const d = count - n(before.fallbackReasons?.[reason]);
    if (d !== 0) out.fallbackReasons[reason] = d;
  }
  return out;
}

const pct = (x) => `${(x * 100).toFixed(1)}%`;

/** One human-readable line describing a snapshot (used for the exit summary). */
export function formatSummary(snap) {
  const t = tierShares(snap);
  const created = n(snap.readableStreamsCreated) + n(snap.writableStreamsCreated) + n(snap.transformStreamsCreated);
  const parts = [
    `streams created ${created} (readable ${n(snap.readableStreamsCreated)}, writable ${n(snap.writableStreamsCreated)}, transform ${n(snap.transformStreamsCreated)})`,
  ];
  if (t.total === 0) {
    parts.push('chunk hops 0');
  } else {
    parts.push(`chunk hops ${t.total}: tier 0 fused ${pct(t.tier0 / t.total)}, tier 1 sync ${pct(t.tier1 / t.total)}, ` +
      `tier 2 spec ${pct(t.tier2 / t.total)}`);
  }
  parts.push(`fused chains ${n(snap.fusedChains)}`, `native bridges ${n(snap.nativeBridges)}`);
  const reasons = Object.entries(snap.fallbackReasons ?? {}).sort((a, b) => b[1] - a[1]);
  parts.push(`fallbacks ${n(snap.fallbacks)}` + (reasons.length ? ` (${reasons.map(([r, c]) => `${r} ${c}`).join(', ')})` : ''));
  return `fast-webstreams: ${parts.join('; ')}`;
}

/**
 * Field-by-field sum of snapshots (fallback reasons merged): how a cluster
 * primary adds its workers' counters to its own.
 */
export function sumCounters(snaps) {
  const out = { fallbackReasons: {} };
  for (const snap of snaps) {
    for (const [key, value] of Object.entries(snap)) {
      if (typeof value === 'number') out[key] = n(out[key]) + value;
    }
    for (const [reason, count] of Object.entries(snap.fallbackReasons ?? {})) {
      out.fallbackReasons[reason] = n(out.fallbackReasons[reason]) + n(count);
    }
  }
  return out;
}
