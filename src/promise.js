// WebIDL promise operations ("a new promise", "resolve", "react", "mark as
// handled") built only on captured intrinsics, so patching Promise.prototype.then
// in user code cannot intercept our internal reactions.
import {
  OriginalPromise, PromisePrototypeThen, PromiseResolve, PromiseReject, ReflectApply,
} from './intrinsics.js';

/**
 * A promise plus its resolving functions (the spec's "a new promise"). `pending`
 * answers the spec's "if promise is pending" checks on writers' promises.
 */
export class Deferred {
  constructor() {
    this.pending = true;
    this.resolveFn = undefined;
    this.rejectFn = undefined;
    this.promise = new OriginalPromise((resolve, reject) => {
      this.resolveFn = resolve;
      this.rejectFn = reject;
    });
  }

  resolve(value) {
    this.pending = false;
    this.resolveFn(value);
  }

  reject(reason) {
    this.pending = false;
    this.rejectFn(reason);
  }
}

/**
 * WebIDL "a promise resolved with x": a new promise resolved with x. For a
 * thenable x that is not the same as Promise.resolve(x) (which returns a
 * native promise as is): adoption takes extra microtask ticks, and WPT checks
 * that ordering. Primitives take the cheap path with identical timing.
 */
export function promiseResolvedWith(value) {
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    return new OriginalPromise((resolve) => resolve(value));
  }
  return PromiseResolve(value);
}

/** "A promise rejected with reason". */
export const promiseRejectedWith = PromiseReject;

/** PerformPromiseThen through the captured `then`; returns the derived promise. */
export function uponPromise(promise, onFulfilled, onRejected) {
  return ReflectApply(PromisePrototypeThen, promise, [onFulfilled, onRejected]);
}

function noop() {}

/**
 * "Upon fulfillment" / "upon rejection" where the derived promise is not needed.
 * A missing rejection handler means "ignore rejection", so the derived promise
 * never rejects unobserved.
 */
export function reactToPromise(promise, onFulfilled, onRejected = noop) {
  ReflectApply(PromisePrototypeThen, promise, [onFulfilled, onRejected]);
}

/** Sets [[PromiseIsHandled]] so a rejection nobody observes is not reported. */
export function setPromiseIsHandled(promise) {
  ReflectApply(PromisePrototypeThen, promise, [undefined, noop]);
}

/** A promise already rejected with reason and marked as handled. */
export function rejectedHandled(reason) {
  const p = PromiseReject(reason);
  setPromiseIsHandled(p);
  return p;
}
