// Async iteration of a ReadableStream (spec 4.2.5 "Asynchronous iteration" on
// top of WebIDL's asynchronous iterator machinery: the ongoing-promise queue
// that makes next() and return() calls run one after another).
import {
  ObjectGetPrototypeOf, ObjectSetPrototypeOf, ObjectDefineProperty, SymbolToStringTag,
} from '../intrinsics.js';
import { nextBufferedChunk } from '../fast/sync-read.js';
import { counters } from '../metrics/counters.js';
import { sites, countAtSite } from '../metrics/sites.js';
import {
  Deferred, promiseResolvedWith, promiseRejectedWith, resolvedUndefined, uponPromise,
} from '../promise.js';
import { illegalInvocation } from '../webidl.js';
import { ReadableStreamReaderGenericCancel } from './stream-ops.js';
import {
  AcquireReadableStreamDefaultReader, ReadableStreamDefaultReaderRead, ReadableStreamDefaultReaderRelease,
} from './default-reader.js';

const AsyncIteratorPrototype = ObjectGetPrototypeOf(ObjectGetPrototypeOf(async function* () {}).prototype);
const END_OF_ITERATION = Symbol('end of iteration');

class AsyncIteratorImpl {
  constructor(reader, preventCancel) {
    this.reader = reader;
    this.preventCancel = preventCancel;
    this.ongoingPromise = undefined;
    this.isFinished = false;
  }

  /** The iteration result for a chunk already dequeued, with the spec's timing. */
  settleNextLater(chunk) {
    return settleNextLater(this, { value: chunk, done: false });
  }
}

/** Read request for "get the next iteration result". */
class IteratorReadRequest extends Deferred {
  constructor(reader) {
    super();
    this.reader = reader;
  }

  chunkSteps(chunk) {
    this.resolve(chunk);
  }

  closeSteps() {
    ReadableStreamDefaultReaderRelease(this.reader);
    this.resolve(END_OF_ITERATION);
  }

  errorSteps(e) {
    ReadableStreamDefaultReaderRelease(this.reader);
    this.reject(e);
  }
}

function getNextIterationResult(it) {
  const readRequest = new IteratorReadRequest(it.reader);
  ReadableStreamDefaultReaderRead(it.reader, readRequest);
  return readRequest.promise;
}

function asyncIteratorReturn(it, arg) {
  const reader = it.reader;
  if (!it.preventCancel) {
    const result = ReadableStreamReaderGenericCancel(reader, arg);
    ReadableStreamDefaultReaderRelease(reader);
    return result;
  }
  ReadableStreamDefaultReaderRelease(reader);
  return promiseResolvedWith(undefined);
}

function nextSteps(it) {
  if (it.isFinished) return promiseResolvedWith({ value: undefined, done: true });
  const nextPromise = getNextIterationResult(it);
  const withSteps = uponPromise(nextPromise, (next) => {
    it.ongoingPromise = undefined;
    if (next === END_OF_ITERATION) {
      it.isFinished = true;
      return { value: undefined, done: true };
    }
    return { value: next, done: false };
  }, (reason) => {
    it.ongoingPromise = undefined;
    it.isFinished = true;
    throw reason;
  });
  it.ongoingPromise = withSteps;
  return withSteps;
}

/**
 * The spec's timing for a chunk already dequeued: the iteration result one
 * microtask later, and next() calls meanwhile wait for it (the ongoing promise).
 */
function settleNextLater(it, result) {
  const withSteps = uponPromise(resolvedUndefined(), () => {
    it.ongoingPromise = undefined;
    return result;
  });
  it.ongoingPromise = withSteps;
  return withSteps;
}

function returnSteps(it, value) {
  if (it.isFinished) return promiseResolvedWith({ value, done: true });
  it.isFinished = true;
  return asyncIteratorReturn(it, value);
}

/**
 * The next steps, once the ongoing promise settles. A function of its own:
 * closures in next() would make every call allocate their captured
 * variables (a context), the tier 1 ones included.
 */
function nextStepsAfter(it, ongoing) {
  return uponPromise(ongoing, () => nextSteps(it), () => nextSteps(it));
}

/** The iterator object handed to users; its prototype chain ends in %AsyncIteratorPrototype%. */
class ReadableStreamAsyncIterator {
  #impl;

  constructor(impl) {
    this.#impl = impl;
  }

  next() {
    if (!isIterator(this)) return promiseRejectedWith(illegalInvocation('ReadableStreamAsyncIterator', 'next', null));
    const it = this.#impl;
    const ongoing = it.ongoingPromise;
    if (ongoing === undefined && !it.isFinished) {
      // Nothing is in flight, so chunks still come out in order: the dequeue
      // is synchronous, and a later next() finds no ongoing promise to wait for.
      const known = nextBufferedChunk(it.reader.stream, it); // tier 1 hook
      if (known !== undefined) return known;
    }
    counters.specReads++;
    if (sites.on) countAtSite(it.reader.stream, 'specReads');
    it.ongoingPromise = ongoing === undefined ? nextSteps(it) : nextStepsAfter(it, ongoing);
    return it.ongoingPromise;
  }

  return(value) {
    if (!isIterator(this)) return promiseRejectedWith(illegalInvocation('ReadableStreamAsyncIterator', 'return', null));
    const it = this.#impl;
    const ongoing = it.ongoingPromise;
    const returnPromise = ongoing === undefined
      ? returnSteps(it, value)
      : uponPromise(ongoing, () => returnSteps(it, value), () => returnSteps(it, value));
    it.ongoingPromise = returnPromise;
    return uponPromise(returnPromise, () => ({ value, done: true }));
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #impl in value;
  }
}
const isIterator = ReadableStreamAsyncIterator.isInstance;
const iteratorPrototype = ReadableStreamAsyncIterator.prototype;
ObjectSetPrototypeOf(iteratorPrototype, AsyncIteratorPrototype);
delete iteratorPrototype.constructor;
ObjectDefineProperty(iteratorPrototype, 'next', { enumerable: true });
ObjectDefineProperty(iteratorPrototype, 'return', { enumerable: true });
ObjectDefineProperty(iteratorPrototype, SymbolToStringTag, {
  value: 'ReadableStream AsyncIterator', configurable: true,
});

/** values() / [Symbol.asyncIterator](): acquires a reader and returns the iterator object. */
export function CreateReadableStreamAsyncIterator(stream, preventCancel) {
  const reader = AcquireReadableStreamDefaultReader(stream);
  return new ReadableStreamAsyncIterator(new AsyncIteratorImpl(reader, preventCancel));
}
