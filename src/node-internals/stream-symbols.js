// The registered symbols through which Node's stream utilities learn the state
// of a Web Stream they recognise by duck typing (a ReadableStream: getReader,
// pipeThrough and cancel methods; a WritableStream: getWriter and abort):
//   nodejs.webstream.isClosedPromise          { promise }, settled on close / error (finished(), pipeline())
//   nodejs.stream.disturbed / .errored        isDisturbed() / isErrored()
//   nodejs.stream.readable / .writable        isReadable() / isWritable()
//   nodejs.webstream.controllerErrorFunction  called by addAbortSignal(signal, stream) on abort
// Undocumented, but any object may carry them; src/bridge/node-symbols.js
// defines them on our prototypes, always (harmless if Node stops reading them).
//
// Probe: Node's utilities, given a duck-typed stream that carries them, answer
// from them. Nothing is switched on or off by it: it tells the per-Node test
// (test/unit/node-internals.test.mjs) whether Node still reads what we give.
import { builtin } from '../patch/builtins.js';

export const kIsClosedPromise = Symbol.for('nodejs.webstream.isClosedPromise');
export const kControllerErrorFunction = Symbol.for('nodejs.webstream.controllerErrorFunction');
export const kIsDisturbed = Symbol.for('nodejs.stream.disturbed');
export const kIsErrored = Symbol.for('nodejs.stream.errored');
export const kIsReadable = Symbol.for('nodejs.stream.readable');
export const kIsWritable = Symbol.for('nodejs.stream.writable');

function duckReadable(marks) {
  const stream = { getReader() {}, pipeThrough() {}, pipeTo() {}, cancel() {}, tee() {}, locked: false };
  stream[kIsDisturbed] = marks.disturbed;
  stream[kIsErrored] = marks.errored;
  stream[kIsReadable] = marks.readable;
  stream[kIsClosedPromise] = { promise: new Promise(() => {}) }; // never settles: finished() waits
  return stream;
}

/** True when Node's isDisturbed, isErrored, isReadable, finished() and addAbortSignal() read the symbols. */
export function probeStreamSymbols() {
  try {
    const { isDisturbed, isErrored, isReadable, finished, addAbortSignal } = builtin('node:stream');
    // Each answer must follow the symbol, in both directions.
    for (const v of [true, false]) {
      const s = duckReadable({ disturbed: v, errored: v, readable: v });
      if (isDisturbed(s) !== v || isErrored(s) !== v || isReadable(s) !== v) return false;
    }
    let askedForClosed = false;
    const watched = duckReadable({ disturbed: false, errored: false, readable: true });
    Object.defineProperty(watched, kIsClosedPromise, {
      configurable: true,
      get() {
        askedForClosed = true;
        return { promise: new Promise(() => {}) };
      },
    });
    const cleanup = finished(watched, () => {});
    if (typeof cleanup === 'function') cleanup();
    let errored;
    const aborted = duckReadable({ disturbed: false, errored: false, readable: true });
    const onError = (e) => { errored = e; }; // a local: see docs/architecture.md, "Closures kept in fields"
    aborted[kControllerErrorFunction] = onError;
    const controller = new AbortController();
    addAbortSignal(controller.signal, aborted);
    controller.abort();
    return askedForClosed && errored !== undefined;
  } catch {
    return false;
  }
}
