// The algorithms of a readable stream made from an underlying source, shared
// by every such stream and by both kinds of controller (no closures per
// stream). Controllers call them with themselves as `this`, and keep
// `underlyingSource` (the object), `source` (its converted callbacks) and
// `pullArgs` (the argument list of every pull() call) for them.
import { ReflectApply } from '../intrinsics.js';
import { resolvedUndefined, returnUndefined } from '../promise.js';
import { invokePromiseCallback, invokeCallbackForResult } from '../webidl.js';

function startFromSource() {
  return ReflectApply(this.source.start, this.underlyingSource, [this.facade]);
}

function pullFromSource() {
  // One argument list per controller: Reflect.apply copies it into the call.
  let args = this.pullArgs;
  if (args === undefined) args = this.pullArgs = [this.facade];
  return invokeCallbackForResult(this.source.pull, this.underlyingSource, args);
}

function cancelFromSource(reason) {
  return invokePromiseCallback(this.source.cancel, this.underlyingSource, [reason]);
}

/** Records the source on `controller`, for the algorithms below. */
export function attachUnderlyingSource(controller, underlyingSource, source) {
  controller.underlyingSource = underlyingSource;
  controller.source = source;
}

// Each source's algorithms: its callback's, or the spec's default when it has none.
export const startAlgorithmOf = (source) => (source.start === undefined ? returnUndefined : startFromSource);
export const pullAlgorithmOf = (source) => (source.pull === undefined ? returnUndefined : pullFromSource);
export const cancelAlgorithmOf = (source) => (source.cancel === undefined ? resolvedUndefined : cancelFromSource);
