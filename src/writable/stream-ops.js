// The WritableStream state machine: the internal record of a stream and the
// abstract operations of spec section 5.5.1/5.5.2 that act on streams and writers.
import { Deferred, LazyDeferred, promiseResolvedWith, promiseRejectedWith, reactToPromise } from '../promise.js';
import { emptyQueue, pushOwned } from '../queue.js';
import { invalidState } from '../errors.js';

export class WritableStreamImpl {
  constructor() {
    this.state = 'writable';  // 'writable' | 'closed' | 'erroring' | 'errored'
    this.storedError = undefined;
    this.writer = undefined;
    this.controller = undefined;
    this.inFlightWriteRequest = undefined;   // Deferred
    this.closeRequest = undefined;           // Deferred
    this.inFlightCloseRequest = undefined;   // Deferred
    this.pendingAbortRequest = undefined;    // PendingAbortRequest
    this.writeRequests = emptyQueue;         // of Deferred; its own RingQueue from the first request
    this.backpressure = false;
    this.transform = undefined;              // the TransformStreamImpl whose writable side this is
    this.api = undefined;
  }
}

class PendingAbortRequest {
  constructor(reason, wasAlreadyErroring) {
    this.deferred = new Deferred();
    this.reason = reason;
    this.wasAlreadyErroring = wasAlreadyErroring;
  }
}

/** IsWritableStreamLocked */
export function IsWritableStreamLocked(stream) {
  return stream.writer !== undefined;
}

/** WritableStreamAbort */
export function WritableStreamAbort(stream, reason) {
  if (stream.state === 'closed' || stream.state === 'errored') return promiseResolvedWith(undefined);
  stream.controller.signalAbort(reason);
  // Abort listeners run synchronously above and may have changed the state.
  const state = stream.state;
  if (state === 'closed' || state === 'errored') return promiseResolvedWith(undefined);
  if (stream.pendingAbortRequest !== undefined) return stream.pendingAbortRequest.deferred.promise;
  let wasAlreadyErroring = false;
  if (state === 'erroring') {
    wasAlreadyErroring = true;
    reason = undefined;
  }
  const request = new PendingAbortRequest(reason, wasAlreadyErroring);
  stream.pendingAbortRequest = request;
  if (!wasAlreadyErroring) WritableStreamStartErroring(stream, reason);
  return request.deferred.promise;
}

/** WritableStreamClose */
export function WritableStreamClose(stream) {
  const state = stream.state;
  if (state === 'closed' || state === 'errored') {
    return promiseRejectedWith(invalidState('WritableStream is closed'));
  }
  const closeRequest = new Deferred();
  stream.closeRequest = closeRequest;
  const writer = stream.writer;
  if (writer !== undefined && stream.backpressure && state === 'writable') {
    writer.ready.resolve(undefined);
  }
  stream.controller.closeSteps();
  return closeRequest.promise;
}

/** WritableStreamAddWriteRequest (the caller makes the request: a Deferred, or a pipe's own tracker) */
export function WritableStreamAddWriteRequest(stream, request) {
  stream.writeRequests = pushOwned(stream.writeRequests, request);
}

/** WritableStreamCloseQueuedOrInFlight */
export function WritableStreamCloseQueuedOrInFlight(stream) {
  return stream.closeRequest !== undefined || stream.inFlightCloseRequest !== undefined;
}

/** WritableStreamDealWithRejection */
export function WritableStreamDealWithRejection(stream, error) {
  if (stream.state === 'writable') {
    WritableStreamStartErroring(stream, error);
    return;
  }
  WritableStreamFinishErroring(stream);
}

/** WritableStreamFinishErroring */
export function WritableStreamFinishErroring(stream) {
  stream.state = 'errored';
  stream.controller.errorSteps();
  const storedError = stream.storedError;
  const requests = stream.writeRequests;
  stream.writeRequests = emptyQueue;
  while (requests.length > 0) requests.shift().reject(storedError);
  const abortRequest = stream.pendingAbortRequest;
  if (abortRequest === undefined) {
    WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  stream.pendingAbortRequest = undefined;
  if (abortRequest.wasAlreadyErroring) {
    abortRequest.deferred.reject(storedError);
    WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
    return;
  }
  const promise = stream.controller.abortSteps(abortRequest.reason);
  reactToPromise(promise, () => {
    abortRequest.deferred.resolve(undefined);
    WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
  }, (reason) => {
    abortRequest.deferred.reject(reason);
    WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream);
  });
}

