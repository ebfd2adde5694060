// Node's own codec classes, captured when this module first loads (before
// installCodecs() can replace them), and the facts about them that differ
// between Node versions, each asked of the native class the first time it is
// needed rather than read from a version table.
import {
  ReflectApply, ObjectGetOwnPropertyDescriptor, OriginalPromise, OriginalTypeError, PromiseResolve, Uint8ArrayCtor, promiseThen,
  SymbolCtor, MapCtor, mapGet, mapSet,
} from '../intrinsics.js';
import { askNativeOnce, thrownCode } from '../errors.js';
import { builtin } from '../patch/builtins.js';
import { noop } from '../promise.js';
import { CODEC_CLASS_NAMES } from '../global-names.js';

const { setTimeout, clearTimeout } = builtin('node:timers'); // a program's fake timers must not stall a probe

export const codecNames = CODEC_CLASS_NAMES;

/** name -> Node's class (undefined where this Node has none). */
export const nativeCodecs = {};
const streamWeb = builtin('node:stream/web'); // not the globals: see src/bridge/natives.js
for (const name of codecNames) nativeCodecs[name] = streamWeb[name];

// A probe runs Node's class, never ours; each is asked once (errors.js keeps the answers).
const ask = askNativeOnce;

/**
 * The code of the TypeError a getter called on a foreign object throws:
 * ERR_INVALID_THIS on Node 20, none on 22+ (a private-field brand check).
 */
export function brandCode(name) {
  return ask(`brand:${name}`, () => thrownCode(() => {
    ReflectApply(ObjectGetOwnPropertyDescriptor(nativeCodecs[name].prototype, 'readable').get, {}, []);
  }));
}

/** True when Node's CompressionStream takes `format` (a string) on this Node. */
export function nativeTakesFormat(format) {
  return ask(`format:${format}`, () => {
    try {
      // eslint-disable-next-line no-new
      new nativeCodecs.CompressionStream(format);
      return true;
    } catch {
      return false;
    }
  }) === true;
}

/**
 * Whether the format argument is converted to a string first (WebIDL
 * DOMString, Node 22+) or compared as given (Node 20, where an object whose
 * toString() gives 'gzip' is refused).
 */
export function formatIsConverted() {
  return ask('formatConverted', () => {
    try {
      // eslint-disable-next-line no-new
      new nativeCodecs.CompressionStream({ toString: () => 'deflate' });
      return true;
    } catch {
      return false;
    }
  }) === true;
}

/** The code for a Symbol given as format: ERR_INVALID_ARG_VALUE up to Node 22, ERR_INVALID_ARG_TYPE from 24. */
export function symbolFormatCode() {
  return ask('symbolFormat', () => thrownCode(() => new nativeCodecs.CompressionStream(SymbolCtor('format'))));
}

// Some facts show only asynchronously (a write's promise, zlib's thread pool),
// so they cannot be asked synchronously at the call that needs them. Those are
// asked the first time a chunk or a failure needs one; the codec's algorithm
// waits for the answer (a promise it returns), then goes on. Each is asked
// once per process; until it settles, everything that needs it waits on the
// same promise. A probe that has not settled in PROBE_LIMIT_MS (none does:
// each is one write or one small zlib job) answers with `fallback`.
const PROBE_LIMIT_MS = 2000;
const later = new MapCtor(); // key -> { settled, answer, promise }

/**
 * The entry of the asynchronous probe `key`: { settled, answer, promise }.
 * `probe()` returns a promise of the answer; it is started on the first call.
 */
export function askNativeLater(key, probe, fallback) {
  let entry = mapGet(later, key);
  if (entry !== undefined) return entry;
  entry = { settled: false, answer: undefined, promise: undefined };
  mapSet(later, key, entry);
  let timer;
  const settle = (answer) => {
    if (entry.settled) return;
    clearTimeout(timer);
    entry.settled = true;
    entry.answer = answer;
  };
  entry.promise = new OriginalPromise((resolve) => {
    timer = setTimeout(() => {
      settle(fallback);
      resolve();
    }, PROBE_LIMIT_MS);
    let started;
    try {
      started = probe();
    } catch {
      started = PromiseResolve(fallback);
    }
    promiseThen(started, (answer) => {
      settle(answer);
      resolve();
    }, () => {
      settle(fallback);
      resolve();
    });
  });
  return entry;
}

