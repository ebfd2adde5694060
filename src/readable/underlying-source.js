// The algorithms of a readable stream made from an underlying source, shared
// by every such stream and by both kinds of controller (no closures per
// stream). Controllers call them with themselves as `this`, and keep
// `underlyingSource` (the object), `pullCallback` and `cancelCallback` (its
// converted callbacks) for them. start() is called by the setup itself, once.
import { resolvedUndefined, returnUndefined, promiseResolvedWith } from '../promise.js';
import { invokePromiseCallback } from '../webidl.js';
import { PromiseReject, PromiseResolve, functionCall } from '../intrinsics.js';
import { perChunkPromiseAsIs } from '../node-pace.js';

// pull(controller), called at a site of its own: see writeToSink in src/writable/default-controller.js.
function pullFromSource() {
  try {
    const r = functionCall(this.pullCallback, this.underlyingSource, this.facade);
    if (!((typeof r === 'object' && r !== null) || typeof r === 'function')) return undefined;
    // Node 24+ reacts to a promise as it is (src/node-pace.js): with its iterator,
    // which reads queued chunks at once, the later reaction let a read merge
    // into the pullAgain of a pull() that then enqueued nothing (seed 88991).
    return perChunkPromiseAsIs ? PromiseResolve(r) : promiseResolvedWith(r);
  } catch (error) {
    return PromiseReject(error);
  }
}

function cancelFromSource(reason) {
  return invokePromiseCallback(this.cancelCallback, this.underlyingSource, [reason]);
}

/** Records the source on `controller`, for the algorithms below. */
export function attachUnderlyingSource(controller, underlyingSource, pull, cancel) {
  controller.underlyingSource = underlyingSource;
  controller.pullCallback = pull;
  controller.cancelCallback = cancel;
}

// Each source's algorithms: its callback's, or the spec's default when it has none.
export const pullAlgorithmOf = (pull) => (pull === undefined ? returnUndefined : pullFromSource);
export const cancelAlgorithmOf = (cancel) => (cancel === undefined ? resolvedUndefined : cancelFromSource);
