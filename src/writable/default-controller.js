// WritableStreamDefaultController and its abstract operations (spec 5.4 / 5.5.4).
import {
  ReflectApply, AbortControllerCtor, AbortControllerAbort, abortControllerSignal, PromiseReject, PromiseResolve,
  functionCall,
} from '../intrinsics.js';
import { perChunkPromiseAsIs } from '../node-pace.js';
import {
  enqueueMicrotask, reactToPromise, reactToResult, resolvedUndefined, returnUndefined, promiseResolvedWith,
} from '../promise.js';
import { reactToStart } from '../start.js';
import { emptyQueueWithSizes, ownQueueWithSizes } from '../queue.js';
import { kWrap } from '../facade.js';
import { illegalInvocation, invokePromiseCallback, defineInterface } from '../webidl.js';
import {
  WritableStreamImpl, WritableStreamCloseQueuedOrInFlight, WritableStreamDealWithRejection,
  WritableStreamFinishErroring, WritableStreamFinishInFlightClose, WritableStreamFinishInFlightCloseWithError,
  WritableStreamFinishInFlightWrite, WritableStreamFinishInFlightWriteWithError,
  WritableStreamMarkCloseRequestInFlight, WritableStreamMarkFirstWriteRequestInFlight,
  WritableStreamStartErroring, WritableStreamUpdateBackpressure,
} from './stream-ops.js';
import { illegalConstructor } from '../errors.js';

/** The close sentinel queued behind the last chunk by close(). */
const closeSentinel = Symbol('close sentinel');

export class WritableStreamDefaultControllerImpl {
  constructor() {
    this.stream = undefined;
    this.queue = emptyQueueWithSizes; // its own from the first enqueue
    this.started = false;
    this.strategyHWM = 1;
    this.strategySizeAlgorithm = undefined; // undefined: every chunk has size 1
    // The size algorithm is the library's own (an adapter's byte length), which
    // runs no user code and cannot throw: a pipe may write around it (src/fast/).
    this.sizeIsOurs = false;
    this.writeAlgorithm = undefined; // returns a promise, or undefined when the write is done at once
    this.onWriteFulfilled = undefined; // reactions to a write result, made at the first write
    this.onWriteDoneAtOnce = undefined;
    this.onWriteRejected = undefined;
    this.closeAlgorithm = undefined;
    this.abortAlgorithm = undefined;
    this.underlyingSink = undefined; // for a stream made from an underlying sink: the object,
    this.writeCallback = undefined; //  and its converted callbacks
    this.closeCallback = undefined;
    this.abortCallback = undefined;
    // [[abortController]] is created when someone first asks for the signal:
    // until then nobody can be listening, so remembering the reason is enough.
    this.abortController = undefined;
    this.aborted = false;
    this.abortReason = undefined;
    this.api = undefined;
  }

  get facade() {
    return this.api ?? new WritableStreamDefaultController(kWrap, this);
  }

  get signal() {
    if (this.abortController === undefined) {
      this.abortController = new AbortControllerCtor();
      if (this.aborted) ReflectApply(AbortControllerAbort, this.abortController, [this.abortReason]);
    }
    return abortControllerSignal(this.abortController);
  }

  /** "Signal abort on controller.[[abortController]] with reason" */
  signalAbort(reason) {
    if (this.aborted) return;
    this.aborted = true;
    this.abortReason = reason;
    if (this.abortController !== undefined) ReflectApply(AbortControllerAbort, this.abortController, [reason]);
  }

  /** [[AbortSteps]] */
  abortSteps(reason) {
    const result = this.abortAlgorithm(reason);
    WritableStreamDefaultControllerClearAlgorithms(this);
    return result;
  }

  /** [[ErrorSteps]] */
  errorSteps() {
    this.queue = emptyQueueWithSizes; // ResetQueue
  }

  /** WritableStreamDefaultControllerClose */
  closeSteps() {
    ownQueueWithSizes(this).enqueue(closeSentinel, 0);
    WritableStreamDefaultControllerAdvanceQueueIfNeeded(this);
  }
}

export class WritableStreamDefaultController {
  #impl;

