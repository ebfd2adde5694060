// Which code is making a stream, read from the call stack with V8's stack
// trace API (Error.captureStackTrace, and a prepareStackTrace that returns the
// call sites, put back at once).
//
// What it relies on, and what happens when that moves:
//   - Node's own code runs from files named `node:...` (its bundled undici from
//     node:internal/deps/undici/undici), an application's never do. Of Node's
//     code only undici makes streams with the *global* classes. The exact file
//     name is not relied on.
//   - The name of one undici function, the one that makes a fetch's response
//     body (httpNetworkFetch, the Fetch standard's name), is used only to keep
//     that stream ours, which is faster; if a Node version renames it, those
//     bodies become Node's streams, which body shells then wrap: slower, not
//     broken (src/patch/undici-first.js).
//   - When the stack cannot be read at all, the caller decides, and decides
//     for the stream undici can use (Node's).
//
// Probe: a call site of a known function is read with its file and function
// name (probeCallSites; run at install where it is needed).

import { ArrayIsArray, StringPrototypeStartsWith } from '../intrinsics.js';

/** The function of Node's undici that makes a fetch's response body. */
const RESPONSE_BODY_MAKER = 'httpNetworkFetch';

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
 * Who called `below` (a function on the stack): 'node' (a file of Node's
 * own), 'node-response-body' (undici making a fetch's response body), 'app'
 * (anything else), or 'unknown' when the stack cannot be read.
 */
export function callerOf(below) {
  const sites = callSites(below, 1);
  if (sites === null || sites.length < 1) return 'unknown';
  let file;
  let name;
  try {
    file = sites[0].getFileName();
    name = sites[0].getFunctionName();
  } catch {
    return 'unknown';
  }
  if (typeof file !== 'string' || !StringPrototypeStartsWith(file, 'node:')) return 'app';
  return name === RESPONSE_BODY_MAKER ? 'node-response-body' : 'node';
}

/** The probe: the call site above a function comes back with its caller's name and file. */
export function probeCallSites() {
  function fastWebstreamsProbeCallee() {
    return callSites(fastWebstreamsProbeCallee, 1);
  }
  function fastWebstreamsProbeCaller() {
    return fastWebstreamsProbeCallee();
  }
  const sites = fastWebstreamsProbeCaller();
  try {
    return sites !== null && sites.length === 1 && sites[0].getFunctionName() === 'fastWebstreamsProbeCaller' &&
      typeof sites[0].getFileName() === 'string';
  } catch {
    return false;
  }
}
