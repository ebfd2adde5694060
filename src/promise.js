// WebIDL promise operations ("a new promise", "resolve", "react", "mark as
// handled") built only on captured intrinsics, so patching Promise.prototype.then
// in user code cannot intercept our internal reactions.
import {
  OriginalPromise, PromisePrototype, PromisePrototypeThen, PromiseResolve, PromiseReject, promiseThen,
} from './intrinsics.js';
import { invalidState } from './errors.js';

/** Does nothing: a reaction or listener whose outcome is ignored. */
export function noop() {}

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
 * A Deferred whose promise is made only if someone asks for it. A writer's
 * [[readyPromise]] flips with backpressure on every chunk, yet inside a pipe
 * nobody but the pipe looks at it: the pipe waits with onFulfilled(), which
 * needs no promise; a pipe watches its reader's and writer's [[closedPromise]]
 * with onSettled() the same way. Every rejection of such a promise is marked
 * as handled (the spec does so for each of them), also when the promise is
 * made late.
 */
export class LazyDeferred {
  constructor() {
    this.pending = true;
    this.rejected = false;
    this.reason = undefined;
    this.lazyReason = undefined; // a LazyTypeError standing for the reason, until the promise is made
    this.deferred = undefined; // the Deferred, once someone asked for the promise
    this.waiter = undefined; // an internal callback for fulfilment
    this.rejectWaiter = undefined; // and one for rejection
  }

  get promise() {
    let deferred = this.deferred;
    if (deferred === undefined) {
      deferred = new Deferred();
      this.deferred = deferred;
      if (this.rejected) {
        deferred.reject(this.lazyReason === undefined ? this.reason : this.lazyReason.value);
        setPromiseIsHandled(deferred.promise);
      } else if (!this.pending) {
        deferred.resolve(undefined);
      }
    }
    return deferred.promise;
  }

  resolve(value) {
    this.pending = false;
    const waiter = this.waiter;
    this.unwatch();
    if (waiter !== undefined) enqueueMicrotask(waiter); // when a reaction registered on the promise would run
    if (this.deferred !== undefined) this.deferred.resolve(value);
  }

  /** Rejects, marked as handled. */
  reject(reason) {
    this.pending = false;
    this.rejected = true;
    this.reason = reason;
    this.settleRejectWaiter();
    if (this.deferred !== undefined) {
      this.deferred.reject(reason);
      setPromiseIsHandled(this.deferred.promise);
    }
  }

  /** Rejects with `lazyError`'s TypeError, made now only if the promise already exists. Marked as handled. */
  rejectWithLazyError(lazyError) {
    if (this.deferred !== undefined) {
      this.reject(lazyError.value);
      return;
    }
    this.pending = false;
    this.rejected = true;
    this.lazyReason = lazyError;
    this.settleRejectWaiter();
  }

  settleRejectWaiter() {
    const rejectWaiter = this.rejectWaiter;
    this.unwatch();
    if (rejectWaiter !== undefined) enqueueMicrotask(rejectWaiter);
  }

  /** Runs `callback` a microtask after fulfilment, as a reaction would; never on rejection. */
  onFulfilled(callback) {
    this.onSettled(callback, undefined);
  }

  /**
   * Runs onFulfilled or onRejected (either may be undefined) a microtask after
   * settlement, as reactions registered now would. For a record only we see
   * (a pipe's reader or writer): one watcher at a time, and unwatch() forgets it.
   */
  onSettled(onFulfilled, onRejected) {
    if (this.pending) {
      this.waiter = onFulfilled;
      this.rejectWaiter = onRejected;
    } else {
      const callback = this.rejected ? onRejected : onFulfilled;
      if (callback !== undefined) enqueueMicrotask(callback);
    }
  }

  unwatch() {
    this.waiter = undefined;
    this.rejectWaiter = undefined;
  }
}

