// Drives one node:zlib stream (public API only: write(chunk, callback), end(),
// 'data'/'end'/'error' events, destroy()) as the algorithms of a codec
// TransformStream: input pipelined into zlib (see docs/codecs.md, "zlib"),
// output enqueued as zlib emits it. The work itself runs on libuv's thread
// pool, off the main thread, as in Node's own classes. Chunks, errors and
// data after the end are treated as this Node's own classes treat them
// (zlib-chunks.js, natives.js).
import {
  BufferConcat, ObjectHasOwn, OriginalTypeError, ArrayBufferIsView, Uint8ArrayCtor, isSharedArrayBuffer, isDetachedBuffer, viewBuffer,
  viewByteOffset, viewByteLength, typedArrayByteLength, typedArraySet,
  PromiseAll, SetImmediate, functionCall, promiseThen,
} from '../intrinsics.js';
import { Deferred, promiseRejectedWith, resolvedUndefined } from '../promise.js';
import { builtin } from '../patch/builtins.js';
import { enqueueOutput } from './codec-transform.js';
import { TransformStreamError, backpressureChangePromise } from '../transform/transform-stream.js';
import { queuedViewBytesReach } from '../readable/default-controller.js';
import { chunkKind, chunkOutcome, refusedChunkError, takenBytes } from './zlib-chunks.js';
import { nativeRejectsTrailingData, nativeWrapsZlibErrors } from './natives.js';

// Loaded on the first codec stream, not with the preload: node:zlib (and its
// zip modules on Node 26) is a cost every process would pay (docs/interop.md, "Start-up").
let zlibModule;
const zlib = () => (zlibModule ??= builtin('node:zlib'));
const ERR_TRAILING_JUNK = 'ERR_TRAILING_JUNK_AFTER_STREAM_END';

/**
 * A zlib failure as Node's class reports it: the engine's own Error on Node 20
 * (and for brotli's content errors on 22), otherwise a TypeError (the
 * Compression standard's) made as Node makes it: no message, the engine's
 * error as its cause, and the engine's code assigned afterwards.
 * `wrapped` is natives.js#nativeWrapsZlibErrors's answer for the failure.
 */
function asNodeError(error, wrapped) {
  if (!wrapped || error instanceof OriginalTypeError) return error;
  const typeError = new OriginalTypeError(undefined, { cause: error });
  typeError.code = error?.code;
  return typeError;
}

/**
 * Per stream: the zlib engine, the write in flight, the chunks batched behind
 * it, and the write or flush waiting for room or for the end.
 */
export class ZlibDriver {
  constructor(engine, className, format) {
    this.engine = engine;
    this.className = className;
    this.format = format;
    this.controller = undefined;
    // One limit, the engine's own writableHighWaterMark (16 KiB on Node 20,
    // 64 KiB on 22+), where Node's class makes a write wait for zlib (and
    // where a failure meanwhile rejects that write rather than a later one):
    // - input ahead of zlib (in flight and batched) before a write waits;
    // - a chunk at least this large goes to zlib as it is, its write settled
    //   once zlib has consumed it (a copy would cost a memcpy and an
    //   allocation, and one such chunk is a thread-pool job's worth);
    // - output nobody has read, held up to it as Node's class holds up to its
    //   readable side's high-water mark, then zlib is paused (pauseUntilRead).
    this.limit = engine.writableHighWaterMark;
    this.inFlight = false;
    this.inFlightBytes = 0;
    this.batch = [];
    this.batchBytes = 0;
    // Where a writer's own (uncopied) bytes are: the write waiting for them
    // goes on only once zlib has consumed them.
    this.uncopiedInFlight = false;
    this.uncopiedInBatch = false;
    this.waiting = undefined; // Deferred of a write waiting for room, or of the flush
    this.flushing = false;
    this.error = undefined;
    this.cancelled = false;
    this.cancelReason = undefined;
    this.failing = undefined; // while Node is asked how to report a zlib failure: the promise of its answer
    this.ended = false;
    const onWritten = (error) => {
      if (error) this.fail(error);
      else this.written();
    };
    this.onWritten = onWritten; // made in a local: see docs/architecture.md, "Closures kept in fields"
    this.paused = false; // zlib paused until a read takes the output held (see above)
    const onOutputWanted = () => {
      this.paused = false;
      engine.resume();
    };
    this.onOutputWanted = onOutputWanted;
    this.sendScheduled = false; // sendLater is queued (setImmediate)
    const sendLater = () => {
      this.sendScheduled = false;
      // Not after a flush (it sent the batch itself), a cancel or a failure (they drop it).
      if (!this.inFlight && this.batch.length !== 0) this.sendBatch();
    };
    this.sendLater = sendLater;
    try {
      this.listen(engine);
    } catch (error) {
      // Node's stream code calls the process.nextTick a program may have
      // replaced: the first write or the flush fails with what it threw.
      this.error = error;
    }
  }

