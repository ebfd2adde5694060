// When an undici loaded before the patch (src/patch/order.js). Installed
// whatever the feature switches say: without it Response and fetch break.
//
// capturedNative: our ReadableStream inherits from Node's (src/patch/instanceof.js),
// so Node's streams and ours both pass that undici's check. An npm undici loaded
// later must capture Node's class as well: the global is Node's while it loads.
//
// Node's undici may also hold Node's own ReadableStreamTee (Node 26), which
// throws for our streams. Whether it does is found out by trying it: a clone()
// of a Response over one of ours (findNativeTee). Its tees run in clone() and,
// inside fetch(), on a request body made from a string, bytes or form data. So:
//   - Response/Request.prototype.clone lend a body of ours a native face
//     (src/patch/native-face.js);
//   - fetch() runs its synchronous part with the global stream classes being
//     Node's, so the bodies undici makes there are native, and lends a Request
//     input's body of ours a native face.
//   - a 307/308 redirect or a 401 retry of a request with such a body re-makes
//     the body later, with the global class (ours), and tees it at once. So a
//     stream that Node's own code makes through our constructor is Node's
//     (nodesStreamsAreNodes): the caller is read from the call stack
//     (src/node-internals/undici-callers.js, 1-3 us, so only for sources of the
//     shape this Node's undici was seen to pass, learnt at install by watching
//     it make a body). Where that cannot be learnt, the global ReadableStream
//     stays Node's: slower, never broken. NODE_DEBUG says which.

import { ReflectApply, ObjectGetOwnPropertyDescriptor, isProxy } from '../intrinsics.js';
import { natives } from '../bridge/natives.js';
import { withNativeFace } from './native-face.js';
import { sameShape } from './restore.js';
import { watchPackageLoads } from '../node-internals/package-load.js';
import { callerOf, probeCallSites } from '../node-internals/undici-callers.js';
import { ReadableStream, setConstructingElsewhere, unwrapReadableStream } from '../readable/readable-stream.js';

const SWAPPED = ['ReadableStream', 'WritableStream', 'TransformStream'];

/** Runs fn() with the global stream classes being Node's (undici makes bodies with them). */
function withNativeGlobal(fn) {
  const ours = swapInNatives();
  try {
    return fn();
  } finally {
    putBack(ours);
  }
}

// These run in a program's calls (a fetch, its loading undici): indexed loops,
// as a program may have replaced the array iterator and methods by then.
/** Makes the SWAPPED globals Node's; returns what they were. */
function swapInNatives() {
  const before = [];
  for (let i = 0; i < SWAPPED.length; i++) {
    before[i] = globalThis[SWAPPED[i]];
    globalThis[SWAPPED[i]] = natives[SWAPPED[i]];
  }
  return before;
}

function putBack(before) {
  for (let i = 0; i < SWAPPED.length; i++) globalThis[SWAPPED[i]] = before[i];
}

function bodyOf(getter, value) {
  try {
    return ReflectApply(getter, value, []);
  } catch {
    return null; // not a Response / Request
  }
}

function wrapClone(journal, Class) {
  const proto = Class?.prototype;
  const bodyGetter = proto && Object.getOwnPropertyDescriptor(proto, 'body')?.get;
  const clone = proto?.clone;
  if (typeof bodyGetter !== 'function' || typeof clone !== 'function') return;
  journal.replaceValue(proto, 'clone', sameShape(function () {
    const args = arguments;
    return withNativeFace(bodyOf(bodyGetter, this), () => ReflectApply(clone, this, args));
  }, clone));
}

function wrapFetch(journal) {
  const fetch = globalThis.fetch;
  const Request = globalThis.Request;
  const requestBody = Object.getOwnPropertyDescriptor(Request.prototype, 'body')?.get;
  if (typeof fetch !== 'function' || typeof requestBody !== 'function') return;
  journal.replaceValue(globalThis, 'fetch', sameShape(function () {
    const args = arguments;
    const call = () => withNativeGlobal(() => ReflectApply(fetch, this, args));
    const input = args[0];
    const body = typeof input === 'object' && input !== null ? bodyOf(requestBody, input) : null;
    return unwrapReadableStream(body) === undefined ? call() : withNativeFace(body, call);
  }, fetch));
}

