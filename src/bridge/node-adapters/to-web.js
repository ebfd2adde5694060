// Readable.toWeb(nodeReadable) and Writable.toWeb(nodeWritable) as our own
// streams. Node's adapters make native streams over the Node stream, and a
// native stream meets ours only through a bridge: Node's pipe into a native
// twin of ours (src/bridge/native-twin.js), or our pipe through the native
// writer, a promise per chunk and Node's reaction to it
// (src/bridge/fast-over-native.js), where Node's own pipe into its adapter
// writes with none. Ours read and write the Node stream directly, so a chain
// of ours runs through them as through any stream of ours.
//
// They do what Node's adapters do on the running version. Readable.toWeb:
// the strategy from the Node stream, the stream paused and read on 'data'
// (a pool Buffer copied out), paused again when the queue is full, resumed
// by pull(), destroyed by cancel(), and closed or errored when it ends.
// Writable.toWeb: the strategy from the Node stream, write() waiting for
// 'drain' only when write() returned false, close() ending the Node stream
// and waiting for it to finish, abort() destroying it. For both, the Node
// stream's end or error (stream.finished) closes or errors ours, with the
// error mapped as Node maps it. Where versions differ, ./node-behaviour.js
// says. Anything else (options, not a Node stream, a stream already
// destroyed, ended or errored, a Node release they were not compared on:
// toWebFollowed) goes to Node's adapter.
import {
  ReflectApply, PromiseReject, Uint8ArrayCtor, isAnyArrayBuffer, ObjectCreate, ObjectKeys, OriginalTypeError,
  StringPrototypeStartsWith, OriginalPromise, promiseThen, promiseFinally,
} from '../../intrinsics.js';
import { Deferred, promiseResolvedWith, noop } from '../../promise.js';
import {
  CreateWritableStream, WritableStreamDefaultControllerErrorIfNeeded,
} from '../../writable/default-controller.js';
import { wrapWritableStream } from '../../writable/writable-stream.js';
import { counters } from '../../metrics/counters.js';
import { sites, noteCreation } from '../../metrics/sites.js';
import { CreateReadableStream } from '../../readable/default-controller.js';
import { wrapReadableStream } from '../../readable/readable-stream.js';
import { nodeAbortError } from '../../node-internals/abort-error.js';
import { toWebMode, readableToWebMode, toWebFollowed } from './node-behaviour.js';

/** Node's isWritableEnded (internal/streams/utils): the Node stream has been ended, or null when unknown. */
function isWritableEnded(streamWritable) {
  if (streamWritable.writableEnded === true) return true;
  const state = streamWritable._writableState;
  if (state?.errored) return false;
  if (typeof state?.ended !== 'boolean') return null;
  return state.ended;
}

/**
 * A Readable whose end or error stream.finished() may report at once: Node
 * 24+ then closes its stream inside toWeb(), which a watcher of ours cannot
 * (Node's adapter passes finished() an option of its own).
 */
function readableEnding(streamReadable) {
  const state = streamReadable._readableState;
  return state.ended || state.endEmitted || state.errored != null || state.closed;
}

/** Node's SafePromisePrototypeFinally: `promise` settled, then onFinally, in as many microtasks. */
function finallyAsNode(promise, onFinally) {
  return new OriginalPromise((resolve, reject) => {
    const inner = new OriginalPromise((a, b) => promiseThen(promise, a, b));
    promiseThen(promiseFinally(inner, onFinally), resolve, reject);
  });
}

const sizeByLength = (chunk) => chunk?.byteLength ?? chunk?.length ?? 1;
const byteLengthSize = (chunk) => chunk.byteLength; // ByteLengthQueuingStrategy's size()

/**
 * Returns { readableToWeb, writableToWeb } for `stream` (node:stream), given
 * Node's own as `original` ({ readable, writable }), node:buffer's Buffer, and
 * `zlibConstants()`, node:zlib's constants (loaded only for an error with a
 * code).
 */
