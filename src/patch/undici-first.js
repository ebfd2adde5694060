// When an undici loaded before the patch (src/patch/order.js). Installed
// whatever the feature switches say: without it Response and fetch break.
//
// capturedNative: our ReadableStream inherits from Node's (src/patch/instanceof.js),
// so Node's streams and ours both pass that undici's check. An npm undici loaded
// later must capture Node's class as well: the global is Node's while it loads.
//
// nativeTee (Node 26+): undici tees bodies with Node's own ReadableStreamTee,
// which throws for our streams. Its tees run in clone() and, inside fetch(), on
// a request body made from a string, bytes or form data. So:
//   - Response/Request.prototype.clone lend a body of ours a native face
//     (src/patch/native-face.js);
//   - fetch() runs its synchronous part with the global stream classes being
//     Node's, so the bodies undici makes there are native, and lends a Request
//     input's body of ours a native face.
//   - a 307/308 redirect or a 401 retry of a request with such a body re-makes
//     the body later, with the global class (ours), and tees it at once: our
//     ReadableStream constructor gives undici a Node stream there. While a
//     fetch() is in flight it knows that call by the source undici passes (an
//     ordinary object with exactly pull, start, cancel and type: 'bytes', in
//     that order), then by the call stack (src/node-internals/undici-callers.js,
//     about 2 us: hence the two checks first). Where the stack cannot be read,
//     install() warns once (src/patch/globals.js).
import {
  ReflectApply, ReflectOwnKeys, ObjectGetOwnPropertyDescriptor, isProxy, promiseThen,
} from '../intrinsics.js';
import { natives } from '../bridge/natives.js';
import { withNativeFace } from './native-face.js';
import { sameShape } from './restore.js';
import { watchPackageLoads } from '../node-internals/package-load.js';
import { probeCallSites, undiciReExtractsBody } from '../node-internals/undici-callers.js';
import { ReadableStream, setConstructingElsewhere, unwrapReadableStream } from '../readable/readable-stream.js';

const SWAPPED = ['ReadableStream', 'WritableStream', 'TransformStream'];

/** Runs fn() with the global stream classes being Node's (undici makes bodies with them). */
function withNativeGlobal(fn) {
  const ours = SWAPPED.map((name) => globalThis[name]);
  for (const name of SWAPPED) globalThis[name] = natives[name];
  try {
    return fn();
  } finally {
    SWAPPED.forEach((name, i) => { globalThis[name] = ours[i]; });
  }
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

/** fetch() calls made through the global whose promise has not settled: only they can redirect. */
let fetchesInFlight = 0;
const fetchSettled = () => { fetchesInFlight--; };

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
    const promise = unwrapReadableStream(body) === undefined ? call() : withNativeFace(body, call);
    fetchesInFlight++;
    promiseThen(promise, fetchSettled, fetchSettled); // a reaction of its own: the caller's are not delayed
    return promise;
  }, fetch));
}

const EXTRACT_BODY_KEYS = ['pull', 'start', 'cancel', 'type'];

/** An ordinary object shaped as the source undici's extractBody passes; looked at without running user code. */
function shapedAsExtractedBody(source) {
  if (source === null || typeof source !== 'object' || isProxy(source)) return false;
  const keys = ReflectOwnKeys(source);
  if (keys.length !== EXTRACT_BODY_KEYS.length || !EXTRACT_BODY_KEYS.every((key, i) => keys[i] === key)) return false;
  return ObjectGetOwnPropertyDescriptor(source, 'type').value === 'bytes';
}

/** A body undici re-makes for a redirect or a 401 retry, which Node's ReadableStreamTee tees next, is Node's. */
function nativeReExtractedBodies(journal) {
  if (!probeCallSites()) return false;
  setConstructingElsewhere((source, strategy, newTarget) => {
    if (fetchesInFlight === 0 || newTarget !== ReadableStream || strategy !== undefined || !shapedAsExtractedBody(source) ||
        !undiciReExtractsBody(ReadableStream)) {
      return undefined;
    }
    return new natives.ReadableStream(source);
  });
  journal.onRestore(() => setConstructingElsewhere(null));
  return true;
}

/** While a file of the undici npm package loads, the global stream classes are Node's. */
function swapWhileUndiciLoads(journal) {
  const saved = []; // the globals before each file that is loading (files load inside each other)
  watchPackageLoads(journal, 'undici', {
    enter() {
      saved.push(SWAPPED.map((name) => globalThis[name]));
      for (const name of SWAPPED) globalThis[name] = natives[name];
    },
    leave() {
      const before = saved.pop();
      SWAPPED.forEach((name, i) => { globalThis[name] = before[i]; });
    },
  });
}

/** Returns false when a redirect's body cannot be made Node's (install() warns then). */
export function installUndiciFirst(journal, order) {
  if (order.capturedNative) swapWhileUndiciLoads(journal);
  if (!order.nativeTee) return true;
  // undici is loaded already: reading these globals costs nothing now.
  wrapClone(journal, globalThis.Response);
  wrapClone(journal, globalThis.Request);
  wrapFetch(journal);
  return nativeReExtractedBodies(journal);
}
