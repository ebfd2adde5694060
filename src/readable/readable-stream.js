// The public ReadableStream class (spec 4.2): WebIDL argument conversion and
// brand checks, then straight into the abstract operations.
import { ObjectDefineProperty, SymbolAsyncIterator } from '../intrinsics.js';
import { promiseRejectedWith, setPromiseIsHandled } from '../promise.js';
import { kWrap } from '../facade.js';
import {
  isObject, illegalInvocation, defineInterface, requireDictionary, getMember,
  convertCallback, convertEnforceRangeULL, convertEnum,
} from '../webidl.js';
import { convertQueuingStrategy, ExtractHighWaterMark, ExtractSizeAlgorithm } from '../strategies.js';
import { ReadableStreamImpl, IsReadableStreamLocked, ReadableStreamCancel } from './stream-ops.js';
import { SetUpReadableStreamDefaultControllerFromUnderlyingSource } from './default-controller.js';
import { SetUpReadableByteStreamControllerFromUnderlyingSource } from './byte-controller.js';
import { AcquireReadableStreamDefaultReader } from './default-reader.js';
import { AcquireReadableStreamBYOBReader } from './byob-reader.js';
import { ReadableStreamTee } from './tee.js';
import { ReadableStreamPipeTo, convertPipeOptions } from './pipe-to.js';
import { CreateReadableStreamAsyncIterator } from './async-iterator.js';
import { ReadableStreamFromIterable } from './from.js';
import { unwrapWritableStream, isWritableStreamLocked } from '../writable/writable-stream.js';
import { counters } from '../metrics/counters.js';
import { sites, noteCreation } from '../metrics/sites.js';
import { tiers } from '../tiers.js';
import { invalidArgType, invalidArgValueRange, invalidState, startNotCallable } from '../errors.js';

/**
 * The global patch's one way into construction (src/patch/undici-first.js):
 * null, or fn(underlyingSource, strategy, newTarget) returning another stream to give
 * the caller instead, or undefined.
 */
let constructingElsewhere = null;

/** Sets or clears (null) the hook above. */
export function setConstructingElsewhere(fn) {
  constructingElsewhere = fn;
}

export class ReadableStream {
  #impl;

  constructor(underlyingSource = undefined, strategy = undefined) {
    if (underlyingSource === kWrap) {
      this.#impl = strategy;
      strategy.api = this;
      return;
    }
    if (constructingElsewhere !== null) {
      const other = constructingElsewhere(underlyingSource, strategy, new.target);
      if (other !== undefined) return other;
    }
    if (underlyingSource !== undefined && !isObject(underlyingSource)) {
      throw invalidArgType('source', 'of type object', underlyingSource);
    }
    const strategyDict = convertQueuingStrategy(strategy, 'strategy');
    // The UnderlyingSource dictionary, members in WebIDL (lexicographic) order,
    // read straight into locals (no dictionary object is kept).
    let autoAllocateChunkSize;
    let cancel;
    let pull;
    let start;
    let type;
    if (underlyingSource !== undefined) {
      const chunkSize = underlyingSource.autoAllocateChunkSize;
      if (chunkSize !== undefined) {
        autoAllocateChunkSize = convertEnforceRangeULL(chunkSize, 'source.autoAllocateChunkSize');
      }
      cancel = underlyingSource.cancel;
      if (cancel !== undefined) convertCallback(cancel, 'source.cancel');
      pull = underlyingSource.pull;
      if (pull !== undefined) convertCallback(pull, 'source.pull');
      start = underlyingSource.start;
      if (start !== undefined) convertCallback(start, 'source.start', startNotCallable);
      const typeValue = underlyingSource.type;
      if (typeValue !== undefined) type = convertEnum(typeValue, 'bytes', 'source.type');
    }
    const stream = new ReadableStreamImpl();
    counters.readableStreamsCreated++;
    if (sites.on) noteCreation(stream); // FAST_WEBSTREAMS_METRICS_SITES
    this.#impl = stream;
    stream.api = this;
    if (type === 'bytes') {
      if (strategyDict.size !== undefined) {
        throw invalidArgValueRange('strategy.size', strategyDict.size);
      }
      const highWaterMark = ExtractHighWaterMark(strategyDict, 0);
      SetUpReadableByteStreamControllerFromUnderlyingSource(stream, underlyingSource, start, pull, cancel,
        highWaterMark, autoAllocateChunkSize);
    } else {
      const sizeAlgorithm = ExtractSizeAlgorithm(strategyDict);
      const highWaterMark = ExtractHighWaterMark(strategyDict, 1);
      SetUpReadableStreamDefaultControllerFromUnderlyingSource(
        stream, underlyingSource, start, pull, cancel, highWaterMark, sizeAlgorithm);
    }
  }