/**
 * An ordinary object whose own `type` is 'bytes': the Fetch standard sets every
 * body stream up as a byte stream. Looked at without running user code.
 */
function isByteSource(source) {
  return source !== null && typeof source === 'object' && !isProxy(source) &&
    ObjectGetOwnPropertyDescriptor(source, 'type')?.value === 'bytes';
}

/**
 * Watches this Node's undici make a request body (no network, no side
 * effect): null when no stream it made could be told from one the application
 * makes, else whether every one it made had a byte source (then only those
 * need their caller read).
 */
function learnHowNodeMakesBodies() {
  if (!probeCallSites()) return null;
  let made = 0;
  let bytes = 0;
  setConstructingElsewhere((source) => {
    const caller = callerOf(ReadableStream);
    if (caller === 'node' || caller === 'node-response-body') {
      made++;
      if (isByteSource(source)) bytes++;
    }
    return undefined;
  });
  try {
    void new globalThis.Request('http://localhost/', { method: 'POST', body: 'x' });
  } catch {
    // made stays as counted
  } finally {
    setConstructingElsewhere(null);
  }
  return made === 0 ? null : { byteSourcesOnly: bytes === made };
}

/**
 * A stream Node's own code makes through our constructor (a body undici
 * re-makes for a redirect or a 401 retry, which Node's ReadableStreamTee tees
 * next) is Node's; a fetch's response body stays ours. Returns how streams are
 * told apart: 'byte sources' or 'every stream' (each has its caller read), or
 * 'left native' (the global ReadableStream is Node's).
 */
function nodesStreamsAreNodes(journal) {
  const learnt = learnHowNodeMakesBodies();
  if (learnt === null) {
    journal.define(globalThis, 'ReadableStream', {
      value: natives.ReadableStream, writable: true, enumerable: false, configurable: true,
    });
    return 'left native';
  }
  const { byteSourcesOnly } = learnt;
  setConstructingElsewhere((source, strategy, newTarget) => {
    if (newTarget !== ReadableStream || (byteSourcesOnly && !isByteSource(source))) return undefined;
    const caller = callerOf(ReadableStream);
    if (caller === 'app' || caller === 'node-response-body') return undefined;
    return new natives.ReadableStream(source, strategy); // Node's code, or a stack that cannot be read
  });
  journal.onRestore(() => setConstructingElsewhere(null));
  return byteSourcesOnly ? 'byte sources' : 'every stream';
}

/** True when clone() of a Response over one of our streams throws: undici tees with Node's ReadableStreamTee. */
function findNativeTee() {
  try {
    void new globalThis.Response(new ReadableStream()).clone();
    return false;
  } catch {
    return true;
  }
}

/** While a file of the undici npm package loads, the global stream classes are Node's. */
function swapWhileUndiciLoads(journal) {
  const saved = []; // the globals before each file that is loading (files load inside each other)
  watchPackageLoads(journal, 'undici', {
    enter() {
      saved[saved.length] = swapInNatives();
    },
    leave() {
      const before = saved[saved.length - 1];
      saved.length--;
      putBack(before);
    },
  });
}

/**
 * Returns { nativeTee, bodies }: whether Node's undici tees with Node's
 * ReadableStreamTee, and if so how the streams it makes are told from the
 * application's (nodesStreamsAreNodes).
 */
export function installUndiciFirst(journal, order) {
  if (order.capturedNative) swapWhileUndiciLoads(journal);
  // undici is loaded already: reading these globals costs nothing now.
  if (!order.builtinEarly || !findNativeTee()) return { nativeTee: false, bodies: undefined };
  wrapClone(journal, globalThis.Response);
  wrapClone(journal, globalThis.Request);
  wrapFetch(journal);
  return { nativeTee: true, bodies: nodesStreamsAreNodes(journal) };
}
