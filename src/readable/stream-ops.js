// The ReadableStream state machine: the internal record that holds a stream's
// slots, and the abstract operations of spec section 4.9 that act on it
// ("Interfacing with controllers", "Readers"). The public class in
// readable-stream.js is only a facade over a ReadableStreamImpl.
import { emptyQueue, pushOwned } from '../queue.js';
import { LazyDeferred, LazyTypeError, promiseResolvedWith, promiseRejectedWith, uponPromise, returnUndefined } from '../promise.js';
import { tiers } from '../tiers.js';

export class ReadableStreamImpl {
  constructor() {
    this.state = 'readable';   // 'readable' | 'closed' | 'errored'
    this.storedError = undefined;
    this.disturbed = false;
    this.reader = undefined;   // a ReadableStreamDefaultReaderImpl or ReadableStreamBYOBReaderImpl
    this.controller = undefined;
    this.transform = undefined; // the TransformStreamImpl whose readable side this is
    // The one fast-path slot: the pipe pump reading this stream
    // (src/fast/pipe-pump.js), while a pipe runs.
    this.pump = undefined;
    // A Deferred settled when the stream closes or errors, made only for a
    // stream handed to Node's finished()/pipeline() (its isClosedPromise
    // symbol, src/bridge/node-symbols.js). Every fetch body is one: undici
    // watches it with finished().
    this.closedWatcher = undefined;
    this.api = undefined;      // the public ReadableStream, created on demand
  }
}

/** IsReadableStreamLocked */
export function IsReadableStreamLocked(stream) {
  return stream.reader !== undefined;
}

/** ReadableStreamCancel */
export function ReadableStreamCancel(stream, reason) {
  stream.disturbed = true;
  if (stream.state === 'closed') return promiseResolvedWith(undefined);
  if (stream.state === 'errored') return promiseRejectedWith(stream.storedError);
  ReadableStreamClose(stream);
  const reader = stream.reader;
  if (reader !== undefined && reader.isBYOB) {
    const requests = reader.readIntoRequests;
    reader.readIntoRequests = requests.length === 0 ? requests : newRequestQueue();
    while (requests.length > 0) requests.shift().closeSteps(undefined);
  }
  const sourceCancelPromise = stream.controller.cancelSteps(reason);
  return uponPromise(sourceCancelPromise, returnUndefined);
}

/** ReadableStreamClose */
export function ReadableStreamClose(stream) {
  stream.state = 'closed';
  if (stream.pump !== undefined) tiers.pumpSourceEnded(stream.pump);
  const watcher = stream.closedWatcher;
  if (watcher !== undefined) watcher.resolve(undefined);
  const reader = stream.reader;
  if (reader === undefined) return;
  // An unobserved [[closedPromise]] is made later, from the state, if at all.
  if (reader.closedDeferred !== undefined) reader.closedDeferred.resolve(undefined);
  if (!reader.isBYOB) {
    const requests = reader.readRequests;
    if (requests.length === 0) return;
    reader.readRequests = newRequestQueue();
    while (requests.length > 0) requests.shift().closeSteps();
  }
}

/** ReadableStreamError */
export function ReadableStreamError(stream, e) {
  stream.state = 'errored';
  stream.storedError = e;
  if (stream.pump !== undefined) tiers.pumpSourceEnded(stream.pump);
  const watcher = stream.closedWatcher;
  if (watcher !== undefined) watcher.reject(e); // marked as handled
  const reader = stream.reader;
  if (reader === undefined) return;
  if (reader.closedDeferred !== undefined) reader.closedDeferred.reject(e); // marked as handled
  if (reader.isBYOB) {
    ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e);
  } else {
    ReadableStreamDefaultReaderErrorReadRequests(reader, e);
  }
}

/** ReadableStreamAddReadRequest */
export function ReadableStreamAddReadRequest(stream, readRequest) {
  const reader = stream.reader;
  reader.readRequests = pushOwned(reader.readRequests, readRequest);
}

/** ReadableStreamFulfillReadRequest */
export function ReadableStreamFulfillReadRequest(stream, chunk, done) {
  const readRequest = stream.reader.readRequests.shift();
  if (done) {
    readRequest.closeSteps();
  } else {
    readRequest.chunkSteps(chunk);
  }
}

