// Response.prototype.body and Request.prototype.body: one of our streams.
//
// Under the preload undici makes its bodies with the *global* ReadableStream
// (looked up when each body is made), so a body undici creates (fetch
// responses, strings, buffers, FormData, ...) is already ours, and the getter
// returns it unchanged. A body that is a native stream (a Blob body, or a
// native stream the application passed in: Readable.toWeb(), a
// CompressionStream's readable side, a FileHandle stream) is returned as a
// *shell*: one of our byte streams over the native one, cached so that
// `res.body === res.body`, and touching the native stream only when the shell
// is first read or cancelled (src/bridge/fast-over-native.js). Until then the
// body mixin (text(), json(), arrayBuffer(), blob(), bytes(), formData()) and
// clone() use the native stream directly, and the shell then reports what
// native would (locked, closed). bodyUsed is undici's own getter: it sees the
// native stream disturbed exactly when the shell has read or cancelled it.
//
// When are Response and Request patched? Loading undici costs 50-80 ms, so the
// patch never loads it itself:
//   - already loaded (another preload used fetch): at install();
//   - Node 20: the global Response / Request are lazy accessors, wrapped so the
//     first access patches them;
//   - every version: the first call of the global fetch();
//   - the `undici` npm package: when the application loads it
//     (src/node-internals/package-load.js).
// On Node 22+ the globals are lazy *data* properties that cannot be observed
// without loading undici, so a program that constructs Responses over native
// streams without ever calling fetch() keeps native bodies (which still work
// with ours through the pipe bridges of src/patch/consumers.js).
import { ReflectApply, WeakMapCtor, weakMapGet, weakMapSet } from '../intrinsics.js';
import { debug } from './debug.js';
import { enqueueMicrotask } from '../promise.js';
import { unwrapReadableStream, wrapReadableStream } from '../readable/readable-stream.js';
import { ReadableByteStreamControllerClose } from '../readable/byte-controller.js';
import { isNativeReadableStream, nativeReadableLocked } from '../bridge/natives.js';
import { BodyShell } from '../bridge/fast-over-native.js';
import { sameShape } from './restore.js';
import { builtinUndiciLoaded } from './order.js';
import { kIsReadable } from '../node-internals/stream-symbols.js';
import { watchPackageLoads } from '../node-internals/package-load.js';
import { nodeMajor } from '../node-version.js';

const CONSUMERS = ['text', 'json', 'arrayBuffer', 'blob', 'bytes', 'formData', 'clone'];

/** native body stream -> its BodyShell */
const shells = new WeakMapCtor();

function shellFor(native) {
  let shell = weakMapGet(shells, native);
  if (shell !== undefined) return shell;
  shell = new BodyShell(native);
  weakMapSet(shells, native, shell);
  if (nativeReadableLocked(native)) {
    // Consumed (or teed) before anyone asked for the shell: report it so.
    shell.consumedBy(undefined);
    if (native[kIsReadable] === false && shell.stream.state === 'readable') {
      ReadableByteStreamControllerClose(shell.stream.controller);
    }
  }
  return shell;
}

let journal;
const patched = new WeakSet();

/**
 * Patches one Response or Request class (global or the undici package's). A
 * class another library put in the global's place (@hono/node-server's
 * Response, whose accessors are not configurable and which hands bodies over
 * to undici's own class) is left as it is where any of its properties cannot
 * be replaced: never half-patched, never a throw into the caller's fetch().
 */
