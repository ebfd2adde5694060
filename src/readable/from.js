// ReadableStream.from(): ReadableStreamFromIterable (spec 4.9.1), with the
// ECMAScript GetIterator(obj, async) it relies on, at the running Node's pace.
import { PromiseResolve, ReflectApply, SymbolAsyncIterator, SymbolIterator } from '../intrinsics.js';
import { enqueueMicrotask, promiseResolvedWith, promiseRejectedWith, reactToPromise, uponPromise } from '../promise.js';
import { isObject } from '../webidl.js';
import {
  CreateReadableStream, ReadableStreamDefaultControllerClose, ReadableStreamDefaultControllerEnqueue,
  ReadableStreamDefaultControllerError, kParked, parkedPullFulfilled,
} from './default-controller.js';
import { fromIteratesInPlace } from '../node-pace.js';
import { tiers } from '../tiers.js';
import {
  argNotIterable, codedTypeError, fromNotCallableCode, invalidState, plainTypeError,
} from '../errors.js';
import { cannotReadMessage, fromNotCallableMessage, nodeCallMessage } from '../messages.js';

/** GetMethod(value, key): undefined/null mean "absent"; anything else must be callable. */
function getMethod(value, key) {
  const method = value[key];
  if (method === undefined || method === null) return undefined;
  if (typeof method !== 'function') {
    // Worded as Node's from() fails there: its call of the method, or (Node 24+) its iterable check.
    throw key === 'return'
      ? plainTypeError(nodeCallMessage(method))
      : codedTypeError(fromNotCallableMessage(value, method), fromNotCallableCode());
  }
  return method;
}

/** GetIteratorFromMethod */
function getIteratorFromMethod(obj, method) {
  const iterator = ReflectApply(method, obj, []);
  if (!isObject(iterator)) throw invalidState('The iterator method must return an object');
  return { iterator, nextMethod: iterator.next, done: false };
}

/**
 * CreateAsyncFromSyncIterator as Node 20/22 make it: an async generator
 * delegating to the sync iterator (yield* is the language's own
 * CreateAsyncFromSyncIterator), whose next() settles a few microtasks later
 * than the bare wrapper's.
 */
function iterateInAsyncGenerator(syncRecord) {
  const syncIterable = { [SymbolIterator]: () => syncRecord.iterator };
  const generator = (async function* delegate() {
    return yield* syncIterable;
  })();
  return { iterator: generator, nextMethod: generator.next, done: false };
}

/**
 * GetIterator(obj, async); a sync iterator is wrapped when `wrapSync` (Node
 * 20/22, through an async generator), and used as it is otherwise (Node 24+).
 */
function getAsyncIterator(obj, wrapSync) {
  if (obj === undefined || obj === null) {
    // Node reads the method off it first: V8's TypeError.
    throw plainTypeError(cannotReadMessage(obj, SymbolAsyncIterator));
  }
  const method = getMethod(obj, SymbolAsyncIterator);
  if (method === undefined) {
    const syncMethod = getMethod(obj, SymbolIterator);
    if (syncMethod === undefined) {
      throw argNotIterable(obj);
    }
    const syncRecord = getIteratorFromMethod(obj, syncMethod);
    return wrapSync ? iterateInAsyncGenerator(syncRecord) : syncRecord;
  }
  return getIteratorFromMethod(obj, method);
}

const notAnIterResult = () => invalidState('The promise returned by the iterator.next() method must fulfill with an object');

/**
 * Node 20/22's pull: IteratorNext (a result that is not an object rejects the
 * pull), a reaction to next()'s promise as it is that enqueues the chunk,
 * and the pull's own promise settled two microtasks after that reaction (an
 * async function returning the reaction's promise).
 */
