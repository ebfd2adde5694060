// Node 26+ when undici loaded before the patch (src/patch/order.js): undici
// then holds Node's own ReadableStreamTee, which brand-checks its argument and
// throws for one of our streams. It tees in Response/Request.prototype.clone()
// and, inside fetch(), on request bodies (src/patch/undici-first.js). During
// such a call the body stream (ours, unlocked) wears a native face: the two
// internal slots of a native twin that reads from ours are copied onto our
// stream object, so Node's tee works on the twin's state through it. If the
// tee ran, ours is locked right after (as a tee locks its source; undici has
// replaced it by a tee branch); if not, the face comes off again.
//
// The slots are found and checked by src/node-internals/native-stream-slots.js;
// when its probe fails, nothing is changed, the tee fails as it would have,
// and install() warns (src/patch/globals.js).
import { nativeReadableLocked } from '../bridge/natives.js';
import { nativeStreamSlots } from '../node-internals/native-stream-slots.js';
import { unwrapReadableStream } from '../readable/readable-stream.js';
import { IsReadableStreamLocked } from '../readable/stream-ops.js';
import { AcquireReadableStreamDefaultReader } from '../readable/default-reader.js';
import { nativeReadableOver } from '../bridge/native-twin.js';

/** True when Node's slots were found: withNativeFace() can work. */
export function canGiveNativeFace() {
  return nativeStreamSlots() !== null;
}

/**
 * A native stream that will read from our stream `impl` (an internal record)
 * once `lock()` has run: undici's clone checks the body is not locked before
 * it tees, so ours is locked right after the tee, before anything is read.
 */
function lazyTwin(impl) {
  let reader;
  const twin = nativeReadableOver(impl, () => reader);
  return { twin, lock: () => { reader = AcquireReadableStreamDefaultReader(impl); } };
}

/**
 * Runs `run()` (a clone, or a fetch that may clone) with `stream` (a body: ours, unlocked, undisturbed) wearing a
 * native face; any other body, or when Node's slots were not found, just runs it.
 */
export function withNativeFace(stream, run) {
  const impl = stream !== null && typeof stream === 'object' ? unwrapReadableStream(stream) : undefined;
  const s = nativeStreamSlots();
  if (impl === undefined || s === null || IsReadableStreamLocked(impl) || impl.disturbed ||
      Object.prototype.hasOwnProperty.call(stream, s.state)) {
    return run();
  }
  const { twin, lock } = lazyTwin(impl);
  const define = (key) => Object.defineProperty(stream, key, {
    value: twin[key], writable: false, enumerable: false, configurable: true,
  });
  define(s.type);
  define(s.state);
  let result;
  try {
    result = run();
  } finally {
    // Node's tee locked the twin: ours follows. Otherwise (an error, or a clone
    // that tees through our own methods) the face comes off again.
    if (nativeReadableLocked(twin)) {
      lock();
    } else {
      delete stream[s.type];
      delete stream[s.state];
    }
  }
  return result;
}
