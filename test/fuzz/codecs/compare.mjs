// Native's record against ours for one case: the list of differences a
// program could see, and which of them are the one documented, intended
// difference (docs/codecs.md): after refusing a chunk, Node 20/22's zlib
// classes leave reading pending forever, ours error the readable side with
// the same error. Error messages are never compared; zlib's output timing
// (chunk boundaries, what came out before an interruption) neither.

const INTERRUPTS_WITH_RACES = ['abort', 'cancel', 'source-error'];

// On a zlib class interrupted mid-way, whether a write, the close or the read
// settled before the interruption (ok) or because of it (the reason) depends
// on when zlib's thread pool answered, natively as with ours.
// zlib's own failure (damaged input) can come before or after the interruption too.
function raceFree(s) {
  if (s === 'ok' || s === 'end' || s === 'rejected the reason') return 'ok, the reason or zlib\'s error';
  return /\[(Z_\w+|ERR_TRAILING_JUNK_AFTER_STREAM_END)\]$/.test(s ?? '') ? 'ok, the reason or zlib\'s error' : s;
}

function knownPendingAfterRefusal(a, b) {
  if (!a.zlib || a.read !== 'pending' || !b.read.startsWith('rejected ')) return false;
  return a.writes.includes(b.read) || `rejected ${a.sourceCancel}` === b.read;
}

function firstDifference(x, y) {
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return `chunk ${i}: native=${JSON.stringify(x[i])?.slice(0, 60)} ours=${JSON.stringify(y[i])?.slice(0, 60)}`;
  }
  return null;
}

/** { diffs: [text], known: [text] } for case `c`, native record `a`, ours `b`. */
export function compare(c, a, b) {
  const diffs = [];
  const known = [];
  const same = (what, x, y) => {
    if (JSON.stringify(x) !== JSON.stringify(y)) diffs.push(`${what}: native=${JSON.stringify(x)} ours=${JSON.stringify(y)}`);
  };
  if (a.fuzzerError || b.fuzzerError) return { diffs: [`fuzzer error: ${a.fuzzerError ?? b.fuzzerError}`], known };
  same('problems', [...a.problems].sort(), [...b.problems].sort());
  same('constructor', a.ctor, b.ctor);
  if (a.ctor !== 'ok' || b.ctor !== 'ok') return { diffs, known };

  const racy = a.zlib && INTERRUPTS_WITH_RACES.includes(c.interrupt?.kind);
  const norm = racy ? raceFree : (s) => s;
  let compareOutput = true;
  if (knownPendingAfterRefusal(a, b)) {
    known.push(`read: native=pending ours=${b.read} (a refused chunk, docs/codecs.md)`);
    compareOutput = false;
  } else {
    same('read', norm(a.read), norm(b.read));
  }
  same('writes', a.writes.map(norm), b.writes.map(norm));
  same('close', norm(a.close), norm(b.close));
  // A zlib class's reads come in as many chunks as zlib emitted, so an
  // interruption after the k-th read may be reached on one side only.
  if (!a.zlib || (a.interrupt !== null && b.interrupt !== null)) same('interrupt', a.interrupt, b.interrupt);
  // Whether the pipe had taken the whole source when the interruption came is timing too.
  const sourceNorm = racy ? (s) => raceFree(s === null ? 'rejected the reason' : `rejected ${s}`) : (s) => s;
  same('source cancelled with', sourceNorm(a.sourceCancel), sourceNorm(b.sourceCancel));

  if (!compareOutput) return { diffs, known };
  const x = a.output;
  const y = b.output;
  if (x.types.length && y.types.length) same('output chunk types', x.types, y.types);
  same('output views on part of a buffer', x.partialViews, y.partialViews);
  if (!a.zlib) {
    const d = firstDifference(x.chunks, y.chunks);
    if (d) diffs.push(`output ${d}`);
  } else if (!racy && a.read === 'end' && b.read === 'end') {
    // Only a complete output is deterministic: what zlib emits before an error depends on how input was split.
    same('output bytes', `${x.bytes} sha1 ${x.sha1}`, `${y.bytes} sha1 ${y.sha1}`);
  }
  return { diffs, known };
}
