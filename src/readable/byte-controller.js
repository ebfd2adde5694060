// ReadableByteStreamController and ReadableStreamBYOBRequest (spec 4.7, 4.8) and
// the abstract operations of 4.9.5 "Readable byte stream controllers".
//
// The controller keeps its byte queue as a RingQueue of ByteQueueEntry records
// plus a running [[queueTotalSize]], and its [[pendingPullIntos]] as a RingQueue
// of PullIntoDescriptor records.
import {
  ReflectApply, ArrayBufferCtor, ArrayBufferIsView, DataViewCtor,
  Uint8ArrayCtor, MathMin, isDetachedBuffer, copyDataBlockBytes, viewBuffer, viewByteOffset,
  viewByteLength, isTypedArray, typedArrayName,
  TypedArrayConstructorsByName, TypedArrayElementSizeByName, isResizableArrayBuffer,
  typedArrayBuffer, typedArrayByteOffset, typedArrayByteLength, dataViewBuffer, dataViewByteOffset,
  dataViewByteLength, arrayBufferByteLength,
} from '../intrinsics.js';
import { reactToResult } from '../promise.js';
import { TransferArrayBuffer, CloneArrayBuffer } from '../array-buffers.js';
import { emptyQueue, pushOwned } from '../queue.js';
import { kWrap } from '../facade.js';
import { tiers } from '../tiers.js';
import { attachUnderlyingSource, pullAlgorithmOf, cancelAlgorithmOf } from './underlying-source.js';
import { reactToStart } from '../start.js';
import {
  illegalInvocation, defineInterface, convertEnforceRangeULL, convertArrayBufferView, viewByteLengthOrZero,
} from '../webidl.js';
import {
  ReadableStreamImpl, ReadableStreamClose, ReadableStreamError, ReadableStreamAddReadRequest,
  ReadableStreamFulfillReadRequest, ReadableStreamGetNumReadRequests, ReadableStreamHasDefaultReader,
  ReadableStreamAddReadIntoRequest, ReadableStreamFulfillReadIntoRequest, ReadableStreamGetNumReadIntoRequests,
  ReadableStreamHasBYOBReader,
} from './stream-ops.js';
import {
  codedTypeError, illegalConstructor, invalidArgType, invalidArgValue, invalidArgValueRange, invalidState,
  noCode, sharedBufferViewCode,
} from '../errors.js';
import { argValueMessage, sharedNewViewMessage, sharedViewMessage } from '../messages.js';

// ----- Records -----

/** A pull-into descriptor (spec 4.7.2). */
class PullIntoDescriptor {
  constructor(buffer, bufferByteLength, byteOffset, byteLength, minimumFill, elementSize, viewConstructor,
    readerType) {
    this.buffer = buffer;
    this.bufferByteLength = bufferByteLength;
    this.byteOffset = byteOffset;
    this.byteLength = byteLength;
    this.bytesFilled = 0;
    this.minimumFill = minimumFill;
    this.elementSize = elementSize;
    this.viewConstructor = viewConstructor;
    this.readerType = readerType; // 'default' | 'byob' | 'none'
    // Whether a BYOB request view over `buffer` was handed to the underlying
    // source since `buffer` was last (re)created by a transfer. While it was
    // not, nobody else can observe `buffer`, so ConvertPullIntoDescriptor may
    // skip its transfer (an expensive structuredClone on Node 20).
    this.bufferExposed = false;
  }
}

/** A readable byte stream queue entry (spec 4.7.2). */
class ByteQueueEntry {
  constructor(buffer, byteOffset, byteLength) {
    this.buffer = buffer;
    this.byteOffset = byteOffset;
    this.byteLength = byteLength;
  }
}

export class ReadableByteStreamControllerImpl {
  constructor() {
    this.stream = undefined;
    this.autoAllocateChunkSize = undefined;
    this.byobRequest = null;          // a ReadableStreamBYOBRequestImpl or null
    this.cancelAlgorithm = undefined;
    this.closeRequested = false;
    this.pullAgain = false;
    this.pullAlgorithm = undefined;
    this.onPullFulfilled = undefined; // reactions to each pull result, made at the first pull
    this.onPullRejected = undefined;
    this.underlyingSource = undefined; // for a stream made from an underlying source: the object,
    this.pullCallback = undefined; //     and its converted pull and cancel callbacks
    this.cancelCallback = undefined;
    this.pulling = false;
    this.pullReturnedPromise = false; // the pull in progress returned a promise, not undefined (done at once)
    this.pullCount = 0; // pulls started: which pull is in progress, for the pump's checkPullSettled
    this.pendingPullIntos = emptyQueue; // each its own RingQueue from its first push
    this.queue = emptyQueue;
    this.queueTotalSize = 0;
    this.started = false;
    this.strategyHWM = 0;
    this.api = undefined;
  }

  get facade() {
    return this.api ?? new ReadableByteStreamController(kWrap, this);
  }

