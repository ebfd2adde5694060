// Tier 0: pipeThrough chains as one pump. `a.pipeThrough(t1).pipeThrough(t2)
// .pipeTo(sink)` makes one pipe per link; the pumps that meet at a
// TransformStream know each other through two slots: the pump reading a
// stream (ReadableStreamImpl.pump) and the pump writing into a transform
// (TransformStreamImpl.fused). A pump that writes into a transform directly
// marks itself handingOff while transform() runs, and the pump reading the
// transform's output runs as soon as transform() returns (pipe-pump.js), so
// a chunk crosses the whole chain in one go. A chain is counted as resolved
// where it ends: at the sink's pipe, or at a reader or iterator.
import { counters } from '../metrics/counters.js';
import { TransformStreamDefaultControllerPerformTransform } from '../transform/default-controller.js';
import { runOutputPump } from './pipe-pump.js';
import { settleArmedRead } from './armed-read.js';

/** Links a new pipe's pump to the streams it reads and writes, and to the chain they form. */
export function linkChain(pump) {
  pump.source.pump = pump;
  const fed = pump.dest.transform;
  if (fed !== undefined) fed.fused = pump;
  const drained = pump.source.transform;
  if (drained !== undefined && drained.fused !== undefined) {
    counters.fusedStreams++;
    if (fed === undefined) counters.fusedChains++; // the chain is resolved at its sink
  }
}

/** Undoes linkChain() when the pipe finalizes. */
export function unlinkChain(pump) {
  if (pump.armed) settleArmedRead(pump.source.transform); // the reader's release errors the pending read
  if (pump.source.pump === pump) pump.source.pump = undefined;
  const fed = pump.dest.transform;
  if (fed !== undefined && fed.fused === pump) fed.fused = undefined;
}

/**
 * Hook for a reader or iterator acquired on a transform's output: a chain
 * read there is resolved there (the pipes inside it already run fused),
 * counted like one ending in pipeTo.
 */
export function countChainEndingAtReader(stream) {
  const transform = stream.transform;
  if (transform !== undefined && transform.fused !== undefined) counters.fusedChains++;
}

/**
 * Hook for a transform() that waited for backpressure to drop (the sink's
 * write algorithm, in a reaction): what it enqueues goes down a fused chain
 * as soon as it returns, as for a pump's direct write, so a chain that
 * started with its output unread does not take one microtask per hop for
 * that chunk.
 */
export function performTransformHandingOff(transform, chunk) {
  const feeder = transform.fused;
  if (feeder === undefined) return TransformStreamDefaultControllerPerformTransform(transform.controller, chunk);
  feeder.handingOff = true;
  const result = TransformStreamDefaultControllerPerformTransform(transform.controller, chunk);
  feeder.handingOff = false;
  runOutputPump(transform);
  return result;
}
