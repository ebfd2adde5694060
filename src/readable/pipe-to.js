// ReadableStreamPipeTo (spec 4.9.1) and the StreamPipeOptions dictionary.
// The spec describes piping "in parallel"; this is one faithful ordering:
// wait for the writer to be ready, read one chunk, write it, repeat, while
// watchers on both streams' closed promises apply the four propagation rules.
// Tier 1 here: while the destination has no backpressure and the source has
// chunks queued, the loop reads and writes them in one go, and the writes it
// issues carry one reusable request object instead of a promise each.
// Tier 0: pipes that meet at a TransformStream (a pipeThrough chain) form one
// pump. A pipe writes into an idle transform directly (direct-write.js), and
// when that transform() hands a chunk to the next pipe's pending read, the
// next pipe runs as soon as transform() returns instead of a microtask later,
// so a chunk crosses the whole chain in one go.
import {
  ReflectApply, abortSignalAborted, abortSignalReason, isAbortSignal,
  EventTargetAddEventListener, EventTargetRemoveEventListener,
} from '../intrinsics.js';
import { Deferred, enqueueMicrotask, promiseResolvedWith, reactToPromise } from '../promise.js';
import { counters, countFallback } from '../metrics/counters.js';
import { canWriteDirectly, writeDirectly } from '../writable/direct-write.js';
import { requireDictionary, getMember } from '../webidl.js';
import { ReadableStreamCancel } from './stream-ops.js';
import {
  AcquireReadableStreamDefaultReader, ReadableStreamDefaultReaderRead, ReadableStreamDefaultReaderRelease,
} from './default-reader.js';
import { WritableStreamAbort, WritableStreamCloseQueuedOrInFlight } from '../writable/stream-ops.js';
import {
  AcquireWritableStreamDefaultWriter, WritableStreamDefaultWriterWriteTracked, WritableStreamDefaultWriterRelease,
  WritableStreamDefaultWriterCloseWithErrorPropagation,
} from '../writable/default-writer.js';
import { invalidArgType, invalidState } from '../errors.js';

/** Converts StreamPipeOptions (members in WebIDL order). */
export function convertPipeOptions(options, context) {
  requireDictionary(options, `${context}: argument 'options'`);
  const preventAbort = !!getMember(options, 'preventAbort');
  const preventCancel = !!getMember(options, 'preventCancel');
  const preventClose = !!getMember(options, 'preventClose');
  const signal = getMember(options, 'signal');
  if (signal !== undefined && !isAbortSignal(signal)) {
    throw invalidArgType(`${context}: 'signal' member of StreamPipeOptions is not an AbortSignal`);
  }
  return { preventAbort, preventCancel, preventClose, signal };
}

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
    this.result = new Deferred();
    this.readRequest = new PipeReadRequest(this);
    this.writeRequest = new PipeWriteRequest(this);
    this.writesInFlight = 0; // writes issued whose request has not settled yet
    this.writesFinished = undefined; // Deferred, while shutdown waits for them
    this.pendingChunk = undefined;
    this.hasPendingChunk = false;
    this.reading = false; // inside pipeLoop's own read: a chunk can be written at once
    this.stepRequested = false; // a chunk arrived during the upstream pipe's direct transform
    // The pending read was issued while the source's pull() was in progress.
    // Native pipes read a few microtasks after a write, when that pull has
    // settled; ours reads at once, so its request for a pull merges with one
    // the pull's own enqueue() made. If the pull that follows enqueues
    // nothing, the read would wait forever where native's would pull again:
    // the source's controller asks for that pull when its pull settles
    // (wakePipeAfterPull in default-controller.js).
    this.readDuringPull = false;
    this.step = () => {
      writePendingChunk(this);
      pipeLoop(this);
    };
  }

  /** Runs the step a chunk handed over while its producer ran asked for (stepRequested). */
  stepIfRequested() {
    if (!this.stepRequested) return;
    this.stepRequested = false;
    this.step();
  }
}

/** Links the pipes that meet at a TransformStream into one chain (tier 0). */
function linkChain(pipe) {
  pipe.source.pipe = pipe;
  const fed = pipe.dest.transform;
  if (fed !== undefined) fed.inPipe = pipe;
  const drained = pipe.source.transform;
  if (drained !== undefined) {
    drained.outPipe = pipe;
    if (drained.inPipe !== undefined) {
      counters.fusedStreams++;
      if (fed === undefined) counters.fusedChains++; // the chain is resolved at its sink
    }
  }
}

function unlinkChain(pipe) {
  if (pipe.source.pipe === pipe) pipe.source.pipe = undefined;
  const fed = pipe.dest.transform;
  if (fed !== undefined) {
    if (fed.inPipe === pipe) fed.inPipe = undefined;
  }
  const drained = pipe.source.transform;
  if (drained !== undefined && drained.outPipe === pipe) drained.outPipe = undefined;
}

