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
import { ArrayCtor } from './intrinsics.js';
import { enqueueMicrotask, promiseResolvedWith, reactToPromise } from './promise.js';

// Pending entries, in the order queued: steps, record, steps, record, ...
// They sit in fixed-size blocks linked head to tail, so a burst of
// constructions neither copies the queue as it grows nor leaves grown storage
// behind: a drained block is dropped (one is kept for reuse).
const BLOCK_SIZE = 1024;

class Block {
  constructor() {
    this.items = new ArrayCtor(BLOCK_SIZE);
    this.next = undefined;
  }
}

class StepsQueue {
  constructor() {
    this.head = new Block();
    this.headIndex = 0;
    this.tail = this.head;
    this.tailIndex = 0;
    this.spare = undefined;
  }

  push(value) {
    if (this.tailIndex === BLOCK_SIZE) {
      let block = this.spare;
      if (block === undefined) {
        block = new Block();
      } else {
        this.spare = undefined;
      }
      this.tail.next = block;
      this.tail = block;
      this.tailIndex = 0;
    }
    this.tail.items[this.tailIndex++] = value;
  }

  shift() {
    if (this.headIndex === BLOCK_SIZE) {
      const drained = this.head;
      this.head = drained.next;
      this.headIndex = 0;
      drained.next = undefined;
      this.spare = drained;
    }
    const items = this.head.items;
    const value = items[this.headIndex];
    items[this.headIndex++] = undefined;
    return value;
  }
}

const pending = new StepsQueue();

function runNextSteps() {
  const steps = pending.shift();
  const record = pending.shift();
  steps(record);
}

/**
 * Queues a microtask that calls steps(record): exactly what a reaction to an
 * already fulfilled promise does, in the same place of the microtask queue.
 */
export function queueSteps(record, steps) {
  pending.push(steps);
  pending.push(record);
  enqueueMicrotask(runNextSteps);
}

/**
 * Upon fulfillment of "a promise resolved with startResult", calls
 * onFulfilled(record); upon its rejection, onRejected(record, reason).
 */
export function reactToStart(record, startResult, onFulfilled, onRejected) {
  if ((typeof startResult === 'object' && startResult !== null) || typeof startResult === 'function') {
    // A thenable maybe: the spec's promise, and reactions that know the record.
    reactToPromise(promiseResolvedWith(startResult), () => onFulfilled(record), (r) => onRejected(record, r));
    return;
  }
  // Fulfilled already, whatever the value was: the reactions never read it.
  queueSteps(record, onFulfilled);
}
