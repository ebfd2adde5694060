// ReadableStreamPipeTo (spec 4.9.1) and the StreamPipeOptions dictionary:
// the reader and writer the pipe holds, the four propagation rules (watchers
// on both streams' closed promises and the abort signal), shutdown and
// finalize. How chunks move while the pipe runs (the spec's "in parallel"
// loop: wait for the writer to be ready, read a chunk, write it) is the
// pipe's pump: the one the fast paths plug in (src/fast/pipe-pump.js, which
// also fuses pipeThrough chains), or else the spec's loop (pipe-loop.js).
import {
  ReflectApply, abortSignalAborted, abortSignalReason, isAbortSignal,
  EventTargetAddEventListener, EventTargetRemoveEventListener,
} from '../intrinsics.js';
import { Deferred, promiseResolvedWith, reactToPromise } from '../promise.js';
import { tiers } from '../tiers.js';
import { PipeLoop } from './pipe-loop.js';
import { requireDictionary, getMember } from '../webidl.js';
import { ReadableStreamCancel } from './stream-ops.js';
import { AcquireReadableStreamDefaultReader, ReadableStreamDefaultReaderRelease } from './default-reader.js';
import { WritableStreamAbort, WritableStreamCloseQueuedOrInFlight } from '../writable/stream-ops.js';
import { AcquireWritableStreamDefaultWriter, WritableStreamDefaultWriterRelease } from '../writable/default-writer.js';
import { invalidArgType, invalidState } from '../errors.js';

/** Converts StreamPipeOptions (members in WebIDL order). */
export function convertPipeOptions(options) {
  requireDictionary(options, 'options');
  const preventAbort = !!getMember(options, 'preventAbort');
  const preventCancel = !!getMember(options, 'preventCancel');
  const preventClose = !!getMember(options, 'preventClose');
  const signal = getMember(options, 'signal');
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw invalidArgType('options.signal', 'an instance of AbortSignal', signal);
  }
  return { preventAbort, preventCancel, preventClose, signal };
}

/** A pipe: what the spec's ReadableStreamPipeTo holds while it runs. */
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
    this.finalized = false; // the reader and writer are released
    this.result = new Deferred();
    // The chunks read and written: src/fast/pipe-pump.js's pump, linked
    // into the chain it belongs to, or the spec's loop.
    const createPipePump = tiers.createPipePump;
    this.pump = createPipePump === undefined ? new PipeLoop(this) : createPipePump(this);
  }
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

  // The reader's and the writer's [[closedPromise]] are watched without
  // making the promises (LazyDeferred.onSettled): same timing as reactions,
  // and only the pipe holds that reader and writer.
  const sourceState = source.state;
  // Errors must be propagated forward, and closing too (below).
  if (sourceState === 'errored') {
    sourceErrored(pipe);
  } else if (sourceState === 'readable') {
    pipe.reader.closed.onSettled(() => sourceClosed(pipe), () => sourceErrored(pipe));
  }
  // Errors must be propagated backward.
  if (dest.state === 'errored') {
    destErrored(pipe);
  } else {
    pipe.writer.closed.onSettled(undefined, () => destErrored(pipe));
  }
  // Closing must be propagated forward.
  if (source.state === 'closed') sourceClosed(pipe);
  // Closing must be propagated backward.
  if (WritableStreamCloseQueuedOrInFlight(dest) || dest.state === 'closed') {
    destClosed(pipe);
  }

  // The first read goes out inside pipeTo(), as natively (Node 24+) and in the
  // reference implementation: a read issued a microtask later would find the
  // source's first pull in progress and ask for one more.
  pipe.pump.start();
  return pipe.result.promise;
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
    shutdownWithAction(pipe, () => pipe.pump.closeDestination(), false);
  } else {
    shutdown(pipe, false);
  }
}

function destClosed(pipe) {
  const destClosedError = invalidState('Destination WritableStream is closed');
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
      promises[promises.length] = dest.state === 'writable' ? WritableStreamAbort(dest, error) : promiseResolvedWith(undefined);
    }
    if (!pipe.preventCancel) {
      promises[promises.length] = source.state === 'readable' ? ReadableStreamCancel(source, error) : promiseResolvedWith(undefined);
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
    pipe.pump.flushPendingChunk();
    reactToPromise(pipe.pump.waitForWritesToFinish(), doTheRest);
  } else {
    pipe.pump.dropPendingChunk();
    doTheRest();
  }
}

/** "Shutdown" */
function shutdown(pipe, hasError, error) {
  if (pipe.shuttingDown) return;
  pipe.shuttingDown = true;
  if (destIsWritableAndOpen(pipe)) {
    pipe.pump.flushPendingChunk();
    reactToPromise(pipe.pump.waitForWritesToFinish(), () => finalize(pipe, hasError, error));
  } else {
    pipe.pump.dropPendingChunk();
    finalize(pipe, hasError, error);
  }
}

/** "Finalize" */
function finalize(pipe, hasError, error) {
  pipe.finalized = true;
  pipe.pump.finalize();
  // The watchers have nothing left to do (shuttingDown is set): drop them
  // rather than let the releases below queue them.
  pipe.reader.closed.unwatch();
  pipe.writer.closed.unwatch();
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
