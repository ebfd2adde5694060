// WritableStreamDefaultWriter (spec 5.3 / 5.5.3).
import { Deferred, LazyDeferred, LazyTypeError, settledLazyDeferred, promiseResolvedWith, promiseRejectedWith } from '../promise.js';
import { kWrap } from '../facade.js';
import { illegalInvocation, defineInterface } from '../webidl.js';
import {
  IsWritableStreamLocked, WritableStreamAbort, WritableStreamClose, WritableStreamCloseQueuedOrInFlight,
  WritableStreamAddWriteRequest, WritableStreamDefaultWriterEnsurePromisesRejectedLazily,
} from './stream-ops.js';
import {
  WritableStreamDefaultControllerGetChunkSize, WritableStreamDefaultControllerGetDesiredSize,
  WritableStreamDefaultControllerWrite,
} from './default-controller.js';
import { unwrapWritableStream } from './writable-stream.js';
import { counters } from '../metrics/counters.js';
import { sites, countAtSite } from '../metrics/sites.js';
import { invalidArgType, invalidState } from '../errors.js';

export class WritableStreamDefaultWriterImpl {
  constructor() {
    this.stream = undefined;
    this.ready = undefined;   // LazyDeferred: [[readyPromise]]
    this.closed = undefined;  // LazyDeferred: [[closedPromise]], its promise made when asked for
    this.api = undefined;
  }

  get facade() {
    return this.api ?? new WritableStreamDefaultWriter(kWrap, this);
  }
}

/** AcquireWritableStreamDefaultWriter */
export function AcquireWritableStreamDefaultWriter(stream) {
  const writer = new WritableStreamDefaultWriterImpl();
  SetUpWritableStreamDefaultWriter(writer, stream);
  return writer;
}

/** SetUpWritableStreamDefaultWriter */
export function SetUpWritableStreamDefaultWriter(writer, stream) {
  if (IsWritableStreamLocked(stream)) {
    throw invalidState('WritableStream is locked');
  }
  writer.stream = stream;
  stream.writer = writer;
  const state = stream.state;
  if (state === 'writable') {
    writer.ready = !WritableStreamCloseQueuedOrInFlight(stream) && stream.backpressure
      ? new LazyDeferred()
      : settledLazyDeferred(true);
    writer.closed = new LazyDeferred();
  } else if (state === 'erroring') {
    writer.ready = settledLazyDeferred(false, stream.storedError);
    writer.closed = new LazyDeferred();
  } else if (state === 'closed') {
    writer.ready = settledLazyDeferred(true);
    writer.closed = settledLazyDeferred(true);
  } else {
    writer.ready = settledLazyDeferred(false, stream.storedError);
    writer.closed = settledLazyDeferred(false, stream.storedError);
  }
}

/** WritableStreamDefaultWriterCloseWithErrorPropagation */
export function WritableStreamDefaultWriterCloseWithErrorPropagation(writer) {
  const stream = writer.stream;
  const state = stream.state;
  if (WritableStreamCloseQueuedOrInFlight(stream) || state === 'closed') return promiseResolvedWith(undefined);
  if (state === 'errored') return promiseRejectedWith(stream.storedError);
  return WritableStreamClose(stream);
}

/** WritableStreamDefaultWriterGetDesiredSize */
export function WritableStreamDefaultWriterGetDesiredSize(writer) {
  const stream = writer.stream;
  const state = stream.state;
  if (state === 'errored' || state === 'erroring') return null;
  if (state === 'closed') return 0;
  return WritableStreamDefaultControllerGetDesiredSize(stream.controller);
}

/** WritableStreamDefaultWriterRelease */
export function WritableStreamDefaultWriterRelease(writer) {
  const stream = writer.stream;
  const releasedError = new LazyTypeError('Writer has been released');
  WritableStreamDefaultWriterEnsurePromisesRejectedLazily(writer, releasedError);
  stream.writer = undefined;
  writer.stream = undefined;
}

/** WritableStreamDefaultWriterWrite */
export function WritableStreamDefaultWriterWrite(writer, chunk) {
  const request = new Deferred();
  if (writeWithRequest(writer, chunk, request)) return request.promise;
  const refusal = refusalReason;
  refusalReason = undefined;
  return promiseRejectedWith(refusal);
}

/**
 * WritableStreamDefaultWriterWrite for a writer only we hold (a pipe's): the
 * write request is the caller's own object with resolve/reject methods, so no
 * promise is made per chunk. Returns whether the chunk was queued. A refused
 * write makes no promise at all: the spec marks the pipe's write promises as
 * handled, and the pipe learns of the refusal through its watchers.
 */
export function WritableStreamDefaultWriterWriteTracked(writer, chunk, request) {
  if (writeWithRequest(writer, chunk, request)) return true;
  refusalReason = undefined;
  return false;
}

