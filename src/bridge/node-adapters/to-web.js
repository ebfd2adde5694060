// Writable.toWeb(nodeWritable) as one of our WritableStreams. Node's adapter
// makes a native WritableStream over the Node stream, and ours can reach a
// native writable only through its public writer: a promise per chunk, then
// Node's reaction to it (src/bridge/fast-over-native.js), where Node's own
// pipe writes with none. Ours writes the Node stream directly: a pipe of ours
// into it hands each chunk to write() at once, and a write() returns a
// promise only under backpressure.
//
// It does what Node's adapter does on the running version: the queuing
// strategy from the Node stream, write() waiting for 'drain' when write()
// returned false, close() ending the Node stream and waiting for it to
// finish, abort() destroying it, and the Node stream's end or error
// (stream.finished) closing or erroring ours, with the error mapped as Node
// maps it. Where versions differ, ./node-behaviour.js says. Anything else (not
// a Node writable, already destroyed or ended) goes to Node's adapter.
import {
  ReflectApply, PromiseReject, Uint8ArrayCtor, isAnyArrayBuffer, ObjectCreate, ObjectKeys, OriginalTypeError,
  StringPrototypeStartsWith,
} from '../../intrinsics.js';
import { Deferred, uponPromise, promiseResolvedWith } from '../../promise.js';
import {
  CreateWritableStream, WritableStreamDefaultControllerErrorIfNeeded,
} from '../../writable/default-controller.js';
import { wrapWritableStream } from '../../writable/writable-stream.js';
import { nodeAbortError } from '../../node-internals/abort-error.js';
import { toWebMode } from './node-behaviour.js';

/** Node's isWritableEnded (internal/streams/utils): the Node stream has been ended, or null when unknown. */
function isWritableEnded(streamWritable) {
  if (streamWritable.writableEnded === true) return true;
  const state = streamWritable._writableState;
  if (state?.errored) return false;
  if (typeof state?.ended !== 'boolean') return null;
  return state.ended;
}

const sizeByLength = (chunk) => chunk?.byteLength ?? chunk?.length ?? 1;

/**
 * Returns Writable.toWeb for `stream` (node:stream), given Node's own as
 * `original`, and `zlibConstants()`, node:zlib's constants (loaded only for
 * an error with a code).
 */
export function makeWritableToWeb(stream, original, zlibConstants) {
  const { finished, destroy, isDestroyed, isWritable } = stream;
  let zlibFailures; // the codes Node 22+ turns into a TypeError: zlib's negative ones and Z_NEED_DICT

  function isZlibFailure(code) {
    if (zlibFailures === undefined) {
      const constants = zlibConstants();
      zlibFailures = ObjectCreate(null);
      zlibFailures.Z_NEED_DICT = true;
      for (const name of ObjectKeys(constants)) if (constants[name] < 0) zlibFailures[name] = true;
    }
    return zlibFailures[code] === true;
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

  function writableToWeb(streamWritable) {
    if (!(streamWritable && typeof streamWritable.write === 'function' && typeof streamWritable.on === 'function') ||
        isDestroyed(streamWritable) || !isWritable(streamWritable)) {
      return ReflectApply(original, this, [streamWritable]);
    }
    return wrapWritableStream(writableOver(streamWritable));
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
      streamWritable.on('error', () => {});
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
        return uponPromise(backpressure.promise, clearBackpressure, (e) => {
          clearBackpressure();
          throw e;
        });
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
    const abort = (reason) => {
      try {
        destroy(streamWritable, reason);
        return promiseResolvedWith(undefined);
      } catch (e) {
        return PromiseReject(e);
      }
    };
    ws = CreateWritableStream(() => undefined, write, close, abort, highWaterMark, size);
    return ws;
  }

  return writableToWeb;
}