  /** [[CancelSteps]] */
  cancelSteps(reason) {
    ReadableByteStreamControllerClearPendingPullIntos(this);
    ResetQueue(this);
    const result = this.cancelAlgorithm(reason);
    ReadableByteStreamControllerClearAlgorithms(this);
    return result;
  }

  /** Would [[PullSteps]] answer a default reader's read request at once, from the queue? */
  hasBufferedChunk() {
    return this.queueTotalSize > 0;
  }

  /**
   * [[PullSteps]] with bytes queued, without the read request (tier 1):
   * ReadableByteStreamControllerFillReadRequestFromQueue returning the view.
   */
  dequeueBufferedChunk() {
    const entry = this.queue.shift();
    this.queueTotalSize -= entry.byteLength;
    ReadableByteStreamControllerHandleQueueDrain(this);
    return new Uint8ArrayCtor(entry.buffer, entry.byteOffset, entry.byteLength);
  }

  /** [[PullSteps]] */
  pullSteps(readRequest) {
    const stream = this.stream;
    if (this.queueTotalSize > 0) {
      ReadableByteStreamControllerFillReadRequestFromQueue(this, readRequest);
      return;
    }
    const autoAllocateChunkSize = this.autoAllocateChunkSize;
    if (autoAllocateChunkSize !== undefined) {
      let buffer;
      try {
        buffer = new ArrayBufferCtor(autoAllocateChunkSize);
      } catch (e) {
        readRequest.errorSteps(e);
        return;
      }
      pushPendingPullInto(this, new PullIntoDescriptor(buffer, autoAllocateChunkSize, 0,
        autoAllocateChunkSize, 1, 1, Uint8ArrayCtor, 'default'));
    }
    ReadableStreamAddReadRequest(stream, readRequest);
    ReadableByteStreamControllerCallPullIfNeeded(this);
  }

  /** [[ReleaseSteps]] */
  releaseSteps() {
    const pendingPullIntos = this.pendingPullIntos;
    if (pendingPullIntos.length !== 0) {
      const firstPendingPullInto = pendingPullIntos.peek();
      firstPendingPullInto.readerType = 'none';
      pendingPullIntos.clear();
      pendingPullIntos.push(firstPendingPullInto);
    }
  }
}

export class ReadableStreamBYOBRequestImpl {
  constructor(controller, view) {
    this.controller = controller; // null once invalidated
    this.view = view;             // a Uint8Array, null once invalidated
    this.api = undefined;
  }

  get facade() {
    return this.api ?? new ReadableStreamBYOBRequest(kWrap, this);
  }
}

/** Is this controller record a ReadableByteStreamController's? */
export function isByteStreamController(controller) {
  return controller instanceof ReadableByteStreamControllerImpl;
}

// ----- Public classes -----

export class ReadableByteStreamController {
  #impl;

  constructor(key = undefined, impl = undefined) {
    if (key !== kWrap) throw illegalConstructor();
    this.#impl = impl;
    impl.api = this;
  }