/** WritableStreamFinishInFlightClose */
export function WritableStreamFinishInFlightClose(stream) {
  stream.inFlightCloseRequest.resolve(undefined);
  stream.inFlightCloseRequest = undefined;
  if (stream.state === 'erroring') {
    stream.storedError = undefined;
    if (stream.pendingAbortRequest !== undefined) {
      stream.pendingAbortRequest.deferred.resolve(undefined);
      stream.pendingAbortRequest = undefined;
    }
  }
  stream.state = 'closed';
  const writer = stream.writer;
  if (writer !== undefined) writer.closed.resolve(undefined);
}

/** WritableStreamFinishInFlightCloseWithError */
export function WritableStreamFinishInFlightCloseWithError(stream, error) {
  stream.inFlightCloseRequest.reject(error);
  stream.inFlightCloseRequest = undefined;
  if (stream.pendingAbortRequest !== undefined) {
    stream.pendingAbortRequest.deferred.reject(error);
    stream.pendingAbortRequest = undefined;
  }
  WritableStreamDealWithRejection(stream, error);
}

/** WritableStreamFinishInFlightWrite */
export function WritableStreamFinishInFlightWrite(stream) {
  stream.inFlightWriteRequest.resolve(undefined);
  stream.inFlightWriteRequest = undefined;
}

/** WritableStreamFinishInFlightWriteWithError */
export function WritableStreamFinishInFlightWriteWithError(stream, error) {
  stream.inFlightWriteRequest.reject(error);
  stream.inFlightWriteRequest = undefined;
  WritableStreamDealWithRejection(stream, error);
}

/** WritableStreamHasOperationMarkedInFlight */
export function WritableStreamHasOperationMarkedInFlight(stream) {
  return stream.inFlightWriteRequest !== undefined || stream.inFlightCloseRequest !== undefined;
}

/** WritableStreamMarkCloseRequestInFlight */
export function WritableStreamMarkCloseRequestInFlight(stream) {
  stream.inFlightCloseRequest = stream.closeRequest;
  stream.closeRequest = undefined;
}

/** WritableStreamMarkFirstWriteRequestInFlight */
export function WritableStreamMarkFirstWriteRequestInFlight(stream) {
  stream.inFlightWriteRequest = stream.writeRequests.shift();
}

/** WritableStreamRejectCloseAndClosedPromiseIfNeeded */
export function WritableStreamRejectCloseAndClosedPromiseIfNeeded(stream) {
  if (stream.closeRequest !== undefined) {
    stream.closeRequest.reject(stream.storedError);
    stream.closeRequest = undefined;
  }
  const writer = stream.writer;
  if (writer !== undefined) writer.closed.reject(stream.storedError); // marked as handled
}

/** WritableStreamStartErroring */
export function WritableStreamStartErroring(stream, reason) {
  const controller = stream.controller;
  stream.state = 'erroring';
  stream.storedError = reason;
  const writer = stream.writer;
  if (writer !== undefined) WritableStreamDefaultWriterEnsureReadyPromiseRejected(writer, reason);
  if (!WritableStreamHasOperationMarkedInFlight(stream) && controller.started) {
    WritableStreamFinishErroring(stream);
  }
}

/** WritableStreamUpdateBackpressure */
export function WritableStreamUpdateBackpressure(stream, backpressure) {
  const writer = stream.writer;
  if (writer !== undefined && backpressure !== stream.backpressure) {
    if (backpressure) {
      writer.ready = new LazyDeferred();
    } else {
      writer.ready.resolve(undefined);
    }
  }
  stream.backpressure = backpressure;
}

/** WritableStreamDefaultWriterEnsureReadyPromiseRejected */
export function WritableStreamDefaultWriterEnsureReadyPromiseRejected(writer, error) {
  pendingReady(writer).reject(error); // marked as handled
}

/**
 * WritableStreamDefaultWriterEnsureReadyPromiseRejected and
 * WritableStreamDefaultWriterEnsureClosedPromiseRejected (whose only caller is
 * WritableStreamDefaultWriterRelease) with its releasedError, a TypeError made
 * only if one of the two promises is ever looked at.
 */
export function WritableStreamDefaultWriterEnsurePromisesRejectedLazily(writer, lazyError) {
  pendingReady(writer).rejectWithLazyError(lazyError);
  pendingClosed(writer).rejectWithLazyError(lazyError);
}

// The first step of each: a promise already settled is replaced by a new one.
function pendingReady(writer) {
  if (!writer.ready.pending) writer.ready = new LazyDeferred();
  return writer.ready;
}

function pendingClosed(writer) {
  if (!writer.closed.pending) writer.closed = new LazyDeferred();
  return writer.closed;
}