/** Writes the chunk read but not yet written, if any; returns whether there was one. */
function writePendingChunk(pipe) {
  if (!pipe.hasPendingChunk) return false;
  const chunk = pipe.pendingChunk;
  pipe.pendingChunk = undefined;
  pipe.hasPendingChunk = false;
  const dest = pipe.dest;
  if (!canWriteDirectly(dest)) {
    countFallback('dest-not-idle'); // backpressure, a write in flight, or a size() strategy
    counters.specWrites++;
    if (WritableStreamDefaultWriterWriteTracked(pipe.writer, chunk, pipe.writeRequest)) pipe.writesInFlight++;
    return true;
  }
  pipe.writesInFlight++;
  const transform = dest.transform;
  if (transform === undefined) {
    counters.syncWrites++;
    writeDirectly(dest, chunk, pipe.writeRequest);
    return true;
  }
  counters.fusedChunks++;
  transform.fusing = true;
  writeDirectly(dest, chunk, pipe.writeRequest);
  transform.fusing = false;
  runRequestedStep(transform);
  return true;
}

/** Runs the pipe reading `transform`'s output if transform() or flush() just handed it a chunk. */
function runRequestedStep(transform) {
  const next = transform.outPipe;
  if (next !== undefined) next.stepIfRequested();
}

/**
 * The close action of a pipe whose source closed. Into a transform, flush()
 * runs inside it; what flush() enqueues passes on down the chain at once, as
 * transform()'s output does (tier 0).
 */
function closeDestination(pipe) {
  const transform = pipe.dest.transform;
  if (transform === undefined) return WritableStreamDefaultWriterCloseWithErrorPropagation(pipe.writer);
  transform.fusing = true;
  const result = WritableStreamDefaultWriterCloseWithErrorPropagation(pipe.writer);
  transform.fusing = false;
  runRequestedStep(transform);
  return result;
}

/**
 * The write request of every chunk the pipe writes. Write requests settle in
 * order, so counting is enough to know when all the pipe's writes are done.
 */
class PipeWriteRequest {
  constructor(pipe) {
    this.pipe = pipe;
  }

  resolve() {
    writeSettled(this.pipe);
  }

  reject() {
    writeSettled(this.pipe);
  }
}

function writeSettled(pipe) {
  if (--pipe.writesInFlight === 0 && pipe.writesFinished !== undefined) pipe.writesFinished.resolve(undefined);
}

/** The read request the pipe issues for each chunk. */
class PipeReadRequest {
  constructor(pipe) {
    this.pipe = pipe;
  }

  chunkSteps(chunk) {
    const pipe = this.pipe;
    pipe.readDuringPull = false;
    pipe.pendingChunk = chunk;
    pipe.hasPendingChunk = true;
    // Inside pipeLoop's own read the chunk came from the queue: pipeLoop
    // writes it. Otherwise it arrived inside the producer's enqueue(), where
    // the sink must not run: the write happens in a microtask, and until then
    // the chunk is "read but not yet written", which shutdown flushes first.
    if (pipe.reading) return;
    const source = pipe.source;
    if (source.feeding) {
      // Tier 1: our own reaction is running the source's pull(), and runs
      // this pipe when it returns (pullFromReaction in default-controller.js).
      counters.syncPipeChunks++;
      pipe.stepRequested = true;
      return;
    }
    const upstream = source.transform;
    if (upstream !== undefined && upstream.fusing) {
      pipe.stepRequested = true; // tier 0: the upstream pipe runs this one next
      return;
    }
    counters.specPipeChunks++;
    enqueueMicrotask(pipe.step);
  }

  closeSteps() {} // the source-closed watcher handles it

  errorSteps() {} // the source-errored watcher handles it
}

/** ReadableStreamPipeTo: returns the promise pipeTo() hands out. */
export function ReadableStreamPipeTo(source, dest, preventClose, preventAbort, preventCancel, signal) {
  const pipe = new PipeState(source, dest, preventClose, preventAbort, preventCancel, signal);
  source.disturbed = true;
  linkChain(pipe);

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
  pipeLoop(pipe);
  return pipe.result.promise;
}

/**
 * Reads and writes while the destination is ready and chunks are queued
 * (tier 1: no promise per chunk), then waits: for the writer's ready promise,
 * or for the read request to be fulfilled by the producer.
 */
function pipeLoop(pipe) {
  const dest = pipe.dest;
  for (;;) {
    if (pipe.shuttingDown) return;
    if (dest.backpressure) {
      // Backpressure: read the next chunk only once the destination is ready.
      pipe.writer.ready.onFulfilled(pipe.step);
      return;
    }
    if (dest.state !== 'writable') {
      // Erroring (or errored, closed) but not yet seen by the watchers: the
      // read goes out as natively, and what it gets is written to a stream
      // that refuses it; the shutdown then cancels the source.
      ReadableStreamDefaultReaderRead(pipe.reader, pipe.readRequest);
      return;
    }
    const wasPulling = pipe.source.controller.pulling;
    pipe.reading = true;
    ReadableStreamDefaultReaderRead(pipe.reader, pipe.readRequest);
    pipe.reading = false;
    if (!pipe.hasPendingChunk) {
      // The read request waits for the producer. Issued during a pull, its
      // request for a pull merged into that pull's pullAgain: see readDuringPull.
      pipe.readDuringPull = wasPulling;
      return;
    }
    counters.syncPipeChunks++;
    writePendingChunk(pipe);
  }
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
    shutdownWithAction(pipe, () => closeDestination(pipe), false);
  } else {
    shutdown(pipe, false);
  }
}

function destClosed(pipe) {
  const destClosedError = invalidState('The destination WritableStream closed before the pipe finished');
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
  if (pipe.writesInFlight === 0) return promiseResolvedWith(undefined);
  pipe.writesFinished = new Deferred();
  return pipe.writesFinished.promise;
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
  unlinkChain(pipe);
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