  get byobRequest() {
    if (!isByteController(this)) throw illegalInvocation('ReadableByteStreamController', 'byobRequest');
    const request = ReadableByteStreamControllerGetBYOBRequest(this.#impl);
    return request === null ? null : request.facade;
  }

  get desiredSize() {
    if (!isByteController(this)) throw illegalInvocation('ReadableByteStreamController', 'desiredSize');
    return ReadableByteStreamControllerGetDesiredSize(this.#impl);
  }

  close() {
    if (!isByteController(this)) throw illegalInvocation('ReadableByteStreamController', 'close');
    const c = this.#impl;
    if (c.closeRequested) {
      throw invalidState('Controller is already closed');
    }
    if (c.stream.state !== 'readable') {
      throw invalidState('ReadableStream is already closed');
    }
    ReadableByteStreamControllerClose(c);
  }

  enqueue(chunk) {
    if (!isByteController(this)) throw illegalInvocation('ReadableByteStreamController', 'enqueue');
    // The argument's conversion to ArrayBufferView and the checks of enqueue(),
    // reading each of the view's slots once. A TypedArray's byte length reads 0
    // once its buffer is detached; a DataView's getters throw then instead.
    const isTypedArrayView = isTypedArray(chunk);
    let buffer;
    let byteLength;
    if (isTypedArrayView) {
      buffer = typedArrayBuffer(chunk);
      byteLength = typedArrayByteLength(chunk);
    } else {
      if (!ArrayBufferIsView(chunk)) {
        throw invalidArgType('buffer', 'an instance of Buffer, TypedArray, or DataView', chunk);
      }
      buffer = dataViewBuffer(chunk);
      byteLength = viewByteLengthOrZero(chunk);
    }
    let bufferByteLength;
    try {
      bufferByteLength = arrayBufferByteLength(buffer); // throws for a SharedArrayBuffer
    } catch {
      throw codedTypeError(sharedViewMessage('chunk', chunk, buffer), sharedBufferViewCode());
    }
    if (isResizableArrayBuffer(buffer)) {
      throw codedTypeError(argValueMessage('chunk', chunk, 'must not be backed by a resizable ArrayBuffer'),
        sharedBufferViewCode());
    }
    if (byteLength === 0 || bufferByteLength === 0) {
      throw invalidState('chunk ArrayBuffer is zero-length or detached');
    }
    const c = this.#impl;
    if (c.closeRequested) {
      throw invalidState('Controller is already closed');
    }
    if (c.stream.state !== 'readable') {
      throw invalidState('ReadableStream is already closed');
    }
    // The buffer has bytes, so it is not detached (the spec's check in
    // ReadableByteStreamControllerEnqueue cannot fail here).
    const byteOffset = isTypedArrayView ? typedArrayByteOffset(chunk) : dataViewByteOffset(chunk);
    ReadableByteStreamControllerEnqueueBuffer(c, buffer, byteOffset, byteLength, false);
  }

  error(e = undefined) {
    if (!isByteController(this)) throw illegalInvocation('ReadableByteStreamController', 'error');
    ReadableByteStreamControllerError(this.#impl, e);
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #impl in value;
  }
}
const isByteController = ReadableByteStreamController.isInstance;
delete ReadableByteStreamController.isInstance;
defineInterface(ReadableByteStreamController, 'ReadableByteStreamController',
  ['byobRequest', 'desiredSize', 'close', 'enqueue', 'error']);

export class ReadableStreamBYOBRequest {
  #impl;

  constructor(key = undefined, impl = undefined) {
    if (key !== kWrap) throw illegalConstructor();
    this.#impl = impl;
    impl.api = this;
  }

  get view() {
    if (!isBYOBRequest(this)) throw illegalInvocation('ReadableStreamBYOBRequest', 'view');
    return this.#impl.view;
  }

  respond(bytesWritten) {
    if (!isBYOBRequest(this)) throw illegalInvocation('ReadableStreamBYOBRequest', 'respond');
    bytesWritten = convertEnforceRangeULL(bytesWritten, 'bytesWritten');
    const request = this.#impl;
    if (request.controller === null) {
      throw invalidState('This BYOB request has been invalidated');
    }
    if (isDetachedBuffer(viewBuffer(request.view))) {
      throw invalidState('Viewed ArrayBuffer is detached');
    }
    ReadableByteStreamControllerRespond(request.controller, bytesWritten);
  }

  respondWithNewView(view) {
    if (!isBYOBRequest(this)) throw illegalInvocation('ReadableStreamBYOBRequest', 'respondWithNewView');
    convertArrayBufferView(view, 'view', noCode, sharedNewViewMessage);
    const request = this.#impl;
    if (request.controller === null) {
      throw invalidState('This BYOB request has been invalidated');
    }
    if (isDetachedBuffer(viewBuffer(view))) {
      throw invalidState('Viewed ArrayBuffer is detached');
    }
    ReadableByteStreamControllerRespondWithNewView(request.controller, view);
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #impl in value;
  }
  static unwrap(value) { return #impl in value ? value.#impl : undefined; }
}
const isBYOBRequest = ReadableStreamBYOBRequest.isInstance;
delete ReadableStreamBYOBRequest.isInstance;
/** The internal record of a public ReadableStreamBYOBRequest, or undefined (for util.inspect, src/inspect.js). */
export const unwrapBYOBRequest = ReadableStreamBYOBRequest.unwrap;
delete ReadableStreamBYOBRequest.unwrap;
defineInterface(ReadableStreamBYOBRequest, 'ReadableStreamBYOBRequest', ['view', 'respond', 'respondWithNewView']);

// ----- Abstract operations (spec 4.9.5) -----

/** ResetQueue (for a byte stream controller's queue) */
function ResetQueue(controller) {
  controller.queue = emptyQueue;
  controller.queueTotalSize = 0;
}

/** Appends to [[pendingPullIntos]]. */
function pushPendingPullInto(controller, pullIntoDescriptor) {
  controller.pendingPullIntos = pushOwned(controller.pendingPullIntos, pullIntoDescriptor);
}

/** ReadableByteStreamControllerCallPullIfNeeded */
export function ReadableByteStreamControllerCallPullIfNeeded(controller) {
  if (!ReadableByteStreamControllerShouldCallPull(controller)) return;
  if (controller.pulling) {
    controller.pullAgain = true;
    return;
  }
  controller.pulling = true;
  controller.pullCount++;
  if (controller.onPullFulfilled === undefined) makePullReactions(controller);
  const result = controller.pullAlgorithm();
  controller.pullReturnedPromise = result !== undefined;
  reactToResult(result, controller.onPullFulfilled, controller.onPullRejected);
}

/**
 * The reactions to each pull result, made once per controller, at its first
 * pull (the start promise has reactions of its own). A rejection errors the
 * stream. Made in locals, then stored: see docs/architecture.md, "Closures
 * kept in fields".
 */
function makePullReactions(controller) {
  const onFulfilled = () => {
    controller.pulling = false;
    // Our own reaction, a clean stack: the fast-path hooks of
    // src/fast/pipe-pump.js, as the default controller's finishPull().
    if (controller.pullAgain) {
      controller.pullAgain = false;
      tiers.feedPump(controller.stream, ReadableByteStreamControllerCallPullIfNeeded, controller);
      return;
    }
    const pump = controller.stream.pump;
    if (pump !== undefined) tiers.pumpAfterPull(pump, ReadableByteStreamControllerCallPullIfNeeded, controller);
  };
  const onRejected = (e) => {
    ReadableByteStreamControllerError(controller, e);
  };
  controller.onPullFulfilled = onFulfilled;
  controller.onPullRejected = onRejected;
}

/** ReadableByteStreamControllerClearAlgorithms */
export function ReadableByteStreamControllerClearAlgorithms(controller) {
  controller.pullAlgorithm = undefined;
  controller.cancelAlgorithm = undefined;
}

/** ReadableByteStreamControllerClearPendingPullIntos */
export function ReadableByteStreamControllerClearPendingPullIntos(controller) {
  ReadableByteStreamControllerInvalidateBYOBRequest(controller);
  controller.pendingPullIntos = emptyQueue;
}

/** ReadableByteStreamControllerClose */
export function ReadableByteStreamControllerClose(controller) {
  const stream = controller.stream;
  if (controller.closeRequested || stream.state !== 'readable') return;
  if (controller.queueTotalSize > 0) {
    controller.closeRequested = true;
    return;
  }
  if (controller.pendingPullIntos.length !== 0) {
    const firstPendingPullInto = controller.pendingPullIntos.peek();
    if (firstPendingPullInto.bytesFilled % firstPendingPullInto.elementSize !== 0) {
      const e = invalidState('Partial read');
      ReadableByteStreamControllerError(controller, e);
      throw e;
    }
  }
  ReadableByteStreamControllerClearAlgorithms(controller);
  ReadableStreamClose(stream);
}

/** ReadableByteStreamControllerCommitPullIntoDescriptor */
export function ReadableByteStreamControllerCommitPullIntoDescriptor(stream, pullIntoDescriptor) {
  let done = false;
  if (stream.state === 'closed') done = true;
  const filledView = ReadableByteStreamControllerConvertPullIntoDescriptor(pullIntoDescriptor);
  if (pullIntoDescriptor.readerType === 'default') {
    ReadableStreamFulfillReadRequest(stream, filledView, done);
  } else {
    ReadableStreamFulfillReadIntoRequest(stream, filledView, done);
  }
}

/** ReadableByteStreamControllerConvertPullIntoDescriptor */
export function ReadableByteStreamControllerConvertPullIntoDescriptor(pullIntoDescriptor) {
  const bytesFilled = pullIntoDescriptor.bytesFilled;
  const elementSize = pullIntoDescriptor.elementSize;
  const buffer = pullIntoDescriptor.bufferExposed
    ? TransferArrayBuffer(pullIntoDescriptor.buffer)
    : pullIntoDescriptor.buffer;
  const Ctor = pullIntoDescriptor.viewConstructor;
  return new Ctor(buffer, pullIntoDescriptor.byteOffset, bytesFilled / elementSize);
}

/**
 * ReadableByteStreamControllerEnqueue. `chunkIsPrivate` is true for internal
 * callers (tee) whose chunk's buffer no other code can reach: transferring it
 * would be unobservable, so it is skipped.
 */
export function ReadableByteStreamControllerEnqueue(controller, chunk, chunkIsPrivate = false) {
  const stream = controller.stream;
  if (controller.closeRequested || stream.state !== 'readable') return;
  const isTypedArrayView = isTypedArray(chunk);
  const buffer = isTypedArrayView ? typedArrayBuffer(chunk) : dataViewBuffer(chunk);
  if (isDetachedBuffer(buffer)) {
    throw invalidState("ReadableByteStreamController.enqueue: the chunk's buffer is detached");
  }
  const byteOffset = isTypedArrayView ? typedArrayByteOffset(chunk) : dataViewByteOffset(chunk);
  const byteLength = isTypedArrayView ? typedArrayByteLength(chunk) : dataViewByteLength(chunk);
  ReadableByteStreamControllerEnqueueBuffer(controller, buffer, byteOffset, byteLength, chunkIsPrivate);
}

/**
 * ReadableByteStreamControllerEnqueue from its step "Let transferredBuffer be
 * ? TransferArrayBuffer(buffer)" on, given the chunk's slots (`buffer` is not
 * detached), and with the steps before it done by the caller.
 */
function ReadableByteStreamControllerEnqueueBuffer(controller, buffer, byteOffset, byteLength, chunkIsPrivate) {
  const stream = controller.stream;
  const transferredBuffer = chunkIsPrivate ? buffer : TransferArrayBuffer(buffer);
  const pendingPullIntos = controller.pendingPullIntos;
  if (pendingPullIntos.length !== 0) {
    const firstPendingPullInto = pendingPullIntos.peek();
    if (isDetachedBuffer(firstPendingPullInto.buffer)) {
      throw invalidState('Destination ArrayBuffer is detached');
    }
    ReadableByteStreamControllerInvalidateBYOBRequest(controller);
    if (firstPendingPullInto.bufferExposed) {
      firstPendingPullInto.buffer = TransferArrayBuffer(firstPendingPullInto.buffer);
      firstPendingPullInto.bufferExposed = false;
    }
    if (firstPendingPullInto.readerType === 'none') {
      ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, firstPendingPullInto);
    }
  }
  if (ReadableStreamHasDefaultReader(stream)) {
    ReadableByteStreamControllerProcessReadRequestsUsingQueue(controller);
    if (ReadableStreamGetNumReadRequests(stream) === 0) {
      ReadableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
    } else {
      if (controller.pendingPullIntos.length !== 0) {
        ReadableByteStreamControllerShiftPendingPullInto(controller);
      }
      const transferredView = new Uint8ArrayCtor(transferredBuffer, byteOffset, byteLength);
      ReadableStreamFulfillReadRequest(stream, transferredView, false);
    }
  } else if (ReadableStreamHasBYOBReader(stream)) {
    ReadableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
    const filledPullIntos = ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
    for (let i = 0; i < filledPullIntos.length; i++) {
      ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullIntos[i]);
    }
  } else {
    ReadableByteStreamControllerEnqueueChunkToQueue(controller, transferredBuffer, byteOffset, byteLength);
  }
  ReadableByteStreamControllerCallPullIfNeeded(controller);
}

/** ReadableByteStreamControllerEnqueueChunkToQueue */
export function ReadableByteStreamControllerEnqueueChunkToQueue(controller, buffer, byteOffset, byteLength) {
  controller.queue = pushOwned(controller.queue, new ByteQueueEntry(buffer, byteOffset, byteLength));
  controller.queueTotalSize += byteLength;
}

/** ReadableByteStreamControllerEnqueueClonedChunkToQueue */
export function ReadableByteStreamControllerEnqueueClonedChunkToQueue(controller, buffer, byteOffset, byteLength) {
  let cloneResult;
  try {
    cloneResult = CloneArrayBuffer(buffer, byteOffset, byteLength);
  } catch (e) {
    ReadableByteStreamControllerError(controller, e);
    throw e;
  }
  ReadableByteStreamControllerEnqueueChunkToQueue(controller, cloneResult, 0, byteLength);
}

/** ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue */
export function ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, pullIntoDescriptor) {
  if (pullIntoDescriptor.bytesFilled > 0) {
    ReadableByteStreamControllerEnqueueClonedChunkToQueue(controller, pullIntoDescriptor.buffer,
      pullIntoDescriptor.byteOffset, pullIntoDescriptor.bytesFilled);
  }
  ReadableByteStreamControllerShiftPendingPullInto(controller);
}

/** ReadableByteStreamControllerError */
export function ReadableByteStreamControllerError(controller, e) {
  const stream = controller.stream;
  if (stream.state !== 'readable') return;
  ReadableByteStreamControllerClearPendingPullIntos(controller);
  ResetQueue(controller);
  ReadableByteStreamControllerClearAlgorithms(controller);
  ReadableStreamError(stream, e);
}

/** ReadableByteStreamControllerFillHeadPullIntoDescriptor */
export function ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller, size, pullIntoDescriptor) {
  pullIntoDescriptor.bytesFilled += size;
}

