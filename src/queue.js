// Queues. `RingQueue` is the FIFO used for chunks and for pending requests: a
// power-of-two ring buffer, so push/shift are O(1) with no array re-indexing.
// `QueueWithSizes` adds the spec's "queue-with-sizes" bookkeeping
// (EnqueueValueWithSize, DequeueValue, PeekQueueValue, ResetQueue).
import { ArrayCtor, OriginalTypeError, NumberIsNaN } from './intrinsics.js';
import { invalidArgValueRange } from './errors.js';

const INITIAL_CAPACITY = 8;
// Most queues of an idle stream never hold anything: they share this empty
// array (never written: with mask -1 the first push grows it first) and get
// their own storage on the first push.
const noItems = [];

export class RingQueue {
  constructor() {
    this.items = noItems;
    this.head = 0;
    this.length = 0;
    this.mask = -1;
  }

  push(item) {
    if (this.length > this.mask) this.grow();
    this.items[(this.head + this.length) & this.mask] = item;
    this.length++;
  }

  /** Takes the front item; the queue must not be empty. */
  shift() {
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) & this.mask;
    this.length--;
    return item;
  }

  peek() {
    return this.items[this.head];
  }

  /** The item `i` places from the front (0 <= i < length). */
  at(i) {
    return this.items[(this.head + i) & this.mask];
  }

  clear() {
    if (this.length !== 0) {
      this.items = noItems;
      this.mask = -1;
    }
    this.head = 0;
    this.length = 0;
  }

  grow() {
    if (this === emptyQueue || this === emptyQueueWithSizes) {
      throw new OriginalTypeError('internal error: an item added to a shared empty queue');
    }
    const old = this.items;
    const capacity = old.length === 0 ? INITIAL_CAPACITY : old.length * 2;
    const items = new ArrayCtor(capacity);
    for (let i = 0; i < this.length; i++) items[i] = old[(this.head + i) & this.mask];
    this.items = items;
    this.head = 0;
    this.mask = capacity - 1;
  }
}

/**
 * One shared empty queue, only ever read: the request queue (read, read-into
 * or write requests) of a reader or stream with no pending request yet, and a
 * byte controller's chunk queue and pending pull-intos until their first
 * item. The functions that add an item give the owner its own queue first.
 */
export const emptyQueue = new RingQueue();

/**
 * Pushes `item` onto `queue`, or onto a new RingQueue if `queue` is the shared
 * empty one; returns the queue that now holds it, for the owner to keep.
 */
export function pushOwned(queue, item) {
  if (queue === emptyQueue) queue = new RingQueue();
  queue.push(item);
  return queue;
}

/**
 * Chunks with their sizes; `totalSize` is the spec's [[queueTotalSize]].
 * The chunks are this object's own ring (it is a RingQueue), so an idle
 * stream's queue is one small object with no storage. Without a size
 * algorithm every size is 1: sizes are then not stored at all (`sizes` stays
 * undefined), and the first other size writes down the 1s before it.
 */
export class QueueWithSizes extends RingQueue {
  constructor() {
    super();
    this.sizes = undefined; // a RingQueue once a size other than 1 was enqueued
    this.totalSize = 0;
  }

  /** EnqueueValueWithSize */
  enqueue(value, size) {
    if (size === 1 && this.sizes === undefined) {
      this.push(value);
      this.totalSize += 1;
      return;
    }
    this.enqueueSized(value, size);
  }

  /** EnqueueValueWithSize for a size other than 1, or once one was seen (kept apart for V8's inlining). */
  enqueueSized(value, size) {
    if (typeof size !== 'number' || NumberIsNaN(size) || size < 0 || size === Infinity) {
      throw invalidArgValueRange('size', size);
    }
    if (this.sizes === undefined) {
      this.sizes = new RingQueue();
      for (let i = 0; i < this.length; i++) this.sizes.push(1);
    }
    this.push(value);
    this.sizes.push(size);
    this.totalSize += size;
  }

  /** DequeueValue */
  dequeue() {
    const size = this.sizes === undefined ? 1 : this.sizes.shift();
    this.totalSize -= size;
    // Floating-point subtraction can leave a tiny negative remainder.
    if (this.totalSize < 0) this.totalSize = 0;
    return this.shift();
  }
}

/**
 * The queue of every controller that has queued nothing yet: a stream made
 * and dropped never does, nor do most TransformStream sides in a fused chain.
 * Never written to: a controller takes its own queue before its first
 * enqueue (ownQueueWithSizes), and ResetQueue puts this one back.
 */
export const emptyQueueWithSizes = new QueueWithSizes();

/** `controller.queue`, made the controller's own first if it is the shared empty one. */
export function ownQueueWithSizes(controller) {
  let queue = controller.queue;
  if (queue === emptyQueueWithSizes) controller.queue = queue = new QueueWithSizes();
  return queue;
}
