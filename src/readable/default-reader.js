// ReadableStreamDefaultReader (spec 4.4) and the default read request used by read().
import { tiers } from '../tiers.js';
import { Deferred, promiseRejectedWith } from '../promise.js';
import { kWrap } from '../facade.js';
import { illegalInvocation, defineInterface } from '../webidl.js';
import {
  IsReadableStreamLocked, ReadableStreamReaderGenericInitialize, ReadableStreamReaderGenericRelease,
  ReadableStreamReaderGenericCancel, ReadableStreamDefaultReaderErrorReadRequests, newRequestQueue,
  ReadableStreamReaderClosed,
} from './stream-ops.js';
import { unwrapReadableStream } from './readable-stream.js';
import { counters } from '../metrics/counters.js';
import { sites, countAtSite } from '../metrics/sites.js';
import { invalidArgType, invalidState } from '../errors.js';

export class ReadableStreamDefaultReaderImpl {
  constructor() {
    this.isBYOB = false;
    this.stream = undefined;
    this.closedDeferred = undefined; // LazyDeferred: [[closedPromise]], made on first use
    this.readRequests = newRequestQueue();
    this.api = undefined;
  }

  /** [[closedPromise]] (a LazyDeferred) */
  get closed() {
    return ReadableStreamReaderClosed(this);
  }

  get facade() {
    return this.api ?? new ReadableStreamDefaultReader(kWrap, this);
  }
}

/** The read request behind reader.read(): settles its own promise with a read result. */
export class DefaultReadRequest extends Deferred {
  // Said, not left to the default: Node 20's V8 passes a default derived
  // constructor's arguments on through the array iterator, which a program can replace.
  constructor() {
    super();
  }

  chunkSteps(chunk) {
    this.resolve({ done: false, value: chunk });
  }

  closeSteps() {
    this.resolve({ done: true, value: undefined });
  }

  errorSteps(e) {
    this.reject(e);
  }
}

/** AcquireReadableStreamDefaultReader */
export function AcquireReadableStreamDefaultReader(stream) {
  const reader = new ReadableStreamDefaultReaderImpl();
  SetUpReadableStreamDefaultReader(reader, stream);
  return reader;
}

/** SetUpReadableStreamDefaultReader */
export function SetUpReadableStreamDefaultReader(reader, stream) {
  if (IsReadableStreamLocked(stream)) {
    throw invalidState('ReadableStream is locked');
  }
  ReadableStreamReaderGenericInitialize(reader, stream);
  reader.readRequests = newRequestQueue();
}

/** ReadableStreamDefaultReaderRead */
export function ReadableStreamDefaultReaderRead(reader, readRequest) {
  const stream = reader.stream;
  stream.disturbed = true;
  if (stream.state === 'closed') {
    readRequest.closeSteps();
  } else if (stream.state === 'errored') {
    readRequest.errorSteps(stream.storedError);
  } else {
    stream.controller.pullSteps(readRequest);
  }
}

/** ReadableStreamDefaultReaderRelease */
export function ReadableStreamDefaultReaderRelease(reader) {
  ReadableStreamReaderGenericRelease(reader);
  // The error reaches only pending reads: no read, no error to make.
  if (reader.readRequests.length === 0) return;
  ReadableStreamDefaultReaderErrorReadRequests(reader, invalidState('Releasing reader'));
}

export class ReadableStreamDefaultReader {
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
    const reader = new ReadableStreamDefaultReaderImpl();
    SetUpReadableStreamDefaultReader(reader, streamImpl);
    this.#impl = reader;
    reader.api = this;
  }

  get closed() {
    if (!isReader(this)) return promiseRejectedWith(illegalInvocation('ReadableStreamDefaultReader', 'closed'));
    return this.#impl.closed.promise;
  }

  read() {
    if (!isReader(this)) return promiseRejectedWith(illegalInvocation('ReadableStreamDefaultReader', 'read'));
    const reader = this.#impl;
    if (reader.stream === undefined) {
      return promiseRejectedWith(invalidState('The reader is not attached to a stream'));
    }
    const stream = reader.stream;
    const known = tiers.readBufferedChunk(stream); // tier 1 hook
    if (known !== undefined) return known;
    counters.specReads++;
    if (sites.on) countAtSite(stream, 'specReads');
    const readRequest = new DefaultReadRequest();
    ReadableStreamDefaultReaderRead(reader, readRequest);
    return readRequest.promise;
  }

  releaseLock() {
    if (!isReader(this)) throw illegalInvocation('ReadableStreamDefaultReader', 'releaseLock');
    const reader = this.#impl;
    if (reader.stream === undefined) return;
    ReadableStreamDefaultReaderRelease(reader);
  }

  cancel(reason = undefined) {
    if (!isReader(this)) return promiseRejectedWith(illegalInvocation('ReadableStreamDefaultReader', 'cancel'));
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
const isReader = ReadableStreamDefaultReader.isInstance;
delete ReadableStreamDefaultReader.isInstance;
/** The internal record of a public ReadableStreamDefaultReader, or undefined (for util.inspect, src/inspect.js). */
export const unwrapDefaultReader = ReadableStreamDefaultReader.unwrap;
delete ReadableStreamDefaultReader.unwrap;
defineInterface(ReadableStreamDefaultReader, 'ReadableStreamDefaultReader',
  ['closed', 'read', 'releaseLock', 'cancel']);
