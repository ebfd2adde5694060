// TransformStreamDefaultController and its abstract operations (spec 6.3 / 6.4.2).
import { promiseRejectedWith, promiseResolvedWith, uponPromise, resolvedUndefined } from '../promise.js';
import { kWrap } from '../facade.js';
import { PromiseReject, functionCall } from '../intrinsics.js';
import {
  illegalInvocation, invokePromiseCallback, defineInterface,
} from '../webidl.js';
import {
  ReadableStreamDefaultControllerCanCloseOrEnqueue, ReadableStreamDefaultControllerEnqueue,
  ReadableStreamDefaultControllerGetDesiredSize, ReadableStreamDefaultControllerHasBackpressure,
  ReadableStreamDefaultControllerClose, ReadableStreamDefaultControllerCallPullIfNeeded,
} from '../readable/default-controller.js';
import {
  TransformStreamError, TransformStreamErrorWritableAndUnblockWrite, TransformStreamSetBackpressure,
} from './transform-stream.js';
import { ReadableStreamFulfillReadRequest } from '../readable/stream-ops.js';
import { illegalConstructor, invalidState, plainTypeError } from '../errors.js';
import { tiers } from '../tiers.js';
import { clearedTransformResolves } from '../node-pace.js';
import { clearedTransformMessage } from '../messages.js';

export class TransformStreamDefaultControllerImpl {
  constructor() {
    this.stream = undefined;
    this.transformAlgorithm = undefined;
    this.flushAlgorithm = undefined;
    this.cancelAlgorithm = undefined;
    this.finishPromise = undefined; // Deferred
    // transform() returned a promise that has not settled yet (what
    // PerformTransform reacts to): read by the pipe reading the output
    // (writeWithTransformCheck in src/fast/pipe-pump.js), as pullReturnedPromise.
    this.transformPending = false;
    // The reactions to transform()'s promise, made at the first one.
    this.onTransformFulfilled = undefined;
    this.onTransformRejected = undefined;
    // For a stream made from a Transformer: the object and its converted
    // callbacks.
    this.transformer = undefined;
    this.transformCallback = undefined;
    this.flushCallback = undefined;
    this.cancelCallback = undefined;
    this.api = undefined;
  }

  get facade() {
    return this.api ?? new TransformStreamDefaultController(kWrap, this);
  }
}

export class TransformStreamDefaultController {
  #impl;

  constructor(key = undefined, impl = undefined) {
    if (key !== kWrap) throw illegalConstructor();
    this.#impl = impl;
    impl.api = this;
  }