/** ReadableStreamGetNumReadRequests */
export function ReadableStreamGetNumReadRequests(stream) {
  return stream.reader.readRequests.length;
}

/** ReadableStreamHasDefaultReader */
export function ReadableStreamHasDefaultReader(stream) {
  const reader = stream.reader;
  return reader !== undefined && !reader.isBYOB;
}

/** ReadableStreamAddReadIntoRequest */
export function ReadableStreamAddReadIntoRequest(stream, readIntoRequest) {
  const reader = stream.reader;
  reader.readIntoRequests = pushOwned(reader.readIntoRequests, readIntoRequest);
}

/** ReadableStreamFulfillReadIntoRequest */
export function ReadableStreamFulfillReadIntoRequest(stream, chunk, done) {
  const readIntoRequest = stream.reader.readIntoRequests.shift();
  if (done) {
    readIntoRequest.closeSteps(chunk);
  } else {
    readIntoRequest.chunkSteps(chunk);
  }
}

/** ReadableStreamGetNumReadIntoRequests */
export function ReadableStreamGetNumReadIntoRequests(stream) {
  return stream.reader.readIntoRequests.length;
}

/** ReadableStreamHasBYOBReader */
export function ReadableStreamHasBYOBReader(stream) {
  const reader = stream.reader;
  return reader !== undefined && reader.isBYOB;
}

// ----- Readers (generic part, spec 4.9.3 / 4.9.4) -----

/** ReadableStreamReaderGenericInitialize */
export function ReadableStreamReaderGenericInitialize(reader, stream) {
  reader.stream = stream;
  stream.reader = reader;
  // [[closedPromise]]: while the reader is attached, its state follows the
  // stream's, so the record is made only when someone asks for it (see
  // ReadableStreamReaderClosed); until then closing or erroring the stream
  // has nothing to settle.
  reader.closedDeferred = undefined;
}

/**
 * A reader's [[closedPromise]] record (a LazyDeferred: its promise too is made
 * only if someone asks; every rejection of it is marked as handled), made on
 * first use from the state of the stream the reader is attached to.
 */
export function ReadableStreamReaderClosed(reader) {
  let closed = reader.closedDeferred;
  if (closed === undefined) {
    closed = new LazyDeferred();
    const stream = reader.stream;
    if (stream.state === 'closed') {
      closed.resolve(undefined);
    } else if (stream.state === 'errored') {
      closed.reject(stream.storedError);
    }
    reader.closedDeferred = closed;
  }
  return closed;
}

/** ReadableStreamReaderGenericCancel */
export function ReadableStreamReaderGenericCancel(reader, reason) {
  return ReadableStreamCancel(reader.stream, reason);
}

/** ReadableStreamReaderGenericRelease */
export function ReadableStreamReaderGenericRelease(reader) {
  const stream = reader.stream;
  const error = new LazyTypeError('Reader released');
  if (stream.state === 'readable' && reader.closedDeferred !== undefined) {
    reader.closedDeferred.rejectWithLazyError(error);
  } else {
    const closed = new LazyDeferred();
    closed.rejectWithLazyError(error);
    reader.closedDeferred = closed;
  }
  stream.controller.releaseSteps();
  stream.reader = undefined;
  reader.stream = undefined;
}

/** ReadableStreamDefaultReaderErrorReadRequests */
export function ReadableStreamDefaultReaderErrorReadRequests(reader, e) {
  const requests = reader.readRequests;
  if (requests.length === 0) return;
  reader.readRequests = newRequestQueue();
  while (requests.length > 0) requests.shift().errorSteps(e);
}

/** ReadableStreamBYOBReaderErrorReadIntoRequests */
export function ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e) {
  const requests = reader.readIntoRequests;
  if (requests.length === 0) return;
  reader.readIntoRequests = newRequestQueue();
  while (requests.length > 0) requests.shift().errorSteps(e);
}

/** An empty FIFO for read requests or read-into requests (shared until a request is added). */
export function newRequestQueue() {
  return emptyQueue;
}
