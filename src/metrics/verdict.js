// The last line of the exit summary: what the figures mean for this process,
// and what to change. Every fallback reason the fast paths count
// (src/fast/pipe-pump.js, direct-write.js) is described here once; docs/metrics.md
// lists the same reasons (test/unit/metrics-vocabulary.test.mjs holds the three together).
import { tierShares } from './api.js';
import { tiers } from '../tiers.js';

/** Fallback reason -> why it happened, and what to change (null: nothing to change). */
export const FALLBACK_REASONS = {
  'async-write': {
    why: 'a transform() returned a promise, so the write into its TransformStream stayed in flight',
    change: 'make that transform() synchronous where it does no asynchronous work (an async function always returns a promise)',
  },
  'transform-output-unread': {
    why: 'a TransformStream\'s output was not read yet: the stream after it is slower',
    change: 'look at the stream after that transform: it is the slow one',
  },
  'dest-not-idle': {
    why: 'a pipe met backpressure, a write in flight or a size() strategy, and wrote through the writer',
    change: 'nothing when the destination is slow by nature (a socket, a file); otherwise drop a custom size() or raise the destination\'s highWaterMark',
  },
  'inside-pipe-to': {
    why: 'chunks were already queued when pipeTo() or pipeThrough() was called',
    change: 'nothing when these are a body\'s first chunks; otherwise pipe the stream before enqueueing into it',
  },
  'source-ended': {
    why: 'a pipe read a chunk just as its source was closed or errored from outside the pipe',
    change: null,
  },
  'deep-chain': {
    why: 'a chain of hundreds of pipeThrough stages: past 256 nested hops the next one waits a microtask, so the stack stays flat',
    change: 'nothing needed; fewer stages would be faster',
  },
  'source-producing': {
    why: 'a pipe wrote while a pull() or transform() promise of its source was pending',
    change: 'make that pull() or transform() synchronous where it does no asynchronous work',
  },
};

// Which spec-path operation dominates, and what it usually means.
const SPEC_FIELDS = {
  specReads: 'most spec-path hops are reads that found nothing queued: the producer is slower than the reader (normal for I/O)',
  specWrites: 'most spec-path hops are writer.write() calls: pipe into the WritableStream (pipeTo/pipeThrough) instead',
  specPipeChunks: 'most spec-path hops are pipe chunks that waited for their source (normal for I/O)',
};

const pct = (x) => `${(x * 100).toFixed(1)}%`;
const GOOD_SHARE = 0.9;

/**
 * One line: the verdict on a counters snapshot, and the next step. `siteRows`
 * (topSites(), with FAST_WEBSTREAMS_METRICS_SITES=1) names where, when given.
 */
export function formatVerdict(snap, siteRows = undefined) {
  const t = tierShares(snap);
  const created = (snap.readableStreamsCreated ?? 0) + (snap.writableStreamsCreated ?? 0) + (snap.transformStreamsCreated ?? 0);
  const head = 'fast-webstreams: verdict:';
  if (t.total === 0) {
    return created === 0 ? `${head} this process made no Web Streams; nothing to change`
      : `${head} ${created} streams made, no chunk moved through our code (handed to native consumers); nothing to change`;
  }
  if (!tiers.on) {
    return `${head} the fast paths are switched off (FAST_WEBSTREAMS_FAST_PATHS=0): ${t.total} chunk hops, ` +
      'every one on the spec path, as asked. Unset the variable to run fast';
  }
  const reasons = Object.entries(snap.fallbackReasons ?? {}).filter(([, c]) => c > 0).sort((a, b) => b[1] - a[1]);
  const level = t.fastShare >= GOOD_SHARE ? 'fast' : t.fastShare >= 0.5 ? 'partly fast' : 'mostly on the spec path';
  const parts = [`${level}, ${pct(t.fastShare)} of ${t.total} chunk hops on the fast tiers (fused + sync)`];
  if (reasons.length === 0) {
    if (t.fastShare >= GOOD_SHARE) return `${head} ${parts[0]}, no fallback; nothing to change`;
    const [field] = Object.keys(SPEC_FIELDS).sort((a, b) => (snap[b] ?? 0) - (snap[a] ?? 0));
    return `${head} ${parts[0]}, no fallback; ${SPEC_FIELDS[field]}`;
  }
  const [top, count] = reasons[0];
  const known = FALLBACK_REASONS[top];
  const fallbacks = snap.fallbacks ?? count;
  parts.push(`${fallbacks} fallback${fallbacks === 1 ? '' : 's'}, most ${top} (${count}${known ? `: ${known.why}` : ''})`);
  let change = known === undefined || known.change === null ? 'nothing to change for it' : known.change;
  if (siteRows !== undefined) {
    const where = siteRows.filter((r) => (r.events[`fallback:${top}`] ?? 0) > 0).slice(0, 3).map((r) => r.site);
    change += where.length > 0 ? ` (at ${where.join(', ')})` : ' (no site of your code: the streams were made inside libraries or Node)';
  } else if (known !== undefined && known.change !== null) {
    change += '; FAST_WEBSTREAMS_METRICS_SITES=1 names the lines of your code';
  }
  const next = t.fastShare >= GOOD_SHARE ? `Nothing urgent; to gain more: ${change}` : `Next: ${change}`;
  return `${head} ${parts.join('; ')}. ${next}`;
}
