// Node's stream utilities recognise Web Streams by duck typing and then read a
// few *registered* symbols (Symbol.for), listed and probed in
// src/node-internals/stream-symbols.js: finished(), pipeline() and compose()
// wait on isClosedPromise, isDisturbed()/isErrored()/isReadable()/isWritable()
// read the state marks, addAbortSignal() calls controllerErrorFunction.
// Defined here on our ReadableStream and WritableStream prototypes (always: a
// stream made through the library API, without the global patch, works with
// Node's utilities too). Getters only, non-enumerable, like Node's.
import { ObjectDefineProperty, ReflectApply, WeakMapCtor, weakMapGet, weakMapSet } from '../intrinsics.js';
import { Deferred, setPromiseIsHandled, enqueueMicrotask } from '../promise.js';
import { ReadableStream, unwrapReadableStream } from '../readable/readable-stream.js';
import { WritableStream, unwrapWritableStream } from '../writable/writable-stream.js';
import { isByteStreamController, ReadableByteStreamControllerError } from '../readable/byte-controller.js';
import { ReadableStreamDefaultControllerError } from '../readable/default-controller.js';
import { WritableStreamDefaultControllerErrorIfNeeded } from '../writable/default-controller.js';
import {
  kIsClosedPromise, kControllerErrorFunction, kIsDisturbed, kIsErrored, kIsReadable, kIsWritable,
} from '../node-internals/stream-symbols.js';

/**
 * A readable stream's closed-watcher: a slot of its record that
 * ReadableStreamClose and ReadableStreamError settle. (An accessor on the
 * record's `state`, as for writables below, would slow down every read of a
 * fetch body: undici hands each one to finished().)
 */
function readableClosedPromiseOf(stream) {
  let deferred = stream.closedWatcher;
  if (deferred !== undefined) return deferred;
  deferred = new Deferred();
  setPromiseIsHandled(deferred.promise);
  if (stream.state === 'closed') deferred.resolve(undefined);
  else if (stream.state === 'errored') deferred.reject(stream.storedError);
  stream.closedWatcher = deferred;
  return deferred;
}

/** internal record -> Deferred settled when the stream closes (resolve) or errors (reject). */
const closedPromises = new WeakMapCtor();

/**
 * A writable stream's closed-watcher. Its state changes in many places, so
 * the record's `state` slot becomes an accessor on this one record (only for
 * streams handed to Node's utilities): every transition passes through it.
 */
function closedPromiseOf(stream) {
  let deferred = weakMapGet(closedPromises, stream);
  if (deferred !== undefined) return deferred;
  deferred = new Deferred();
  setPromiseIsHandled(deferred.promise);
  weakMapSet(closedPromises, stream, deferred);
  const settle = (state) => {
    if (!deferred.pending) return;
    if (state === 'closed') deferred.resolve(undefined);
    // A microtask later, as it always was (storedError is set by then).
    else if (state === 'errored') enqueueMicrotask(() => deferred.reject(stream.storedError));
  };
  let state = stream.state;
  settle(state);
  if (deferred.pending) {
    ObjectDefineProperty(stream, 'state', {
      get() { return state; },
      set(value) {
        state = value;
        settle(value);
      },
      enumerable: true,
      configurable: true,
    });
  }
  return deferred;
}

// Node 20 and 22 *assign* isClosedPromise and controllerErrorFunction on each
// native instance; with native prototypes inheriting ours (the global patch),
// an inherited getter without a setter would make that assignment throw. The
// setter does what the assignment would have done on a plain prototype.
function define(proto, symbol, get) {
  ObjectDefineProperty(proto, symbol, {
    get,
    set(value) {
      ObjectDefineProperty(this, symbol, { value, writable: true, enumerable: true, configurable: true });
    },
    enumerable: false,
    configurable: true,
  });
}

// The getters answer undefined for anything not ours: with the global patch
// native prototypes inherit from ours (src/patch/instanceof.js), and a native
// stream that lacks one of these (Node 20's WritableStream) must read as
// "unknown", the way it did before.
const readable = unwrapReadableStream;
const writable = unwrapWritableStream;

const RP = ReadableStream.prototype;
define(RP, kIsClosedPromise, function isClosedPromise() {
  const s = readable(this);
  return s === undefined ? undefined : readableClosedPromiseOf(s); });
define(RP, kIsDisturbed, function disturbed() { return readable(this)?.disturbed; });
define(RP, kIsErrored, function errored() {
  const s = readable(this);
  return s === undefined ? undefined : s.state === 'errored'; });
define(RP, kIsReadable, function readableState() {
  const s = readable(this);
  return s === undefined ? undefined : s.state === 'readable'; });
define(RP, kControllerErrorFunction, function controllerErrorFunction() {
  const stream = readable(this);
  if (stream === undefined) return undefined;
  return (e) => {
    if (stream.state !== 'readable') return;
    const controller = stream.controller;
    if (isByteStreamController(controller)) ReadableByteStreamControllerError(controller, e);
    else ReadableStreamDefaultControllerError(controller, e);
  };
});

const WP = WritableStream.prototype;
define(WP, kIsClosedPromise, function isClosedPromise() {
  const s = writable(this);
  return s === undefined ? undefined : closedPromiseOf(s); });
define(WP, kIsErrored, function errored() {
  const s = writable(this);
  return s === undefined ? undefined : s.state === 'errored'; });
define(WP, kIsWritable, function writableState() {
  const s = writable(this);
  return s === undefined ? undefined : s.state === 'writable'; });
define(WP, kControllerErrorFunction, function controllerErrorFunction() {
  const stream = writable(this);
  if (stream === undefined) return undefined;
  return (e) => ReflectApply(WritableStreamDefaultControllerErrorIfNeeded, undefined, [stream.controller, e]);
});
