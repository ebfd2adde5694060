// ReadableStreamDefaultController and its abstract operations (spec 4.6 / 4.9.4).
import { ReflectApply, viewByteLength } from '../intrinsics.js';
import { reactToResult } from '../promise.js';
import { emptyQueueWithSizes, ownQueueWithSizes } from '../queue.js';
import { kWrap } from '../facade.js';
import { attachUnderlyingSource, pullAlgorithmOf, cancelAlgorithmOf } from './underlying-source.js';
import { reactToStart } from '../start.js';
import { illegalInvocation, defineInterface } from '../webidl.js';
import {
  ReadableStreamImpl, IsReadableStreamLocked, ReadableStreamClose, ReadableStreamError,
  ReadableStreamGetNumReadRequests, ReadableStreamFulfillReadRequest, ReadableStreamAddReadRequest,
} from './stream-ops.js';
import { illegalConstructor, invalidState } from '../errors.js';
import { tiers } from '../tiers.js';

export class ReadableStreamDefaultControllerImpl {
  constructor() {
    this.stream = undefined;
    this.queue = emptyQueueWithSizes; // its own from the first enqueue
    this.started = false;
    this.closeRequested = false;
    this.pullAgain = false;
    this.pulling = false;
    this.pullReturnedPromise = false; // the pull in progress returned a promise, not undefined (done at once)
    this.pullCount = 0; // pulls started: which pull is in progress, for the pump's checkPullSettled
    this.strategySizeAlgorithm = undefined; // undefined: every chunk has size 1
    this.strategyHWM = 1;
    this.pullAlgorithm = undefined; // returns a promise, undefined (done at once) or kParked
    this.cancelAlgorithm = undefined;
    this.onPullFulfilled = undefined; // reactions to a pull's promise, made at the first one
    this.onPullRejected = undefined;
    this.underlyingSource = undefined; // for a stream made from an underlying source: the object,
    this.pullCallback = undefined; //     and its converted pull and cancel callbacks
    this.cancelCallback = undefined;
    this.api = undefined;
  }

  get facade() {
    return this.api ?? new ReadableStreamDefaultController(kWrap, this);
  }

  /** [[CancelSteps]] */
  cancelSteps(reason) {
    this.queue = emptyQueueWithSizes; // ResetQueue
    const result = this.cancelAlgorithm(reason);
    ReadableStreamDefaultControllerClearAlgorithms(this);
    return result;
  }

  /** [[PullSteps]] */
  pullSteps(readRequest) {
    if (this.queue.length > 0) {
      readRequest.chunkSteps(this.dequeueBufferedChunk());
    } else {
      ReadableStreamAddReadRequest(this.stream, readRequest);
      // CallPullIfNeeded, reduced: a readable stream with an empty queue has no
      // close requested, and it now has a read request, so ShouldCallPull is `started`.
      if (this.started) callPull(this);
    }
  }

  /** Would [[PullSteps]] answer a read request at once, from the queue? */
  hasBufferedChunk() {
    return this.queue.length > 0;
  }

  /**
   * The first branch of [[PullSteps]] without the read request: takes the
   * next queued chunk (the queue must not be empty) and closes or pulls.
   * Readers use it to answer a buffered read synchronously (tier 1).
   */
  dequeueBufferedChunk() {
    const chunk = this.queue.dequeue();
    if (this.closeRequested) {
      if (this.queue.length === 0) {
        ReadableStreamDefaultControllerClearAlgorithms(this);
        ReadableStreamClose(this.stream);
      }
    } else {
      // The stream is readable and had a queued chunk, so no read request can be waiting.
      callPullIfBelowHighWaterMark(this);
    }
    return chunk;
  }

  /** [[ReleaseSteps]] */
  releaseSteps() {}
}

export class ReadableStreamDefaultController {
  #impl;

  constructor(key = undefined, impl = undefined) {
    if (key !== kWrap) throw illegalConstructor();
    this.#impl = impl;
    impl.api = this;
  }

  get desiredSize() {
    if (!isDefaultController(this)) throw illegalInvocation('ReadableStreamDefaultController', 'desiredSize', null);
    return ReadableStreamDefaultControllerGetDesiredSize(this.#impl);
  }

  close() {
    if (!isDefaultController(this)) throw illegalInvocation('ReadableStreamDefaultController', 'close', null);
    const c = this.#impl;
    if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(c)) {
      throw invalidState('Controller is already closed');
    }
    ReadableStreamDefaultControllerClose(c);
  }