/** ReadableByteStreamControllerFillPullIntoDescriptorFromQueue */
export function ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller, pullIntoDescriptor) {
  const maxBytesToCopy = MathMin(controller.queueTotalSize,
    pullIntoDescriptor.byteLength - pullIntoDescriptor.bytesFilled);
  const maxBytesFilled = pullIntoDescriptor.bytesFilled + maxBytesToCopy;
  let totalBytesToCopyRemaining = maxBytesToCopy;
  let ready = false;
  const remainderBytes = maxBytesFilled % pullIntoDescriptor.elementSize;
  const maxAlignedBytes = maxBytesFilled - remainderBytes;
  if (maxAlignedBytes >= pullIntoDescriptor.minimumFill) {
    totalBytesToCopyRemaining = maxAlignedBytes - pullIntoDescriptor.bytesFilled;
    ready = true;
  }
  const queue = controller.queue;
  while (totalBytesToCopyRemaining > 0) {
    const headOfQueue = queue.peek();
    const bytesToCopy = MathMin(totalBytesToCopyRemaining, headOfQueue.byteLength);
    const destStart = pullIntoDescriptor.byteOffset + pullIntoDescriptor.bytesFilled;
    copyDataBlockBytes(pullIntoDescriptor.buffer, destStart, headOfQueue.buffer, headOfQueue.byteOffset,
      bytesToCopy);
    if (headOfQueue.byteLength === bytesToCopy) {
      queue.shift();
    } else {
      headOfQueue.byteOffset += bytesToCopy;
      headOfQueue.byteLength -= bytesToCopy;
    }
    controller.queueTotalSize -= bytesToCopy;
    ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller, bytesToCopy, pullIntoDescriptor);
    totalBytesToCopyRemaining -= bytesToCopy;
  }
  return ready;
}

