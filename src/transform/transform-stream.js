// TransformStream (spec 6.2) and its stream-level abstract operations (6.4.1),
// including the default sink and source algorithms (6.4.3 / 6.4.4).
import { ReflectApply } from '../intrinsics.js';
import {
  Deferred, enqueueMicrotask, fulfilledNextMicrotask, promiseRejectedWith, promiseResolvedWith, reactToPromise,
  uponPromiseAdopting,
} from '../promise.js';
import { kWrap } from '../facade.js';
import { queueSteps } from '../start.js';
import { isObject, illegalInvocation, defineInterface, convertCallback } from '../webidl.js';
import { convertQueuingStrategy, ExtractHighWaterMark, ExtractSizeAlgorithm } from '../strategies.js';
import {
  ReadableStreamDefaultControllerImpl, InitializeReadableStreamDefaultController,
  ReadableStreamDefaultControllerStartFulfilled, ReadableStreamDefaultControllerStartRejected,
  ReadableStreamDefaultControllerError, ReadableStreamDefaultControllerClose, kParked, pullSettled,
} from '../readable/default-controller.js';
import { ReadableStreamImpl } from '../readable/stream-ops.js';
import { wrapReadableStream } from '../readable/readable-stream.js';
import {
  WritableStreamDefaultControllerImpl, InitializeWritableStreamDefaultController,
  WritableStreamDefaultControllerStartFulfilled, WritableStreamDefaultControllerStartRejected,
  WritableStreamDefaultControllerErrorIfNeeded, reactToWriteResult, kWriteParked,
} from '../writable/default-controller.js';
import { WritableStreamImpl } from '../writable/stream-ops.js';
import { wrapWritableStream } from '../writable/writable-stream.js';
import {
  SetUpTransformStreamDefaultControllerFromTransformer,
  TransformStreamDefaultControllerClearAlgorithms, TransformStreamDefaultControllerPerformTransform, failWhenFinished,
} from './default-controller.js';
import { counters } from '../metrics/counters.js';
import { sites, noteCreation } from '../metrics/sites.js';
import { tiers } from '../tiers.js';
import { invalidArgType, invalidArgValueRange, plainTypeError, transformerStartNotCallable } from '../errors.js';
import { parkedWriteReactsToTransform, clearedTransformResolves } from '../node-pace.js';

/** TransformStreamImpl.startState while start() runs: if it throws, startPromise never settles. */
const kStartThrew = Symbol('start threw');

export class TransformStreamImpl {
  constructor() {
    this.readable = undefined;                 // ReadableStreamImpl
    this.writable = undefined;                 // WritableStreamImpl
    this.backpressure = undefined;
    // [[backpressureChangePromise]], made only when a write has to wait on it
    // (see backpressureChangePromise()); a parked pull waits on it without one.
    this.backpressureChange = undefined; // Deferred
    this.pullParked = false;
    this.settleParkedPull = undefined; // made at the first pull settled a microtask later
    // A write waiting for the output to be read, on Node 26+ (parkWrite).
    this.parkedChunk = undefined;
    this.resumeParkedWrite = undefined; // made at the first write parked
    // The one fast-path slot: the pipe pump writing into this transform
    // (tier 0, src/fast/chain.js), while a pipe runs.
    this.fused = undefined;
    // A codec (src/codecs/) whose own driver bounds what it holds unread: its
    // writes run without waiting for the readable side's backpressure.
    this.writesAhead = false;
    // A codec shaped as Node's zlib classes: makes the error an abort or a
    // cancel without a reason goes on with (Node's AbortError; see reasonOf).
    this.makeNoReasonError = undefined;
    this.controller = undefined;
    // How the start promise both sides wait on settles (see transformStartStep1).
    this.startState = undefined;
    this.api = undefined;
  }
}

export class TransformStream {
  #impl;