  /** The engine's events ('data' sets it flowing). */
  listen(engine) {
    engine.on('data', (buffer) => {
      // A copy, as Node's own classes make: zlib's output buffers share memory,
      // and a consumer may transfer what it reads.
      try {
        enqueueOutput(this.controller, new Uint8ArrayCtor(buffer));
      } catch {
        // The readable side was cancelled or errored: the engine is destroyed next.
        return;
      }
      // Not while flushing: the close waits for zlib's end, and a cancel of the
      // readable side waits for the close (the transform's finish promise).
      if (!this.paused && !this.flushing && queuedViewBytesReach(this.controller.stream.readable.controller, this.limit)) this.pauseUntilRead();
    });
    engine.on('end', () => {
      this.ended = true;
      this.release();
    });
    engine.on('error', (error) => this.fail(error));
  }

  /**
   * Batches `bytes` for zlib. With nothing in flight the batch goes to zlib
   * once the writer's turn is over (sendLater), or at once when it fills the
   * limit (the write then waits): one thread-pool job for what a pipe writes
   * in one turn, not one for its first chunk and one for the rest.
   * `uncopied`: they are the writer's, and the write waits until zlib has them.
   */
  feed(bytes, uncopied) {
    this.batch[this.batch.length] = bytes;
    this.batchBytes += typedArrayByteLength(bytes);
    this.uncopiedInBatch = uncopied;
    if (this.inFlight) return;
    if (this.batchBytes >= this.limit) this.sendBatch();
    else this.sendAfterThisTurn();
  }

  /** The batch goes to zlib as one write (a batch of several is concatenated: a copy). */
  sendBatch() {
    const lone = this.batch.length === 1;
    const bytes = lone ? this.batch[0] : BufferConcat(this.batch, this.batchBytes);
    this.inFlight = true;
    this.inFlightBytes = this.batchBytes;
    this.uncopiedInFlight = lone && this.uncopiedInBatch;
    this.uncopiedInBatch = false;
    this.batch = [];
    this.batchBytes = 0;
    try {
      this.engine.write(bytes, this.onWritten);
    } catch (error) {
      this.failAtOnce(error);
    }
  }

  sendAfterThisTurn() {
    if (this.sendScheduled) return;
    this.sendScheduled = true;
    SetImmediate(this.sendLater);
  }

  /**
   * The write in flight is consumed: a batch of half the limit or more goes
   * to zlib now, a smaller one after this turn (the writer fills it first, so
   * the jobs stay large); a waiting write goes on unless its bytes are in
   * flight, uncopied.
   */
  written() {
    this.inFlight = false;
    this.inFlightBytes = 0;
    this.uncopiedInFlight = false;
    if (this.batch.length !== 0) {
      if (this.batchBytes * 2 >= this.limit) this.sendBatch();
      else this.sendAfterThisTurn();
    }
    if (!this.flushing && !this.uncopiedInFlight && this.inFlightBytes + this.batchBytes < this.limit) this.release();
  }

  /** The promise of a write (or the flush) that goes on when release() is called. */
  wait() {
    const waiting = new Deferred();
    this.waiting = waiting;
    return waiting.promise;
  }