/**
 * A TypeError made only when someone looks at it. A released reader's or
 * writer's promises are rejected with one, and are rarely looked at after a
 * pipe ends; making an Error captures a stack trace (about a microsecond, and a
 * finished pipe released three of them).
 */
export class LazyTypeError {
  constructor(message) {
    this.message = message;
    this.error = undefined;
  }

  get value() {
    if (this.error === undefined) this.error = invalidState(this.message);
    return this.error;
  }
}

/** A LazyDeferred already fulfilled (or rejected with `reason`, handled). */
export function settledLazyDeferred(fulfilled, reason) {
  const d = new LazyDeferred();
  if (fulfilled) d.resolve(undefined);
  else d.reject(reason);
  return d;
}

/** One promise fulfilled with undefined, shared: reacting to it queues a microtask. */
const resolvedPromise = PromiseResolve(undefined);

/**
 * "Queue a microtask". A reaction on an already-fulfilled promise is queued at
 * once, exactly when the host's queueMicrotask would queue it, and costs far
 * less than Node's queueMicrotask (which creates an async resource per call).
 */
export function enqueueMicrotask(callback) {
  promiseThen(resolvedPromise, callback);
}

/**
 * Reacts to an algorithm result that is either a promise or `undefined`, where
 * `undefined` stands for "a promise resolved with undefined" (the callback
 * returned synchronously). Same reaction timing as the spec, one promise fewer.
 */
export function reactToResult(result, onFulfilled, onRejected = noop) {
  // The shared promise is fulfilled: a rejection handler would never run.
  if (result === undefined) promiseThen(resolvedPromise, onFulfilled);
  else promiseThen(result, onFulfilled, onRejected);
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

/** An algorithm done at once: see reactToResult (undefined means "resolved with undefined"). */
export function returnUndefined() {
  return undefined;
}

/** An algorithm whose result must be a promise: a promise resolved with undefined. */
export function resolvedUndefined() {
  return promiseResolvedWith(undefined);
}

/**
 * The promise that "reacting to" an already-fulfilled promise with steps that
 * return undefined yields: fulfilled with undefined a microtask from now.
 */
export function fulfilledNextMicrotask() {
  return promiseThen(resolvedPromise, returnUndefined);
}

/** "A promise rejected with reason". */
export const promiseRejectedWith = PromiseReject;

/** PerformPromiseThen through the captured `then`; returns the derived promise. */
export function uponPromise(promise, onFulfilled, onRejected) {
  return promiseThen(promise, onFulfilled, onRejected);
}

/**
 * uponPromise(promise, onFulfilled) for steps that return a promise, which the
 * derived promise adopts as a resolve does (a microtask later it reacts to
 * that promise, then settles as it settled), but through the captured then:
 * a resolve looks `then` up on the promise, where a program may have replaced it.
 */
export function uponPromiseAdopting(promise, onFulfilled) {
  // The original then: V8's own adoption, the same steps with fewer allocations.
  if (PromisePrototype.then === PromisePrototypeThen) return promiseThen(promise, onFulfilled);
  let resolve;
  let reject;
  const adopted = new OriginalPromise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promiseThen(promise, (value) => {
    let inner;
    try {
      inner = onFulfilled(value);
    } catch (error) {
      reject(error);
      return;
    }
    enqueueMicrotask(() => {
      promiseThen(inner, resolve, reject); // not returned: that promise would be adopted too
    });
  }, reject);
  return adopted;
}

/**
 * "Upon fulfillment" / "upon rejection" where the derived promise is not needed.
 * A missing rejection handler means "ignore rejection", so the derived promise
 * never rejects unobserved.
 */
export function reactToPromise(promise, onFulfilled, onRejected = noop) {
  promiseThen(promise, onFulfilled, onRejected);
}

/** Sets [[PromiseIsHandled]] so a rejection nobody observes is not reported. */
export function setPromiseIsHandled(promise) {
  promiseThen(promise, undefined, noop);
}