  constructor(key = undefined, impl = undefined) {
    if (key !== kWrap) throw illegalConstructor();
    this.#impl = impl;
    impl.api = this;
  }

  get signal() {
    if (!isController(this)) throw illegalInvocation('WritableStreamDefaultController', 'signal');
    return this.#impl.signal;
  }

  error(e = undefined) {
    if (!isController(this)) throw illegalInvocation('WritableStreamDefaultController', 'error');
    const controller = this.#impl;
    if (controller.stream.state !== 'writable') return;
    WritableStreamDefaultControllerError(controller, e);
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #impl in value;
  }
  static unwrap(value) { return #impl in value ? value.#impl : undefined; }
}
const isController = WritableStreamDefaultController.isInstance;
delete WritableStreamDefaultController.isInstance;
/** The internal record of a public WritableStreamDefaultController, or undefined (for util.inspect, src/inspect.js). */
export const unwrapWritableController = WritableStreamDefaultController.unwrap;
delete WritableStreamDefaultController.unwrap;
defineInterface(WritableStreamDefaultController, 'WritableStreamDefaultController', ['signal', 'error']);

/** SetUpWritableStreamDefaultController */
export function SetUpWritableStreamDefaultController(stream, controller, startAlgorithm, writeAlgorithm,
  closeAlgorithm, abortAlgorithm, highWaterMark, sizeAlgorithm) {
  InitializeWritableStreamDefaultController(stream, controller, writeAlgorithm, closeAlgorithm, abortAlgorithm,
    highWaterMark, sizeAlgorithm);
  // Algorithms are called with the controller as `this` (see writeToSink).
  const startResult = ReflectApply(startAlgorithm, controller, []);
  reactToStart(controller, startResult, WritableStreamDefaultControllerStartFulfilled,
    WritableStreamDefaultControllerStartRejected);
}

/**
 * SetUpWritableStreamDefaultController up to (not including) the start
 * algorithm: a TransformStream reacts to its two sides' starts itself.
 */
export function InitializeWritableStreamDefaultController(stream, controller, writeAlgorithm, closeAlgorithm,
  abortAlgorithm, highWaterMark, sizeAlgorithm) {
  controller.stream = stream;
  stream.controller = controller;
  controller.strategySizeAlgorithm = sizeAlgorithm;
  controller.strategyHWM = highWaterMark;
  controller.writeAlgorithm = writeAlgorithm;
  controller.closeAlgorithm = closeAlgorithm;
  controller.abortAlgorithm = abortAlgorithm;
  WritableStreamUpdateBackpressure(stream, WritableStreamDefaultControllerGetBackpressure(controller));
}

/** The steps upon fulfillment of the start promise (shared by every controller). */
export function WritableStreamDefaultControllerStartFulfilled(controller) {
  controller.started = true;
  WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
}

/** The steps upon rejection of the start promise. */
export function WritableStreamDefaultControllerStartRejected(controller, r) {
  controller.started = true;
  WritableStreamDealWithRejection(controller.stream, r);
}

// The algorithms of a stream made from an underlying sink, shared by every
// such stream (no closures per stream): `this` is the controller.
/**
 * write(chunk, controller), for reactToWriteResult(): `undefined` when it
 * returned at once with no object (the common case, no promise made), a
 * promise resolved with what it returned otherwise (WebIDL's conversion of a
 * Promise return type; on Node 24+ Promise.resolve of it, as Node's), a
 * rejected one when it threw. Each kind of callback
 * (this, a transformer's transform(), a source's pull()) is called at a call
 * site of its own, with the check written out there: a shared helper's site
 * sees every kind and calls through V8's generic builtin, and the helper
 * calls take the inlining budget of the pipe's loop (bench/results/lab-notes-benchmarks.md,
 * "Counting instructions").
 */
function writeToSink(chunk) {
  try {
    const r = functionCall(this.writeCallback, this.underlyingSink, chunk, this.facade);
    if (!((typeof r === 'object' && r !== null) || typeof r === 'function')) return undefined;
    return perChunkPromiseAsIs ? PromiseResolve(r) : promiseResolvedWith(r); // src/node-pace.js
  } catch (error) {
    return PromiseReject(error);
  }
}
function closeSink() {
  return invokePromiseCallback(this.closeCallback, this.underlyingSink, []);
}
function abortSink(reason) {
  return invokePromiseCallback(this.abortCallback, this.underlyingSink, [reason]);
}

/** SetUpWritableStreamDefaultControllerFromUnderlyingSink (sink callbacks already converted). */
export function SetUpWritableStreamDefaultControllerFromUnderlyingSink(
  stream, underlyingSink, start, write, close, abort, highWaterMark, sizeAlgorithm) {
  const controller = new WritableStreamDefaultControllerImpl();
  controller.underlyingSink = underlyingSink;
  controller.writeCallback = write;
  controller.closeCallback = close;
  controller.abortCallback = abort;
  InitializeWritableStreamDefaultController(stream, controller,
    write === undefined ? returnUndefined : writeToSink,
    close === undefined ? resolvedUndefined : closeSink,
    abort === undefined ? resolvedUndefined : abortSink,
    highWaterMark, sizeAlgorithm);
  const startResult = start === undefined ? undefined : ReflectApply(start, underlyingSink, [controller.facade]);
  reactToStart(controller, startResult, WritableStreamDefaultControllerStartFulfilled,
    WritableStreamDefaultControllerStartRejected);
}

/** CreateWritableStream: a stream whose controller runs internal algorithms. */
export function CreateWritableStream(startAlgorithm, writeAlgorithm, closeAlgorithm, abortAlgorithm,
  highWaterMark = 1, sizeAlgorithm = undefined) {
  const stream = new WritableStreamImpl();
  const controller = new WritableStreamDefaultControllerImpl();
  SetUpWritableStreamDefaultController(stream, controller, startAlgorithm, writeAlgorithm, closeAlgorithm,
    abortAlgorithm, highWaterMark, sizeAlgorithm);
  controller.sizeIsOurs = sizeAlgorithm !== undefined; // CreateWritableStream makes the library's own streams only
  return stream;
}

/** WritableStreamDefaultControllerAdvanceQueueIfNeeded */
export function WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller) {
  const stream = controller.stream;
  if (!controller.started) return;
  if (stream.inFlightWriteRequest !== undefined) return;
  if (stream.state === 'erroring') {
    WritableStreamFinishErroring(stream);
    return;
  }
  if (controller.queue.length === 0) return;
  const value = controller.queue.peek();
  if (value === closeSentinel) {
    WritableStreamDefaultControllerProcessClose(controller);
  } else {
    WritableStreamDefaultControllerProcessWrite(controller, value);
  }
}

