// The public WritableStream class (spec 5.2).
import { kWrap } from '../facade.js';
import { promiseRejectedWith } from '../promise.js';
import {
  isObject, illegalInvocation, defineInterface, typeError, rangeError, getMember, optionalCallback,
} from '../webidl.js';
import { convertQueuingStrategy, ExtractHighWaterMark, ExtractSizeAlgorithm } from '../strategies.js';
import {
  WritableStreamImpl, IsWritableStreamLocked, WritableStreamAbort, WritableStreamClose,
  WritableStreamCloseQueuedOrInFlight,
} from './stream-ops.js';
import { SetUpWritableStreamDefaultControllerFromUnderlyingSink } from './default-controller.js';
import { AcquireWritableStreamDefaultWriter } from './default-writer.js';
import { counters } from '../metrics/counters.js';

/** Converts an UnderlyingSink dictionary, members in WebIDL (lexicographic) order. */
function convertUnderlyingSink(sink) {
  const name = 'UnderlyingSink';
  const abort = optionalCallback(sink, 'abort', name);
  const close = optionalCallback(sink, 'close', name);
  const start = optionalCallback(sink, 'start', name);
  const type = getMember(sink, 'type');
  const write = optionalCallback(sink, 'write', name);
  return { abort, close, start, type, write };
}

export class WritableStream {
  #impl;

  constructor(underlyingSink = undefined, strategy = undefined) {
    if (underlyingSink === kWrap) {
      this.#impl = strategy;
      strategy.api = this;
      return;
    }
    if (underlyingSink !== undefined && !isObject(underlyingSink)) {
      throw typeError("Failed to construct 'WritableStream': argument 1 (underlyingSink) must be an object");
    }
    const strategyDict = convertQueuingStrategy(strategy, "argument 2 (strategy) of 'WritableStream'");
    const sink = convertUnderlyingSink(underlyingSink);
    if (sink.type !== undefined) {
      throw rangeError("Failed to construct 'WritableStream': 'type' member of UnderlyingSink must be undefined");
    }
    const stream = new WritableStreamImpl();
    counters.writableStreamsCreated++;
    this.#impl = stream;
    stream.api = this;
    const sizeAlgorithm = ExtractSizeAlgorithm(strategyDict);
    const highWaterMark = ExtractHighWaterMark(strategyDict, 1);
    SetUpWritableStreamDefaultControllerFromUnderlyingSink(stream, underlyingSink, sink, highWaterMark, sizeAlgorithm);
  }

  get locked() {
    if (!isWritableStream(this)) throw illegalInvocation('WritableStream', 'locked');
    return IsWritableStreamLocked(this.#impl);
  }

  abort(reason = undefined) {
    if (!isWritableStream(this)) return promiseRejectedWith(illegalInvocation('WritableStream', 'abort'));
    const stream = this.#impl;
    if (IsWritableStreamLocked(stream)) {
      return promiseRejectedWith(typeError('Cannot abort a stream that is locked to a writer'));
    }
    return WritableStreamAbort(stream, reason);
  }

  close() {
    if (!isWritableStream(this)) return promiseRejectedWith(illegalInvocation('WritableStream', 'close'));
    const stream = this.#impl;
    if (IsWritableStreamLocked(stream)) {
      return promiseRejectedWith(typeError('Cannot close a stream that is locked to a writer'));
    }
    if (WritableStreamCloseQueuedOrInFlight(stream)) {
      return promiseRejectedWith(typeError('Cannot close a stream that is already closing'));
    }
    return WritableStreamClose(stream);
  }

  getWriter() {
    if (!isWritableStream(this)) throw illegalInvocation('WritableStream', 'getWriter');
    return AcquireWritableStreamDefaultWriter(this.#impl).facade;
  }

  static unwrap(value) {
    return typeof value === 'object' && value !== null && #impl in value ? value.#impl : undefined;
  }
}

/** The internal record of a public WritableStream, or undefined for anything else. */
export const unwrapWritableStream = WritableStream.unwrap;
delete WritableStream.unwrap;
const isWritableStream = (value) => unwrapWritableStream(value) !== undefined;
export const isWritableStreamLocked = IsWritableStreamLocked;

/** The public WritableStream for an internal record (created once, then cached). */
export function wrapWritableStream(stream) {
  return stream.api ?? new WritableStream(kWrap, stream);
}

defineInterface(WritableStream, 'WritableStream', ['locked', 'abort', 'close', 'getWriter']);