  get desiredSize() {
    if (!isController(this)) throw illegalInvocation('TransformStreamDefaultController', 'desiredSize');
    return ReadableStreamDefaultControllerGetDesiredSize(this.#impl.stream.readable.controller);
  }

  enqueue(chunk = undefined) {
    if (!isController(this)) throw illegalInvocation('TransformStreamDefaultController', 'enqueue');
    TransformStreamDefaultControllerEnqueue(this.#impl, chunk);
  }

  error(reason = undefined) {
    if (!isController(this)) throw illegalInvocation('TransformStreamDefaultController', 'error');
    TransformStreamError(this.#impl.stream, reason);
  }

  terminate() {
    if (!isController(this)) throw illegalInvocation('TransformStreamDefaultController', 'terminate');
    TransformStreamDefaultControllerTerminate(this.#impl);
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #impl in value;
  }
  static unwrap(value) { return #impl in value ? value.#impl : undefined; }
}
const isController = TransformStreamDefaultController.isInstance;
delete TransformStreamDefaultController.isInstance;
/** The internal record of a public TransformStreamDefaultController, or undefined (for util.inspect, src/inspect.js). */
export const unwrapTransformController = TransformStreamDefaultController.unwrap;
delete TransformStreamDefaultController.unwrap;
defineInterface(TransformStreamDefaultController, 'TransformStreamDefaultController',
  ['desiredSize', 'enqueue', 'error', 'terminate']);

/** SetUpTransformStreamDefaultController */
export function SetUpTransformStreamDefaultController(stream, controller, transformAlgorithm, flushAlgorithm,
  cancelAlgorithm) {
  controller.stream = stream;
  stream.controller = controller;
  controller.transformAlgorithm = transformAlgorithm;
  controller.flushAlgorithm = flushAlgorithm;
  controller.cancelAlgorithm = cancelAlgorithm;
}

// The algorithms of a stream made from a Transformer, shared by every such
// stream (no closures per stream): `this` is the controller.

/** The transform algorithm without a transform(): enqueue the chunk as is. */
function transformByEnqueue(chunk) {
  // Returns undefined when the chunk was handled at once (see reactToResult).
  try {
    TransformStreamDefaultControllerEnqueue(this, chunk);
    return undefined;
  } catch (e) {
    return promiseRejectedWith(e);
  }
}

// transform(chunk, controller), called at a site of its own: see writeToSink in src/writable/default-controller.js.
function transformByTransformer(chunk) {
  try {
    const r = functionCall(this.transformCallback, this.transformer, chunk, this.facade);
    // WebIDL's conversion on every Node, though Node 24+ reacts to the
    // promise as it is (src/node-pace.js, perChunkPromiseAsIs).
    return (typeof r === 'object' && r !== null) || typeof r === 'function' ? promiseResolvedWith(r) : undefined;
  } catch (error) {
    return PromiseReject(error);
  }
}

function flushByTransformer() {
  return invokePromiseCallback(this.flushCallback, this.transformer, [this.facade]);
}

function cancelByTransformer(reason) {
  return invokePromiseCallback(this.cancelCallback, this.transformer, [reason]);
}

/** SetUpTransformStreamDefaultControllerFromTransformer (transformer callbacks already converted). */
export function SetUpTransformStreamDefaultControllerFromTransformer(stream, transformer, transform, flush, cancel) {
  const controller = new TransformStreamDefaultControllerImpl();
  controller.transformer = transformer;
  controller.transformCallback = transform;
  controller.flushCallback = flush;
  controller.cancelCallback = cancel;
  SetUpTransformStreamDefaultController(stream, controller,
    transform === undefined ? transformByEnqueue : transformByTransformer,
    flush === undefined ? resolvedUndefined : flushByTransformer,
    cancel === undefined ? resolvedUndefined : cancelByTransformer);
}

/** TransformStreamDefaultControllerClearAlgorithms */
export function TransformStreamDefaultControllerClearAlgorithms(controller) {
  controller.transformAlgorithm = undefined;
  controller.flushAlgorithm = undefined;
  controller.cancelAlgorithm = undefined;
}

/** TransformStreamDefaultControllerEnqueue */
export function TransformStreamDefaultControllerEnqueue(controller, chunk) {
  const stream = controller.stream;
  // Tier 0 hook, a fused chain's hop: a read is armed only on a readable side
  // that can take a chunk (closing or erroring it settles the read first).
  if (tiers.enqueueIntoArmedRead(stream, chunk)) return;
  const readableController = stream.readable.controller;
  if (!ReadableStreamDefaultControllerCanCloseOrEnqueue(readableController)) {
    throw invalidState('Unable to enqueue');
  }
  const readable = stream.readable;
  const reader = readable.reader;
  let mayPull;
  if (reader !== undefined && reader.readRequests.length === 1 &&
      readableController.strategyHWM - readableController.queue.totalSize <= 0) {
    // ReadableStreamDefaultControllerEnqueue for the one read request a fused
    // chain's hop meets: fulfil it. desiredSize stays <= 0, so CallPullIfNeeded
    // pulls only if the chunk steps (a Node adapter's push()) read again.
    ReadableStreamFulfillReadRequest(readable, chunk, false);
    const now = readable.reader;
    mayPull = now !== undefined && now.readRequests.length !== 0 &&
      ReadableStreamDefaultControllerCallPullIfNeeded(readableController);
  } else {
    try {
      mayPull = ReadableStreamDefaultControllerEnqueue(readableController, chunk);
    } catch (e) {
      TransformStreamErrorWritableAndUnblockWrite(stream, e);
      throw stream.readable.storedError;
    }
  }
  // A chunk handed to a waiting reader of an HWM-0 side (a fused chain's hop)
  // leaves no pull needed: backpressure, known without a second ShouldCallPull.
  const backpressure = !mayPull || ReadableStreamDefaultControllerHasBackpressure(readableController);
  if (backpressure !== stream.backpressure) TransformStreamSetBackpressure(stream, true);
}

/** TransformStreamDefaultControllerPerformTransform */
export function TransformStreamDefaultControllerPerformTransform(controller, chunk) {
  if (controller.transformAlgorithm === undefined) return transformAfterClear(controller);
  const transformResult = controller.transformAlgorithm(chunk);
  if (transformResult === undefined) return undefined; // fulfilled at once: nothing to react to
  return errorStreamOnRejection(controller, transformResult);
}

/**
 * The reactions step of PerformTransform: a rejection errors the stream. The
 * writable side runs one transform() at a time, so one pair of reactions per
 * controller serves them all, made at its first promise as a readable
 * controller's pull reactions are (no closure per chunk).
 */
function errorStreamOnRejection(controller, transformResult) {
  controller.transformPending = true;
  if (controller.onTransformFulfilled === undefined) makeTransformReactions(controller);
  return uponPromise(transformResult, controller.onTransformFulfilled, controller.onTransformRejected);
}

// Made in locals, then stored: see docs/architecture.md, "Closures kept in fields".
function makeTransformReactions(controller) {
  const onFulfilled = () => {
    controller.transformPending = false;
  };
  const onRejected = (r) => {
    controller.transformPending = false;
    TransformStreamError(controller.stream, r);
    throw r;
  };
  controller.onTransformFulfilled = onFulfilled;
  controller.onTransformRejected = onRejected;
}

/**
 * A write that reached the transformer after a cancel of the readable side
 * cleared it, before that cancel errored the writable side: the spec would
 * call undefined. Node 24+ takes the write as done (the chunk is dropped,
 * and the cancel errors the writable side next); Node 20/22 error the stream
 * with a TypeError and reject the write with it: so does ours on each.
 * A zlib codec's write (writesAhead) gets here without waiting for
 * backpressure, where the standard's write would wait until the cancel has
 * errored the writable side and then fail with that error: so it does.
 */
function transformAfterClear(controller) {
  const stream = controller.stream;
  const finish = controller.finishPromise;
  if (stream.writesAhead && finish !== undefined) return failWhenFinished(stream, finish);
  if (clearedTransformResolves) return undefined; // fulfilled at once
  const e = plainTypeError(clearedTransformMessage());
  TransformStreamError(controller.stream, e);
  return promiseRejectedWith(e);
}

/** A write that fails with the writable side's error once the cancel or abort under way (`finish`) settled. */
export function failWhenFinished(stream, finish) {
  const fail = () => {
    throw stream.writable.storedError;
  };
  return uponPromise(finish.promise, fail, fail);
}

/** TransformStreamDefaultControllerTerminate */
export function TransformStreamDefaultControllerTerminate(controller) {
  const stream = controller.stream;
  ReadableStreamDefaultControllerClose(stream.readable.controller);
  const error = invalidState('TransformStream has been terminated');
  TransformStreamErrorWritableAndUnblockWrite(stream, error);
}
