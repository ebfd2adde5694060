// Tier 0: pipeThrough chains as one pump. `a.pipeThrough(t1).pipeThrough(t2)
// .pipeTo(sink)` makes one pipe per link; the pumps that meet at a
// TransformStream know each other through two slots: the pump reading a
// stream (ReadableStreamImpl.pump) and the pump writing into a transform
// (TransformStreamImpl.fused). A pump that writes into a transform directly
// marks itself handingOff while transform() runs, and the pump reading the
// transform's output runs as soon as transform() returns (pipe-pump.js), so
// a chunk crosses the whole chain in one go (PipePump.link and finalize set
// and clear the slots). A chain is counted as resolved where it ends: at the
// sink's pipe, or at a reader or iterator.
import { counters } from '../metrics/counters.js';
import { TransformStreamDefaultControllerPerformTransform } from '../transform/default-controller.js';
import { runOutputPump } from './pipe-pump.js';

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
