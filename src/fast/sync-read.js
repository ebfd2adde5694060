// Tier 1: a read whose result is already known. With a chunk queued, the
// spec's read() settles its promise before it returns; an already-resolved
// promise is indistinguishable, and costs no read request. Both kinds of
// controller answer through the first branch of their [[PullSteps]], split in
// two: hasBufferedChunk() and dequeueBufferedChunk().
import { PromiseResolve } from '../intrinsics.js';
import { counters } from '../metrics/counters.js';

/**
 * Hook for read(): the read's promise, already resolved, when a chunk is
 * queued; undefined when the read takes the spec path. The result is a
 * ReadableStreamReadResult dictionary, so its members come in WebIDL's
 * order: done, then value (as native Node 24+ gives them).
 */
export function readBufferedChunk(stream) {
  if (!canDequeueAtOnce(stream)) return undefined;
  // PromiseResolve on a fresh plain object looks up `then` on it exactly as
  // resolving the spec's promise would.
  return PromiseResolve({ done: false, value: dequeueAtOnce(stream) });
}

/**
 * The same hook for the async iterator's next(), whose result is an
 * ECMAScript iterator result: value, then done (CreateIterResultObject).
 */
export function nextBufferedChunk(stream) {
  if (!canDequeueAtOnce(stream)) return undefined;
  return PromiseResolve({ value: dequeueAtOnce(stream), done: false });
}

function canDequeueAtOnce(stream) {
  return stream.state === 'readable' && stream.controller.hasBufferedChunk();
}

function dequeueAtOnce(stream) {
  stream.disturbed = true;
  counters.syncReads++;
  return stream.controller.dequeueBufferedChunk();
}