function pullAsync(record, stream) {
  let nextResult;
  try {
    nextResult = ReflectApply(record.nextMethod, record.iterator, []);
  } catch (e) {
    return promiseRejectedWith(e);
  }
  if (!isObject(nextResult)) return promiseRejectedWith(notAnIterResult());
  const enqueued = uponPromise(PromiseResolve(nextResult), (iterResult) => {
    if (!isObject(iterResult)) throw notAnIterResult();
    if (iterResult.done) {
      ReadableStreamDefaultControllerClose(stream.controller);
    } else {
      // Our own reaction, on a clean stack (value's getter has run): a pipe
      // reading the stream writes the chunk when enqueue() returns, as the
      // reference implementation's pipe writes inside its read's chunk
      // steps, not a microtask later (fuzz seed 1524).
      tiers.feedPump(stream, ReadableStreamDefaultControllerEnqueue, stream.controller, iterResult.value);
    }
  });
  return promiseResolvedWith(enqueued);
}

/**
 * Node 24+'s pull algorithm: parked (kParked) and settled by the reaction
 * that enqueues the chunk, after waiting for a value that is an object; a
 * result that is not an object, or a rejected value, errors the stream in
 * that reaction. Its reactions are made once per stream.
 */
function pullInPlaceAlgorithm(record, streamOf) {
  const onIterError = (e) => ReadableStreamDefaultControllerError(streamOf().controller, e);
  const enqueueValue = (value) => {
    const stream = streamOf();
    tiers.feedPump(stream, ReadableStreamDefaultControllerEnqueue, stream.controller, value);
    parkedPullFulfilled(stream.controller);
  };
  const onIterResult = (iterResult) => {
    if (!isObject(iterResult)) {
      onIterError(notAnIterResult());
      return;
    }
    if (iterResult.done) {
      const controller = streamOf().controller;
      ReadableStreamDefaultControllerClose(controller);
      parkedPullFulfilled(controller);
      return;
    }
    const value = iterResult.value;
    // Node 24+ waits for an object value as `await` would (a sync
    // iterator's promises, and an async iterator's too).
    if (isObject(value)) reactToPromise(PromiseResolve(value), enqueueValue, onIterError);
    else enqueueValue(value);
  };
  const onNotAnObject = () => onIterError(notAnIterResult());
  return () => {
    let nextResult;
    try {
      nextResult = ReflectApply(record.nextMethod, record.iterator, []);
    } catch (e) {
      return promiseRejectedWith(e);
    }
    if (isObject(nextResult)) reactToPromise(PromiseResolve(nextResult), onIterResult, onIterError);
    else enqueueMicrotask(onNotAnObject); // found wanting a microtask later, as Node's
    return kParked;
  };
}

/**
 * ReadableStreamFromIterable: returns an internal stream record. The pull
 * keeps the running Node's pace (src/node-pace.js): Node 24+ calls a sync
 * iterator's next() itself, waits for a value that is an object, and settles
 * the pull in the reaction that enqueues the chunk; Node 20/22 iterate a sync
 * iterable through an async generator and settle the pull two microtasks
 * after the chunk. A program that counts microtasks, or a pull() source
 * beside it, sees the same order as with Node's class.
 */
export function ReadableStreamFromIterable(asyncIterable) {
  const record = getAsyncIterator(asyncIterable, !fromIteratesInPlace);
  let stream;
  const startAlgorithm = () => undefined;
  const pullAlgorithm = fromIteratesInPlace
    ? pullInPlaceAlgorithm(record, () => stream)
    : () => pullAsync(record, stream);
  const cancelAlgorithm = (reason) => {
    const iterator = record.iterator;
    let returned;
    try {
      const returnMethod = getMethod(iterator, 'return');
      if (returnMethod === undefined) return promiseResolvedWith(undefined);
      const returnResult = ReflectApply(returnMethod, iterator, [reason]);
      // Node 24+ awaits return()'s result as it is, Node 20/22 two microtasks later.
      returned = fromIteratesInPlace ? PromiseResolve(returnResult) : promiseResolvedWith(returnResult);
    } catch (e) {
      return promiseRejectedWith(e);
    }
    return uponPromise(returned, (iterResult) => {
      if (!isObject(iterResult)) {
        throw invalidState('The promise returned by the iterator.return() method must fulfill with an object');
      }
      return undefined;
    });
  };
  stream = CreateReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, 0);
  return stream;
}