/** How Node's class treated a chunk: null when taken, else { ctor, code } of the error it rejected with. */
function writeOutcome(codec, chunk) {
  const writer = codec.writable.getWriter();
  // A read makes room: the write of a Text*Stream settles only once its output is read.
  const reader = codec.readable.getReader();
  promiseThen(reader.read(), noop, noop);
  const done = () => {
    promiseThen(writer.abort(), noop, noop); // stops the probe's zlib engine, if any
    promiseThen(reader.cancel(), noop, noop);
  };
  return promiseThen(writer.write(chunk), () => {
    done();
    return null;
  }, (error) => {
    done();
    return errorShape(error);
  });
}

function errorShape(error) {
  const isObject = typeof error === 'object' && error !== null;
  return { ctor: isObject ? error.constructor?.name : undefined, code: isObject ? error.code ?? null : null };
}

/**
 * How Node's `name` class treats a chunk of `kind` (asked with `makeChunk()`,
 * a representative of the kind, never the user's value): null when it takes it, else the
 * shape of its error. `format` is the zlib classes' argument (undefined for the
 * Text*Streams); `fallback` is what we answer if Node never settles.
 */
export function nativeChunkOutcome(name, kind, makeChunk, format, fallback) {
  return askNativeLater(`chunk:${name}:${kind}`, () => {
    const Native = nativeCodecs[name];
    return writeOutcome(format === undefined ? new Native() : new Native(format), makeChunk());
  }, fallback);
}

// Input every decompressor fails on at once (a bad header); `size` bytes of it.
function badInput(size) {
  const bytes = new Uint8ArrayCtor(size);
  for (let i = 0; i < size; i++) bytes[i] = 0xff;
  return bytes;
}

/**
 * Whether Node's DecompressionStream(format) rejects with the engine's own
 * Error (Node 20) or wraps it in a TypeError (22+), for a failure of the
 * input's end (`truncated`: Z_BUF_ERROR, asked with no input at all) or of
 * its content (asked with a bad header). Node 22 wraps the first for every
 * format, the second for the zlib formats but not for brotli; 24+ wrap both.
 */
export function nativeWrapsZlibErrors(format, truncated) {
  return askNativeLater(`zlibErrorWrapped:${format}:${truncated ? 'end' : 'content'}`, () => {
    const codec = new nativeCodecs.DecompressionStream(format);
    const writer = codec.writable.getWriter();
    if (!truncated) promiseThen(writer.write(badInput(4)), noop, noop);
    promiseThen(writer.close(), noop, noop);
    return promiseThen(codec.readable.getReader().read(), () => true, (error) => error instanceof OriginalTypeError);
  }, true);
}

/**
 * Whether Node's DecompressionStream(format) errors on data after the end of
 * the compressed stream (Node 22 ignores it for deflate-raw, 24+ rejects it
 * for every format): asked with `compressed` (a complete stream) and one byte.
 */
export function nativeRejectsTrailingData(format, compressed) {
  return askNativeLater(`trailing:${format}`, () => {
    const codec = new nativeCodecs.DecompressionStream(format);
    const writer = codec.writable.getWriter();
    promiseThen(writer.write(compressed), noop, noop);
    const oneByte = new Uint8ArrayCtor(1); // not from [1]: that would iterate the array
    oneByte[0] = 1;
    promiseThen(writer.write(oneByte), noop, noop);
    promiseThen(writer.close(), noop, noop);
    const reader = codec.readable.getReader();
    const drain = () => promiseThen(reader.read(), ({ done }) => (done ? false : drain()), () => true);
    return drain();
  }, true);
}
