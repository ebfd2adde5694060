// Node's AbortError class (code ABORT_ERR), which Node's stream adapters
// throw and which is not exported. Probe: an already-aborted signal added to
// a fresh Readable destroys it at once with an AbortError, whose constructor
// is the class; it must build an error with that code and name. Probed once,
// at the first error that needs it.
import { builtin } from '../patch/builtins.js';
import { ReflectApply, AbortControllerCtor, AbortControllerAbort, abortControllerSignal } from '../intrinsics.js';

let AbortErrorClass;

function probe() {
  const { Readable, addAbortSignal } = builtin('node:stream');
  const sample = new Readable({ read() {} });
  sample.on('error', () => {});
  // An aborted signal through the captured AbortController: a program that patched the global cannot break the probe.
  const controller = new AbortControllerCtor();
  ReflectApply(AbortControllerAbort, controller, []);
  addAbortSignal(abortControllerSignal(controller), sample);
  const Found = sample.errored?.constructor;
  if (typeof Found === 'function') {
    const made = new Found();
    if (made.code === 'ABORT_ERR' && made.name === 'AbortError') return Found;
  }
  // The same shape, should a Node release stop giving the class out.
  return class AbortError extends Error {
    constructor(message = 'The operation was aborted', options = undefined) {
      super(message, options);
      this.code = 'ABORT_ERR';
      this.name = 'AbortError';
    }
  };
}

/** Node's `new AbortError()`, or `new AbortError(undefined, { cause })` when a cause is given. */
export function nodeAbortError(...cause) {
  AbortErrorClass ??= probe();
  return cause.length === 0 ? new AbortErrorClass() : new AbortErrorClass(undefined, { cause: cause[0] });
}
