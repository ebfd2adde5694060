// Async iteration of a ReadableStream (spec 4.2.5 "Asynchronous iteration" on
// top of WebIDL's asynchronous iterator machinery: the ongoing-promise queue
// that makes next() and return() calls run one after another).
import {
  ObjectGetPrototypeOf, ObjectSetPrototypeOf, ObjectDefineProperty, SymbolAsyncIterator, SymbolToStringTag, PromiseResolve,
  promiseThen,
} from '../intrinsics.js';
import { nodeMajor } from '../node-version.js';
import { tiers } from '../tiers.js';
import { readsAfterQueuedRead } from '../node-pace.js';
import { counters } from '../metrics/counters.js';
import { sites, countAtSite } from '../metrics/sites.js';
import { Deferred, promiseRejectedWith, resolvedUndefined, uponPromise } from '../promise.js';
import { illegalInvocation } from '../webidl.js';
import { asyncIteratorBrandCode } from '../errors.js';
import { ReadableStreamReaderGenericCancel } from './stream-ops.js';
import {
  AcquireReadableStreamDefaultReader, ReadableStreamDefaultReaderRead, ReadableStreamDefaultReaderRelease,
} from './default-reader.js';

const AsyncIteratorPrototype = ObjectGetPrototypeOf(ObjectGetPrototypeOf(async function* () {}).prototype);

class AsyncIteratorImpl {
  constructor(reader, preventCancel) {
    this.reader = reader;
    this.preventCancel = preventCancel;
    this.ongoingPromise = undefined;
    this.isFinished = false;
    this.started = false;
    // next()'s steps once the ongoing promise settles, made once per
    // iterator (a closure per call would allocate in every chained next()).
    const readAfterOngoing = () => chainedNextSteps(this);
    this.readAfterOngoing = readAfterOngoing;
  }
}

/**
 * Read request for "get the next iteration result". Its steps settle next()'s
 * promise with the iteration result itself, as native Node's do (WebIDL reacts
 * to the read's promise, a microtask later), and clear the ongoing promise.
 */
class IteratorReadRequest extends Deferred {
  constructor(it) {
    super();
    this.it = it;
  }

  chunkSteps(chunk) {
    this.it.ongoingPromise = undefined;
    this.resolve({ value: chunk, done: false });
  }

  closeSteps() {
    const it = this.it;
    it.ongoingPromise = undefined;
    it.isFinished = true;
    ReadableStreamDefaultReaderRelease(it.reader);
    this.resolve({ value: undefined, done: true });
  }

  errorSteps(e) {
    const it = this.it;
    it.ongoingPromise = undefined;
    it.isFinished = true;
    ReadableStreamDefaultReaderRelease(it.reader);
    this.reject(e);
  }
}

/** next()'s steps once nothing is ongoing: a read, through a read request. */
function nextSteps(it) {
  if (it.isFinished) return PromiseResolve({ value: undefined, done: true });
  counters.specReads++;
  if (sites.on) countAtSite(it.reader.stream, 'specReads');
  const readRequest = new IteratorReadRequest(it);
  ReadableStreamDefaultReaderRead(it.reader, readRequest);
  return readRequest.promise;
}

/** return()'s steps once nothing is ongoing. */
function returnSteps(it, value) {
  if (it.isFinished) return PromiseResolve({ value, done: true });
  it.isFinished = true;
  const reader = it.reader;
  if (!it.preventCancel) {
    const result = ReadableStreamReaderGenericCancel(reader, value);
    ReadableStreamDefaultReaderRelease(reader);
    return uponPromise(result, () => ({ value, done: true }));
  }
  ReadableStreamDefaultReaderRelease(reader);
  return PromiseResolve({ value, done: true });
}

/**
 * The next steps, once the ongoing promise settles (either way). A queued
 * chunk is taken at once (tier 1), and, as a read request's steps would, the
 * ongoing promise is cleared: the call after this one reads at once.
 * Returning the resolved promise keeps the spec path's pace (the derived
 * promise adopts it, as it adopts the read's).
 */
function chainedNextSteps(it) {
  if (!it.isFinished) {
    const known = tiers.nextBufferedChunk(it.reader.stream); // tier 1 hook
    if (known !== undefined) {
      it.ongoingPromise = undefined;
      return known;
    }
  }
  return nextSteps(it);
}

function nextStepsAfter(it, ongoing) {
  return promiseThen(ongoing, it.readAfterOngoing, it.readAfterOngoing);
}

function returnStepsAfter(it, ongoing, value) {
  return uponPromise(ongoing, () => returnSteps(it, value), () => returnSteps(it, value));
}

/** The iterator object handed to users; its prototype chain ends in %AsyncIteratorPrototype%. */
class ReadableStreamAsyncIterator {
  #impl;

  constructor(impl) {
    this.#impl = impl;
  }

  next() {
    if (!isIterator(this)) return promiseRejectedWith(illegalInvocation('ReadableStreamAsyncIterator', 'next', asyncIteratorBrandCode()));
    const it = this.#impl;
    // Native Node (24+) waits a microtask before the first read, and so the
    // first next() settles three microtasks after it; programs that race the
    // first next() with the stream's start or pull see that. Once per iterator.
    if (!it.started) {
      it.started = true;
      it.ongoingPromise = nextStepsAfter(it, resolvedUndefined());
      return it.ongoingPromise;
    }
    const ongoing = it.ongoingPromise;
    if (ongoing !== undefined) {
      it.ongoingPromise = nextStepsAfter(it, ongoing);
      return it.ongoingPromise;
    }
    if (!it.isFinished) {
      const known = tiers.nextBufferedChunk(it.reader.stream); // tier 1 hook
      if (known !== undefined) {
        // Node 20/22: the next call waits on this one (readsAfterQueuedRead).
        // Read at once, it could merge into the pullAgain of a pull() in
        // progress, and a pull() that enqueued nothing then left the stream
        // waiting where Node's read came after it and pulled again (fuzz seed 88991).
        if (readsAfterQueuedRead) it.ongoingPromise = known;
        return known;
      }
    }
    // As natively, the ongoing promise is the read's even when its steps ran
    // inside the read (a pull that enqueued at once): the next call waits on it.
    it.ongoingPromise = nextSteps(it);
    return it.ongoingPromise;
  }

  return(value) {
    if (!isIterator(this)) return promiseRejectedWith(illegalInvocation('ReadableStreamAsyncIterator', 'return', asyncIteratorBrandCode()));
    const it = this.#impl;
    it.started = true;
    const ongoing = it.ongoingPromise;
    it.ongoingPromise = ongoing === undefined ? returnSteps(it, value) : returnStepsAfter(it, ongoing, value);
    return it.ongoingPromise;
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
// Node 20 to 24 give each iterator its own [Symbol.asyncIterator], so a
// `for await` over one keeps working where a program replaced
// %AsyncIteratorPrototype%'s; ours answers on the prototype there (Node 26
// inherits it, as the standard does).
if (nodeMajor < 26) {
  ObjectDefineProperty(iteratorPrototype, SymbolAsyncIterator, {
    value: { [SymbolAsyncIterator]() { return this; } }[SymbolAsyncIterator],
    writable: true, enumerable: false, configurable: true,
  });
}

/** values() / [Symbol.asyncIterator](): acquires a reader and returns the iterator object. */
export function CreateReadableStreamAsyncIterator(stream, preventCancel) {
  const reader = AcquireReadableStreamDefaultReader(stream);
  return new ReadableStreamAsyncIterator(new AsyncIteratorImpl(reader, preventCancel));
}
