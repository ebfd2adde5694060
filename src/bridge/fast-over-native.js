// The other direction of the bridge: one of OUR streams in front of a native
// one. Used where a native stream meets our code: a pipe from ours into a
// native writable (CompressionStream, TextDecoderStream, Writable.toWeb()),
// and the Response / Request body shells (src/patch/bodies.js).
//
// Native methods are captured here, when the library loads, so that user code
// patching Node's prototypes later cannot change how the bridge behaves.
import { ReflectApply, ArrayBufferIsView, viewBuffer, viewByteOffset, viewByteLength, Uint8ArrayCtor, OriginalTypeError }
  from '../intrinsics.js';
import { uponPromise, promiseResolvedWith, promiseRejectedWith, setPromiseIsHandled } from '../promise.js';
import { CreateWritableStream, WritableStreamDefaultControllerErrorIfNeeded } from '../writable/default-controller.js';
import {
  CreateReadableByteStream, ReadableByteStreamControllerEnqueue, ReadableByteStreamControllerClose,
  ReadableByteStreamControllerError, ReadableByteStreamControllerGetBYOBRequest,
  ReadableByteStreamControllerRespond,
} from '../readable/byte-controller.js';
import { AcquireReadableStreamDefaultReader } from '../readable/default-reader.js';
import { IsReadableStreamLocked } from '../readable/stream-ops.js';
import { natives } from './natives.js';
import { counters } from '../metrics/counters.js';
import { tiers } from '../tiers.js';

const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
const RS = natives.ReadableStream.prototype;
const WS = natives.WritableStream.prototype;
const R = natives.ReadableStreamDefaultReader.prototype;
const W = natives.WritableStreamDefaultWriter.prototype;
const nativeGetReader = RS.getReader;
const nativeCancel = RS.cancel;
const nativeGetWriter = WS.getWriter;
const readerRead = R.read;
const readerCancel = R.cancel;
const writerWrite = W.write;
const writerClose = W.close;
const writerAbort = W.abort;
const writerRelease = W.releaseLock;
const writerClosed = getter(W, 'closed');

/**
 * Our WritableStream (an internal record) writing into the native WritableStream
 * `native`, which it locks. `release()` unlocks `native` again once a pipe has
 * ended without closing or aborting it.
 */
export function fastWritableOver(native) {
  counters.nativeBridges++;
  const writer = ReflectApply(nativeGetWriter, native, []);
  let released = false;
  let stream;
  const start = () => {
    // The native side can fail on its own (its readable side cancelled, a
    // decoding error): error ours with the same reason.
    uponPromise(ReflectApply(writerClosed, writer, []), undefined, (e) => {
      if (!released) WritableStreamDefaultControllerErrorIfNeeded(stream.controller, e);
    });
    return undefined;
  };
  stream = CreateWritableStream(
    start,
    (chunk) => ReflectApply(writerWrite, writer, [chunk]),
    () => ReflectApply(writerClose, writer, []),
    (reason) => ReflectApply(writerAbort, writer, [reason]),
    1,
    () => 1,
  );
  const release = () => {
    if (released) return;
    released = true;
    ReflectApply(writerRelease, writer, []);
  };
  return { stream, release };
}

/** Copies a chunk unless it owns its whole buffer (enqueue detaches the buffer it is given). */
function ownedBytes(chunk) {
  const buffer = viewBuffer(chunk);
  const offset = viewByteOffset(chunk);
  const length = viewByteLength(chunk);
  if (offset === 0 && length === buffer.byteLength) return new Uint8ArrayCtor(buffer, 0, length);
  const copy = new Uint8ArrayCtor(length);
  copy.set(new Uint8ArrayCtor(buffer, offset, length));
  return copy;
}

/**
 * Enqueues a chunk the native body just gave us. This runs in our own reaction
 * to the native read, with no user code on the stack: a pipe waiting on the
 * shell writes the chunk as soon as enqueue() returns (tier 1) instead of a
 * microtask later, as for a pull() source (feedPump in src/fast/pipe-pump.js).
 */
function enqueueFromReaction(stream, controller, chunk) {
  tiers.feedPump(stream, ReadableByteStreamControllerEnqueue, controller, chunk);
}

/**
 * A body shell: our byte ReadableStream over a native body stream, that touches
 * the native stream only when the shell is first read or cancelled (attach()).
 * Until then the body mixin (text(), json(), ...) can still consume the native
 * stream directly; `consumedBy(promise)` then makes the shell report what the
 * native stream would (locked, then closed or errored).
 */
export class BodyShell {
  constructor(native) {
    counters.nativeBridges++;
    this.native = native;
    this.reader = undefined; // the native reader, once attached
    this.consumed = false;
    this.stream = CreateReadableByteStream(
      () => undefined,
      () => this.pull(),
      (reason) => this.cancel(reason),
    );
  }

  /** True once the application has locked or read the shell itself. */
  get touched() {
    return this.reader !== undefined || IsReadableStreamLocked(this.stream) || this.stream.disturbed;
  }

  /** Locks the native stream for the shell; throws the native TypeError if it is locked already. */
  attach() {
    if (this.reader === undefined) this.reader = ReflectApply(nativeGetReader, this.native, []);
    return this.reader;
  }

  pull() {
    let reader;
    try {
      reader = this.attach();
    } catch (e) {
      return promiseRejectedWith(e);
    }
    const controller = this.stream.controller;
    return uponPromise(ReflectApply(readerRead, reader, []), (result) => {
      if (result.done) {
        ReadableByteStreamControllerClose(controller);
        // A pending BYOB read is answered "done" by responding with 0 bytes.
        const request = ReadableByteStreamControllerGetBYOBRequest(controller);
        if (request !== null) ReadableByteStreamControllerRespond(controller, 0);
        return;
      }
      const chunk = result.value;
      if (!ArrayBufferIsView(chunk)) {
        const error = new OriginalTypeError('Received non-Uint8Array chunk');
        setPromiseIsHandled(ReflectApply(readerCancel, reader, [error]));
        throw error;
      }
      if (viewByteLength(chunk) > 0) enqueueFromReaction(this.stream, controller, ownedBytes(chunk));
    });
  }

  cancel(reason) {
    if (this.reader !== undefined) return ReflectApply(readerCancel, this.reader, [reason]);
    if (this.consumed) return promiseResolvedWith(undefined);
    try {
      return ReflectApply(nativeCancel, this.native, [reason]);
    } catch (e) {
      return promiseRejectedWith(e);
    }
  }

  /**
   * The body mixin is consuming the native stream directly (the shell was never
   * read): lock the shell, and close or error it when `promise` settles, as the
   * native stream will be.
   */
  consumedBy(promise) {
    if (this.consumed) return;
    this.consumed = true;
    if (!IsReadableStreamLocked(this.stream)) AcquireReadableStreamDefaultReader(this.stream);
    if (promise === undefined) return;
    const controller = this.stream.controller;
    const settled = uponPromise(promise, () => {
      if (this.stream.state === 'readable' && !controller.closeRequested) ReadableByteStreamControllerClose(controller);
    }, (e) => {
      if (this.stream.state === 'readable') ReadableByteStreamControllerError(controller, e);
    });
    setPromiseIsHandled(settled);
  }
}