  constructor(transformer = undefined, writableStrategy = undefined, readableStrategy = undefined) {
    if (transformer === kWrap) {
      this.#impl = writableStrategy;
      writableStrategy.api = this;
      return;
    }
    if (transformer !== undefined && !isObject(transformer)) {
      throw invalidArgType('transformer', 'of type object', transformer);
    }
    const writableStrategyDict = convertQueuingStrategy(writableStrategy, 'writableStrategy');
    const readableStrategyDict = convertQueuingStrategy(readableStrategy, 'readableStrategy');
    // The Transformer dictionary, members in WebIDL (lexicographic) order,
    // read straight into locals (no dictionary object is kept).
    let cancel;
    let flush;
    let start;
    let transform;
    if (transformer !== undefined) {
      cancel = transformer.cancel;
      if (cancel !== undefined) convertCallback(cancel, 'transformer.cancel');
      flush = transformer.flush;
      if (flush !== undefined) convertCallback(flush, 'transformer.flush');
      const readableType = transformer.readableType;
      start = transformer.start;
      if (start !== undefined) convertCallback(start, 'transformer.start', transformerStartNotCallable);
      transform = transformer.transform;
      if (transform !== undefined) convertCallback(transform, 'transformer.transform');
      const writableType = transformer.writableType;
      if (readableType !== undefined) {
        throw invalidArgValueRange('transformer.readableType', readableType);
      }
      if (writableType !== undefined) {
        throw invalidArgValueRange('transformer.writableType', writableType);
      }
    }
    const readableHighWaterMark = ExtractHighWaterMark(readableStrategyDict, 0);
    const readableSizeAlgorithm = ExtractSizeAlgorithm(readableStrategyDict);
    const writableHighWaterMark = ExtractHighWaterMark(writableStrategyDict, 1);
    const writableSizeAlgorithm = ExtractSizeAlgorithm(writableStrategyDict);
    const stream = new TransformStreamImpl();
    counters.transformStreamsCreated++;
    if (sites.on) noteCreation(stream); // FAST_WEBSTREAMS_METRICS_SITES
    this.#impl = stream;
    stream.api = this;
    InitializeTransformStream(stream, writableHighWaterMark, writableSizeAlgorithm,
      readableHighWaterMark, readableSizeAlgorithm);
    SetUpTransformStreamDefaultControllerFromTransformer(stream, transformer, transform, flush, cancel);
    if (start !== undefined) {
      // Resolve startPromise with start()'s result. Should start() throw,
      // startPromise stays pending forever.
      stream.startState = kStartThrew;
      const startResult = ReflectApply(start, transformer, [stream.controller.facade]);
      stream.startState = (typeof startResult === 'object' && startResult !== null) || typeof startResult === 'function'
        ? promiseResolvedWith(startResult)
        : undefined;
    }
  }

