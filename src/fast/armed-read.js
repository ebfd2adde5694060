// Tier 0: the armed read of a fused chain's hop.
//
// In a fused chain the pump reading a transform's output reads again after
// every chunk: the spec queues its read request, calls the readable side's
// pull, which lowers the transform's backpressure and parks; the next
// transform() enqueues, which takes the request back, raises backpressure and
// settles the pull. Per hop the records go there and back for nothing.
//
// So the pump *arms* its read instead (PipePump.armed): the records stay as
// after the last chunk (no request, no pull, backpressure raised) and the
// read is pending only in the pump. Two hooks act on the armed read as the
// spec's pending read would act: the first enqueue() hands it the chunk
// (enqueueIntoArmedRead), and a write meets backpressure lowered
// (transformReadArmed). Anything else that could look at those records
// first makes them what the spec's read made them (settleArmedRead): the
// readable side closing or erroring (pumpSourceEnded), the pipe finalizing
// (PipePump.finalize), util.inspect() of the TransformStream, another read.
import { ReadableStreamAddReadRequest } from '../readable/stream-ops.js';

/**
 * Arms the pump's next read instead of issuing it, when the spec's read
 * would find the queue empty, queue the request and start the pull, and
 * that pull would only park (the readable side of a TransformStream, HWM 0,
 * no pull in progress, nothing waiting on backpressure). Returns whether it
 * armed.
 */
export function armTransformRead(pump) {
  const source = pump.source;
  const transform = source.transform; // defined: the caller checked
  const controller = source.controller;
  // A readable stream with no close requested still has its pull algorithm.
  if (source.state !== 'readable' || !controller.started || controller.pulling || controller.closeRequested ||
      controller.queue.length !== 0 || controller.strategyHWM > 0 ||
      !transform.backpressure || transform.pullParked || transform.backpressureChange !== undefined ||
      pump.pipe.reader.readRequests.length !== 0) {
    return false;
  }
  // What the spec's read does at once and nobody else reads back.
  source.disturbed = true;
  armRead(pump);
  pump.sourceClean = true; // see PipePump.destClean
  return true;
}

/**
 * The arming itself: the pull the spec's read would start, counted, and
 * parked. Once armTransformRead's checks passed, or while a clean hop keeps
 * them known (rearmClean in pipe-pump.js).
 */
export function armRead(pump) {
  const controller = pump.source.controller;
  controller.pullCount++;
  controller.pullReturnedPromise = true; // the transform's pull parks
  pump.armed = true;
}

/**
 * Hook for TransformStreamDefaultControllerEnqueue, on a readable side that
 * can take a chunk: the chunk fulfils the armed read, as it would the spec's
 * read request. After that the spec's records are what they already are: no
 * request, desiredSize 0, so no pull, backpressure raised, the pull settled.
 * Returns whether it took the chunk.
 */
export function enqueueIntoArmedRead(transform, chunk) {
  const pump = transform.readable.pump;
  if (pump === undefined) return false;
  if (!pump.armed) {
    pump.sourceClean = false; // the chunk is queued, or meets the spec's read
    return false;
  }
  pump.armed = false;
  // The read request's chunk steps (PumpReadRequest.chunkSteps in
  // pipe-pump.js) for the common case, a fused hop: the pump writing into the
  // transform runs transform() (handingOff), and runs this pump next. An
  // armed read has no pull of its own in progress, so no early-read state
  // to clear, and no producer of ours feeding it.
  const feeder = transform.fused;
  if (feeder !== undefined && feeder.handingOff && !pump.feeding) {
    pump.pendingChunk = chunk;
    pump.hasPendingChunk = true;
    pump.stepRequested = true;
    return true;
  }
  pump.readRequest.chunkSteps(chunk);
  return true;
}

/** Hook for the transform's sink write algorithm: with a read armed, backpressure is lowered. */
export function transformReadArmed(transform) {
  const pump = transform.readable.pump;
  return pump !== undefined && pump.armed;
}

/**
 * Gives the records what the spec's read made them when the pump armed it:
 * the request queued, the pull in progress and parked, backpressure lowered.
 * Nothing read them since.
 */
export function settleArmedRead(transform) {
  const pump = transform.readable.pump;
  if (pump === undefined || !pump.armed) return;
  pump.armed = false;
  pump.sourceClean = false;
  const source = transform.readable;
  ReadableStreamAddReadRequest(source, pump.readRequest);
  source.controller.pulling = true;
  transform.backpressure = false;
  transform.pullParked = true;
}
