// Tier 1: a read whose result is already known. With a chunk queued, the
// spec's read() settles its promise before it returns; an already-resolved
// promise is indistinguishable, and costs no read request. Both kinds of
// controller answer through the first branch of their [[PullSteps]], split in
// two: hasBufferedChunk() and dequeueBufferedChunk().
import { PromiseResolve } from '../intrinsics.js';
import { counters } from '../metrics/counters.js';

/**
 * Hook for read(): the read's promise, already resolved, when a chunk is
 * queued; undefined when the read takes the spec path.
 */
export function readBufferedChunk(stream) {
  if (stream.state !== 'readable' || !stream.controller.hasBufferedChunk()) return undefined;
  stream.disturbed = true;
  counters.syncReads++;
  // PromiseResolve on a fresh plain object looks up `then` on it exactly as
  // resolving the spec's promise would.
  return PromiseResolve({ value: stream.controller.dequeueBufferedChunk(), done: false });
}

/**
 * Hook for the async iterator's next(). There the spec settles one microtask
 * after the read (WebIDL reacts to the read's promise), so an already-resolved
 * promise lets the caller go on a microtask early. Nobody can tell while
 * nothing of the stream's own waits to run in that microtask: its start has
 * settled, no pull was in flight before the read, the pull the read may start
 * has not asked to run again, and the stream is fed by its own underlying
 * source (a tee branch or a transform's readable side has a source or a
 * transformer upstream whose pending reactions it cannot see). Otherwise a
 * start or pull settling in that microtask may error the stream, enqueue or
 * pull again, and the caller's next read meets another stream (fuzz seeds 350,
 * 1400, 2445, 3450; 759 for a tee).
 * Returns undefined (take the spec path), or, with the chunk dequeued, the
 * promise: already resolved, or settled a microtask later by the iterator when
 * the read's own pull is to run again.
 */
export function nextBufferedChunk(stream, it) {
  const controller = stream.controller;
  if (stream.state !== 'readable' || !controller.started || controller.pulling
    || controller.underlyingSource === undefined || !controller.hasBufferedChunk()) return undefined;
  stream.disturbed = true;
  counters.syncReads++;
  const chunk = controller.dequeueBufferedChunk();
  // pullAgain first: it is rarely set. (Kept in this one function with the
  // literal below: measured, splitting it cost 5-7% of `for await` on Node 26.)
  if (controller.pullAgain && controller.pulling) return it.settleNextLater(chunk);
  return PromiseResolve({ value: chunk, done: false });
}
