// Node's consumers that only accept native streams, and pipes that cross
// between native streams and ours.
//
// Readable.fromWeb / Writable.fromWeb / Duplex.fromWeb brand-check their
// argument with Node's private symbols (every Node version): given ours, the
// wrapper makes the Node stream itself, reading and writing ours directly
// (src/bridge/node-adapters/); Node's own streams go to Node's adapters. A
// Duplex pair mixing ours with a native stream gets a native twin of ours
// (src/bridge/native-twin.js) and Node's adapter. Duplex.from(ours) and
// compose() reach these through the same properties.
//
// pipeTo / pipeThrough: a pipe is run by the source's implementation, which
// brand-checks the destination. So:
//   ours -> native writable (CompressionStream, TextDecoderStream, Writable.toWeb())
//     our pipe into one of our writables that writes into the native one;
//   native -> our writable (Blob.stream(), FileHandle.readableWebStream(),
//     Readable.toWeb(), a native transform's readable side)
//     Node's pipe into a native twin of ours.
// Either way the pipe's options, error, close and cancel propagation are those
// of the implementation running it; the bridge forwards chunks, close and abort.
import { ReflectApply } from '../intrinsics.js';
import { uponPromise, setPromiseIsHandled, promiseRejectedWith } from '../promise.js';
import { ReadableStream, unwrapReadableStream } from '../readable/readable-stream.js';
import { unwrapWritableStream, wrapWritableStream } from '../writable/writable-stream.js';
import { unwrapTransformStream } from '../transform/transform-stream.js';
import { IsReadableStreamLocked } from '../readable/stream-ops.js';
import { IsWritableStreamLocked } from '../writable/stream-ops.js';
import { convertPipeOptions } from '../readable/pipe-to.js';
import {
  natives, isNativeReadableStream, isNativeWritableStream, nativeReadableLocked, nativeWritableLocked,
} from '../bridge/natives.js';
import { nativeReadableFrom, nativeWritableWithRelease } from '../bridge/native-twin.js';
import { makeAdapters, lockedNativeReadable, lockedNativeWritable } from '../bridge/node-adapters/from-web.js';
import { makeToWeb } from '../bridge/node-adapters/to-web.js';
import { fastWritableOver } from '../bridge/fast-over-native.js';
import { sameShape } from './restore.js';
import { builtin } from './builtins.js';
import { invalidArgType, invalidState } from '../errors.js';

const stream = builtin('node:stream');

function readableForNode(value) {
  const impl = unwrapReadableStream(value);
  if (impl === undefined) return value;
  return IsReadableStreamLocked(impl) ? lockedNativeReadable() : nativeReadableFrom(impl);
}

function writableForNode(value) {
  const impl = unwrapWritableStream(value);
  if (impl === undefined) return value;
  return IsWritableStreamLocked(impl) ? lockedNativeWritable() : nativeWritableWithRelease(impl).twin;
}

// Readable.toWeb / Writable.toWeb: ours over the Node stream (src/bridge/node-adapters/to-web.js).
function installToWeb(journal) {
  const { Readable, Writable } = stream;
  const original = { readable: Readable.toWeb, writable: Writable.toWeb };
  const { readableToWeb, writableToWeb } =
    makeToWeb(stream, original, builtin('node:buffer').Buffer, () => builtin('node:zlib').constants);
  journal.replaceValue(Readable, 'toWeb', sameShape(readableToWeb, original.readable));
  journal.replaceValue(Writable, 'toWeb', sameShape(writableToWeb, original.writable));
}

function installFromWeb(journal) {
  const { Readable, Writable, Duplex } = stream;
  const original = { Readable: Readable.fromWeb, Writable: Writable.fromWeb, Duplex: Duplex.fromWeb };
  const { readableFromOurs, writableFromOurs, duplexFromOurs } =
    makeAdapters(stream, original, builtin('node:buffer').Buffer);
  journal.replaceValue(Readable, 'fromWeb', sameShape(function fromWeb(readableStream, options) {
    const impl = unwrapReadableStream(readableStream);
    if (impl !== undefined) return readableFromOurs(impl, options);
    return ReflectApply(original.Readable, this, arguments);
  }, original.Readable));
  journal.replaceValue(Writable, 'fromWeb', sameShape(function fromWeb(writableStream, options) {
    const impl = unwrapWritableStream(writableStream);
    if (impl !== undefined) return writableFromOurs(impl, options);
    return ReflectApply(original.Writable, this, arguments);
  }, original.Writable));
  journal.replaceValue(Duplex, 'fromWeb', sameShape(function fromWeb(pair, options) {
    if (pair !== null && typeof pair === 'object') {
      const { readable, writable } = pair;
      const readImpl = unwrapReadableStream(readable);
      const writeImpl = unwrapWritableStream(writable);
      if (readImpl !== undefined && writeImpl !== undefined) return duplexFromOurs(readImpl, writeImpl, options);
      // One of ours beside a native stream: a native twin for ours, Node's adapter for the pair.
      if (readImpl !== undefined || writeImpl !== undefined) {
        pair = { readable: readableForNode(readable), writable: writableForNode(writable) };
      }
    }
    const args = [pair]; // the rest as they came, by index (a program may have replaced the array iterator)
    for (let i = 1; i < arguments.length; i++) args[i] = arguments[i];
    return ReflectApply(original.Duplex, this, args);
  }, original.Duplex));
}

// --- pipes ------------------------------------------------------------------

const ourPipeTo = ReadableStream.prototype.pipeTo;
const ourPipeThrough = ReadableStream.prototype.pipeThrough;
const nativePipeTo = natives.ReadableStream.prototype.pipeTo;
const nativePipeThrough = natives.ReadableStream.prototype.pipeThrough;

