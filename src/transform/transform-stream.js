// TransformStream (spec 6.2) and its stream-level abstract operations (6.4.1),
// including the default sink and source algorithms (6.4.3 / 6.4.4).
import { ReflectApply } from '../intrinsics.js';
import { Deferred, enqueueMicrotask, reactToPromise, uponPromise } from '../promise.js';
import { kWrap } from '../facade.js';
import { isObject, illegalInvocation, defineInterface, typeError, rangeError, getMember, optionalCallback } from '../webidl.js';
import { convertQueuingStrategy, ExtractHighWaterMark, ExtractSizeAlgorithm } from '../strategies.js';
import {
  CreateReadableStream, ReadableStreamDefaultControllerError, ReadableStreamDefaultControllerClose,
  kParked, pullSettled,
} from '../readable/default-controller.js';
import { wrapReadableStream } from '../readable/readable-stream.js';
import {
  CreateWritableStream, WritableStreamDefaultControllerErrorIfNeeded,
} from '../writable/default-controller.js';
import { wrapWritableStream } from '../writable/writable-stream.js';
import {
  SetUpTransformStreamDefaultControllerFromTransformer,
  TransformStreamDefaultControllerClearAlgorithms, TransformStreamDefaultControllerPerformTransform,
} from './default-controller.js';
import { counters } from '../metrics/counters.js';

export class TransformStreamImpl {
  constructor() {
    this.readable = undefined;                 // ReadableStreamImpl
    this.writable = undefined;                 // WritableStreamImpl
    this.backpressure = undefined;
    // [[backpressureChangePromise]], made only when a write has to wait on it
    // (see backpressureChangePromise()); a parked pull waits on it without one.
    this.backpressureChange = undefined; // Deferred
    this.pullParked = false;
    // Tier 0 (see src/readable/pipe-to.js): the pipes feeding and reading this
    // transform, a pipe waiting for its backpressure to drop, and whether a
    // pipe is running transform() directly right now.
    this.inPipe = undefined;
    this.outPipe = undefined;
    this.blockedPipe = undefined;
    this.fusing = false;
    this.controller = undefined;
    this.api = undefined;
  }
}

/** Converts a Transformer dictionary, members in WebIDL (lexicographic) order. */
function convertTransformer(transformer) {
  const name = 'Transformer';
  const cancel = optionalCallback(transformer, 'cancel', name);
  const flush = optionalCallback(transformer, 'flush', name);
  const readableType = getMember(transformer, 'readableType');
  const start = optionalCallback(transformer, 'start', name);
  const transform = optionalCallback(transformer, 'transform', name);
  const writableType = getMember(transformer, 'writableType');
  return { cancel, flush, readableType, start, transform, writableType };
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
      throw typeError("Failed to construct 'TransformStream': argument 1 (transformer) must be an object");
    }
    const writableStrategyDict = convertQueuingStrategy(writableStrategy, "argument 2 (writableStrategy) of 'TransformStream'");
    const readableStrategyDict = convertQueuingStrategy(readableStrategy, "argument 3 (readableStrategy) of 'TransformStream'");
    const dict = convertTransformer(transformer);
    if (dict.readableType !== undefined) {
      throw rangeError("Failed to construct 'TransformStream': 'readableType' member of Transformer must be undefined");
    }
    if (dict.writableType !== undefined) {
      throw rangeError("Failed to construct 'TransformStream': 'writableType' member of Transformer must be undefined");
    }
    const readableHighWaterMark = ExtractHighWaterMark(readableStrategyDict, 0);
    const readableSizeAlgorithm = ExtractSizeAlgorithm(readableStrategyDict);
    const writableHighWaterMark = ExtractHighWaterMark(writableStrategyDict, 1);
    const writableSizeAlgorithm = ExtractSizeAlgorithm(writableStrategyDict);
    const startPromise = new Deferred();
    const stream = new TransformStreamImpl();
    counters.transformStreamsCreated++;
    this.#impl = stream;
    stream.api = this;
    InitializeTransformStream(stream, startPromise.promise, writableHighWaterMark, writableSizeAlgorithm,
      readableHighWaterMark, readableSizeAlgorithm);
    SetUpTransformStreamDefaultControllerFromTransformer(stream, transformer, dict);
    if (dict.start !== undefined) {
      startPromise.resolve(ReflectApply(dict.start, transformer, [stream.controller.facade]));
    } else {
      startPromise.resolve(undefined);
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

/** InitializeTransformStream */
export function InitializeTransformStream(stream, startPromise, writableHighWaterMark, writableSizeAlgorithm,
  readableHighWaterMark, readableSizeAlgorithm) {
  const startAlgorithm = () => startPromise;
  stream.writable = CreateWritableStream(startAlgorithm,
    (chunk) => TransformStreamDefaultSinkWriteAlgorithm(stream, chunk),
    () => TransformStreamDefaultSinkCloseAlgorithm(stream),
    (reason) => TransformStreamDefaultSinkAbortAlgorithm(stream, reason),
    writableHighWaterMark, writableSizeAlgorithm);
  stream.readable = CreateReadableStream(startAlgorithm,
    () => TransformStreamDefaultSourcePullAlgorithm(stream),
    (reason) => TransformStreamDefaultSourceCancelAlgorithm(stream, reason),
    readableHighWaterMark, readableSizeAlgorithm);
  stream.writable.transform = stream;
  stream.readable.transform = stream;
  stream.backpressure = undefined;
  stream.backpressureChange = undefined;
  stream.pullParked = false;
  TransformStreamSetBackpressure(stream, true);
  stream.controller = undefined;
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
    pullSettled(stream.readable.controller);
  }
  if (!backpressure && stream.blockedPipe !== undefined) {
    // A pipe holding off writes until this moment resumes a microtask later,
    // when a write waiting on the backpressure change promise would have.
    const pipe = stream.blockedPipe;
    stream.blockedPipe = undefined;
    enqueueMicrotask(pipe.step);
  }
}

/** The current [[backpressureChangePromise]], made when first needed. */
function backpressureChangePromise(stream) {
  if (stream.backpressureChange === undefined) stream.backpressureChange = new Deferred();
  return stream.backpressureChange.promise;
}

/** TransformStreamUnblockWrite */
export function TransformStreamUnblockWrite(stream) {
  if (stream.backpressure) TransformStreamSetBackpressure(stream, false);
}

/** TransformStreamDefaultSinkWriteAlgorithm */
function TransformStreamDefaultSinkWriteAlgorithm(stream, chunk) {
  const controller = stream.controller;
  if (stream.backpressure) {
    return uponPromise(backpressureChangePromise(stream), () => {
      const writable = stream.writable;
      if (writable.state === 'erroring') throw writable.storedError;
      return TransformStreamDefaultControllerPerformTransform(controller, chunk);
    });
  }
  return TransformStreamDefaultControllerPerformTransform(controller, chunk);
}

/** TransformStreamDefaultSinkAbortAlgorithm */
function TransformStreamDefaultSinkAbortAlgorithm(stream, reason) {
  const controller = stream.controller;
  if (controller.finishPromise !== undefined) return controller.finishPromise.promise;
  const readable = stream.readable;
  const finish = new Deferred();
  controller.finishPromise = finish;
  const cancelPromise = controller.cancelAlgorithm(reason);
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
function TransformStreamDefaultSourceCancelAlgorithm(stream, reason) {
  const controller = stream.controller;
  if (controller.finishPromise !== undefined) return controller.finishPromise.promise;
  const writable = stream.writable;
  const finish = new Deferred();
  controller.finishPromise = finish;
  const cancelPromise = controller.cancelAlgorithm(reason);
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
