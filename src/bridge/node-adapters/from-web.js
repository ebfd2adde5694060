// Readable.fromWeb, Writable.fromWeb and Duplex.fromWeb over our own streams:
// Node streams that read our reader and write our writer directly, with no
// native twin in between (src/patch/consumers.js routes ours here, Node's
// own streams to Node's adapters). They do what Node's adapter does on the
// running version: the same options, checks, events and their order,
// backpressure through Node's highWaterMark, destroy() cancelling or
// aborting with the error; where versions differ, ./node-behaviour.js says.
//
// Argument errors are Node's own: when the options would be refused, or our
// stream is locked, Node's adapter is called with a locked native stream in
// its place and throws what it throws on this version (its options are
// checked before the lock, so the first failing check wins, as in Node).
import {
  ReflectApply, ArrayIsArray, PromiseAll, OriginalError, Uint8ArrayCtor, typedArrayBuffer, typedArrayByteOffset,
  typedArrayByteLength,
} from '../../intrinsics.js';
import { uponPromise, promiseRejectedWith } from '../../promise.js';
import { codedError, invalidState } from '../../errors.js';
import { IsReadableStreamLocked, ReadableStreamCancel, ReadableStreamReaderClosed } from '../../readable/stream-ops.js';
import { AcquireReadableStreamDefaultReader } from '../../readable/default-reader.js';
import {
  IsWritableStreamLocked, WritableStreamAbort, WritableStreamClose, WritableStreamCloseQueuedOrInFlight,
} from '../../writable/stream-ops.js';
import { AcquireWritableStreamDefaultWriter } from '../../writable/default-writer.js';
import { natives } from '../natives.js';
import { ReadSide } from './read-side.js';
import { WriteSide } from './write-side.js';
import { readEndsAtOnce, writeMode } from './node-behaviour.js';

/** A native stream Node rejects exactly as it rejects a locked stream of ours. */
export function lockedNativeReadable() {
  const s = new natives.ReadableStream();
  s.getReader();
  return s;
}
export function lockedNativeWritable() {
  const s = new natives.WritableStream();
  s.getWriter();
  return s;
}

/**
 * Calls Node's adapter with native stand-ins, to throw its own error. When
 * only the options were in doubt and Node takes them (it then throws for
 * the lock), returns, and our adapter goes on.
 */
function throwAsNode(nodeFromWeb, args, oursLocked) {
  let error;
  try {
    ReflectApply(nodeFromWeb, undefined, args);
  } catch (e) {
    error = e;
  }
  if (oursLocked || error?.code !== 'ERR_INVALID_STATE') throw error;
}

// Node's validateObject(value, 'options'): an object, not null, not an array.
const isOptionsObject = (options) => typeof options === 'object' && options !== null && !ArrayIsArray(options);
const emptyOptions = Object.freeze({ __proto__: null });

function badEncoding(Buffer, encoding) {
  return encoding !== undefined && !Buffer.isEncoding(encoding);
}

/** ERR_STREAM_PREMATURE_CLOSE, as Node makes it. */
function prematureClose() {
  return codedError(OriginalError, 'ERR_STREAM_PREMATURE_CLOSE', 'Premature close');
}

/** writer.close() on a writer only we hold (never released). */
function writerClose(stream) {
  if (WritableStreamCloseQueuedOrInFlight(stream)) {
    return promiseRejectedWith(invalidState('Failure to close WritableStream'));
  }
  return WritableStreamClose(stream);
}

/**
 * Node's destroy() callback: a throw from it escapes to the next tick, out of any promise.
 * (The live process.nextTick here and below, as Node's adapters call it.)
 */
function callDestroyCallback(callback, error) {
  try {
    callback(error);
  } catch (thrown) {
    process.nextTick(() => {
      throw thrown;
    });
  }
}

/** Node's string conversion in _write() (reached only when Node did not convert first). */
function encodeString(Buffer, chunk, encoding) {
  const bytes = Buffer.from(chunk, encoding);
  return new Uint8ArrayCtor(typedArrayBuffer(bytes), typedArrayByteOffset(bytes), typedArrayByteLength(bytes));
}

/**
 * The adapters, bound to Node's stream module `nodeStream` and Node's own
 * `fromWeb` functions `original` ({ Readable, Writable, Duplex }).
 */
