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

/**
 * Records the source on `controller` and returns its start, pull and cancel
 * algorithms (the spec's defaults for the callbacks the source lacks).
 */
export function underlyingSourceAlgorithms(controller, underlyingSource, source) {
  controller.underlyingSource = underlyingSource;
  controller.source = source;
  return [
    source.start === undefined ? returnUndefined : startFromSource,
    source.pull === undefined ? returnUndefined : pullFromSource,
    source.cancel === undefined ? resolvedUndefined : cancelFromSource,
  ];
}
