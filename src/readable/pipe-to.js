// ReadableStreamPipeTo (spec 4.9.1) and the StreamPipeOptions dictionary.
// The spec describes piping "in parallel"; this is one faithful ordering:
// wait for the writer to be ready, read one chunk, write it, repeat, while
// watchers on both streams' closed promises apply the four propagation rules.
import {
  ReflectApply, queueMicrotask, abortSignalAborted, abortSignalReason, isAbortSignal,
  EventTargetAddEventListener, EventTargetRemoveEventListener,
} from '../intrinsics.js';
import { Deferred, promiseResolvedWith, reactToPromise, uponPromise } from '../promise.js';
import { requireDictionary, getMember, typeError } from '../webidl.js';
import { ReadableStreamCancel } from './stream-ops.js';
import {
  AcquireReadableStreamDefaultReader, ReadableStreamDefaultReaderRead, ReadableStreamDefaultReaderRelease,
} from './default-reader.js';
import { WritableStreamAbort, WritableStreamCloseQueuedOrInFlight } from '../writable/stream-ops.js';
import {
  AcquireWritableStreamDefaultWriter, WritableStreamDefaultWriterWrite, WritableStreamDefaultWriterRelease,
  WritableStreamDefaultWriterCloseWithErrorPropagation,
} from '../writable/default-writer.js';

/** Converts StreamPipeOptions (members in WebIDL order). */
export function convertPipeOptions(options, context) {
  requireDictionary(options, `${context}: argument 'options'`);
  const preventAbort = !!getMember(options, 'preventAbort');
  const preventCancel = !!getMember(options, 'preventCancel');
  const preventClose = !!getMember(options, 'preventClose');
  const signal = getMember(options, 'signal');
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw typeError(`${context}: 'signal' member of StreamPipeOptions is not an AbortSignal`);
  }
  return { preventAbort, preventCancel, preventClose, signal };
}

function noop() {}

class PipeState {
  constructor(source, dest, preventClose, preventAbort, preventCancel, signal) {
    this.source = source;
    this.dest = dest;
    this.reader = AcquireReadableStreamDefaultReader(source);
    this.writer = AcquireWritableStreamDefaultWriter(dest);
    this.preventClose = preventClose;
    this.preventAbort = preventAbort;
    this.preventCancel = preventCancel;
    this.signal = signal;
    this.abortAlgorithm = undefined;
    this.shuttingDown = false;
    this.currentWrite = promiseResolvedWith(undefined);
    this.result = new Deferred();
    this.readRequest = new PipeReadRequest(this);
    this.pendingChunk = undefined;
    this.hasPendingChunk = false;
    this.writePendingChunk = () => {
      if (writePendingChunk(this)) pipeLoop(this);
    };
  }
}

/** Writes the chunk read but not yet written, if any; returns whether there was one. */
function writePendingChunk(pipe) {
  if (!pipe.hasPendingChunk) return false;
  const chunk = pipe.pendingChunk;
  pipe.pendingChunk = undefined;
  pipe.hasPendingChunk = false;
  pipe.currentWrite = uponPromise(WritableStreamDefaultWriterWrite(pipe.writer, chunk), undefined, noop);
  return true;
}

/** The read request the pipe issues for each chunk. */
class PipeReadRequest {
  constructor(pipe) {
    this.pipe = pipe;
  }

  chunkSteps(chunk) {
    // The chunk may arrive synchronously inside the producer's enqueue(); the
    // sink must not run there, so the write happens in a microtask. Until
    // then it is "read but not yet written", which shutdown flushes first.
    const pipe = this.pipe;
    pipe.pendingChunk = chunk;
    pipe.hasPendingChunk = true;
    queueMicrotask(pipe.writePendingChunk);
  }

  closeSteps() {} // the source-closed watcher handles it

  errorSteps() {} // the source-errored watcher handles it
}

/** ReadableStreamPipeTo: returns the promise pipeTo() hands out. */
export function ReadableStreamPipeTo(source, dest, preventClose, preventAbort, preventCancel, signal) {
  const pipe = new PipeState(source, dest, preventClose, preventAbort, preventCancel, signal);
  source.disturbed = true;

  if (signal !== undefined) {
    const abortAlgorithm = () => abortPipe(pipe);
    if (abortSignalAborted(signal)) {
      abortAlgorithm();
      return pipe.result.promise;
    }
    pipe.abortAlgorithm = abortAlgorithm;
    ReflectApply(EventTargetAddEventListener, signal, ['abort', abortAlgorithm]);
  }

  // Errors must be propagated forward.
  if (source.state === 'errored') {
    sourceErrored(pipe);
  } else {
    reactToPromise(pipe.reader.closed.promise, undefined, () => sourceErrored(pipe));
  }
  // Errors must be propagated backward.
  if (dest.state === 'errored') {
    destErrored(pipe);
  } else {
    reactToPromise(pipe.writer.closed.promise, undefined, () => destErrored(pipe));
  }
  // Closing must be propagated forward.
  if (source.state === 'closed') {
    sourceClosed(pipe);
  } else {
    reactToPromise(pipe.reader.closed.promise, () => sourceClosed(pipe));
  }
  // Closing must be propagated backward.
  if (WritableStreamCloseQueuedOrInFlight(dest) || dest.state === 'closed') {
    destClosed(pipe);
  }

  pipeLoop(pipe);
  return pipe.result.promise;
}