/** ReadableByteStreamControllerFillReadRequestFromQueue */
export function ReadableByteStreamControllerFillReadRequestFromQueue(controller, readRequest) {
  readRequest.chunkSteps(controller.dequeueBufferedChunk());
}

/** ReadableByteStreamControllerGetBYOBRequest */
export function ReadableByteStreamControllerGetBYOBRequest(controller) {
  if (controller.byobRequest === null && controller.pendingPullIntos.length !== 0) {
    const firstDescriptor = controller.pendingPullIntos.peek();
    const view = new Uint8ArrayCtor(firstDescriptor.buffer,
      firstDescriptor.byteOffset + firstDescriptor.bytesFilled,
      firstDescriptor.byteLength - firstDescriptor.bytesFilled);
    firstDescriptor.bufferExposed = true;
    controller.byobRequest = new ReadableStreamBYOBRequestImpl(controller, view);
  }
  return controller.byobRequest;
}

/** ReadableByteStreamControllerGetDesiredSize */
export function ReadableByteStreamControllerGetDesiredSize(controller) {
  const state = controller.stream.state;
  if (state === 'errored') return null;
  if (state === 'closed') return 0;
  return controller.strategyHWM - controller.queueTotalSize;
}

/** ReadableByteStreamControllerHandleQueueDrain */
export function ReadableByteStreamControllerHandleQueueDrain(controller) {
  if (controller.queueTotalSize === 0 && controller.closeRequested) {
    ReadableByteStreamControllerClearAlgorithms(controller);
    ReadableStreamClose(controller.stream);
  } else {
    ReadableByteStreamControllerCallPullIfNeeded(controller);
  }
}