  /**
   * Pauses zlib until the readable side asks for more (its backpressure
   * lowered by a read). Until then the stream takes writes while nobody reads,
   * as Node's class does (a program may await its writes and its close before
   * reading); once paused, input fills up to the limit, where writes wait.
   */
  pauseUntilRead() {
    this.paused = true;
    this.engine.pause();
    promiseThen(backpressureChangePromise(this.controller.stream), this.onOutputWanted);
  }

  release() {
    const waiting = this.waiting;
    if (waiting !== undefined) {
      this.waiting = undefined;
      waiting.resolve(undefined);
    }
  }

  /**
   * Node's stream code threw, not zlib (it calls what a program may have
   * replaced: Array.prototype.push, process.nextTick): the stream fails with
   * that error as it is, as Node's class does when its write() throws.
   */
  failAtOnce(error) {
    if (this.error !== undefined) return;
    this.error = error;
    this.batch = [];
    this.batchBytes = 0;
    this.uncopiedInBatch = false;
    const waiting = this.waiting;
    if (waiting !== undefined) {
      this.waiting = undefined;
      waiting.reject(error);
    } else if (this.controller !== undefined) {
      TransformStreamError(this.controller.stream, error);
    }
  }

  /** zlib failed: reject what waits, or error the stream if nothing does (as Node's class would). */
  fail(error) {
    if (this.error !== undefined || this.failing !== undefined || this.ended || this.cancelled) return;
    this.batch = [];
    this.batchBytes = 0;
    this.uncopiedInBatch = false;
    const trailing = error?.code === ERR_TRAILING_JUNK
      ? nativeRejectsTrailingData(this.format, trailingProbeInput(this.format))
      : undefined;
    const wrapped = nativeWrapsZlibErrors(this.format, error?.code === 'Z_BUF_ERROR');
    if ((trailing === undefined || trailing.settled) && wrapped.settled) {
      this.settleFailure(error, trailing, wrapped);
    } else {
      this.failing = promiseThen(PromiseAll([trailing?.promise, wrapped.promise]), () => {
        this.failing = undefined;
        this.settleFailure(error, trailing, wrapped);
      });
    }
  }

  settleFailure(error, trailing, wrapped) {
    // Cancelled while Node was being asked: the cancellation stands, the failure
    // has nothing left to error (as when it comes after the cancel).
    if (this.cancelled) return;
    if (trailing !== undefined && !trailing.answer) {
      // This Node's class ignores data after the end (Node 22, deflate-raw):
      // the stream ends with what zlib produced before it.
      this.ended = true;
      this.inFlight = false;
      this.release();
      return;
    }
    this.error = asNodeError(error, wrapped.answer);
    const waiting = this.waiting;
    if (waiting !== undefined) {
      this.waiting = undefined;
      waiting.reject(this.error);
    } else if (this.controller !== undefined) {
      TransformStreamError(this.controller.stream, this.error);
    }
  }
}

// The algorithms; `this` is the controller record, its codec slot the ZlibDriver.
export function zlibTransform(chunk) {
  const driver = this.codec;
  // Only a write that waited for a probe gets here after a cancel: it fails with the reason.
  if (driver.cancelled) return promiseRejectedWith(driver.cancelReason);
  if (driver.failing !== undefined) return promiseThen(driver.failing, () => functionCall(zlibTransform, this, chunk));
  let bytes;
  if (ArrayBufferIsView(chunk)) {
    const buffer = viewBuffer(chunk);
    if (!isSharedArrayBuffer(buffer) && !isDetachedBuffer(buffer)) bytes = chunk;
  }
  if (bytes === undefined) {
    const kind = chunkKind(chunk);
    const outcome = chunkOutcome(driver.className, kind);
    if (!outcome.settled) return promiseThen(outcome.promise, () => functionCall(zlibTransform, this, chunk));
    if (outcome.answer !== null) return promiseRejectedWith(refusedChunkError(chunk, kind, outcome.answer));
    bytes = takenBytes(kind, chunk);
  }
  if (driver.error !== undefined) return promiseRejectedWith(driver.error);
  if (viewByteLength(bytes) === 0 || driver.ended) {
    // Nothing to feed: an empty chunk, or input after the end of a stream
    // that this Node's class ignores (Node 20's zlib has no rejectGarbageAfterEnd).
    return undefined;
  }
  driver.controller = this;
  const view = new Uint8ArrayCtor(viewBuffer(bytes), viewByteOffset(bytes), viewByteLength(bytes));
  const length = typedArrayByteLength(view);
  if (length >= driver.limit) {
    // zlib reads the writer's own bytes, and the write waits until it has
    // (written() releases it), so they cannot change first.
    driver.feed(view, true);
    return driver.error === undefined ? driver.wait() : promiseRejectedWith(driver.error);
  }
  // The write settles before zlib reads the bytes, so zlib gets a copy: the
  // writer may reuse its buffer as soon as the write has settled.
  const copy = new Uint8ArrayCtor(length);
  typedArraySet(copy, view);
  driver.feed(copy, false);
  if (driver.error !== undefined) return promiseRejectedWith(driver.error);
  if (driver.inFlightBytes + driver.batchBytes < driver.limit) return undefined;
  return driver.wait();
}

