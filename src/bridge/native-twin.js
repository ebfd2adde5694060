// The bridge to Node's native streams: a native twin of one of our streams.
// Some consumers only accept streams made by Node's own constructors (brand
// checks on private symbols, V8's transfer marker). For them we hand over a
// native stream that reads from, or writes to, ours. Creating a twin locks our
// stream, as handing the stream itself to the consumer would.
import { uponPromise, Deferred, promiseRejectedWith } from '../promise.js';
import { ReadableStreamCancel } from '../readable/stream-ops.js';
import {
  AcquireReadableStreamDefaultReader, ReadableStreamDefaultReaderRead, ReadableStreamDefaultReaderRelease,
  DefaultReadRequest,
} from '../readable/default-reader.js';
import { WritableStreamAbort } from '../writable/stream-ops.js';
import {
  AcquireWritableStreamDefaultWriter, WritableStreamDefaultWriterWrite,
  WritableStreamDefaultWriterCloseWithErrorPropagation, WritableStreamDefaultWriterRelease,
} from '../writable/default-writer.js';
import { natives } from './natives.js';
import { counters } from '../metrics/counters.js';
import { canWriteDirectly, writeDirectly } from '../fast/direct-write.js';
import { tiers } from '../tiers.js';

function readFrom(reader) {
  const request = new DefaultReadRequest();
  ReadableStreamDefaultReaderRead(reader, request);
  return request.promise;
}

/** A native ReadableStream that pulls from our stream `stream` (an internal record). */
export function nativeReadableFrom(stream) {
  counters.nativeBridges++;
  const reader = AcquireReadableStreamDefaultReader(stream);
  return nativeReadableOver(stream, () => reader);
}

/**
 * A native ReadableStream (high-water mark 0) that pulls each chunk through
 * `readerOf()`, our reader of `stream`, and releases it at the end; a cancel
 * cancels `stream`. The reader may be acquired after this returns, before
 * the first pull (src/patch/native-face.js does).
 */
export function nativeReadableOver(stream, readerOf) {
  return new natives.ReadableStream({
    pull(controller) {
      const reader = readerOf();
      return uponPromise(readFrom(reader), (result) => {
        if (result.done) {
          controller.close();
          ReadableStreamDefaultReaderRelease(reader);
        } else {
          controller.enqueue(result.value);
        }
      });
    },
    cancel(reason) {
      return ReadableStreamCancel(stream, reason);
    },
  }, { highWaterMark: 0 });
}

/** A native WritableStream that writes into our stream `stream` (an internal record). */
export function nativeWritableTo(stream) {
  return nativeWritableWithRelease(stream).twin;
}

/**
 * A native WritableStream writing into ours, and `release()`, which gives our
 * stream its lock back when a pipe ends without closing or aborting it
 * (preventClose / preventAbort), as a pipe straight into ours would.
 */
export function nativeWritableWithRelease(stream) {
  counters.nativeBridges++;
  const writer = AcquireWritableStreamDefaultWriter(stream);
  const release = () => {
    if (writer.stream !== undefined) WritableStreamDefaultWriterRelease(writer);
  };
  let request = new TwinWriteRequest();
  const twin = new natives.WritableStream({
    write(chunk) {
      if (writer.stream !== stream || !tiers.on || !canWriteDirectly(stream)) return WritableStreamDefaultWriterWrite(writer, chunk);
      // Node's writable calls write() again only once the last one settled.
      if (request.pending) request = new TwinWriteRequest();
      return writeFromTwin(stream, chunk, request);
    },
    close() {
      return WritableStreamDefaultWriterCloseWithErrorPropagation(writer);
    },
    abort(reason) {
      return WritableStreamAbort(stream, reason);
    },
  }, { highWaterMark: 1 });
  return { twin, release };
}

/**
 * The twin's write into ours when ours is idle: the twin holds our stream's
 * only writer, so nobody can observe its queue, and the write runs directly
 * as a pipe's does (src/fast/direct-write.js). A write that finished at once
 * returns undefined, which Node's writable takes as a write fulfilled; one
 * still in flight returns a promise settled with it.
 */
function writeFromTwin(stream, chunk, request) {
  counters.syncWrites++;
  request.pending = true;
  request.failed = false;
  writeDirectly(stream, chunk, request);
  if (!request.pending) return request.failed ? promiseRejectedWith(request.reason) : undefined;
  request.deferred = new Deferred();
  return request.deferred.promise;
}

/** The write request of the twin's direct writes: the promise is made only if the write stays in flight. */
class TwinWriteRequest {
  constructor() {
    this.pending = false;
    this.failed = false;
    this.reason = undefined;
    this.deferred = undefined;
  }

  resolve() {
    this.pending = false;
    const deferred = this.deferred;
    if (deferred === undefined) return;
    this.deferred = undefined;
    deferred.resolve(undefined);
  }

  reject(reason) {
    this.pending = false;
    const deferred = this.deferred;
    if (deferred === undefined) {
      this.failed = true;
      this.reason = reason;
      return;
    }
    this.deferred = undefined;
    deferred.reject(reason);
  }
}

/**
 * A native TransformStream whose writable side feeds our transform's writable
 * side and whose readable side carries what our readable side produces.
 */
export function nativeTransformOver(transform) {
  counters.nativeBridges++;
  const reader = AcquireReadableStreamDefaultReader(transform.readable);
  const writer = AcquireWritableStreamDefaultWriter(transform.writable);
  let forwarding;
  return new natives.TransformStream({
    start(controller) {
      // Forward our readable side into the twin's readable side until it ends.
      const pump = () => uponPromise(readFrom(reader), (result) => {
        if (result.done) {
          controller.terminate();
          return undefined;
        }
        controller.enqueue(result.value);
        return pump();
      }, (e) => controller.error(e));
      forwarding = pump();
    },
    transform(chunk) {
      return WritableStreamDefaultWriterWrite(writer, chunk);
    },
    flush() {
      return uponPromise(WritableStreamDefaultWriterCloseWithErrorPropagation(writer), () => forwarding);
    },
    cancel(reason) {
      return ReadableStreamCancel(transform.readable, reason);
    },
  });
}
