// Native's record against ours for one case: the list of differences a
// program could see, and the documented ones (docs/codecs.md, "Fuzzing"):
// - a refused chunk on a zlib class: Node 20/22 leave reading pending forever
//   where ours error the readable side with the same error; and ours refuses
//   the first chunk of a kind in a process only once Node's class has been
//   asked (a few milliseconds later), so which of the refusal, zlib's own
//   failure or a later call comes first can differ;
// - a pipe into a zlib class reads further ahead of zlib natively (the
//   writable side's high-water mark), so on damaged input Node's may have
//   read the whole source before zlib failed, where ours cancels it.
// Aborted or cancelled with no reason, Node's zlib classes error the other
// side with an AbortError [ABORT_ERR]: so do ours, and an outcome that is that
// AbortError on one side and `undefined` (the reason) on the other differs.
// Error messages are never compared; zlib's timing (chunk boundaries, what
// came out or failed before an interruption) neither.
import { ZLIB_CLASSES } from './generate.mjs';
import { ODD_VALUES } from './chunks.mjs';

// Every interruption waits a macrotask first; with zlib working on the thread
// pool, whether a write, the close or the read settled before it (ok), because
// of it (the reason) or with zlib's failure (damaged input), or was made on a
// stream already errored (ERR_INVALID_STATE), depends on timing, natively as with ours.
const RACE = 'ok, the reason or zlib\'s failure';
const ZLIB_FAILURE = /\[(Z_\w+|ERR_TRAILING_JUNK_AFTER_STREAM_END|ERR__ERROR_\w+|ERR_INVALID_STATE)\]$/;
function raceFree(s) {
  if (s === 'ok' || s === 'end' || s === 'rejected the reason') return RACE;
  return ZLIB_FAILURE.test(s ?? '') ? RACE : s;
}

// Chunks that some Node refuses on the zlib classes (docs/codecs.md, the chunk table).
const REFUSABLE = new Set(['ab', 'sab', ...ODD_VALUES]);
const REFUSED = 'a refused chunk or zlib\'s failure';
const REFUSAL = /^rejected TypeError( \[(ERR_INVALID_ARG_TYPE|ERR_STREAM_NULL_VALUES)\])?$/;
function refusalFree(s, native) {
  if (REFUSAL.test(s ?? '') || ZLIB_FAILURE.test(s ?? '') || (native && s === 'pending')) return REFUSED;
  return s;
}

const ABORT_ERROR = 'rejected AbortError [ABORT_ERR]';
const abortErrorOrReason = (s, t) => (s === ABORT_ERROR && t === 'rejected the reason') || (s === 'rejected the reason' && t === ABORT_ERROR);

function firstDifference(x, y) {
  const n = Math.max(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return `chunk ${i}: native=${JSON.stringify(x[i])?.slice(0, 60)} ours=${JSON.stringify(y[i])?.slice(0, 60)}`;
  }
  return null;
}

/**
 * { diffs: [text], known: [text] } for case `c`, native record `a`, ours `b`
 * (`bothNative`: b is native too, the fuzzer's own noise check).
 */
export function compare(c, a, b, { bothNative = false } = {}) {
  const diffs = [];
  const known = new Set();
  const result = () => ({ diffs, known: [...known] });
  const same = (what, x, y) => {
    if (JSON.stringify(x) !== JSON.stringify(y)) diffs.push(`${what}: native=${JSON.stringify(x)} ours=${JSON.stringify(y)}`);
  };
  if (a.fuzzerError || b.fuzzerError) {
    diffs.push(`fuzzer error: ${a.fuzzerError ?? b.fuzzerError}`);
    return result();
  }
  same('problems', [...a.problems].sort(), [...b.problems].sort());
  same('constructor', a.ctor, b.ctor);
  if (a.ctor !== 'ok' || b.ctor !== 'ok') return result();

  const zlib = ZLIB_CLASSES.includes(c.cls);
  const racy = zlib && c.interrupt !== null;
  const refusing = zlib && c.chunks.some((ch) => REFUSABLE.has(ch.kind));
  const noReason = racy && c.interrupt.reason === 'undefined' && ['abort', 'cancel', 'source-error'].includes(c.interrupt.kind);
  const norm = (s, native) => {
    let v = s;
    if (noReason && v === ABORT_ERROR) v = 'rejected the reason';
    if (refusing) v = refusalFree(v, native);
    if (racy) v = raceFree(v);
    // Interrupted with a refused chunk in the way: which came first is timing too.
    return refusing && v === RACE ? REFUSED : v;
  };
  /** Compares one outcome (or list of outcomes) after normalizing; notes a documented difference it hid. */
  const outcome = (what, x, y) => {
    const list = (v) => (Array.isArray(v) ? v : [v]);
    const nx = list(x).map((s) => norm(s, true));
    const ny = list(y).map((s) => norm(s, bothNative));
    same(what, Array.isArray(x) ? nx : nx[0], Array.isArray(y) ? ny : ny[0]);
    if (JSON.stringify(x) === JSON.stringify(y)) return;
    // The normalizing above makes both "the interruption's error": which one it is is no race.
    if (noReason && list(x).some((s, i) => abortErrorOrReason(s, list(y)[i]))) diffs.push(`${what}: native=${JSON.stringify(x)} ours=${JSON.stringify(y)} (AbortError against the reason)`);
    if (refusing && list(x).some((s, i) => s !== list(y)[i] && refusalFree(s, true) === REFUSED)) known.add('a refused chunk');
  };
  outcome('read', a.read, b.read);
  outcome('writes', a.writes, b.writes);
  outcome('close', a.close, b.close);
  // A zlib class's reads come in as many chunks as zlib emitted, so an
  // interruption after the k-th read may be reached on one side only.
  if (!zlib || (a.interrupt !== null && b.interrupt !== null)) outcome('interrupt', a.interrupt, b.interrupt);
  // Whether the pipe had taken the whole source when the interruption came is
  // timing too; and where Node 20/22 leave a refused chunk pending, their pipe
  // never cancels the source with the refusal.
  const sourceCancel = (s) => {
    if (s !== null) return `rejected ${s}`;
    return racy ? 'ok' : refusing ? REFUSED : null;
  };
  // A pipe reads further ahead into Node's zlib classes (their writable
  // side's high-water mark is zlib's, ours the standard's 1): on input that
  // fails, Node's may have taken the whole source before zlib's failure came
  // back, where ours is cancelled with that failure.
  const readAhead = zlib && c.feed === 'pipe' && a.sourceCancel === null && b.sourceCancel !== null &&
    ZLIB_FAILURE.test(b.sourceCancel) && a.read === `rejected ${b.sourceCancel}` && b.read === a.read;
  if (readAhead) known.add('a pipe reads further ahead into Node\'s class');
  else outcome('source cancelled with', sourceCancel(a.sourceCancel), sourceCancel(b.sourceCancel));

  const x = a.output;
  const y = b.output;
  if (x.types.length && y.types.length) same('output chunk types', x.types, y.types);
  same('output views on part of a buffer', x.partialViews, y.partialViews);
  if (!zlib) {
    const d = firstDifference(x.chunks, y.chunks);
    if (d) diffs.push(`output ${d}`);
  } else if (!racy && a.read === 'end' && b.read === 'end') {
    // Only a complete output is deterministic: what zlib emits before an error depends on how input was split.
    same('output bytes', `${x.bytes} sha1 ${x.sha1}`, `${y.bytes} sha1 ${y.sha1}`);
  }
  return result();
}