function pipeLoop(pipe) {
  if (pipe.shuttingDown) return;
  // Backpressure: read the next chunk only once the destination is ready.
  reactToPromise(pipe.writer.ready.promise, () => {
    if (pipe.shuttingDown) return;
    ReadableStreamDefaultReaderRead(pipe.reader, pipe.readRequest);
  }, noop);
}

function sourceErrored(pipe) {
  const storedError = pipe.source.storedError;
  if (!pipe.preventAbort) {
    shutdownWithAction(pipe, () => WritableStreamAbort(pipe.dest, storedError), true, storedError);
  } else {
    shutdown(pipe, true, storedError);
  }
}

function destErrored(pipe) {
  const storedError = pipe.dest.storedError;
  if (!pipe.preventCancel) {
    shutdownWithAction(pipe, () => ReadableStreamCancel(pipe.source, storedError), true, storedError);
  } else {
    shutdown(pipe, true, storedError);
  }
}

function sourceClosed(pipe) {
  if (!pipe.preventClose) {
    shutdownWithAction(pipe, () => WritableStreamDefaultWriterCloseWithErrorPropagation(pipe.writer), false);
  } else {
    shutdown(pipe, false);
  }
}

function destClosed(pipe) {
  const destClosedError = typeError('The destination WritableStream closed before the pipe finished');
  if (!pipe.preventCancel) {
    shutdownWithAction(pipe, () => ReadableStreamCancel(pipe.source, destClosedError), true, destClosedError);
  } else {
    shutdown(pipe, true, destClosedError);
  }
}

function abortPipe(pipe) {
  const error = abortSignalReason(pipe.signal);
  const { source, dest } = pipe;
  const action = () => {
    const promises = [];
    if (!pipe.preventAbort) {
      promises.push(dest.state === 'writable' ? WritableStreamAbort(dest, error) : promiseResolvedWith(undefined));
    }
    if (!pipe.preventCancel) {
      promises.push(source.state === 'readable' ? ReadableStreamCancel(source, error) : promiseResolvedWith(undefined));
    }
    return waitForAll(promises);
  };
  shutdownWithAction(pipe, action, true, error);
}

/** "Getting a promise to wait for all" of the given promises, without the (patchable) Promise.all. */
function waitForAll(promises) {
  const all = new Deferred();
  let remaining = promises.length;
  if (remaining === 0) {
    all.resolve(undefined);
    return all.promise;
  }
  for (let i = 0; i < promises.length; i++) {
    reactToPromise(promises[i], () => {
      if (--remaining === 0) all.resolve(undefined);
    }, (e) => all.reject(e));
  }
  return all.promise;
}

/** Waits until every chunk that has been read has been written. */
function waitForWritesToFinish(pipe) {
  const oldCurrentWrite = pipe.currentWrite;
  return uponPromise(oldCurrentWrite,
    () => (oldCurrentWrite !== pipe.currentWrite ? waitForWritesToFinish(pipe) : undefined));
}

function dropPendingChunk(pipe) {
  pipe.pendingChunk = undefined;
  pipe.hasPendingChunk = false;
}

function destIsWritableAndOpen(pipe) {
  return pipe.dest.state === 'writable' && !WritableStreamCloseQueuedOrInFlight(pipe.dest);
}

/** "Shutdown with an action" */
function shutdownWithAction(pipe, action, hasError, originalError) {
  if (pipe.shuttingDown) return;
  pipe.shuttingDown = true;
  const doTheRest = () => {
    reactToPromise(action(),
      () => finalize(pipe, hasError, originalError),
      (newError) => finalize(pipe, true, newError));
  };
  if (destIsWritableAndOpen(pipe)) {
    writePendingChunk(pipe);
    reactToPromise(waitForWritesToFinish(pipe), doTheRest);
  } else {
    dropPendingChunk(pipe);
    doTheRest();
  }
}

/** "Shutdown" */
function shutdown(pipe, hasError, error) {
  if (pipe.shuttingDown) return;
  pipe.shuttingDown = true;
  if (destIsWritableAndOpen(pipe)) {
    writePendingChunk(pipe);
    reactToPromise(waitForWritesToFinish(pipe), () => finalize(pipe, hasError, error));
  } else {
    dropPendingChunk(pipe);
    finalize(pipe, hasError, error);
  }
}

/** "Finalize" */
function finalize(pipe, hasError, error) {
  WritableStreamDefaultWriterRelease(pipe.writer);
  ReadableStreamDefaultReaderRelease(pipe.reader);
  if (pipe.abortAlgorithm !== undefined) {
    ReflectApply(EventTargetRemoveEventListener, pipe.signal, ['abort', pipe.abortAlgorithm]);
  }
  if (hasError) {
    pipe.result.reject(error);
  } else {
    pipe.result.resolve(undefined);
  }
}
