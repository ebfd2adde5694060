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