export function makeAdapters(nodeStream, original, Buffer) {
  const { Readable, Writable, Duplex, destroy } = nodeStream;

  /**
   * The Node methods of a write half over our `stream` (Writable.fromWeb and
   * Duplex.fromWeb alike): `side` its WriteSide, `node()` the Node stream,
   * `isClosed()` whether our stream has closed, `encodes` whether a string
   * chunk is turned into bytes here (decodeStrings, not object mode).
   */
  function writeHalf(side, stream, node, isClosed, encodes) {
    return {
      writev(chunks, callback) {
        side.writev(chunks, callback);
      },
      write(chunk, encoding, callback) {
        if (encodes && typeof chunk === 'string') chunk = encodeString(Buffer, chunk, encoding);
        side.write(chunk, callback);
      },
      final(callback) {
        // Closed already: Node's adapter never calls back, so 'finish' never comes.
        if (isClosed()) return;
        uponPromise(writerClose(stream), () => finalDone(node(), callback, undefined, destroy),
          (e) => finalDone(node(), callback, e, destroy));
      },
    };
  }

  /** Readable.fromWeb(ours, options): `stream` is our record. */
  function readableFromOurs(stream, options = emptyOptions) {
    const locked = IsReadableStreamLocked(stream);
    const valid = isOptionsObject(options);
    const { highWaterMark, encoding, objectMode = false, signal } = valid ? options : emptyOptions;
    if (locked || !valid || badEncoding(Buffer, encoding) || typeof objectMode !== 'boolean') {
      throwAsNode(original.Readable, [lockedNativeReadable(), options], locked);
    }
    const reader = AcquireReadableStreamDefaultReader(stream);
    const side = new ReadSide(reader, undefined, readEndsAtOnce, destroy);
    let closed = false;
    const readable = new Readable({
      objectMode,
      highWaterMark,
      encoding,
      signal,
      read() {
        side.read();
      },
      destroy(error, callback) {
        const done = () => callDestroyCallback(callback, error);
        if (closed) done();
        else uponPromise(ReadableStreamCancel(stream, error), done, done);
      },
    });
    side.node = readable;
    const closedRecord = ReadableStreamReaderClosed(reader);
    closedRecord.onSettled(() => {
      closed = true;
    }, () => {
      closed = true;
      destroy(readable, closedRecord.reason);
    });
    return readable;
  }

  /** Writable.fromWeb(ours, options): `stream` is our record. */
  function writableFromOurs(stream, options = emptyOptions) {
    const locked = IsWritableStreamLocked(stream);
    const valid = isOptionsObject(options);
    const { highWaterMark, decodeStrings = true, objectMode = false, signal } = valid ? options : emptyOptions;
    if (locked || !valid || typeof objectMode !== 'boolean' || typeof decodeStrings !== 'boolean') {
      throwAsNode(original.Writable, [lockedNativeWritable(), options], locked);
    }
    const writer = AcquireWritableStreamDefaultWriter(stream);
    let closed = false;
    let writable;
    const side = new WriteSide(writer, () => writable, writeMode, destroy);
    writable = new Writable({
      highWaterMark,
      objectMode,
      decodeStrings,
      signal,
      ...writeHalf(side, stream, () => writable, () => closed, decodeStrings && !objectMode),
      destroy(error, callback) {
        const done = () => callDestroyCallback(callback, error);
        if (closed) done();
        else uponPromise(error != null ? WritableStreamAbort(stream, error) : writerClose(stream), done, done);
      },
    });
    const closedRecord = writer.closed;
    closedRecord.onSettled(() => {
      closed = true;
      if (!writable.writableEnded) destroy(writable, prematureClose());
    }, () => {
      closed = true;
      destroy(writable, closedRecord.reason);
    });
    return writable;
  }

  /** Duplex.fromWeb({ readable, writable }, options), both ours (records). */
  function duplexFromOurs(readStream, writeStream, options = emptyOptions) {
    const valid = isOptionsObject(options);
    const {
      allowHalfOpen = false, objectMode = false, encoding, decodeStrings = true, highWaterMark, signal,
    } = valid ? options : emptyOptions;
    const writeLocked = IsWritableStreamLocked(writeStream);
    const readLocked = IsReadableStreamLocked(readStream);
    if (writeLocked || !valid || typeof objectMode !== 'boolean' || badEncoding(Buffer, encoding)) {
      throwAsNode(original.Duplex, [{ readable: lockedNativeReadable(), writable: lockedNativeWritable() }, options],
        writeLocked);
    }
    // Node takes the writer before the reader: a locked readable leaves the writable locked.
    const writer = AcquireWritableStreamDefaultWriter(writeStream);
    if (readLocked) {
      throwAsNode(original.Duplex, [{ readable: lockedNativeReadable(), writable: new natives.WritableStream() }, options],
        true);
    }
    const reader = AcquireReadableStreamDefaultReader(readStream);
    let writableClosed = false;
    let readableClosed = false;
    let duplex;
    const writeSide = new WriteSide(writer, () => duplex, writeMode, destroy);
    const readSide = new ReadSide(reader, undefined, readEndsAtOnce, destroy);
    duplex = new Duplex({
      allowHalfOpen,
      highWaterMark,
      objectMode,
      encoding,
      decodeStrings,
      signal,
      ...writeHalf(writeSide, writeStream, () => duplex, () => writableClosed, decodeStrings && !objectMode),
      read() {
        readSide.read();
      },
      destroy(error, callback) {
        const done = () => callDestroyCallback(callback, error);
        if (writableClosed && readableClosed) {
          done();
          return;
        }
        const aborted = writableClosed ? undefined : WritableStreamAbort(writeStream, error);
        const cancelled = readableClosed ? undefined : ReadableStreamCancel(readStream, error);
        uponPromise(PromiseAll([aborted, cancelled]), done, done);
      },
    });
    readSide.node = duplex;
    const writerClosed = writer.closed;
    writerClosed.onSettled(() => {
      writableClosed = true;
      if (!duplex.writableEnded) destroy(duplex, prematureClose());
    }, () => {
      writableClosed = true;
      readableClosed = true;
      destroy(duplex, writerClosed.reason);
    });
    const readerClosed = ReadableStreamReaderClosed(reader);
    readerClosed.onSettled(() => {
      readableClosed = true;
    }, () => {
      writableClosed = true;
      readableClosed = true;
      destroy(duplex, readerClosed.reason);
    });
    return duplex;
  }

  return { readableFromOurs, writableFromOurs, duplexFromOurs };
}

/** Node's final() callback; a throw from it destroys the stream on the next tick. */
function finalDone(node, callback, error, destroy) {
  try {
    callback(error);
  } catch (thrown) {
    process.nextTick(() => destroy(node, thrown));
  }
}