  enqueue(chunk = undefined) {
    if (!isDefaultController(this)) throw illegalInvocation('ReadableStreamDefaultController', 'enqueue', null);
    const c = this.#impl;
    if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(c)) {
      throw invalidState('Controller is already closed');
    }
    enqueueWhenAllowed(c, chunk);
  }

  error(e = undefined) {
    if (!isDefaultController(this)) throw illegalInvocation('ReadableStreamDefaultController', 'error', null);
    ReadableStreamDefaultControllerError(this.#impl, e);
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #impl in value;
  }
}
const isDefaultController = ReadableStreamDefaultController.isInstance;
delete ReadableStreamDefaultController.isInstance;
defineInterface(ReadableStreamDefaultController, 'ReadableStreamDefaultController',
  ['desiredSize', 'close', 'enqueue', 'error']);

/**
 * A pull algorithm's result meaning "settles later, through pullSettled()
 * or parkedPullFulfilled()": a transform's readable side waits for the next
 * backpressure change that way instead of through a fresh promise per chunk,
 * and ReadableStream.from() on Node 24+ for next()'s result.
 */
export const kParked = Symbol('parked pull');

/** ReadableStreamDefaultControllerCallPullIfNeeded; returns what ShouldCallPull said. */
export function ReadableStreamDefaultControllerCallPullIfNeeded(controller) {
  if (!ReadableStreamDefaultControllerShouldCallPull(controller)) return false;
  callPull(controller);
  return true;
}

/**
 * ReadableStreamDefaultControllerCallPullIfNeeded where the caller knows the
 * stream is readable with no close requested and no read request waiting:
 * ShouldCallPull then reduces to started and desiredSize > 0.
 */
function callPullIfBelowHighWaterMark(controller) {
  if (!(controller.started && controller.strategyHWM - controller.queue.totalSize > 0)) return false;
  callPull(controller);
  return true;
}

/**
 * The rest of CallPullIfNeeded, once ShouldCallPull said yes. Kept this
 * small so that V8 inlines it into enqueue() and the read: while a pull is
 * in progress (most chunks of a source that fills its queue in pull()) it
 * only notes that another pull is wanted.
 */
function callPull(controller) {
  if (controller.pulling) {
    controller.pullAgain = true;
    return;
  }
  startPull(controller);
}

/** CallPullIfNeeded's steps from "set pulling to true". */
function startPull(controller) {
  controller.pulling = true;
  controller.pullCount++;
  const result = controller.pullAlgorithm();
  controller.pullReturnedPromise = result !== undefined;
  if (result === kParked) return;
  // The reactions are made at the first pull, not at construction. A stream
  // pulled once per chunk reacts through its own closure: measured, that is
  // 12-22% faster per chunk than the start FIFO (start.js) on Node 26.
  if (controller.onPullFulfilled === undefined) makePullReactions(controller);
  reactToResult(result, controller.onPullFulfilled, controller.onPullRejected);
}

/** The steps upon fulfillment of a pull's promise (a reaction: a clean stack). */
function pullFulfilled(controller) {
  finishPull(controller, true);
}

/** pulling becomes false; a pull asked for meanwhile happens now. */
function finishPull(controller, onCleanStack) {
  controller.pulling = false;
  // On a clean stack (our own reaction), a pipe reading the stream may run
  // as soon as the pull returns: the fast-path hooks of src/fast/pipe-pump.js.
  const pump = onCleanStack ? controller.stream.pump : undefined;
  if (!controller.pullAgain) {
    if (pump !== undefined) tiers.pumpAfterPull(pump, ReadableStreamDefaultControllerCallPullIfNeeded, controller);
    return;
  }
  controller.pullAgain = false;
  if (onCleanStack) tiers.feedPump(controller.stream, ReadableStreamDefaultControllerCallPullIfNeeded, controller);
  else ReadableStreamDefaultControllerCallPullIfNeeded(controller);
}

/** Settles a parked pull from our own reaction (a clean stack): ReadableStream.from()'s on Node 24+. */
export function parkedPullFulfilled(controller) {
  finishPull(controller, true);
}

