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
// Left over: a 307/308 redirect or a 401 retry of a request with such a body
// re-makes the body later, with our class, and fetch() then rejects; install()
// warns once (src/patch/globals.js).
import { ReflectApply } from '../intrinsics.js';
import { natives } from '../bridge/natives.js';
import { unwrapReadableStream } from '../readable/readable-stream.js';
import { withNativeFace } from './native-face.js';
import { sameShape } from './restore.js';
import { watchPackageLoads } from '../node-internals/package-load.js';

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

export function installUndiciFirst(journal, order) {
  if (order.capturedNative) swapWhileUndiciLoads(journal);
  if (order.nativeTee) {
    // undici is loaded already: reading these globals costs nothing now.
    wrapClone(journal, globalThis.Response);
    wrapClone(journal, globalThis.Request);
    wrapFetch(journal);
  }
}