  get locked() {
    if (!isReadableStream(this)) throw illegalInvocation('ReadableStream', 'locked');
    return IsReadableStreamLocked(this.#impl);
  }

  cancel(reason = undefined) {
    if (!isReadableStream(this)) return promiseRejectedWith(illegalInvocation('ReadableStream', 'cancel'));
    const stream = this.#impl;
    if (IsReadableStreamLocked(stream)) {
      return promiseRejectedWith(invalidState('ReadableStream is locked'));
    }
    return ReadableStreamCancel(stream, reason);
  }

  getReader(options = undefined) {
    if (!isReadableStream(this)) throw illegalInvocation('ReadableStream', 'getReader');
    requireDictionary(options, 'options');
    const modeValue = getMember(options, 'mode');
    const mode = modeValue === undefined
      ? undefined
      : convertEnum(modeValue, 'byob', 'options.mode');
    const stream = this.#impl;
    const reader = mode === undefined ? AcquireReadableStreamDefaultReader(stream) : AcquireReadableStreamBYOBReader(stream);
    tiers.countChainEndingAtReader(stream);
    return reader.facade;
  }

  pipeThrough(transform, options = undefined) {
    if (!isReadableStream(this)) throw illegalInvocation('ReadableStream', 'pipeThrough');
    if (!isObject(transform)) {
      throw invalidArgType('transform.readable', 'an instance of ReadableStream', undefined);
    }
    const readable = transform.readable;
    const readableImpl = unwrapReadableStream(readable);
    if (readableImpl === undefined) {
      throw invalidArgType('transform.readable', 'an instance of ReadableStream', readable);
    }
    const writable = transform.writable;
    const writableImpl = unwrapWritableStream(writable);
    if (writableImpl === undefined) {
      throw invalidArgType('transform.writable', 'an instance of WritableStream', writable);
    }
    const opts = convertPipeOptions(options);
    const stream = this.#impl;
    if (IsReadableStreamLocked(stream)) {
      throw invalidState('The ReadableStream is locked');
    }
    if (isWritableStreamLocked(writableImpl)) {
      throw invalidState('The WritableStream is locked');
    }
    const promise = ReadableStreamPipeTo(stream, writableImpl, opts.preventClose, opts.preventAbort,
      opts.preventCancel, opts.signal);
    setPromiseIsHandled(promise);
    return readable;
  }

  pipeTo(destination, options = undefined) {
    if (!isReadableStream(this)) return promiseRejectedWith(illegalInvocation('ReadableStream', 'pipeTo'));
    const dest = unwrapWritableStream(destination);
    if (dest === undefined) {
      // Node names the argument as pipeThrough() does.
      return promiseRejectedWith(invalidArgType('transform.writable', 'an instance of WritableStream', destination));
    }
    let opts;
    try {
      opts = convertPipeOptions(options);
    } catch (e) {
      return promiseRejectedWith(e);
    }
    const stream = this.#impl;
    if (IsReadableStreamLocked(stream)) {
      return promiseRejectedWith(invalidState('The ReadableStream is locked'));
    }
    if (isWritableStreamLocked(dest)) {
      return promiseRejectedWith(invalidState('The WritableStream is locked'));
    }
    return ReadableStreamPipeTo(stream, dest, opts.preventClose, opts.preventAbort, opts.preventCancel, opts.signal);
  }

  tee() {
    if (!isReadableStream(this)) throw illegalInvocation('ReadableStream', 'tee');
    const branches = ReadableStreamTee(this.#impl, false); // indexed: a program may have replaced the array iterator
    return [wrapReadableStream(branches[0]), wrapReadableStream(branches[1])];
  }

  values(options = undefined) {
    if (!isReadableStream(this)) throw illegalInvocation('ReadableStream', 'values');
    requireDictionary(options, 'options');
    const preventCancel = !!getMember(options, 'preventCancel');
    const iterator = CreateReadableStreamAsyncIterator(this.#impl, preventCancel);
    tiers.countChainEndingAtReader(this.#impl);
    return iterator;
  }

  static from(asyncIterable) {
    const stream = ReadableStreamFromIterable(asyncIterable);
    // A stream the application asked for, as new ReadableStream() (tee branches and a transform's sides are not).
    counters.readableStreamsCreated++;
    if (sites.on) noteCreation(stream); // FAST_WEBSTREAMS_METRICS_SITES
    return wrapReadableStream(stream);
  }

  static unwrap(value) {
    return typeof value === 'object' && value !== null && #impl in value ? value.#impl : undefined;
  }
}

/** The internal record of a public ReadableStream, or undefined for anything else. */
export const unwrapReadableStream = ReadableStream.unwrap;
delete ReadableStream.unwrap;
const isReadableStream = (value) => unwrapReadableStream(value) !== undefined;

/** The public ReadableStream for an internal record (created once, then cached). */
export function wrapReadableStream(stream) {
  return stream.api ?? new ReadableStream(kWrap, stream);
}

defineInterface(ReadableStream, 'ReadableStream',
  ['locked', 'cancel', 'getReader', 'pipeThrough', 'pipeTo', 'tee', 'values']);
// The async iterator and values() are the same function object (WebIDL).
ObjectDefineProperty(ReadableStream.prototype, SymbolAsyncIterator, {
  value: ReadableStream.prototype.values, writable: true, enumerable: false, configurable: true,
});
ObjectDefineProperty(ReadableStream, 'from', { enumerable: true });