export function zlibFlush() {
  const driver = this.codec;
  if (driver.cancelled) return promiseRejectedWith(driver.cancelReason);
  if (driver.failing !== undefined) return promiseThen(driver.failing, () => functionCall(zlibFlush, this));
  if (driver.error !== undefined) return promiseRejectedWith(driver.error);
  if (driver.ended) return resolvedUndefined();
  driver.controller = this;
  driver.flushing = true;
  if (driver.paused) driver.onOutputWanted();
  const promise = driver.wait();
  // end() follows the writes before it, the batch included.
  try {
    if (driver.batch.length !== 0) {
      const batch = BufferConcat(driver.batch, driver.batchBytes);
      driver.batch = [];
      driver.batchBytes = 0;
      driver.engine.write(batch);
    }
    driver.engine.end();
  } catch (error) {
    driver.failAtOnce(error);
  }
  return promise;
}

export function zlibCancel(reason) {
  const driver = this.codec;
  driver.cancelled = true;
  driver.cancelReason = reason;
  // The stream is done with: what the destroyed engine reports later
  // (a pending write's callback error) has nothing left to error.
  driver.controller = undefined;
  driver.batch = [];
  driver.batchBytes = 0;
  driver.engine.destroy();
  // A write waiting for room would wait forever (and hold the writable
  // side's in-flight write open): it fails with the reason.
  const waiting = driver.waiting;
  if (waiting !== undefined) {
    driver.waiting = undefined;
    waiting.reject(reason);
  }
  return resolvedUndefined();
}

// format -> [make a compressor, make a decompressor, compress at once], where this Node's zlib has them.
const engines = {
  deflate: ['createDeflate', 'createInflate', 'deflateSync'],
  'deflate-raw': ['createDeflateRaw', 'createInflateRaw', 'deflateRawSync'],
  gzip: ['createGzip', 'createGunzip', 'gzipSync'],
  brotli: ['createBrotliCompress', 'createBrotliDecompress', 'brotliCompressSync'],
  zstd: ['createZstdCompress', 'createZstdDecompress', 'zstdCompressSync'],
};

/** A complete compressed stream of `format`, for asking Node about data after its end. */
function trailingProbeInput(format) {
  return new Uint8ArrayCtor(zlib()[engines[format][2]](new Uint8ArrayCtor(0)));
}

/** True when zlib has engines for `format` (a string). */
export function zlibHasFormat(format) {
  const pair = ObjectHasOwn(engines, format) ? engines[format] : undefined;
  return pair !== undefined && typeof zlib()[pair[0]] === 'function' && typeof zlib()[pair[1]] === 'function';
}

export function newCompressor(format) {
  return zlib()[engines[format][0]]();
}

// Input past the end of the compressed data is an error (Compression
// standard); Node 22+ zlib does that on request, Node 20 ignores the option.
const decompressOptions = { rejectGarbageAfterEnd: true };

export function newDecompressor(format) {
  return zlib()[engines[format][1]](decompressOptions);
}
