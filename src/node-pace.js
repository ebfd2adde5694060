// How Node's own streams pace reads and the per-chunk callbacks on the
// running Node, where versions differ and a program can tell (fuzz seeds
// 88991, 111738: a pull() that enqueues nothing, whose stream waited forever
// under the preload where Node's pulled again). Taken from the version, not
// asked of Node at run time: a probe would run Node's stream code and leave
// ticks queued. test/unit/async-iterator-pace.test.mjs and
// callback-pace.test.mjs provoke Node's behaviour on every version we test,
// so a release that changes it fails there.
import { nodeMajor as major, nodeMinor as minor } from './node-version.js';

/**
 * Node 20 and 22 keep the promise of a next() that took a queued chunk as
 * the iterator's ongoing one, so the next next() reads once it has settled,
 * a microtask or more later; Node 24+ reads a queued chunk at once every
 * time (src/readable/async-iterator.js).
 */
export const readsAfterQueuedRead = major < 24;

/**
 * What pull() or write() returns: WebIDL (and Node 20/22) react to a new
 * promise resolved with it, two microtasks after a promise settles; Node 24+
 * calls them without the conversion and reacts to Promise.resolve(result), a
 * native promise as it is. Start, close, abort, cancel and flush keep the
 * conversion on every Node. So does transform() here, though Node 24+ calls
 * it as write(): our pipe reads a transform's output a microtask or two later
 * than Node 24+'s, and a transform() that enqueues and then rejects would
 * error the output before the pipe took its chunks (test/interop/drop-in:
 * "a pipe reading a transform whose transform() enqueues twice and rejects").
 */
export const perChunkPromiseAsIs = major >= 24;

/**
 * A write into a TransformStream that waits for its output to be read: Node
 * 26+, and 24.22+ (where it was backported), reacts to the promise of the
 * transform() it then runs directly, where the standard (and Node 20-22,
 * 24.21 and before) resolve the write's own promise with it, a microtask or
 * two later (src/transform/transform-stream.js).
 */
export const parkedWriteReactsToTransform = major >= 26 || (major === 24 && minor >= 22);

/**
 * ReadableStream.from(): Node 24+ calls a sync iterator's next() itself
 * (no async wrapper), waits for a value that is an object, and settles the
 * pull in the reaction that enqueues the chunk; Node 20/22 iterate a sync
 * iterable through an async generator and settle the pull two microtasks
 * after that reaction (src/readable/from.js).
 */
export const fromIteratesInPlace = major >= 24;

/**
 * A write that reaches a TransformStream whose algorithms a cancel cleared
 * before it errored the writable side: Node 24+ takes it as done (the chunk
 * dropped), Node 20/22 call the cleared algorithm and fail with a TypeError
 * (src/transform/default-controller.js).
 */
export const clearedTransformResolves = major >= 24;

/**
 * A pipe whose one write is in flight: Node 24+ reads and writes the next
 * chunk in the reaction that finished that write, a microtask after the
 * sink's promise settled; Node 20/22 (and the standard) wait for the
 * writer's ready promise, a microtask or more later (src/fast/pipe-pump.js).
 */
export const continuesInWriteReaction = major >= 24;
