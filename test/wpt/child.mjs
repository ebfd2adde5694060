// Runs ONE WPT .any.js file in this process and records the results.
// Started by test/wpt/run.mjs as:
//   node --expose-gc test/wpt/child.mjs '<json config>'
// config: {
//   wptRoot:    absolute WPT root (contains resources/testharness.js)
//   file:       path of the test relative to wptRoot, e.g. "streams/piping/abort.any.js"
//   patch:      "" for native, else "<module>" (import only) or "<module>#<export>"
//               (import, then call that export with no arguments)
//   resultFile: where to append JSON lines (one per subtest, then one "done" line)
//   timeoutMs:  harness timeout; unfinished subtests are then reported as TIMEOUT
// }
//
// The global looks like a minimal worker-ish JS shell: `self` is globalThis,
// testharness.js picks its "shell" environment, scripts are evaluated with
// vm.runInThisContext so their declarations become globals (as <script> or
// importScripts() would). Uncaught exceptions and unhandled rejections are
// fed to testharness the way a browser would ("error"/"unhandledrejection"
// events), so they turn into a harness ERROR instead of being swallowed.

import { appendFileSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const config = JSON.parse(process.argv[2]);
const { wptRoot, file, patch, resultFile, timeoutMs } = config;
const testPath = join(wptRoot, file);

const SUBTEST_STATUS = ['PASS', 'FAIL', 'TIMEOUT', 'NOTRUN', 'PRECONDITION_FAILED'];
const HARNESS_STATUS = ['OK', 'ERROR', 'TIMEOUT', 'PRECONDITION_FAILED'];
const MAX_MESSAGE = 2000;

function emit(record) {
  appendFileSync(resultFile, JSON.stringify(record) + '\n');
}

function clip(s) {
  if (s == null) return null;
  s = String(s);
  return s.length > MAX_MESSAGE ? `${s.slice(0, MAX_MESSAGE)}… (${s.length} chars)` : s;
}

function describeError(e) {
  if (e && typeof e === 'object' && 'stack' in e && e.stack) return String(e.stack);
  try { return String(e); } catch { return Object.prototype.toString.call(e); }
}

let finished = false;
let harnessLoaded = false;
const reported = new Set();
const earlyErrors = [];

function finish(harness) {
  if (finished) return;
  finished = true;
  emit({ type: 'done', harness, version: process.version });
  // Leftover handles (ports, timers) must not keep the file running.
  setImmediate(() => process.exit(0));
}

// --- error routing --------------------------------------------------------
const listeners = { error: [], unhandledrejection: [] };

function dispatchError(error) {
  if (finished) return;
  if (!harnessLoaded || !listeners.error.length) {
    earlyErrors.push(describeError(error));
    emit({ type: 'uncaught', message: clip(describeError(error)) });
    finish({ status: 'ERROR', message: clip(`uncaught exception before the harness was ready: ${describeError(error)}`) });
    return;
  }
  const event = {
    type: 'error',
    error,
    message: error && error.message !== undefined ? String(error.message) : String(error),
    filename: '', lineno: 0, colno: 0,
  };
  for (const l of listeners.error) l.call(globalThis, event);
}

function dispatchRejection(reason, promise) {
  if (finished) return;
  if (!harnessLoaded || !listeners.unhandledrejection.length) {
    dispatchError(reason);
    return;
  }
  const event = { type: 'unhandledrejection', reason, promise, preventDefault() {} };
  for (const l of listeners.unhandledrejection) l.call(globalThis, event);
}

process.on('uncaughtException', (err) => dispatchError(err));
process.on('unhandledRejection', (reason, promise) => dispatchRejection(reason, promise));

// --- the library under test (patched mode) --------------------------------
const STREAM_GLOBALS = [
  'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader',
  'ReadableStreamDefaultController', 'ReadableByteStreamController', 'ReadableStreamBYOBRequest',
  'WritableStream', 'WritableStreamDefaultWriter', 'WritableStreamDefaultController',
  'TransformStream', 'TransformStreamDefaultController',
  'ByteLengthQueuingStrategy', 'CountQueuingStrategy',
];

async function installPatch(spec) {
  const hash = spec.lastIndexOf('#');
  const specifier = hash > 0 ? spec.slice(0, hash) : spec;
  const exportName = hash > 0 ? spec.slice(hash + 1) : '';
  // Paths (absolute or ./relative to the working directory) become file URLs;
  // anything else is a bare specifier resolved from here (so the package's
  // self-reference, e.g. "fast-webstreams/register", works).
  const url = isAbsolute(specifier) || specifier.startsWith('.')
    ? pathToFileURL(resolve(specifier)).href
    : specifier;
  const before = Object.fromEntries(STREAM_GLOBALS.map((n) => [n, globalThis[n]]));
  const mod = await import(url);
  if (exportName) {
    const fn = mod[exportName] ?? mod.default?.[exportName];
    if (typeof fn !== 'function') throw new Error(`${specifier} has no function export "${exportName}"`);
    await fn();
  }
  return STREAM_GLOBALS.filter((n) => globalThis[n] !== before[n]);
}

// --- globals testharness and the tests expect -----------------------------
function setUpGlobals() {
  if (globalThis.self === undefined) globalThis.self = globalThis;
  if (globalThis.GLOBAL === undefined) {
    globalThis.GLOBAL = {
      isWindow: () => false,
      isWorker: () => false,
      isShadowRealm: () => false,
    };
  }
  // Serve WPT-root-relative and test-relative URLs from disk (idlharness
  // fetches /interfaces/*.idl). A small Response-like object is returned
  // rather than a real Response, so fetch's own stream machinery stays out of
  // the comparison. Absolute URLs fall through to the real fetch.
  // (Node's fetch is a lazy getter; leave it unevaluated unless really needed.)
  const fetchDescriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  const realFetch = (...args) => {
    const f = fetchDescriptor?.get ? fetchDescriptor.get.call(globalThis) : fetchDescriptor?.value;
    if (typeof f !== 'function') throw new TypeError('fetch is not available');
    return f.apply(globalThis, args);
  };
  async function fetch(input, init) {
    const url = typeof input === 'string' ? input : String(input?.url ?? input);
    if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return realFetch(input, init);
    const path = url.split(/[?#]/)[0];
    const abs = path.startsWith('/') ? join(wptRoot, path) : resolve(dirname(testPath), path);
    let body = null;
    try { body = await readFile(abs); } catch {}
    const text = async () => (body ? body.toString('utf8') : 'Not found');
    return {
      ok: body !== null,
      status: body !== null ? 200 : 404,
      url,
      text,
      json: async () => JSON.parse(await text()),
      arrayBuffer: async () => (body ? body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) : new ArrayBuffer(0)),
    };
  }
  Object.defineProperty(globalThis, 'fetch', {
    value: fetch, writable: true, configurable: true, enumerable: fetchDescriptor?.enumerable ?? false,
  });
}

function runScript(absPath) {
  const source = readFileSync(absPath, 'utf8');
  vm.runInThisContext(source, { filename: absPath });
}

function parseMeta(source) {
  const meta = { scripts: [], timeout: 'normal', globals: [], title: null };
  for (const line of source.split('\n')) {
    const m = /^\/\/ META: *([a-z_-]+)=(.*)$/.exec(line.trim());
    if (!m) {
      if (line.trim() === '' || line.startsWith('//')) continue;
      break; // META comments come first
    }
    const [, key, value] = m;
    if (key === 'script') meta.scripts.push(value.trim());
    else if (key === 'timeout') meta.timeout = value.trim();
    else if (key === 'global') meta.globals.push(...value.split(',').map((s) => s.trim()));
    else if (key === 'title') meta.title = value.trim();
  }
  return meta;
}

// Paths wptserve serves under another name (its "aliases" configuration).
const SCRIPT_ALIASES = {
  '/resources/WebIDLParser.js': '/resources/webidl2/lib/webidl2.js',
};

function resolveScript(ref) {
  ref = ref.split(/[?#]/)[0];
  ref = SCRIPT_ALIASES[ref] ?? ref;
  return ref.startsWith('/') ? join(wptRoot, ref) : resolve(dirname(testPath), ref);
}

async function main() {
  if (patch) {
    try {
      const swapped = await installPatch(patch);
      emit({ type: 'patch', spec: patch, swapped });
    } catch (err) {
      emit({ type: 'patch-error', message: clip(describeError(err)) });
      finish({ status: 'ERROR', message: clip(`installing the patch "${patch}" failed: ${describeError(err)}`) });
      return;
    }
  }

  setUpGlobals();
  const testSource = readFileSync(testPath, 'utf8');
  const meta = parseMeta(testSource);
  if (meta.title) globalThis.META_TITLE = meta.title;

  // testharness only wires its error handlers if addEventListener exists; give
  // it one while it loads, then take it away again so tests see a plain global.
  const hadAddEventListener = 'addEventListener' in globalThis;
  if (!hadAddEventListener) {
    globalThis.addEventListener = (type, fn) => { if (listeners[type]) listeners[type].push(fn); };
  }
  runScript(join(wptRoot, 'resources', 'testharness.js'));
  if (!hadAddEventListener) delete globalThis.addEventListener;
  harnessLoaded = true;

  // Now that testharness has picked its shell environment, make the global
  // pass as a dedicated worker's for idlharness's exposure checks
  // ("Unexpected global object" otherwise).
  if (!('DedicatedWorkerGlobalScope' in globalThis)) {
    const DedicatedWorkerGlobalScope = function DedicatedWorkerGlobalScope() {
      throw new TypeError('Illegal constructor');
    };
    Object.defineProperty(DedicatedWorkerGlobalScope, Symbol.hasInstance, { value: (o) => o === globalThis });
    Object.defineProperty(globalThis, 'DedicatedWorkerGlobalScope', {
      value: DedicatedWorkerGlobalScope, writable: true, configurable: true, enumerable: false,
    });
  }

  let timeoutNote = null;
  add_result_callback((test) => {
    if (finished) return;
    reported.add(test.name);
    emit({
      type: 'result',
      name: test.name,
      status: SUBTEST_STATUS[test.status] ?? String(test.status),
      message: clip(test.message),
    });
  });
  add_completion_callback((tests, status) => {
    const harnessStatus = HARNESS_STATUS[status.status] ?? String(status.status);
    // Subtests the harness never finished (harness timeout / error).
    for (const test of tests) {
      if (reported.has(test.name)) continue;
      reported.add(test.name);
      const st = SUBTEST_STATUS[test.status] ?? String(test.status);
      emit({
        type: 'result',
        name: test.name,
        status: harnessStatus === 'TIMEOUT' && st === 'NOTRUN' ? 'TIMEOUT' : st,
        message: clip(test.message ?? (harnessStatus === 'TIMEOUT' ? 'harness timed out before this subtest finished' : null)),
        unfinished: true,
      });
    }
    finish({ status: harnessStatus, message: clip(status.message), stack: clip(status.stack), timeoutNote });
  });

  const forceTimeout = (note) => {
    if (finished) return;
    timeoutNote = note;
    timeout(); // testharness: harness-level TIMEOUT, completes with partial results
    // If cleanup of the unfinished subtests hangs too, give up on it.
    setTimeout(() => finish({ status: 'TIMEOUT', message: `${note}; subtest cleanup did not finish` }), 5000).unref();
  };
  setTimeout(() => forceTimeout(`file timed out after ${timeoutMs / 1000} s`), timeoutMs).unref();
  let drained = 0;
  process.on('beforeExit', () => {
    if (finished) return;
    drained++;
    if (drained === 1) {
      forceTimeout('the event loop became empty while subtests were still pending (they would never finish)');
    } else {
      finish({ status: 'TIMEOUT', message: 'the event loop became empty while subtests were still pending' });
    }
  });

  for (const ref of meta.scripts) {
    const abs = resolveScript(ref);
    try {
      runScript(abs);
    } catch (err) {
      dispatchError(err);
    }
  }
  try {
    runScript(testPath);
  } catch (err) {
    dispatchError(err);
  }
  // What WPT's generated worker wrapper does after importScripts(test).
  if (!finished) done();
}

main().catch((err) => {
  emit({ type: 'uncaught', message: clip(describeError(err)) });
  finish({ status: 'ERROR', message: clip(`runner error: ${describeError(err)}`) });
});
