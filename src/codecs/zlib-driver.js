// Drives one node:zlib stream (public API only: write(chunk, callback), end(),
// 'data'/'end'/'error' events, destroy()) as the algorithms of a codec
// TransformStream. Each written chunk is one zlib write: the transform promise
// settles when zlib has consumed the chunk, by which time every output buffer
// it produced has been enqueued (zlib emits 'data' before the write callback).
// So at most one chunk is inside zlib at a time, and the readable side's
// backpressure stops further writes: memory stays bounded by one input
// chunk's output, for large chunks and many small ones alike. The work itself
// runs on libuv's thread pool, off the main thread, as in Node's own classes.
import {
  ObjectHasOwn,
  OriginalTypeError, ArrayBufferIsView, Uint8ArrayCtor, isArrayBuffer, isSharedArrayBuffer, viewBuffer,
} from '../intrinsics.js';
import { Deferred, promiseRejectedWith, resolvedUndefined } from '../promise.js';
import { codedError, invalidArgType } from '../errors.js';
import { builtin } from '../patch/builtins.js';
import { enqueueOutput } from './codec-transform.js';
import { TransformStreamError } from '../transform/transform-stream.js';

const zlib = builtin('node:zlib');
const BufferConcat = Buffer.concat;

/**
 * A chunk as a WebIDL BufferSource (ArrayBuffer or a view on one; not shared
 * memory): a view zlib can read, or undefined for anything else.
 */
export function bufferSourceBytes(chunk) {
  if (ArrayBufferIsView(chunk)) {
    if (!isSharedArrayBuffer(viewBuffer(chunk))) return chunk;
  } else if (isArrayBuffer(chunk)) {
    return new Uint8ArrayCtor(chunk);
  }
  return undefined;
}

/** A zlib failure as the TypeError the Compression standard asks for, keeping zlib's code and error. */
function asTypeError(error) {
  if (error instanceof OriginalTypeError) return error;
  const typeError = codedError(OriginalTypeError, error?.code, error?.message ?? String(error));
  typeError.cause = error;
  return typeError;
}

// Input bytes accepted ahead of zlib (copied, waiting for the write in
// flight to finish) before a write has to wait: enough to keep zlib's thread
// busy between JS turns, small enough to bound memory.
const AHEAD_LIMIT = 64 * 1024;

/**
 * Per stream: the zlib engine, the write in flight, the chunks batched behind
 * it, and the write or flush waiting for room or for the end.
 */
export class ZlibDriver {
  constructor(engine, className) {
    this.engine = engine;
    this.className = className;
    this.controller = undefined;
    this.inFlight = false;
    this.batch = [];
    this.batchBytes = 0;
    this.waiting = undefined; // Deferred of a write waiting for room, or of the flush
    this.flushing = false;
    this.error = undefined;
    this.ended = false;
    this.onWritten = (error) => {
      if (error) this.fail(error);
      else this.written();
    };
    engine.on('data', (buffer) => {
      // A copy, as Node's own classes make: zlib's output buffers share memory,
      // and a consumer may transfer what it reads.
      try {
        enqueueOutput(this.controller, new Uint8ArrayCtor(buffer));
      } catch {
        // The readable side was cancelled or errored: the engine is destroyed next.
      }
    });
    engine.on('end', () => {
      this.ended = true;
      this.release();
    });
    engine.on('error', (error) => this.fail(error));
  }

  /** Hands zlib `bytes` now, or batches them behind the write in flight. */
  feed(bytes) {
    if (!this.inFlight) {
      this.inFlight = true;
      this.engine.write(bytes, this.onWritten);
    } else {
      this.batch.push(bytes);
      this.batchBytes += bytes.byteLength;
    }
  }

  /** The write in flight is consumed: send the batch, and let a waiting write go on. */
  written() {
    if (this.batch.length !== 0) {
      const batch = this.batch.length === 1 ? this.batch[0] : BufferConcat(this.batch, this.batchBytes);
      this.batch = [];
      this.batchBytes = 0;
      this.engine.write(batch, this.onWritten);
    } else {
      this.inFlight = false;
    }
    if (!this.flushing) this.release();
  }

  release() {
    const waiting = this.waiting;
    if (waiting !== undefined) {
      this.waiting = undefined;
      waiting.resolve(undefined);
    }
  }

  /** zlib failed: reject what waits, or error the stream if nothing does. */
  fail(error) {
    if (this.error !== undefined) return;
    this.error = asTypeError(error);
    this.batch = [];
    this.batchBytes = 0;
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
  const bytes = bufferSourceBytes(chunk);
  if (bytes === undefined) {
    return promiseRejectedWith(invalidArgType(`The chunk written to a ${driver.className} must be an ` +
      'ArrayBuffer or an ArrayBufferView, not on a SharedArrayBuffer'));
  }
  if (driver.error !== undefined) return promiseRejectedWith(driver.error);
  if (bytes.byteLength === 0 || driver.ended) {
    // Nothing to feed: an empty chunk, or input after the end of a stream
    // that this Node's zlib ignores (Node 20 has no rejectGarbageAfterEnd).
    return undefined;
  }
  driver.controller = this;
  // The write settles before zlib reads the bytes, so zlib gets a copy: the
  // writer may reuse its buffer as soon as the write has settled.
  driver.feed(new Uint8ArrayCtor(bytes.buffer, bytes.byteOffset, bytes.byteLength).slice());
  if (driver.batchBytes < AHEAD_LIMIT) return undefined;
  const waiting = new Deferred();
  driver.waiting = waiting;
  return waiting.promise;
}

export function zlibFlush() {
  const driver = this.codec;
  if (driver.error !== undefined) return promiseRejectedWith(driver.error);
  if (driver.ended) return resolvedUndefined();
  driver.controller = this;
  driver.flushing = true;
  const waiting = new Deferred();
  driver.waiting = waiting;
  // end() follows the writes before it, the batch included.
  if (driver.batch.length !== 0) {
    const batch = BufferConcat(driver.batch, driver.batchBytes);
    driver.batch = [];
    driver.batchBytes = 0;
    driver.engine.write(batch);
  }
  driver.engine.end();
  return waiting.promise;
}

export function zlibCancel(reason) {
  const driver = this.codec;
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

// format -> [make a compressor, make a decompressor], where this Node's zlib has them.
const engines = {
  deflate: ['createDeflate', 'createInflate'],
  'deflate-raw': ['createDeflateRaw', 'createInflateRaw'],
  gzip: ['createGzip', 'createGunzip'],
  brotli: ['createBrotliCompress', 'createBrotliDecompress'],
  zstd: ['createZstdCompress', 'createZstdDecompress'],
};

/** True when zlib has engines for `format` (a string). */
export function zlibHasFormat(format) {
  const pair = ObjectHasOwn(engines, format) ? engines[format] : undefined;
  return pair !== undefined && typeof zlib[pair[0]] === 'function' && typeof zlib[pair[1]] === 'function';
}

export function newCompressor(format) {
  return zlib[engines[format][0]]();
}

// Input past the end of the compressed data is an error (Compression
// standard); Node 22+ zlib does that on request, Node 20 ignores the option.
const decompressOptions = { rejectGarbageAfterEnd: true };

export function newDecompressor(format) {
  return zlib[engines[format][1]](decompressOptions);
}
