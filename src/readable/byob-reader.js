// ReadableStreamBYOBReader (spec 4.5) and its abstract operations (spec 4.9.4).
import { isTypedArray, typedArrayLength, viewBuffer, arrayBufferByteLength, isDetachedBuffer }
  from '../intrinsics.js';
import { Deferred, promiseRejectedWith } from '../promise.js';
import { kWrap } from '../facade.js';
import {
  illegalInvocation, defineInterface, requireDictionary, getMember, convertEnforceRangeULL, convertArrayBufferView,
  viewByteLengthOrZero,
} from '../webidl.js';
import {
  IsReadableStreamLocked, ReadableStreamReaderGenericInitialize, ReadableStreamReaderGenericRelease,
  ReadableStreamReaderGenericCancel, ReadableStreamBYOBReaderErrorReadIntoRequests, newRequestQueue,
  ReadableStreamReaderClosed,
} from './stream-ops.js';
import { isByteStreamController, ReadableByteStreamControllerPullInto } from './byte-controller.js';
import { unwrapReadableStream } from './readable-stream.js';
import { invalidArgType, invalidArgValue, invalidState, outOfRange, sharedBufferViewCode } from '../errors.js';
import { sharedViewMessage } from '../messages.js';

const sharedReadViewMessage = (view, buffer) => sharedViewMessage('view', view, buffer);

export class ReadableStreamBYOBReaderImpl {
  constructor() {
    this.isBYOB = true;
    this.stream = undefined;
    this.closedDeferred = undefined; // LazyDeferred: [[closedPromise]], made on first use
    this.readIntoRequests = newRequestQueue();
    this.api = undefined;
  }

  /** [[closedPromise]] (a LazyDeferred) */
  get closed() {
    return ReadableStreamReaderClosed(this);
  }

  get facade() {
    return this.api ?? new ReadableStreamBYOBReader(kWrap, this);
  }
}

/** The read-into request behind reader.read(view): settles its own promise with a read result. */
export class BYOBReadIntoRequest extends Deferred {
  // Said, not left to the default: Node 20's V8 passes a default derived
  // constructor's arguments on through the array iterator, which a program can replace.
  constructor() {
    super();
  }

  chunkSteps(chunk) {
    this.resolve({ done: false, value: chunk });
  }

  closeSteps(chunk) {
    this.resolve({ done: true, value: chunk });
  }

  errorSteps(e) {
    this.reject(e);
  }
}

/** AcquireReadableStreamBYOBReader */
export function AcquireReadableStreamBYOBReader(stream) {
  const reader = new ReadableStreamBYOBReaderImpl();
  SetUpReadableStreamBYOBReader(reader, stream);
  return reader;
}

/** SetUpReadableStreamBYOBReader */
export function SetUpReadableStreamBYOBReader(reader, stream) {
  if (IsReadableStreamLocked(stream)) {
    throw invalidState('ReadableStream is locked');
  }
  if (!isByteStreamController(stream.controller)) {
    throw invalidArgValue('stream', stream.api, 'must be a byte stream');
  }
  ReadableStreamReaderGenericInitialize(reader, stream);
  reader.readIntoRequests = newRequestQueue();
}

/** ReadableStreamBYOBReaderRead */
export function ReadableStreamBYOBReaderRead(reader, view, min, readIntoRequest) {
  const stream = reader.stream;
  stream.disturbed = true;
  if (stream.state === 'errored') {
    readIntoRequest.errorSteps(stream.storedError);
  } else {
    ReadableByteStreamControllerPullInto(stream.controller, view, min, readIntoRequest);
  }
}

/** ReadableStreamBYOBReaderRelease */
export function ReadableStreamBYOBReaderRelease(reader) {
  ReadableStreamReaderGenericRelease(reader);
  const e = invalidState('Releasing reader');
  ReadableStreamBYOBReaderErrorReadIntoRequests(reader, e);
}

export class ReadableStreamBYOBReader {
  #impl;

  constructor(stream, impl = undefined) {
    if (stream === kWrap) {
      this.#impl = impl;
      impl.api = this;
      return;
    }
    const streamImpl = unwrapReadableStream(stream);
    if (streamImpl === undefined) {
      throw invalidArgType('stream', 'an instance of ReadableStream', stream);
    }
    const reader = new ReadableStreamBYOBReaderImpl();
    SetUpReadableStreamBYOBReader(reader, streamImpl);
    this.#impl = reader;
    reader.api = this;
  }

  get closed() {
    if (!isBYOBReader(this)) return promiseRejectedWith(illegalInvocation('ReadableStreamBYOBReader', 'closed'));
    return this.#impl.closed.promise;
  }

  read(view, options = undefined) {
    if (!isBYOBReader(this)) return promiseRejectedWith(illegalInvocation('ReadableStreamBYOBReader', 'read'));
    let min;
    try {
      convertArrayBufferView(view, 'view', sharedBufferViewCode, sharedReadViewMessage);
      requireDictionary(options, 'options');
      const minValue = getMember(options, 'min');
      min = minValue === undefined
        ? 1
        : convertEnforceRangeULL(minValue, 'options.min', 'must be an integer', 'must be greater than 0');
    } catch (e) {
      return promiseRejectedWith(e);
    }
    const byteLength = viewByteLengthOrZero(view);
    const buffer = viewBuffer(view);
    if (byteLength === 0 || arrayBufferByteLength(buffer) === 0 || isDetachedBuffer(buffer)) {
      return promiseRejectedWith(invalidState('View or Viewed ArrayBuffer is zero-length or detached'));
    }
    if (min === 0) {
      return promiseRejectedWith(invalidArgValue('options.min', min, 'must be greater than 0'));
    }
    if (isTypedArray(view)) {
      if (min > typedArrayLength(view)) {
        return promiseRejectedWith(outOfRange('options.min', '<= view.length', min));
      }
    } else if (min > byteLength) {
      return promiseRejectedWith(outOfRange('options.min', '<= view.byteLength', min));
    }
    const reader = this.#impl;
    if (reader.stream === undefined) {
      return promiseRejectedWith(invalidState('The reader is not attached to a stream'));
    }
    const readIntoRequest = new BYOBReadIntoRequest();
    ReadableStreamBYOBReaderRead(reader, view, min, readIntoRequest);
    return readIntoRequest.promise;
  }

  releaseLock() {
    if (!isBYOBReader(this)) throw illegalInvocation('ReadableStreamBYOBReader', 'releaseLock');
    const reader = this.#impl;
    if (reader.stream === undefined) return;
    ReadableStreamBYOBReaderRelease(reader);
  }

  cancel(reason = undefined) {
    if (!isBYOBReader(this)) return promiseRejectedWith(illegalInvocation('ReadableStreamBYOBReader', 'cancel'));
    const reader = this.#impl;
    if (reader.stream === undefined) {
      return promiseRejectedWith(invalidState('The reader is not attached to a stream'));
    }
    return ReadableStreamReaderGenericCancel(reader, reason);
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #impl in value;
  }
  static unwrap(value) { return #impl in value ? value.#impl : undefined; }
}
const isBYOBReader = ReadableStreamBYOBReader.isInstance;
delete ReadableStreamBYOBReader.isInstance;
/** The internal record of a public ReadableStreamBYOBReader, or undefined (for util.inspect, src/inspect.js). */
export const unwrapBYOBReader = ReadableStreamBYOBReader.unwrap;
delete ReadableStreamBYOBReader.unwrap;
defineInterface(ReadableStreamBYOBReader, 'ReadableStreamBYOBReader', ['closed', 'read', 'releaseLock', 'cancel']);
