// ReadableStream.from(): ReadableStreamFromIterable (spec 4.9.1), with the
// ECMAScript GetIterator(obj, async) and CreateAsyncFromSyncIterator it relies on.
import { PromiseResolve, ReflectApply, SymbolAsyncIterator, SymbolIterator } from '../intrinsics.js';
import { promiseResolvedWith, promiseRejectedWith, uponPromise } from '../promise.js';
import { isObject } from '../webidl.js';
import {
  CreateReadableStream, ReadableStreamDefaultControllerClose, ReadableStreamDefaultControllerEnqueue,
} from './default-controller.js';
import { feedPump } from '../fast/pipe-pump.js';
import {
  argNotIterable, codedTypeError, fromNextResultCode, fromNotCallableCode, invalidState, plainTypeError,
} from '../errors.js';

/** GetMethod(value, key): undefined/null mean "absent"; anything else must be callable. */
function getMethod(value, key) {
  const method = value[key];
  if (method === undefined || method === null) return undefined;
  if (typeof method !== 'function') {
    throw codedTypeError(`${String(key)} is not a function`, key === 'return' ? null : fromNotCallableCode());
  }
  return method;
}

/** GetIteratorFromMethod */
function getIteratorFromMethod(obj, method) {
  const iterator = ReflectApply(method, obj, []);
  if (!isObject(iterator)) throw invalidState('The iterator method did not return an object');
  return { iterator, nextMethod: iterator.next, done: false };
}

/** CreateAsyncFromSyncIterator: an async iterator record over a sync one. */
function createAsyncFromSyncIterator(syncRecord) {
  const continuation = (result, closeOnRejection) => {
    const done = !!result.done;
    const value = result.value;
    let valueWrapper;
    try {
      // PromiseResolve(%Promise%, value): a native promise is taken as it is
      // (its constructor is read), not wrapped in a new one.
      valueWrapper = PromiseResolve(value);
    } catch (e) {
      if (!done && closeOnRejection) closeSyncIterator(syncRecord);
      throw e;
    }
    return uponPromise(valueWrapper, (v) => ({ value: v, done }), (e) => {
      if (!done && closeOnRejection) closeSyncIterator(syncRecord);
      throw e;
    });
  };
  const asyncIterator = {
    next() {
      try {
        const result = ReflectApply(syncRecord.nextMethod, syncRecord.iterator, []);
        if (!isObject(result)) throw codedTypeError('The iterator result is not an object', fromNextResultCode());
        return continuation(result, true);
      } catch (e) {
        return promiseRejectedWith(e);
      }
    },
    return(value) {
      try {
        const iterator = syncRecord.iterator;
        const returnMethod = getMethod(iterator, 'return');
        if (returnMethod === undefined) return promiseResolvedWith({ value, done: true });
        const result = ReflectApply(returnMethod, iterator, [value]);
        if (!isObject(result)) throw codedTypeError('The iterator return() result is not an object', fromNextResultCode());
        return continuation(result, false);
      } catch (e) {
        return promiseRejectedWith(e);
      }
    },
  };
  return { iterator: asyncIterator, nextMethod: asyncIterator.next, done: false };
}

/** IteratorClose on a sync iterator whose value was rejected (errors from return() are ignored). */
function closeSyncIterator(syncRecord) {
  try {
    const returnMethod = getMethod(syncRecord.iterator, 'return');
    if (returnMethod !== undefined) ReflectApply(returnMethod, syncRecord.iterator, []);
  } catch {
    // The original rejection wins.
  }
}

/** GetIterator(obj, async) */
function getAsyncIterator(obj) {
  if (obj === undefined || obj === null) {
    throw plainTypeError('ReadableStream.from: argument 1 must be an async iterable or an iterable');
  }
  const method = getMethod(obj, SymbolAsyncIterator);
  if (method === undefined) {
    const syncMethod = getMethod(obj, SymbolIterator);
    if (syncMethod === undefined) {
      throw argNotIterable('ReadableStream.from: argument 1 is neither an async iterable nor an iterable');
    }
    return createAsyncFromSyncIterator(getIteratorFromMethod(obj, syncMethod));
  }
  return getIteratorFromMethod(obj, method);
}

/** ReadableStreamFromIterable: returns an internal stream record. */
export function ReadableStreamFromIterable(asyncIterable) {
  const record = getAsyncIterator(asyncIterable);
  let stream;
  const startAlgorithm = () => undefined;
  const pullAlgorithm = () => {
    let nextResult;
    try {
      nextResult = ReflectApply(record.nextMethod, record.iterator, []);
    } catch (e) {
      return promiseRejectedWith(e);
    }
    return uponPromise(promiseResolvedWith(nextResult), (iterResult) => {
      if (!isObject(iterResult)) throw invalidState('The async iterator\'s next() did not resolve to an object');
      if (iterResult.done) {
        ReadableStreamDefaultControllerClose(stream.controller);
      } else {
        const value = iterResult.value;
        // Our own reaction, on a clean stack (value's getter has run): a pipe
        // reading the stream writes the chunk when enqueue() returns, as the
        // reference implementation's pipe writes inside its read's chunk
        // steps, not a microtask later (fuzz seed 1524).
        feedPump(stream, ReadableStreamDefaultControllerEnqueue, stream.controller, value);
      }
    });
  };
  const cancelAlgorithm = (reason) => {
    const iterator = record.iterator;
    let returnResult;
    try {
      const returnMethod = getMethod(iterator, 'return');
      if (returnMethod === undefined) return promiseResolvedWith(undefined);
      returnResult = ReflectApply(returnMethod, iterator, [reason]);
    } catch (e) {
      return promiseRejectedWith(e);
    }
    return uponPromise(promiseResolvedWith(returnResult), (iterResult) => {
      if (!isObject(iterResult)) throw invalidState('The async iterator\'s return() did not resolve to an object');
      return undefined;
    });
  };
  stream = CreateReadableStream(startAlgorithm, pullAlgorithm, cancelAlgorithm, 0);
  return stream;
}