/** WritableStreamDefaultControllerClearAlgorithms */
export function WritableStreamDefaultControllerClearAlgorithms(controller) {
  controller.writeAlgorithm = undefined;
  controller.closeAlgorithm = undefined;
  controller.abortAlgorithm = undefined;
  controller.strategySizeAlgorithm = undefined;
}

/** WritableStreamDefaultControllerError */
export function WritableStreamDefaultControllerError(controller, error) {
  WritableStreamDefaultControllerClearAlgorithms(controller);
  WritableStreamStartErroring(controller.stream, error);
}

/** WritableStreamDefaultControllerErrorIfNeeded */
export function WritableStreamDefaultControllerErrorIfNeeded(controller, error) {
  if (controller.stream.state === 'writable') WritableStreamDefaultControllerError(controller, error);
}

/** WritableStreamDefaultControllerGetBackpressure */
export function WritableStreamDefaultControllerGetBackpressure(controller) {
  return WritableStreamDefaultControllerGetDesiredSize(controller) <= 0;
}

/** WritableStreamDefaultControllerGetChunkSize */
export function WritableStreamDefaultControllerGetChunkSize(controller, chunk) {
  const sizeAlgorithm = controller.strategySizeAlgorithm;
  if (sizeAlgorithm === undefined) return 1;
  try {
    return sizeAlgorithm(chunk);
  } catch (e) {
    WritableStreamDefaultControllerErrorIfNeeded(controller, e);
    return 1;
  }
}

