// The TransformStream inside each codec object (the spec's GenericTransformStream
// mixin), built from the library's own abstract operations rather than from a
// Transformer object: no dictionary to read (so nothing on Object.prototype is
// consulted), and the codec's algorithms are plain functions called with the
// controller record, whose `codec` slot holds the per-stream state.
import { TransformStreamImpl, InitializeTransformStream } from '../transform/transform-stream.js';
import {
  TransformStreamDefaultControllerImpl, SetUpTransformStreamDefaultController, TransformStreamDefaultControllerEnqueue,
} from '../transform/default-controller.js';
import { wrapReadableStream } from '../readable/readable-stream.js';
import { wrapWritableStream } from '../writable/writable-stream.js';
import { counters } from '../metrics/counters.js';
import { nodeAbortError } from '../node-internals/abort-error.js';

/**
 * A new TransformStreamImpl (writable high-water mark 1, readable 0, as
 * "set up a TransformStream" gives) running `transform(chunk)` and `flush()`
 * with `this` being the controller record; `codec` is stored on it.
 * transform returns undefined when done at once, else a promise; flush and
 * cancel return promises. `zlibShaped`: as in Node's zlib classes, writes
 * run while nobody reads (the codec bounds what it holds itself), and an
 * abort or cancel without a reason errors the other side with an AbortError.
 */
export function createCodecTransform(codec, transform, flush, cancel, zlibShaped = false) {
  const stream = new TransformStreamImpl();
  if (zlibShaped) {
    stream.writesAhead = true;
    stream.makeNoReasonError = nodeAbortError;
  }
  counters.transformStreamsCreated++;
  // No size algorithm (undefined) on either side: every chunk counts 1, as a
  // strategy without size() gives, and the fast paths, which leave any size
  // algorithm to the spec path, treat the codec like a TransformStream built
  // without one (a chain through it stays fused).
  InitializeTransformStream(stream, 1, undefined, 0, undefined);
  const controller = new TransformStreamDefaultControllerImpl();
  controller.codec = codec;
  SetUpTransformStreamDefaultController(stream, controller, transform, flush, cancel);
  return stream;
}

/** Enqueues `chunk` on the readable side (throws if it cannot take chunks). */
export function enqueueOutput(controller, chunk) {
  TransformStreamDefaultControllerEnqueue(controller, chunk);
}

export function readableOf(stream) {
  return wrapReadableStream(stream.readable);
}

export function writableOf(stream) {
  return wrapWritableStream(stream.writable);
}
