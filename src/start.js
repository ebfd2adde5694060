// Reacting to a controller's start result without a promise or a closure per
// stream.
//
// Every SetUp*Controller ends with "let startPromise be a promise resolved
// with startResult; upon fulfillment ..., upon rejection ...". When start()
// returned a non-thenable (the common case: no start() at all, or one that
// returns undefined), that promise is already fulfilled, and the reaction is
// queued at once: a reaction on one shared fulfilled promise is queued at the
// same moment. Which stream it is for is kept here, in a FIFO: the reactions
// run in the order they were queued (the microtask queue is FIFO, and each
// runs exactly once), so the n-th one to run takes the n-th entry.
import { PromisePrototypeThen, ReflectApply } from './intrinsics.js';
import { promiseResolvedWith } from './promise.js';
import { RingQueue } from './queue.js';

/** One promise fulfilled with undefined, shared: reacting to it queues a microtask. */
const resolvedPromise = promiseResolvedWith(undefined);

/** Pending entries: steps, record, steps, record, ... in the order queued. */
let pending = new RingQueue();

function runNextSteps() {
  const steps = pending.shift();
  const record = pending.shift();
  // Storage grown by a burst of constructions is not kept once drained.
  if (pending.length === 0 && pending.mask > 255) pending = new RingQueue();
  steps(record);
}

/**
 * Queues a microtask that calls steps(record): exactly what a reaction to an
 * already fulfilled promise does, in the same place of the microtask queue.
 */
export function queueSteps(record, steps) {
  pending.push(steps);
  pending.push(record);
  ReflectApply(PromisePrototypeThen, resolvedPromise, [runNextSteps]);
}

/**
 * Upon fulfillment of "a promise resolved with startResult", calls
 * onFulfilled(record); upon its rejection, onRejected(record, reason).
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
  queueSteps(record, onFulfilled);
}