/**
 * Settles a parked pull. The spec reacts to the pull promise a microtask
 * later; a transform's readable side parks, and the one effect of settling
 * is that the next read may pull at once, so it settles now: a pipe reading
 * the transform's output can then lower the transform's backpressure in the
 * same turn (what lets tier 0 chains flow).
 */
export function pullSettled(controller) {
  // Not on a clean stack: this runs inside transform()'s enqueue(), where no
  // pipe may run (the pump hooks are for our own reactions only).
  finishPull(controller, false);
}

/**
 * The reactions to a pull result, made once per controller, at its first
 * pull. A rejection errors the stream. Made in locals, then stored: see
 * docs/architecture.md, "Closures kept in fields".
 */
function makePullReactions(controller) {
  const onFulfilled = () => pullFulfilled(controller);
  const onRejected = (e) => {
    ReadableStreamDefaultControllerError(controller, e);
  };
  controller.onPullFulfilled = onFulfilled;
  controller.onPullRejected = onRejected;
}

/** ReadableStreamDefaultControllerShouldCallPull */
export function ReadableStreamDefaultControllerShouldCallPull(controller) {
  if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)) return false;
  if (!controller.started) return false;
  const stream = controller.stream;
  if (IsReadableStreamLocked(stream) && ReadableStreamGetNumReadRequests(stream) > 0) return true;
  return ReadableStreamDefaultControllerGetDesiredSize(controller) > 0;
}

/** ReadableStreamDefaultControllerClearAlgorithms */
export function ReadableStreamDefaultControllerClearAlgorithms(controller) {
  controller.pullAlgorithm = undefined;
  controller.cancelAlgorithm = undefined;
  controller.strategySizeAlgorithm = undefined;
}

/** ReadableStreamDefaultControllerClose */
export function ReadableStreamDefaultControllerClose(controller) {
  if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)) return;
  controller.closeRequested = true;
  if (controller.queue.length === 0) {
    ReadableStreamDefaultControllerClearAlgorithms(controller);
    ReadableStreamClose(controller.stream);
  }
}

/**
 * ReadableStreamDefaultControllerEnqueue. Returns false when its last step,
 * CallPullIfNeeded, found no pull needed: then no code has run since, and
 * HasBackpressure is true without asking again (TransformStream's enqueue).
 */
export function ReadableStreamDefaultControllerEnqueue(controller, chunk) {
  if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(controller)) return false;
  return enqueueWhenAllowed(controller, chunk);
}

/**
 * ReadableStreamDefaultControllerEnqueue after its first step, once
 * CanCloseOrEnqueue said yes: enqueue() has just checked it (and throws
 * otherwise), so it skips the second check.
 */
function enqueueWhenAllowed(controller, chunk) {
  const stream = controller.stream;
  if (IsReadableStreamLocked(stream) && ReadableStreamGetNumReadRequests(stream) > 0) {
    ReadableStreamFulfillReadRequest(stream, chunk, false);
  } else {
    const sizeAlgorithm = controller.strategySizeAlgorithm;
    if (sizeAlgorithm === undefined) {
      ownQueueWithSizes(controller).enqueue(chunk, 1);
      // No user code ran since the checks above: the stream is readable, no
      // close was requested, no read request is waiting.
      return callPullIfBelowHighWaterMark(controller);
    }
    enqueueWithSizeAlgorithm(controller, chunk, sizeAlgorithm);
  }
  return ReadableStreamDefaultControllerCallPullIfNeeded(controller);
}

/**
 * ReadableStreamDefaultControllerEnqueue's steps for a chunk that a size
 * algorithm measures: user code, which may throw. Apart, so that V8 inlines
 * the common path above into the enqueue() of a source's pull().
 */
function enqueueWithSizeAlgorithm(controller, chunk, sizeAlgorithm) {
  let chunkSize;
  try {
    chunkSize = sizeAlgorithm(chunk);
  } catch (e) {
    ReadableStreamDefaultControllerError(controller, e);
    throw e;
  }
  try {
    ownQueueWithSizes(controller).enqueue(chunk, chunkSize);
  } catch (e) {
    ReadableStreamDefaultControllerError(controller, e);
    throw e;
  }
}

/** ReadableStreamDefaultControllerError */
export function ReadableStreamDefaultControllerError(controller, e) {
  const stream = controller.stream;
  if (stream.state !== 'readable') return;
  controller.queue = emptyQueueWithSizes; // ResetQueue
  ReadableStreamDefaultControllerClearAlgorithms(controller);
  ReadableStreamError(stream, e);
}