export function makeToWeb(stream, original, Buffer, zlibConstants) {
  const { finished, destroy, isDestroyed, isReadable, isWritable } = stream;
  const isBuffer = Buffer.isBuffer;
  let zlibFailures; // the codes Node 22+ turns into a TypeError: zlib's negative ones and Z_NEED_DICT

  function isZlibFailure(code) {
    if (zlibFailures === undefined) {
      const constants = zlibConstants();
      zlibFailures = ObjectCreate(null);
      zlibFailures.Z_NEED_DICT = true;
      const names = ObjectKeys(constants);
      for (let i = 0; i < names.length; i++) if (constants[names[i]] < 0) zlibFailures[names[i]] = true;
    }
    return zlibFailures[code] === true;
  }

  /** Node's `destroy(stream, reason)` (the adapters' cancel and abort), as a sink's promise. */
  function destroyWith(nodeStream, reason) {
    try {
      destroy(nodeStream, reason);
      return promiseResolvedWith(undefined);
    } catch (e) {
      return PromiseReject(e);
    }
  }

  /** Node's handling of the error stream.finished() reports (handleKnownInternalErrors on 22+). */
  function mapError(error) {
    const code = error?.code;
    if (code === 'ERR_STREAM_PREMATURE_CLOSE') return nodeAbortError(error);
    if (toWebMode.mapsZlibErrors && typeof code === 'string' &&
        (isZlibFailure(code) || (toWebMode.mapsBrotliErrors && StringPrototypeStartsWith(code, 'ERR__ERROR_')))) {
      const mapped = new OriginalTypeError(undefined, { cause: error });
      mapped.code = code;
      return mapped;
    }
    return error;
  }

  function readableToWeb(streamReadable, options = undefined) {
    if (!toWebFollowed || options !== undefined || typeof streamReadable?._readableState !== 'object' ||
        isDestroyed(streamReadable) || !isReadable(streamReadable) || readableEnding(streamReadable)) {
      return ReflectApply(original.readable, this, arguments);
    }
    const stream = readableOver(streamReadable);
    // A stream the application asked for, counted as new ReadableStream() is.
    counters.readableStreamsCreated++;
    if (sites.on) noteCreation(stream); // FAST_WEBSTREAMS_METRICS_SITES
    return wrapReadableStream(stream);
  }

  function readableOver(streamReadable) {
    const objectMode = streamReadable.readableObjectMode;
    const highWaterMark = streamReadable.readableHighWaterMark;
    let wasCanceled = false;
    const rs = CreateReadableStream(
      () => undefined,
      () => {
        try {
          streamReadable.resume();
          return undefined;
        } catch (e) {
          return PromiseReject(e);
        }
      },
      (reason) => {
        wasCanceled = true;
        return destroyWith(streamReadable, reason);
      },
      highWaterMark,
      objectMode ? undefined : byteLengthSize,
    );
    // The public controller: Node's adapter enqueues, closes and errors through it, and so meets its checks.
    const controller = rs.controller.facade;
    const onEnd = (error) => {
      error = mapError(error);
      cleanup();
      // Legacy streams may emit 'error' again after finishing.
      streamReadable.on('error', noop);
      // Node 24+ stops at a cancel first, and marks the end as one.
      if (readableToWebMode.readEndsOnce) {
        if (wasCanceled) return;
        wasCanceled = true;
      } else if (!error && wasCanceled) {
        return;
      }
      if (error) controller.error(error);
      else controller.close();
    };
    // Node 24+ does not wait for a Duplex's writable side.
    const cleanup = readableToWebMode.readEndsOnce ? finished(streamReadable, { writable: false }, onEnd)
      : finished(streamReadable, onEnd);
    streamReadable.pause();
    streamReadable.on('data', (chunk) => {
      if (readableToWebMode.dataAfterEndIgnored && wasCanceled) return;
      // A Buffer may be a slice of Node's pool: copy it out.
      if (!objectMode && isBuffer(chunk)) chunk = new Uint8ArrayCtor(chunk);
      controller.enqueue(chunk);
      if (controller.desiredSize <= 0) streamReadable.pause();
    });
    return rs;
  }

  function writableToWeb(streamWritable) {
    if (!toWebFollowed ||
        !(streamWritable && typeof streamWritable.write === 'function' && typeof streamWritable.on === 'function') ||
        isDestroyed(streamWritable) || !isWritable(streamWritable)) {
      return ReflectApply(original.writable, this, [streamWritable]);
    }
    const stream = writableOver(streamWritable);
    // A stream the application asked for, counted as new WritableStream() is.
    counters.writableStreamsCreated++;
    if (sites.on) noteCreation(stream); // FAST_WEBSTREAMS_METRICS_SITES
    return wrapWritableStream(stream);
  }

  function writableOver(streamWritable) {
    const objectMode = streamWritable.writableObjectMode;
    const highWaterMark = streamWritable.writableHighWaterMark;
    const size = !objectMode && toWebMode.sizesByLength ? sizeByLength : undefined;
    let ws; // our stream; its controller is errored once (as Node's `controller = undefined` after)
    let live = true;
    let backpressure; // Deferred: the write waiting for 'drain'
    let closed; // Deferred: close() waiting for the Node stream to finish
    const errorOurs = (e) => {
      if (!live) return;
      live = false;
      WritableStreamDefaultControllerErrorIfNeeded(ws.controller, e);
    };

    const cleanup = finished(streamWritable, (error) => {
      error = mapError(error);
      cleanup();
      // Legacy streams may emit 'error' again after finishing.
      streamWritable.on('error', noop);
      if (error != null) {
        backpressure?.reject(error);
        if (closed !== undefined) {
          closed.reject(error);
          closed = undefined;
        }
        errorOurs(error);
        return;
      }
      if (closed !== undefined) {
        closed.resolve(undefined);
        closed = undefined;
        return;
      }
      errorOurs(nodeAbortError());
    });
    streamWritable.on('drain', () => backpressure?.resolve(undefined));

    const clearBackpressure = () => {
      backpressure = undefined;
    };
    const write = (chunk) => {
      try {
        if (toWebMode.arrayBufferAsView && !streamWritable.writableObjectMode && isAnyArrayBuffer(chunk)) {
          chunk = new Uint8ArrayCtor(chunk);
        }
        if (!streamWritable.writableNeedDrain && streamWritable.write(chunk)) return undefined;
        backpressure = new Deferred();
        if (toWebMode.drainedAtOnce && !streamWritable.writableNeedDrain) backpressure.resolve(undefined);
        return finallyAsNode(backpressure.promise, clearBackpressure);
      } catch (e) {
        return PromiseReject(e);
      }
    };
    const close = () => {
      try {
        if (closed === undefined && !isWritableEnded(streamWritable)) {
          closed = new Deferred();
          streamWritable.end();
          return closed.promise;
        }
      } catch (e) {
        return PromiseReject(e);
      }
      live = false;
      return promiseResolvedWith(undefined);
    };
    const abort = (reason) => destroyWith(streamWritable, reason);
    ws = CreateWritableStream(() => undefined, write, close, abort, highWaterMark, size);
    return ws;
  }

  return { readableToWeb, writableToWeb };
}