/** Our pipe from `source` (ours) into the native writable `dest`. */
function pipeOursToNative(source, dest, options) {
  const opts = convertPipeOptions(options); // throws before anything is locked
  if (IsReadableStreamLocked(unwrapReadableStream(source))) {
    throw invalidState('The ReadableStream is locked');
  }
  if (nativeWritableLocked(dest)) throw invalidState('The WritableStream is locked');
  const bridge = fastWritableOver(dest);
  const promise = ReflectApply(ourPipeTo, source, [wrapWritableStream(bridge.stream), opts]);
  // A pipe that ends without closing or aborting its destination unlocks it.
  return uponPromise(promise, () => bridge.release(), (e) => {
    bridge.release();
    throw e;
  });
}

function pipeTo(destination, options = undefined) {
  if (unwrapReadableStream(this) !== undefined && unwrapWritableStream(destination) === undefined &&
      isNativeWritableStream(destination)) {
    try {
      return pipeOursToNative(this, destination, options);
    } catch (e) {
      return promiseRejectedWith(e);
    }
  }
  return ReflectApply(ourPipeTo, this, arguments);
}

function pipeThrough(transform, options = undefined) {
  // Our own TransformStream: nothing to bridge, and the core sees the pair itself.
  if (unwrapReadableStream(this) === undefined || transform === null || typeof transform !== 'object' ||
      unwrapTransformStream(transform) !== undefined) {
    return ReflectApply(ourPipeThrough, this, arguments);
  }
  // Each getter is read once, in the spec's order, and `readable` is
  // brand-checked before `writable` is read (as the core does).
  const readable = transform.readable;
  const nativeReadable = unwrapReadableStream(readable) === undefined && isNativeReadableStream(readable);
  if (unwrapReadableStream(readable) === undefined && !nativeReadable) {
    throw invalidArgType('transform.readable', 'an instance of ReadableStream', readable);
  }
  const writable = transform.writable;
  const nativeWritable = unwrapWritableStream(writable) === undefined && isNativeWritableStream(writable);
  if (!nativeReadable && !nativeWritable) {
    return ReflectApply(ourPipeThrough, this, [{ readable, writable }, options]);
  }
  if (!nativeWritable) {
    // A native readable with our writable: our pipe as usual.
    if (unwrapWritableStream(writable) === undefined) {
      throw invalidArgType('transform.writable', 'an instance of WritableStream', writable);
    }
    const opts = convertPipeOptions(options);
    if (IsReadableStreamLocked(unwrapReadableStream(this))) {
      throw invalidState('The ReadableStream is locked');
    }
    if (IsWritableStreamLocked(unwrapWritableStream(writable))) {
      throw invalidState('The WritableStream is locked');
    }
    setPromiseIsHandled(ReflectApply(ourPipeTo, this, [writable, opts]));
    return readable;
  }
  setPromiseIsHandled(pipeOursToNative(this, writable, options));
  return readable;
}

/** Node's pipe from `this` (native) into a twin of our writable `dest`. */
function pipeNativeToOurs(source, destImpl, options) {
  // Let Node reject what it rejects (bad options, a locked source) before ours is locked.
  if (nativeReadableLocked(source) || IsWritableStreamLocked(destImpl)) return undefined;
  const { twin, release } = nativeWritableWithRelease(destImpl);
  const promise = ReflectApply(nativePipeTo, source, [twin, options]);
  return uponPromise(promise, release, (e) => {
    release();
    throw e;
  });
}

function nativePipeToPatched(destination, options = undefined) {
  const destImpl = unwrapWritableStream(destination);
  if (destImpl !== undefined && isNativeReadableStream(this)) {
    const piped = pipeNativeToOurs(this, destImpl, options);
    if (piped !== undefined) return piped;
  }
  return ReflectApply(nativePipeTo, this, arguments);
}

function nativePipeThroughPatched(transform, options = undefined) {
  if (transform === null || typeof transform !== 'object' || !isNativeReadableStream(this)) {
    return ReflectApply(nativePipeThrough, this, arguments);
  }
  const readable = transform.readable;
  const writable = transform.writable;
  const oursReadable = unwrapReadableStream(readable) !== undefined;
  const destImpl = unwrapWritableStream(writable);
  if (!oursReadable && destImpl === undefined) {
    return ReflectApply(nativePipeThrough, this, [{ readable, writable }, options]);
  }
  if (!oursReadable && !isNativeReadableStream(readable)) {
    return ReflectApply(nativePipeThrough, this, [{ readable, writable }, options]); // Node's own TypeError
  }
  if (nativeReadableLocked(this)) throw invalidState('The ReadableStream is locked');
  let target = writable;
  let release;
  if (destImpl !== undefined) {
    if (IsWritableStreamLocked(destImpl)) {
      throw invalidState('The WritableStream is locked');
    }
    ({ twin: target, release } = nativeWritableWithRelease(destImpl));
  }
  const promise = ReflectApply(nativePipeTo, this, [target, options]);
  setPromiseIsHandled(release === undefined ? promise : uponPromise(promise, release, release));
  return readable;
}

function installPipes(journal) {
  const ours = ReadableStream.prototype;
  journal.replaceValue(ours, 'pipeTo', sameShape(pipeTo, ourPipeTo));
  journal.replaceValue(ours, 'pipeThrough', sameShape(pipeThrough, ourPipeThrough));
  const native = natives.ReadableStream.prototype;
  journal.replaceValue(native, 'pipeTo', sameShape(nativePipeToPatched, nativePipeTo));
  journal.replaceValue(native, 'pipeThrough', sameShape(nativePipeThroughPatched, nativePipeThrough));
}

export function installConsumers(journal) {
  installFromWeb(journal);
  installToWeb(journal);
  installPipes(journal);
}