  get readable() {
    if (!isTransformStream(this)) throw illegalInvocation('TransformStream', 'readable');
    return wrapReadableStream(this.#impl.readable);
  }

  get writable() {
    if (!isTransformStream(this)) throw illegalInvocation('TransformStream', 'writable');
    return wrapWritableStream(this.#impl.writable);
  }

  static unwrap(value) {
    return typeof value === 'object' && value !== null && #impl in value ? value.#impl : undefined;
  }
}

/** The internal record of a public TransformStream, or undefined for anything else. */
export const unwrapTransformStream = TransformStream.unwrap;
delete TransformStream.unwrap;
const isTransformStream = (value) => unwrapTransformStream(value) !== undefined;
defineInterface(TransformStream, 'TransformStream', ['readable', 'writable']);

/**
 * InitializeTransformStream. Both sides' start algorithms return the same
 * startPromise, and each side reacts to "a promise resolved with" it: that is
 * a thenable job, then a reaction to startPromise resolving the side's
 * promise, then the side's reaction, three microtasks in all. The two sides'
 * jobs are queued back to back at each of the three steps (nothing runs
 * between them), so one chain of three steps that runs the writable's
 * reaction and then the readable's is the same sequence, without a promise
 * or a closure per side. The chain starts here, where the writable side's
 * start algorithm runs.
 */
export function InitializeTransformStream(stream, writableHighWaterMark, writableSizeAlgorithm,
  readableHighWaterMark, readableSizeAlgorithm) {
  const writable = new WritableStreamImpl();
  InitializeWritableStreamDefaultController(writable, new WritableStreamDefaultControllerImpl(),
    transformSinkWrite, transformSinkClose, transformSinkAbort, writableHighWaterMark, writableSizeAlgorithm);
  const readable = new ReadableStreamImpl();
  InitializeReadableStreamDefaultController(readable, new ReadableStreamDefaultControllerImpl(),
    transformSourcePull, transformSourceCancel, readableHighWaterMark, readableSizeAlgorithm);
  writable.transform = stream;
  readable.transform = stream;
  stream.writable = writable;
  stream.readable = readable;
  stream.backpressure = undefined;
  stream.backpressureChange = undefined;
  stream.pullParked = false;
  TransformStreamSetBackpressure(stream, true);
  stream.controller = undefined;
  queueSteps(stream, transformStartStep1);
}

// The three steps of the start chain (see InitializeTransformStream).

/** Step 1, the thenable jobs: react to startPromise. */
function transformStartStep1(stream) {
  const startState = stream.startState;
  if (startState === undefined) {
    // startPromise is fulfilled (start() returned no thenable, or there was none).
    queueSteps(stream, transformStartStep2);
  } else if (startState !== kStartThrew) {
    stream.startState = undefined;
    reactToPromise(startState, () => {
      queueSteps(stream, transformStartFulfilled);
    }, (r) => {
      queueSteps(stream, (s) => transformStartRejected(s, r));
    });
  }
}

/** Step 2, the reactions to a fulfilled startPromise: each side's promise is fulfilled. */
function transformStartStep2(stream) {
  queueSteps(stream, transformStartFulfilled);
}

/** Step 3: the two sides' reactions, writable first. */
function transformStartFulfilled(stream) {
  WritableStreamDefaultControllerStartFulfilled(stream.writable.controller);
  ReadableStreamDefaultControllerStartFulfilled(stream.readable.controller);
}

function transformStartRejected(stream, r) {
  WritableStreamDefaultControllerStartRejected(stream.writable.controller, r);
  ReadableStreamDefaultControllerStartRejected(stream.readable.controller, r);
}

// The two sides' algorithms, shared by every TransformStream: `this` is the
// side's controller, whose stream knows its TransformStream.
function transformSinkWrite(chunk) {
  return TransformStreamDefaultSinkWriteAlgorithm(this.stream.transform, chunk);
}
function transformSinkClose() {
  return TransformStreamDefaultSinkCloseAlgorithm(this.stream.transform);
}
function transformSinkAbort(reason) {
  return TransformStreamDefaultSinkAbortAlgorithm(this.stream.transform, reason);
}
function transformSourcePull() {
  return TransformStreamDefaultSourcePullAlgorithm(this.stream.transform);
}
function transformSourceCancel(reason) {
  return TransformStreamDefaultSourceCancelAlgorithm(this.stream.transform, reason);
}

/** TransformStreamError */
export function TransformStreamError(stream, e) {
  ReadableStreamDefaultControllerError(stream.readable.controller, e);
  TransformStreamErrorWritableAndUnblockWrite(stream, e);
}

/** TransformStreamErrorWritableAndUnblockWrite */
export function TransformStreamErrorWritableAndUnblockWrite(stream, e) {
  TransformStreamDefaultControllerClearAlgorithms(stream.controller);
  WritableStreamDefaultControllerErrorIfNeeded(stream.writable.controller, e);
  TransformStreamUnblockWrite(stream);
}

/** TransformStreamSetBackpressure */
export function TransformStreamSetBackpressure(stream, backpressure) {
  // Resolve the current [[backpressureChangePromise]]: for the pending write
  // waiting on it, and for the readable side's parked pull. (The two never
  // wait on the same one: a pull parks right after lowering backpressure, a
  // write waits only while it is raised.) The next one is made on demand.
  if (stream.backpressureChange !== undefined) {
    stream.backpressureChange.resolve(undefined);
    stream.backpressureChange = undefined;
  }
  stream.backpressure = backpressure; // before settling: the settled pull may lower it again
  if (stream.pullParked) {
    stream.pullParked = false;
    // The spec's pull reacts to the promise a microtask after it resolves.
    // A pipe reading the output has the pull settle now: it can then lower
    // the backpressure again in the same turn (what lets tier 0 chains flow).
    // A reader of its own sees the spec's turn: its read() made meanwhile
    // meets the pull in progress (fuzz seeds 8688, 37995: transform() ran
    // before that read() settled).
    if (stream.readable.pump !== undefined) pullSettled(stream.readable.controller);
    else settleParkedPullLater(stream);
  }
}

function settleParkedPullLater(stream) {
  if (stream.settleParkedPull === undefined) makeSettleParkedPull(stream);
  enqueueMicrotask(stream.settleParkedPull);
}

// Made in a function of its own: see docs/architecture.md, "Closures kept in fields".
function makeSettleParkedPull(stream) {
  const controller = stream.readable.controller;
  const settle = () => pullSettled(controller);
  stream.settleParkedPull = settle;
}

/** The current [[backpressureChangePromise]], made when first needed. */
export function backpressureChangePromise(stream) {
  if (stream.backpressureChange === undefined) stream.backpressureChange = new Deferred();
  return stream.backpressureChange.promise;
}

/** TransformStreamUnblockWrite */
export function TransformStreamUnblockWrite(stream) {
  if (stream.backpressure) TransformStreamSetBackpressure(stream, false);
}

/** TransformStreamDefaultSinkWriteAlgorithm */
function TransformStreamDefaultSinkWriteAlgorithm(stream, chunk) {
  if (stream.backpressure && !tiers.transformReadArmed(stream) && !stream.writesAhead) {
    return transformAfterBackpressureChange(stream, chunk);
  }
  return TransformStreamDefaultControllerPerformTransform(stream.controller, chunk);
}

/**
 * PerformTransform after the write waited for backpressure to drop. Into a
 * transform a fast path's pump writes (`fused`), what transform() enqueues
 * goes down the chain at once (tier 0 hook).
 */
function performTransform(stream, chunk) {
  if (stream.fused === undefined) return TransformStreamDefaultControllerPerformTransform(stream.controller, chunk);
  return tiers.performTransformHandingOff(stream, chunk);
}

/**
 * The backpressure branch of the sink write algorithm, in a function of its
 * own: the closure's captured variables would otherwise be allocated (a
 * context) on every write, taken or not.
 */
function transformAfterBackpressureChange(stream, chunk) {
  if (parkedWriteReactsToTransform) return parkWrite(stream, chunk);
  return uponPromiseAdopting(backpressureChangePromise(stream), () => {
    const writable = stream.writable;
    if (writable.state === 'erroring') throw writable.storedError;
    // A cancel of the readable side under way cleared the algorithms: this
    // write waited because a fused chain's armed read (armed-read.js) let go
    // of the backpressure only as the cancel closed the readable side, where
    // Node's pending read had dropped it already and the write would have
    // met the transformer. It fails as the cancel errors the writable side,
    // with the cancel's reason (Node 24+ drops the chunk in PerformTransform).
    const finish = stream.controller.finishPromise;
    if (finish !== undefined && !clearedTransformResolves) return failWhenFinished(stream, finish);
    // PerformTransform's promise, which this reaction's promise adopts. For a
    // transform() that returned at once it is fulfilled a microtask later
    // (reactToWriteResult): adopting it takes the spec's two microtasks more.
    return performTransform(stream, chunk) ?? fulfilledNextMicrotask();
  });
}

/**
 * The backpressure branch as Node 26+ takes it (src/node-pace.js): the same
 * wait, then the write reacts to PerformTransform's promise itself rather
 * than to a promise resolved with it. One write is in flight at a time, so
 * one slot holds its chunk.
 */
function parkWrite(stream, chunk) {
  stream.parkedChunk = chunk;
  if (stream.resumeParkedWrite === undefined) makeResumeParkedWrite(stream);
  reactToPromise(backpressureChangePromise(stream), stream.resumeParkedWrite);
  return kWriteParked;
}

function makeResumeParkedWrite(stream) {
  const resume = () => {
    const chunk = stream.parkedChunk;
    stream.parkedChunk = undefined;
    const writable = stream.writable;
    const controller = writable.controller;
    if (writable.state === 'erroring') {
      const error = writable.storedError;
      enqueueMicrotask(() => controller.onWriteRejected(error));
      return;
    }
    reactToWriteResult(controller, performTransform(stream, chunk) ?? fulfilledNextMicrotask());
  };
  stream.resumeParkedWrite = resume;
}

/** TransformStreamDefaultSinkAbortAlgorithm */
function TransformStreamDefaultSinkAbortAlgorithm(stream, givenReason) {
  const controller = stream.controller;
  if (controller.finishPromise !== undefined) return controller.finishPromise.promise;
  const reason = reasonOf(stream, givenReason);
  const readable = stream.readable;
  const finish = new Deferred();
  controller.finishPromise = finish;
  const cancelPromise = cancelAlgorithmOrRefusal(controller, reason);
  TransformStreamDefaultControllerClearAlgorithms(controller);
  reactToPromise(cancelPromise, () => {
    if (readable.state === 'errored') {
      finish.reject(readable.storedError);
    } else {
      ReadableStreamDefaultControllerError(readable.controller, reason);
      finish.resolve(undefined);
    }
  }, (r) => {
    ReadableStreamDefaultControllerError(readable.controller, r);
    finish.reject(r);
  });
  return finish.promise;
}

/**
 * The reason an abort or a cancel goes on with: the one given, as the spec
 * says. Node's zlib classes are a zlib stream behind its adapters, which
 * report a stream destroyed without an error as an AbortError; a codec of
 * that shape sets makeNoReasonError, and an undefined reason becomes that
 * error, for its cancel steps and for the other side.
 */
function reasonOf(stream, reason) {
  return reason === undefined && stream.makeNoReasonError !== undefined ? stream.makeNoReasonError() : reason;
}

/**
 * Performs controller.[[cancelAlgorithm]]. An abort that waited for start(),
 * or a cancel that a pipe's shutdown makes, can find it cleared (terminate()
 * or error() ran meanwhile), where the spec would call undefined: native
 * rejects with a plain TypeError, and so do we, instead of throwing inside a
 * reaction (an unhandled rejection).
 */
function cancelAlgorithmOrRefusal(controller, reason) {
  if (controller.cancelAlgorithm === undefined) {
    // Native's text: its call of the cleared algorithm fails.
    return promiseRejectedWith(plainTypeError('controller[kState].cancelAlgorithm is not a function'));
  }
  return controller.cancelAlgorithm(reason); // a method of the controller
}

/** TransformStreamDefaultSinkCloseAlgorithm */
function TransformStreamDefaultSinkCloseAlgorithm(stream) {
  const controller = stream.controller;
  if (controller.finishPromise !== undefined) return controller.finishPromise.promise;
  const readable = stream.readable;
  const finish = new Deferred();
  controller.finishPromise = finish;
  const flushPromise = controller.flushAlgorithm();
  TransformStreamDefaultControllerClearAlgorithms(controller);
  reactToPromise(flushPromise, () => {
    if (readable.state === 'errored') {
      finish.reject(readable.storedError);
    } else {
      ReadableStreamDefaultControllerClose(readable.controller);
      finish.resolve(undefined);
    }
  }, (r) => {
    ReadableStreamDefaultControllerError(readable.controller, r);
    finish.reject(r);
  });
  return finish.promise;
}

/** TransformStreamDefaultSourcePullAlgorithm */
function TransformStreamDefaultSourcePullAlgorithm(stream) {
  TransformStreamSetBackpressure(stream, false);
  // Spec: return [[backpressureChangePromise]]. The pull settles when it does,
  // which TransformStreamSetBackpressure signals without a promise.
  stream.pullParked = true;
  return kParked;
}

/** TransformStreamDefaultSourceCancelAlgorithm */
function TransformStreamDefaultSourceCancelAlgorithm(stream, givenReason) {
  const controller = stream.controller;
  if (controller.finishPromise !== undefined) return controller.finishPromise.promise;
  const reason = reasonOf(stream, givenReason);
  const writable = stream.writable;
  const finish = new Deferred();
  controller.finishPromise = finish;
  const cancelPromise = cancelAlgorithmOrRefusal(controller, reason);
  TransformStreamDefaultControllerClearAlgorithms(controller);
  reactToPromise(cancelPromise, () => {
    if (writable.state === 'errored') {
      finish.reject(writable.storedError);
    } else {
      WritableStreamDefaultControllerErrorIfNeeded(writable.controller, reason);
      TransformStreamUnblockWrite(stream);
      finish.resolve(undefined);
    }
  }, (r) => {
    WritableStreamDefaultControllerErrorIfNeeded(writable.controller, r);
    TransformStreamUnblockWrite(stream);
    finish.reject(r);
  });
  return finish.promise;
}
