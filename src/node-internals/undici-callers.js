// Which code of Node's bundled undici is making a stream, read from the call
// stack with V8's stack trace API (Error.captureStackTrace, and a
// prepareStackTrace that returns the call sites, put back at once).
//
// Undocumented on undici's side: its file name inside Node and the names of its
// functions (the Fetch standard's: extractBody, safelyExtractBody,
// httpRedirectFetch, httpNetworkOrCacheFetch). If a Node version renames them,
// nothing matches, the body stays ours, and a redirect fails as it did before
// (test/e2e/preload-order.test.mjs says so on that version).
//
// Probe: a call site of a known function is read with its function name
// (probeCallSites; run at install where it is needed).

import { ArrayIsArray } from '../intrinsics.js';

const UNDICI_FILE = 'node:internal/deps/undici/undici';
/** Where undici re-makes a request body from its source, right before it tees it. */
const RE_EXTRACTORS = new Set(['httpRedirectFetch', 'httpNetworkOrCacheFetch']);

const returnCallSites = (_, sites) => sites;

/** The first `depth` call sites above `below` (a function on the stack), or null. */
function callSites(below, depth) {
  const E = globalThis.Error; // the realm's Error: Node reads prepareStackTrace there
  const holder = {};
  const limit = E.stackTraceLimit;
  const prepare = E.prepareStackTrace;
  // Only what was set is put back: an application may have made either one read-only.
  let limitSet = false;
  let prepareSet = false;
  try {
    E.stackTraceLimit = depth;
    limitSet = true;
    E.prepareStackTrace = returnCallSites;
    prepareSet = true;
    E.captureStackTrace(holder, below);
    const sites = holder.stack;
    return ArrayIsArray(sites) ? sites : null;
  } catch {
    return null;
  } finally {
    if (limitSet) E.stackTraceLimit = limit;
    if (prepareSet) E.prepareStackTrace = prepare;
  }
}

/**
 * True when the caller of `below` is undici's extractBody, called by
 * safelyExtractBody from a redirect (httpRedirectFetch) or a 401 retry
 * (httpNetworkOrCacheFetch): the body is teed next, by Node's ReadableStreamTee.
 */
export function undiciReExtractsBody(below) {
  const sites = callSites(below, 3);
  if (sites === null || sites.length < 3) return false;
  return sites[0].getFileName() === UNDICI_FILE && sites[0].getFunctionName() === 'extractBody' &&
    sites[1].getFunctionName() === 'safelyExtractBody' && RE_EXTRACTORS.has(sites[2].getFunctionName());
}

/** The probe: the call site above a function comes back with its caller's name. */
export function probeCallSites() {
  function fastWebstreamsProbeCallee() {
    return callSites(fastWebstreamsProbeCallee, 1);
  }
  function fastWebstreamsProbeCaller() {
    return fastWebstreamsProbeCallee();
  }
  const sites = fastWebstreamsProbeCaller();
  return sites !== null && sites.length === 1 && sites[0].getFunctionName() === 'fastWebstreamsProbeCaller';
}