/** ReadableByteStreamControllerInvalidateBYOBRequest */
export function ReadableByteStreamControllerInvalidateBYOBRequest(controller) {
  const byobRequest = controller.byobRequest;
  if (byobRequest === null) return;
  byobRequest.controller = null;
  byobRequest.view = null;
  controller.byobRequest = null;
}

/** ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue */
export function ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller) {
  const filledPullIntos = [];
  const pendingPullIntos = controller.pendingPullIntos;
  while (pendingPullIntos.length !== 0) {
    if (controller.queueTotalSize === 0) break;
    const pullIntoDescriptor = pendingPullIntos.peek();
    if (ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller, pullIntoDescriptor)) {
      ReadableByteStreamControllerShiftPendingPullInto(controller);
      filledPullIntos[filledPullIntos.length] = pullIntoDescriptor;
    }
  }
  return filledPullIntos;
}

/** ReadableByteStreamControllerProcessReadRequestsUsingQueue */
export function ReadableByteStreamControllerProcessReadRequestsUsingQueue(controller) {
  const reader = controller.stream.reader;
  while (reader.readRequests.length !== 0) {
    if (controller.queueTotalSize === 0) return;
    const readRequest = reader.readRequests.shift();
    ReadableByteStreamControllerFillReadRequestFromQueue(controller, readRequest);
  }
}

/** ReadableByteStreamControllerPullInto */
export function ReadableByteStreamControllerPullInto(controller, view, min, readIntoRequest) {
  const stream = controller.stream;
  let elementSize = 1;
  let ctor = DataViewCtor;
  let byteOffset;
  let byteLength;
  let viewedBuffer;
  const name = typedArrayName(view);
  if (name !== undefined) {
    elementSize = TypedArrayElementSizeByName[name];
    ctor = TypedArrayConstructorsByName[name];
    byteOffset = typedArrayByteOffset(view);
    byteLength = typedArrayByteLength(view);
    viewedBuffer = typedArrayBuffer(view);
  } else {
    byteOffset = dataViewByteOffset(view);
    byteLength = dataViewByteLength(view);
    viewedBuffer = dataViewBuffer(view);
  }
  const minimumFill = min * elementSize;
  let buffer;
  try {
    buffer = TransferArrayBuffer(viewedBuffer);
  } catch (e) {
    readIntoRequest.errorSteps(e);
    return;
  }
  const pullIntoDescriptor = new PullIntoDescriptor(buffer, arrayBufferByteLength(buffer), byteOffset,
    byteLength, minimumFill, elementSize, ctor, 'byob');
  if (controller.pendingPullIntos.length !== 0) {
    controller.pendingPullIntos.push(pullIntoDescriptor);
    ReadableStreamAddReadIntoRequest(stream, readIntoRequest);
    return;
  }
  if (stream.state === 'closed') {
    const emptyView = new ctor(pullIntoDescriptor.buffer, pullIntoDescriptor.byteOffset, 0);
    readIntoRequest.closeSteps(emptyView);
    return;
  }
  if (controller.queueTotalSize > 0) {
    if (ReadableByteStreamControllerFillPullIntoDescriptorFromQueue(controller, pullIntoDescriptor)) {
      const filledView = ReadableByteStreamControllerConvertPullIntoDescriptor(pullIntoDescriptor);
      ReadableByteStreamControllerHandleQueueDrain(controller);
      readIntoRequest.chunkSteps(filledView);
      return;
    }
    if (controller.closeRequested) {
      const e = invalidState('ReadableStream closed');
      ReadableByteStreamControllerError(controller, e);
      readIntoRequest.errorSteps(e);
      return;
    }
  }
  pushPendingPullInto(controller, pullIntoDescriptor);
  ReadableStreamAddReadIntoRequest(stream, readIntoRequest);
  ReadableByteStreamControllerCallPullIfNeeded(controller);
}

