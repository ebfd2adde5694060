// The public WritableStream class (spec 5.2).
import { kWrap } from '../facade.js';
import { promiseRejectedWith } from '../promise.js';
import {
  isObject, illegalInvocation, defineInterface, convertCallback,
} from '../webidl.js';
import { convertQueuingStrategy, ExtractHighWaterMark, ExtractSizeAlgorithm } from '../strategies.js';
import {
  WritableStreamImpl, IsWritableStreamLocked, WritableStreamAbort, WritableStreamClose,
  WritableStreamCloseQueuedOrInFlight,
} from './stream-ops.js';
import { SetUpWritableStreamDefaultControllerFromUnderlyingSink } from './default-controller.js';
import { AcquireWritableStreamDefaultWriter } from './default-writer.js';
import { counters } from '../metrics/counters.js';
import { sites, noteCreation } from '../metrics/sites.js';
import { invalidArgType, invalidArgValueRange, invalidState, startNotCallable } from '../errors.js';

export class WritableStream {
  #impl;

  constructor(underlyingSink = undefined, strategy = undefined) {
    if (underlyingSink === kWrap) {
      this.#impl = strategy;
      strategy.api = this;
      return;
    }
    if (underlyingSink !== undefined && !isObject(underlyingSink)) {
      throw invalidArgType('sink', 'of type object', underlyingSink);
    }
    const strategyDict = convertQueuingStrategy(strategy, 'strategy');
    // The UnderlyingSink dictionary, members in WebIDL (lexicographic) order,
    // read straight into locals (no dictionary object is kept).
    let abort;
    let close;
    let start;
    let write;
    if (underlyingSink !== undefined) {
      abort = underlyingSink.abort;
      if (abort !== undefined) convertCallback(abort, 'sink.abort');
      close = underlyingSink.close;
      if (close !== undefined) convertCallback(close, 'sink.close');
      start = underlyingSink.start;
      if (start !== undefined) convertCallback(start, 'sink.start', startNotCallable);
      const type = underlyingSink.type;
      write = underlyingSink.write;
      if (write !== undefined) convertCallback(write, 'sink.write');
      if (type !== undefined) {
        throw invalidArgValueRange('type', type);
      }
    }
    const stream = new WritableStreamImpl();
    counters.writableStreamsCreated++;
    if (sites.on) noteCreation(stream); // FAST_WEBSTREAMS_METRICS_SITES
    this.#impl = stream;
    stream.api = this;
    const sizeAlgorithm = ExtractSizeAlgorithm(strategyDict);
    const highWaterMark = ExtractHighWaterMark(strategyDict, 1);
    SetUpWritableStreamDefaultControllerFromUnderlyingSink(stream, underlyingSink, start, write, close, abort,
      highWaterMark, sizeAlgorithm);
  }

  get locked() {
    if (!isWritableStream(this)) throw illegalInvocation('WritableStream', 'locked');
    return IsWritableStreamLocked(this.#impl);
  }

  abort(reason = undefined) {
    if (!isWritableStream(this)) return promiseRejectedWith(illegalInvocation('WritableStream', 'abort'));
    const stream = this.#impl;
    if (IsWritableStreamLocked(stream)) {
      return promiseRejectedWith(invalidState('WritableStream is locked'));
    }
    return WritableStreamAbort(stream, reason);
  }

  close() {
    if (!isWritableStream(this)) return promiseRejectedWith(illegalInvocation('WritableStream', 'close'));
    const stream = this.#impl;
    if (IsWritableStreamLocked(stream)) {
      return promiseRejectedWith(invalidState('WritableStream is locked'));
    }
    if (WritableStreamCloseQueuedOrInFlight(stream)) {
      return promiseRejectedWith(invalidState('Failure closing WritableStream'));
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