/** ReadableStreamDefaultControllerGetDesiredSize */
export function ReadableStreamDefaultControllerGetDesiredSize(controller) {
  const state = controller.stream.state;
  if (state === 'errored') return null;
  if (state === 'closed') return 0;
  return controller.strategyHWM - controller.queue.totalSize;
}

/**
 * Not a spec operation: whether the views queued, unread, in `controller` add
 * up to `limit` bytes (counted no further). For a codec that bounds the output
 * it holds (src/codecs/zlib-driver.js).
 */
export function queuedViewBytesReach(controller, limit) {
  const queue = controller.queue;
  let bytes = 0;
  for (let i = 0; i < queue.length && bytes < limit; i++) bytes += viewByteLength(queue.at(i));
  return bytes >= limit;
}

/** ReadableStreamDefaultControllerHasBackpressure */
export function ReadableStreamDefaultControllerHasBackpressure(controller) {
  return !ReadableStreamDefaultControllerShouldCallPull(controller);
}

/** ReadableStreamDefaultControllerCanCloseOrEnqueue */
export function ReadableStreamDefaultControllerCanCloseOrEnqueue(controller) {
  return !controller.closeRequested && controller.stream.state === 'readable';
}

/** SetUpReadableStreamDefaultController */
export function SetUpReadableStreamDefaultController(
  stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm) {
  InitializeReadableStreamDefaultController(stream, controller, pullAlgorithm, cancelAlgorithm, highWaterMark,
    sizeAlgorithm);
  // Algorithms are called with the controller as `this`: the ones made from
  // an underlying source are shared functions that find the source there.
  const startResult = ReflectApply(startAlgorithm, controller, []);
  reactToStart(controller, startResult, ReadableStreamDefaultControllerStartFulfilled,
    ReadableStreamDefaultControllerStartRejected);
}

/**
 * SetUpReadableStreamDefaultController up to (not including) the start
 * algorithm: a TransformStream reacts to its two sides' starts itself.
 */
export function InitializeReadableStreamDefaultController(
  stream, controller, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm) {
  controller.stream = stream;
  controller.strategySizeAlgorithm = sizeAlgorithm;
  controller.strategyHWM = highWaterMark;
  controller.pullAlgorithm = pullAlgorithm;
  controller.cancelAlgorithm = cancelAlgorithm;
  stream.controller = controller;
}

/** The steps upon fulfillment of the start promise (shared by every controller). */
export function ReadableStreamDefaultControllerStartFulfilled(controller) {
  controller.started = true;
  // A reaction, so a clean stack: a pipe whose first read (issued inside
  // pipeTo()) the first pull() fulfils writes when pull() returns.
  tiers.feedPump(controller.stream, ReadableStreamDefaultControllerCallPullIfNeeded, controller);
}

/** The steps upon rejection of the start promise. */
export function ReadableStreamDefaultControllerStartRejected(controller, e) {
  ReadableStreamDefaultControllerError(controller, e);
}

/** SetUpReadableStreamDefaultControllerFromUnderlyingSource (source callbacks already converted). */
export function SetUpReadableStreamDefaultControllerFromUnderlyingSource(
  stream, underlyingSource, start, pull, cancel, highWaterMark, sizeAlgorithm) {
  const controller = new ReadableStreamDefaultControllerImpl();
  attachUnderlyingSource(controller, underlyingSource, pull, cancel);
  InitializeReadableStreamDefaultController(stream, controller,
    pullAlgorithmOf(pull), cancelAlgorithmOf(cancel), highWaterMark, sizeAlgorithm);
  const startResult = start === undefined ? undefined : ReflectApply(start, underlyingSource, [controller.facade]);
  reactToStart(controller, startResult, ReadableStreamDefaultControllerStartFulfilled,
    ReadableStreamDefaultControllerStartRejected);
}

/** CreateReadableStream: a stream whose controller runs internal algorithms. */
export function CreateReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm,
  highWaterMark = 1, sizeAlgorithm = undefined) {
  const stream = new ReadableStreamImpl();
  const controller = new ReadableStreamDefaultControllerImpl();
  SetUpReadableStreamDefaultController(
    stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, highWaterMark, sizeAlgorithm);
  return stream;
}