/** ReadableByteStreamControllerRespond */
export function ReadableByteStreamControllerRespond(controller, bytesWritten) {
  const firstDescriptor = controller.pendingPullIntos.peek();
  const state = controller.stream.state;
  if (state === 'closed') {
    if (bytesWritten !== 0) {
      throw invalidArgValue('bytesWritten', bytesWritten);
    }
  } else {
    if (bytesWritten === 0) {
      throw invalidArgValue('bytesWritten', bytesWritten);
    }
    if (firstDescriptor.bytesFilled + bytesWritten > firstDescriptor.byteLength) {
      throw invalidArgValueRange('bytesWritten', bytesWritten);
    }
  }
  if (firstDescriptor.bufferExposed) {
    firstDescriptor.buffer = TransferArrayBuffer(firstDescriptor.buffer);
    firstDescriptor.bufferExposed = false;
  }
  ReadableByteStreamControllerRespondInternal(controller, bytesWritten);
}

/** ReadableByteStreamControllerRespondInClosedState */
export function ReadableByteStreamControllerRespondInClosedState(controller, firstDescriptor) {
  if (firstDescriptor.readerType === 'none') {
    ReadableByteStreamControllerShiftPendingPullInto(controller);
  }
  const stream = controller.stream;
  if (ReadableStreamHasBYOBReader(stream)) {
    const filledPullIntos = [];
    const numReadIntoRequests = ReadableStreamGetNumReadIntoRequests(stream);
    while (filledPullIntos.length < numReadIntoRequests) {
      filledPullIntos[filledPullIntos.length] = ReadableByteStreamControllerShiftPendingPullInto(controller);
    }
    for (let i = 0; i < filledPullIntos.length; i++) {
      ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullIntos[i]);
    }
  }
}

/** ReadableByteStreamControllerRespondInReadableState */
export function ReadableByteStreamControllerRespondInReadableState(controller, bytesWritten, pullIntoDescriptor) {
  ReadableByteStreamControllerFillHeadPullIntoDescriptor(controller, bytesWritten, pullIntoDescriptor);
  const stream = controller.stream;
  if (pullIntoDescriptor.readerType === 'none') {
    ReadableByteStreamControllerEnqueueDetachedPullIntoToQueue(controller, pullIntoDescriptor);
    const filledPullIntos = ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
    for (let i = 0; i < filledPullIntos.length; i++) {
      ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullIntos[i]);
    }
    return;
  }
  if (pullIntoDescriptor.bytesFilled < pullIntoDescriptor.minimumFill) return;
  ReadableByteStreamControllerShiftPendingPullInto(controller);
  const remainderSize = pullIntoDescriptor.bytesFilled % pullIntoDescriptor.elementSize;
  if (remainderSize > 0) {
    const end = pullIntoDescriptor.byteOffset + pullIntoDescriptor.bytesFilled;
    ReadableByteStreamControllerEnqueueClonedChunkToQueue(controller, pullIntoDescriptor.buffer,
      end - remainderSize, remainderSize);
  }
  pullIntoDescriptor.bytesFilled -= remainderSize;
  const filledPullIntos = ReadableByteStreamControllerProcessPullIntoDescriptorsUsingQueue(controller);
  ReadableByteStreamControllerCommitPullIntoDescriptor(stream, pullIntoDescriptor);
  for (let i = 0; i < filledPullIntos.length; i++) {
    ReadableByteStreamControllerCommitPullIntoDescriptor(stream, filledPullIntos[i]);
  }
}

/** ReadableByteStreamControllerRespondInternal */
export function ReadableByteStreamControllerRespondInternal(controller, bytesWritten) {
  const firstDescriptor = controller.pendingPullIntos.peek();
  ReadableByteStreamControllerInvalidateBYOBRequest(controller);
  if (controller.stream.state === 'closed') {
    ReadableByteStreamControllerRespondInClosedState(controller, firstDescriptor);
  } else {
    ReadableByteStreamControllerRespondInReadableState(controller, bytesWritten, firstDescriptor);
  }
  ReadableByteStreamControllerCallPullIfNeeded(controller);
}