/** WritableStreamDefaultControllerGetDesiredSize */
export function WritableStreamDefaultControllerGetDesiredSize(controller) {
  return controller.strategyHWM - controller.queue.totalSize;
}

/** WritableStreamDefaultControllerProcessClose */
function WritableStreamDefaultControllerProcessClose(controller) {
  const stream = controller.stream;
  WritableStreamMarkCloseRequestInFlight(stream);
  controller.queue.dequeue();
  const sinkClosePromise = controller.closeAlgorithm();
  WritableStreamDefaultControllerClearAlgorithms(controller);
  reactToPromise(sinkClosePromise, () => {
    WritableStreamFinishInFlightClose(stream);
  }, (reason) => {
    WritableStreamFinishInFlightCloseWithError(stream, reason);
  });
}

/** WritableStreamDefaultControllerProcessWrite */
function WritableStreamDefaultControllerProcessWrite(controller, chunk) {
  WritableStreamMarkFirstWriteRequestInFlight(controller.stream);
  reactToWriteResult(controller, controller.writeAlgorithm(chunk));
}

/**
 * What a write algorithm returns when it took the reactions on itself: it
 * calls reactToWriteResult later with the promise to react to (a
 * TransformStream's write parked on Node 26+, src/node-pace.js).
 */
export const kWriteParked = Symbol('kWriteParked');

/** "Upon fulfillment / rejection of sinkWritePromise", for a write algorithm's result (see onWriteDoneAtOnce). */
export function reactToWriteResult(controller, result) {
  if (controller.onWriteFulfilled === undefined) makeWriteReactions(controller);
  if (result === undefined) enqueueMicrotask(controller.onWriteDoneAtOnce);
  else if (result !== kWriteParked) reactToResult(result, controller.onWriteFulfilled, controller.onWriteRejected);
}

/**
 * The reactions to a sink write, made once per controller rather than per
 * chunk. Made in locals, then stored: see docs/architecture.md, "Closures
 * kept in fields".
 */
function makeWriteReactions(controller) {
  const stream = controller.stream;
  const onFulfilled = () => {
    const request = stream.inFlightWriteRequest;
    WritableStreamFinishInFlightWrite(stream);
    const state = stream.state;
    controller.queue.dequeue();
    if (!WritableStreamCloseQueuedOrInFlight(stream) && state === 'writable') {
      WritableStreamUpdateBackpressure(stream, WritableStreamDefaultControllerGetBackpressure(controller));
    }
    WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
    // A request that asks (a pipe's: PumpWriteRequest) is told the reaction is over.
    if (request.afterReaction !== undefined) request.afterReaction();
  };
  const onRejected = (reason) => {
    if (stream.state === 'writable') WritableStreamDefaultControllerClearAlgorithms(controller);
    WritableStreamFinishInFlightWriteWithError(stream, reason);
  };
  controller.onWriteFulfilled = onFulfilled;
  controller.onWriteRejected = onRejected;
  // A write algorithm that returns undefined finished at once. A
  // TransformStream's (TransformStreamDefaultSinkWriteAlgorithm) returns "the
  // result of reacting to" transform()'s promise, which is fulfilled a
  // microtask after transform() returned: so its reaction runs a microtask
  // later than a plain sink's (fuzz seed 1226: the write must still be in
  // flight when a cancel of the readable side errors the writable side).
  controller.onWriteDoneAtOnce = onFulfilled;
  if (stream.transform !== undefined) {
    const onDoneLater = () => enqueueMicrotask(onFulfilled);
    controller.onWriteDoneAtOnce = onDoneLater;
  }
}

/** WritableStreamDefaultControllerWrite */
export function WritableStreamDefaultControllerWrite(controller, chunk, chunkSize) {
  try {
    ownQueueWithSizes(controller).enqueue(chunk, chunkSize);
  } catch (e) {
    WritableStreamDefaultControllerErrorIfNeeded(controller, e);
    return;
  }
  const stream = controller.stream;
  if (!WritableStreamCloseQueuedOrInFlight(stream) && stream.state === 'writable') {
    WritableStreamUpdateBackpressure(stream, WritableStreamDefaultControllerGetBackpressure(controller));
  }
  WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
}
