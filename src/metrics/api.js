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
 * The tiers by the one name every output uses (the JSON record, the exit summary,
 * Prometheus' `tier` label, OpenTelemetry, the load report), and the counter
 * fields whose sum is each tier's chunk hops: fused is tier 0 (chunks moved by
 * fused chains), sync tier 1 (reads, writes and pipe chunks served by the sync
 * path), spec tier 2 (the same operations on the spec path).
 */
export const TIERS = {
  fused: ['fusedChunks'],
  sync: ['syncReads', 'syncWrites', 'syncPipeChunks'],
  spec: ['specReads', 'specWrites', 'specPipeChunks'],
};

/** Chunk hops per tier: { fused, sync, spec }. */
export function tierHops(snap) {
  const out = {};
  for (const [tier, fields] of Object.entries(TIERS)) out[tier] = fields.reduce((sum, f) => sum + n(snap[f]), 0);
  return out;
}

/**
 * Chunk hops per tier from a snapshot, their total, and `fastShare`, the share
 * of fused and sync (null while nothing was counted).
 */
export function tierShares(snap) {
  const { fused, sync, spec } = tierHops(snap);
  const total = fused + sync + spec;
  return { fused, sync, spec, total, fastShare: total === 0 ? null : (fused + sync) / total };
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
    parts.push(`chunk hops ${t.total}: fused ${pct(t.fused / t.total)}, sync ${pct(t.sync / t.total)}, ` +
      `spec ${pct(t.spec / t.total)}`);
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