/** ReadableByteStreamControllerRespondWithNewView */
export function ReadableByteStreamControllerRespondWithNewView(controller, view) {
  const firstDescriptor = controller.pendingPullIntos.peek();
  const state = controller.stream.state;
  const byteLength = viewByteLength(view);
  if (state === 'closed') {
    if (byteLength !== 0) {
      throw invalidState('View is not zero-length');
    }
  } else if (byteLength === 0) {
    throw invalidState('View is zero-length');
  }
  const viewOffset = viewByteOffset(view);
  if (firstDescriptor.byteOffset + firstDescriptor.bytesFilled !== viewOffset) {
    throw invalidArgValueRange('view', view);
  }
  const buffer = viewBuffer(view);
  const bufferByteLength = arrayBufferByteLength(buffer);
  if (firstDescriptor.bufferByteLength !== bufferByteLength) {
    throw invalidArgValueRange('view', view);
  }
  if (firstDescriptor.bytesFilled + byteLength > firstDescriptor.byteLength) {
    throw invalidArgValueRange('view', view);
  }
  firstDescriptor.buffer = TransferArrayBuffer(buffer);
  firstDescriptor.bufferExposed = false;
  ReadableByteStreamControllerRespondInternal(controller, byteLength);
}

/** ReadableByteStreamControllerShiftPendingPullInto */
export function ReadableByteStreamControllerShiftPendingPullInto(controller) {
  return controller.pendingPullIntos.shift();
}

/** ReadableByteStreamControllerShouldCallPull */
export function ReadableByteStreamControllerShouldCallPull(controller) {
  const stream = controller.stream;
  if (stream.state !== 'readable') return false;
  if (controller.closeRequested) return false;
  if (!controller.started) return false;
  if (ReadableStreamHasDefaultReader(stream) && ReadableStreamGetNumReadRequests(stream) > 0) return true;
  if (ReadableStreamHasBYOBReader(stream) && ReadableStreamGetNumReadIntoRequests(stream) > 0) return true;
  return ReadableByteStreamControllerGetDesiredSize(controller) > 0;
}

/** SetUpReadableByteStreamController */
export function SetUpReadableByteStreamController(stream, controller, startAlgorithm, pullAlgorithm,
  cancelAlgorithm, highWaterMark, autoAllocateChunkSize) {
  InitializeReadableByteStreamController(stream, controller, pullAlgorithm, cancelAlgorithm, highWaterMark,
    autoAllocateChunkSize);
  // Algorithms are called with the controller as `this` (see underlying-source.js).
  const startResult = ReflectApply(startAlgorithm, controller, []);
  reactToStart(controller, startResult, ReadableByteStreamControllerStartFulfilled,
    ReadableByteStreamControllerStartRejected);
}

/** SetUpReadableByteStreamController up to (not including) the start algorithm. */
function InitializeReadableByteStreamController(stream, controller, pullAlgorithm, cancelAlgorithm, highWaterMark,
  autoAllocateChunkSize) {
  // A new controller's slots already hold the spec's initial values (an empty
  // queue, no pending pull-intos, not pulling, not started, byobRequest null).
  controller.stream = stream;
  controller.strategyHWM = highWaterMark;
  controller.pullAlgorithm = pullAlgorithm;
  controller.cancelAlgorithm = cancelAlgorithm;
  controller.autoAllocateChunkSize = autoAllocateChunkSize;
  stream.controller = controller;
}

/** The steps upon fulfillment of the start promise (shared by every controller). */
function ReadableByteStreamControllerStartFulfilled(controller) {
  controller.started = true;
  ReadableByteStreamControllerCallPullIfNeeded(controller);
}

/** The steps upon rejection of the start promise. */
function ReadableByteStreamControllerStartRejected(controller, e) {
  ReadableByteStreamControllerError(controller, e);
}

/** SetUpReadableByteStreamControllerFromUnderlyingSource (source callbacks already converted). */
export function SetUpReadableByteStreamControllerFromUnderlyingSource(stream, underlyingSource, start, pull, cancel,
  highWaterMark, autoAllocateChunkSize) {
  const controller = new ReadableByteStreamControllerImpl();
  attachUnderlyingSource(controller, underlyingSource, pull, cancel);
  if (autoAllocateChunkSize === 0) {
    throw invalidArgValue('source.autoAllocateChunkSize', autoAllocateChunkSize);
  }
  InitializeReadableByteStreamController(stream, controller, pullAlgorithmOf(pull), cancelAlgorithmOf(cancel),
    highWaterMark, autoAllocateChunkSize);
  const startResult = start === undefined ? undefined : ReflectApply(start, underlyingSource, [controller.facade]);
  reactToStart(controller, startResult, ReadableByteStreamControllerStartFulfilled,
    ReadableByteStreamControllerStartRejected);
}

/** CreateReadableByteStream: a byte stream whose controller runs internal algorithms. */
export function CreateReadableByteStream(startAlgorithm, pullAlgorithm, cancelAlgorithm) {
  const stream = new ReadableStreamImpl();
  const controller = new ReadableByteStreamControllerImpl();
  SetUpReadableByteStreamController(stream, controller, startAlgorithm, pullAlgorithm, cancelAlgorithm, 0,
    undefined);
  return stream;
}