function patchBodyClass(Class) {
  const proto = Class?.prototype;
  if (journal === undefined || proto === null || typeof proto !== 'object' || patched.has(proto)) return;
  const descriptor = Object.getOwnPropertyDescriptor(proto, 'body');
  if (descriptor === undefined || typeof descriptor.get !== 'function') return;
  const keys = ['body', ...CONSUMERS.filter((name) => typeof proto[name] === 'function')];
  const fixed = keys.filter((key) => !journal.canRedefine(proto, key));
  patched.add(proto); // once per class, patched or left
  journal.onRestore(() => patched.delete(proto));
  if (fixed.length > 0) {
    debug('%s left native: its %s cannot be redefined (another library made the class)', Class.name || 'a class',
      fixed.join(', '));
    return;
  }
  journal.onRestore(() => patched.delete(proto));
  const nativeBody = descriptor.get;
  journal.replaceGetter(proto, 'body', sameShape(function body() {
    const stream = ReflectApply(nativeBody, this, []);
    if (stream === null || typeof stream !== 'object' || unwrapReadableStream(stream) !== undefined ||
        !isNativeReadableStream(stream)) {
      return stream;
    }
    return wrapReadableStream(shellFor(stream).stream);
  }, nativeBody));
  for (const name of CONSUMERS) {
    const original = proto[name];
    if (typeof original !== 'function') continue;
    journal.replaceValue(proto, name, sameShape(function () {
      let stream;
      try {
        stream = ReflectApply(nativeBody, this, []);
      } catch {
        return ReflectApply(original, this, arguments); // not a Response / Request: its own error
      }
      const shell = stream !== null && typeof stream === 'object' ? weakMapGet(shells, stream) : undefined;
      if (shell === undefined || shell.consumed || shell.reader !== undefined) {
        return ReflectApply(original, this, arguments);
      }
      if (shell.touched) {
        // The application locked the shell: the native stream is locked too, so
        // the mixin rejects as it would on a locked body.
        try { shell.attach(); } catch { /* already locked */ }
        return ReflectApply(original, this, arguments);
      }
      const result = ReflectApply(original, this, arguments);
      shell.consumedBy(name === 'clone' ? undefined : result);
      return result;
    }, original));
  }
}

function patchGlobalsNow() {
  patchBodyClass(globalThis.Response);
  patchBodyClass(globalThis.Request);
}

function looksLikeUndici(exports) {
  return exports !== null && typeof exports === 'object' && typeof exports.fetch === 'function' &&
    typeof exports.Response === 'function' && typeof exports.Request === 'function';
}

export function installBodies(j, late) {
  journal = j;
  j.onRestore(() => { journal = undefined; }); // runs last: a stale wrapper then patches nothing
  if (builtinUndiciLoaded() !== false) {
    // Loaded, or Node does not say: patch now; or, installed on first use
    // (src/patch/lazy.js), once undici, which may be loading now, has loaded.
    if (late) enqueueMicrotask(patchGlobalsNow);
    else patchGlobalsNow();
  }
  // Node 20: lazy accessors on globalThis. (On Node 22+ the globals are V8
  // lazy data properties: even reading their descriptor loads undici, which
  // costs 50-80 ms at every process start, so they are left alone there.)
  const lazyAccessors = nodeMajor <= 20;
  for (const name of lazyAccessors ? ['Response', 'Request'] : []) {
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    if (d === undefined || typeof d.get !== 'function') continue;
    const get = d.get;
    journal.define(globalThis, name, {
      ...d,
      get: sameShape(function () {
        const value = ReflectApply(get, this, []);
        patchBodyClass(value);
        return value;
      }, get),
    });
  }
  // Every version: the first fetch() loads undici, so patching then is free.
  const fetchDescriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  if (fetchDescriptor !== undefined && typeof fetchDescriptor.value === 'function') {
    const originalFetch = fetchDescriptor.value;
    let done = false;
    journal.replaceValue(globalThis, 'fetch', sameShape(function fetch() {
      const result = ReflectApply(originalFetch, this, arguments);
      if (!done) {
        done = true;
        patchGlobalsNow();
      }
      return result;
    }, originalFetch));
  }
  // The undici npm package, when the application loads it (require or import).
  watchPackageLoads(j, 'undici', {
    enter() {},
    leave(exports) {
      if (!looksLikeUndici(exports)) return;
      patchBodyClass(exports.Response);
      patchBodyClass(exports.Request);
    },
  });
}
