// Reacting to a controller's start result without a closure per stream.
//
// Every SetUp*Controller ends with "let startPromise be a promise resolved
// with startResult; upon fulfillment ..., upon rejection ...". When start()
// returned a non-thenable (the common case: no start() at all, or one that
// returns undefined), that promise is already fulfilled, and the reaction is
// queued at once. Here the promise is instead resolved with the controller's
// own record, so the shared reaction receives the record as its argument:
// same queueing, and no closure (nor context) per stream to hold on to it.
import { ObjectDefineProperty, PromisePrototypeThen, PromiseResolve, ReflectApply } from './intrinsics.js';
import { promiseResolvedWith } from './promise.js';

/**
 * Gives `ctor`'s prototype an own `then` of undefined, so resolving a promise
 * with one of its instances fulfils it with the instance and never looks up
 * (or calls) a `then` that user code put on Object.prototype.
 */
export function markNotThenable(ctor) {
  ObjectDefineProperty(ctor.prototype, 'then', {
    value: undefined, writable: false, enumerable: false, configurable: false,
  });
}

/** A promise fulfilled with `record` (whose class went through markNotThenable). */
export function promiseOfRecord(record) {
  return PromiseResolve(record);
}

/**
 * Upon fulfillment of "a promise resolved with startResult", calls
 * onFulfilled(record); upon its rejection, onRejected(record, reason).
 * `record`'s class must have gone through markNotThenable.
 */
export function reactToStart(record, startResult, onFulfilled, onRejected) {
  if ((typeof startResult === 'object' && startResult !== null) || typeof startResult === 'function') {
    // A thenable maybe: the spec's promise, and reactions that know the record.
    ReflectApply(PromisePrototypeThen, promiseResolvedWith(startResult), [
      () => onFulfilled(record),
      (r) => onRejected(record, r),
    ]);
    return;
  }
  // Fulfilled already, whatever the value was: the reactions never read it.
  ReflectApply(PromisePrototypeThen, PromiseResolve(record), [onFulfilled, undefined]);
}
