// Tiers 0 and 1: a pipe's write into an idle WritableStream, run at once.
//
// A pipe holds the only writer of its destination, so nobody can observe that
// stream's queue, desiredSize or ready promise. When the stream is idle, the
// pipe takes the steps of a write (add the request, queue the chunk, mark it
// in flight, call the sink's write algorithm) and, when that algorithm
// finished at once (a sink or transform() that returned synchronously) and
// nothing changed the stream's state, finishes the write at once as well,
// instead of a microtask later. Anything else (a returned promise, a throw,
// error(), terminate(), an abort from inside the sink) leaves the write in
// flight exactly as the spec path would and reacts to its result as it does.
import { ownQueueWithSizes } from '../queue.js';
import {
  WritableStreamFinishInFlightWrite, WritableStreamUpdateBackpressure,
} from '../writable/stream-ops.js';
import {
  reactToWriteResult, WritableStreamDefaultControllerAdvanceQueueIfNeeded, WritableStreamDefaultControllerGetBackpressure,
} from '../writable/default-controller.js';
import { countFallback } from '../metrics/counters.js';
import { TransformStreamDefaultControllerPerformTransform } from '../transform/default-controller.js';

/**
 * Can the next write into `ws` run directly? A size algorithm is user code:
 * those take the spec path, unless it is the library's own (sizeIsOurs:
 * Writable.toWeb's byte length), which a write that finishes at once need not
 * call, as nothing can see the queue it would size. So does a transform whose output has one: the
 * spec's write holds the writable's queue until a microtask after
 * transform(), and a reader of the output asks for its next chunk in that
 * time, so the next transform() meets a read request and size() is not called
 * (fuzz seed 1807); a write finished at once calls it.
 */
export function canWriteDirectly(ws) {
  const controller = ws.controller;
  return ws.state === 'writable' && !ws.backpressure && controller.started &&
    ws.inFlightWriteRequest === undefined && ws.closeRequest === undefined && controller.queue.length === 0 &&
    ws.writeRequests.length === 0 &&
    (controller.strategySizeAlgorithm === undefined || controller.sizeIsOurs) && controller.writeAlgorithm !== undefined &&
    (ws.transform === undefined || ws.transform.readable.controller.strategySizeAlgorithm === undefined);
}

/**
 * WritableStreamDefaultWriterWrite + ProcessWrite on an idle stream, finished
 * at once when the sink was. `request` settles like a write request. Returns
 * whether the write finished at once and left the stream idle as before.
 */
export function writeDirectly(ws, chunk, request) {
  // WritableStreamAddWriteRequest then WritableStreamMarkFirstWriteRequestInFlight,
  // on a stream with no write request queued: the request goes straight in flight.
  ws.inFlightWriteRequest = request;
  // The chunk would sit in the (empty) queue while in flight. Nobody can look
  // at that queue during the call (the writer is the pipe's), so it goes
  // there only if the write does not finish at once.
  return finishDirectWrite(ws, chunk, ws.controller.writeAlgorithm(chunk));
}

/**
 * writeDirectly into a TransformStream's writable side (`transform`'s) whose
 * output has a read armed (armed-read.js): the sink's write algorithm
 * (TransformStreamDefaultSinkWriteAlgorithm) then takes the armed read as
 * backpressure lowered (transformReadArmed) and runs PerformTransform at
 * once, so that is called here, without going through the writable's
 * algorithm slot. A fused chain's hop.
 */
export function transformDirectly(ws, transform, chunk, request) {
  ws.inFlightWriteRequest = request;
  return finishDirectWrite(ws, chunk, TransformStreamDefaultControllerPerformTransform(transform.controller, chunk));
}

/** The rest of a direct write, once the sink's write algorithm returned `result`. */
function finishDirectWrite(ws, chunk, result) {
  const controller = ws.controller;
  if (result === undefined && ws.state === 'writable') {
    // The fulfilment steps, minus dequeuing the chunk: the queue and so the
    // backpressure are as they were before the write. AdvanceQueueIfNeeded
    // then has nothing to do unless something was queued: the controller has
    // started, nothing is in flight and the stream is writable.
    WritableStreamFinishInFlightWrite(ws);
    if (controller.queue.length === 0) return true;
    WritableStreamDefaultControllerAdvanceQueueIfNeeded(controller);
    return false;
  }
  leaveWriteInFlight(ws, chunk, result);
  return false;
}

/**
 * The sink or transform() returned a promise or changed the stream's state,
 * or the transform waits for its output to be read before it runs
 * transform(): the write stays in flight as the spec's would, its chunk in
 * the queue. Apart from finishDirectWrite so that V8 inlines the common path.
 */
function leaveWriteInFlight(ws, chunk, result) {
  const controller = ws.controller;
  // Only the transform's wait makes its [[backpressureChangePromise]] (made
  // lazily, cleared whenever backpressure changes): the chain waits for a
  // reader there. A transform() that returned a promise is a fallback: its
  // promise is converted (one more of ours) and reacted to later than Node
  // 24+ does. A sink's write() that returned one is not: the pipe waits on
  // that promise and nothing else of ours (PumpWriteRequest.afterReaction),
  // and the write was counted as direct (syncWrites).
  const transform = ws.transform;
  if (transform !== undefined) {
    const reason = transform.backpressureChange !== undefined ? 'transform-output-unread' : 'async-write';
    countFallback(reason, ws);
  }
  const sizeAlgorithm = controller.strategySizeAlgorithm; // the library's own, if any (canWriteDirectly)
  ownQueueWithSizes(controller).enqueue(chunk, sizeAlgorithm === undefined ? 1 : sizeAlgorithm(chunk));
  WritableStreamUpdateBackpressure(ws, WritableStreamDefaultControllerGetBackpressure(controller));
  reactToWriteResult(controller, result);
}