// Why the last writeWithRequest() refused its chunk; read and cleared by its caller at once.
let refusalReason;

/** The steps of WritableStreamDefaultWriterWrite; returns whether the chunk was queued (else see refusalReason). */
function writeWithRequest(writer, chunk, request) {
  const stream = writer.stream;
  const controller = stream.controller;
  const chunkSize = WritableStreamDefaultControllerGetChunkSize(controller, chunk);
  if (stream !== writer.stream) {
    return refuse(invalidState('Mismatched WritableStreams'));
  }
  const state = stream.state;
  if (state === 'errored') return refuse(stream.storedError);
  if (WritableStreamCloseQueuedOrInFlight(stream) || state === 'closed') {
    return refuse(invalidState('WritableStream is closed'));
  }
  if (state === 'erroring') return refuse(stream.storedError);
  WritableStreamAddWriteRequest(stream, request);
  WritableStreamDefaultControllerWrite(controller, chunk, chunkSize);
  return true;
}

function refuse(reason) {
  refusalReason = reason;
  return false;
}

export class WritableStreamDefaultWriter {
  #impl;

  constructor(stream, impl = undefined) {
    if (stream === kWrap) {
      this.#impl = impl;
      impl.api = this;
      return;
    }
    const streamImpl = unwrapWritableStream(stream);
    if (streamImpl === undefined) {
      throw invalidArgType('stream', 'an instance of WritableStream', stream);
    }
    const writer = new WritableStreamDefaultWriterImpl();
    SetUpWritableStreamDefaultWriter(writer, streamImpl);
    this.#impl = writer;
    writer.api = this;
  }

  get closed() {
    if (!isWriter(this)) return promiseRejectedWith(illegalInvocation('WritableStreamDefaultWriter', 'closed'));
    return this.#impl.closed.promise;
  }

  get desiredSize() {
    if (!isWriter(this)) throw illegalInvocation('WritableStreamDefaultWriter', 'desiredSize');
    const writer = this.#impl;
    if (writer.stream === undefined) throw invalidState('Writer is not bound to a WritableStream');
    return WritableStreamDefaultWriterGetDesiredSize(writer);
  }

  get ready() {
    if (!isWriter(this)) return promiseRejectedWith(illegalInvocation('WritableStreamDefaultWriter', 'ready'));
    return this.#impl.ready.promise;
  }

  abort(reason = undefined) {
    if (!isWriter(this)) return promiseRejectedWith(illegalInvocation('WritableStreamDefaultWriter', 'abort'));
    const writer = this.#impl;
    if (writer.stream === undefined) return promiseRejectedWith(invalidState('Writer is not bound to a WritableStream'));
    return WritableStreamAbort(writer.stream, reason);
  }

  close() {
    if (!isWriter(this)) return promiseRejectedWith(illegalInvocation('WritableStreamDefaultWriter', 'close'));
    const writer = this.#impl;
    const stream = writer.stream;
    if (stream === undefined) return promiseRejectedWith(invalidState('Writer is not bound to a WritableStream'));
    if (WritableStreamCloseQueuedOrInFlight(stream)) {
      return promiseRejectedWith(invalidState('Failure to close WritableStream'));
    }
    return WritableStreamClose(stream);
  }

  releaseLock() {
    if (!isWriter(this)) throw illegalInvocation('WritableStreamDefaultWriter', 'releaseLock');
    const writer = this.#impl;
    if (writer.stream === undefined) return;
    WritableStreamDefaultWriterRelease(writer);
  }

  write(chunk = undefined) {
    if (!isWriter(this)) return promiseRejectedWith(illegalInvocation('WritableStreamDefaultWriter', 'write'));
    const writer = this.#impl;
    if (writer.stream === undefined) return promiseRejectedWith(invalidState('Writer is not bound to a WritableStream'));
    counters.specWrites++; // the caller holds the promise and can watch desiredSize: always the spec path
    if (sites.on) countAtSite(writer.stream, 'specWrites');
    return WritableStreamDefaultWriterWrite(writer, chunk);
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #impl in value;
  }
  static unwrap(value) { return #impl in value ? value.#impl : undefined; }
}
const isWriter = WritableStreamDefaultWriter.isInstance;
delete WritableStreamDefaultWriter.isInstance;
/** The internal record of a public WritableStreamDefaultWriter, or undefined (for util.inspect, src/inspect.js). */
export const unwrapWriter = WritableStreamDefaultWriter.unwrap;
delete WritableStreamDefaultWriter.unwrap;
defineInterface(WritableStreamDefaultWriter, 'WritableStreamDefaultWriter',
  ['closed', 'desiredSize', 'ready', 'abort', 'close', 'releaseLock', 'write']);
