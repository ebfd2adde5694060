/**
 * The WHATWG Streams Standard's dictionaries and callback types, as used by the
 * classes in `fast-webstreams` (re-exported from `fast-webstreams`).
 *
 * Everything here is module-scoped: nothing is added to the global scope, so
 * these declarations coexist with `lib.dom` and `@types/node` (or neither).
 */

import type {
  ReadableStream,
  ReadableStreamDefaultController,
  ReadableByteStreamController,
  WritableStream,
  WritableStreamDefaultController,
  TransformStreamDefaultController,
} from './index.js';

// ---------------------------------------------------------------------------
// AbortSignal, without depending on lib.dom or @types/node
// ---------------------------------------------------------------------------

/**
 * The minimal shape of an `AbortSignal`, for programs that have neither
 * `lib.dom` nor `@types/node`. Every real `AbortSignal` satisfies it.
 */
export interface StreamAbortSignal {
  /** Whether the signal has been aborted. */
  readonly aborted: boolean;
  /** The abort reason (`undefined` until aborted). */
  readonly reason: any;
  /** Throws `reason` if the signal has been aborted. */
  throwIfAborted(): void;
  addEventListener(
    type: 'abort',
    listener: (event: any) => any,
    options?: boolean | { capture?: boolean; once?: boolean; passive?: boolean },
  ): void;
  removeEventListener(
    type: 'abort',
    listener: (event: any) => any,
    options?: boolean | { capture?: boolean },
  ): void;
}

/**
 * The global `AbortSignal` type when the program declares one (`lib.dom` or
 * `@types/node`), otherwise {@link StreamAbortSignal}.
 *
 * At run time, a pipe's `signal` must be a real `AbortSignal` (brand-checked).
 */
export type GlobalAbortSignal = typeof globalThis extends { AbortSignal: { prototype: infer S } }
  ? S
  : StreamAbortSignal;

// ---------------------------------------------------------------------------
// Chunk types
// ---------------------------------------------------------------------------

/**
 * A `Uint8Array` backed by a (non-shared) `ArrayBuffer`: the chunk type of a
 * byte stream and the type of `ReadableStreamBYOBRequest.view`.
 * Resolves to `Uint8Array<ArrayBuffer>` on TypeScript 5.7+ and to plain
 * `Uint8Array` on older compilers.
 */
export type ArrayBufferUint8Array = ReturnType<Uint8Array['slice']>;

// ---------------------------------------------------------------------------
// Queuing strategies
// ---------------------------------------------------------------------------

/** Computes the size of a chunk, for backpressure accounting. */
export type QueuingStrategySize<T = any> = (chunk: T) => number;

/** A queuing strategy: a high-water mark and an optional chunk-size function. */
export interface QueuingStrategy<T = any> {
  /** The total size of queued chunks above which backpressure is applied. */
  highWaterMark?: number | undefined;
  /** Returns the size of a chunk (default: every chunk counts as 1). */
  size?: QueuingStrategySize<T> | undefined;
}

/** The argument of the `ByteLengthQueuingStrategy` and `CountQueuingStrategy` constructors. */
export interface QueuingStrategyInit {
  /** The high-water mark of the strategy. */
  highWaterMark: number;
}

// ---------------------------------------------------------------------------
// Underlying sources (ReadableStream)
// ---------------------------------------------------------------------------

/** The value of `UnderlyingSource.type`; `'bytes'` makes a readable byte stream. */
export type ReadableStreamType = 'bytes';

/** Either kind of readable stream controller. */
export type ReadableStreamController<R = any> = ReadableStreamDefaultController<R> | ReadableByteStreamController;

/** Called once, when the stream is constructed. */
export type UnderlyingSourceStartCallback<R = any> = (controller: ReadableStreamController<R>) => any;
/** Called whenever the stream's queue wants more data. */
export type UnderlyingSourcePullCallback<R = any> = (controller: ReadableStreamController<R>) => void | PromiseLike<void>;
/** Called when the consumer cancels the stream. */
export type UnderlyingSourceCancelCallback = (reason?: any) => void | PromiseLike<void>;

/** The most general underlying source: either a default or a byte source. */
export interface UnderlyingSource<R = any> {
  /** Byte streams only: size of the buffer auto-allocated for default-reader reads. */
  autoAllocateChunkSize?: number | undefined;
  /** Called when the consumer cancels the stream. */
  cancel?: UnderlyingSourceCancelCallback | undefined;
  /** Called whenever the stream's queue wants more data. */
  pull?: UnderlyingSourcePullCallback<R> | undefined;
  /** Called once, when the stream is constructed. */
  start?: UnderlyingSourceStartCallback<R> | undefined;
  /** `'bytes'` for a readable byte stream; omit for a default stream. */
  type?: ReadableStreamType | undefined;
}

/** An underlying source for a default (non-byte) readable stream. */
export interface UnderlyingDefaultSource<R = any> {
  /** Called when the consumer cancels the stream. */
  cancel?: UnderlyingSourceCancelCallback | undefined;
  /** Called whenever the stream's queue wants more data. */
  pull?: ((controller: ReadableStreamDefaultController<R>) => void | PromiseLike<void>) | undefined;
  /** Called once, when the stream is constructed. */
  start?: ((controller: ReadableStreamDefaultController<R>) => any) | undefined;
  /** Omitted (or `undefined`) for a default stream. */
  type?: undefined;
}

/** An underlying source for a readable byte stream (`type: 'bytes'`). */
export interface UnderlyingByteSource {
  /** Size of the buffer auto-allocated when a default reader reads (enables `byobRequest` for it). */
  autoAllocateChunkSize?: number | undefined;
  /** Called when the consumer cancels the stream. */
  cancel?: UnderlyingSourceCancelCallback | undefined;
  /** Called whenever the stream's queue wants more data. */
  pull?: ((controller: ReadableByteStreamController) => void | PromiseLike<void>) | undefined;
  /** Called once, when the stream is constructed. */
  start?: ((controller: ReadableByteStreamController) => any) | undefined;
  /** Makes the stream a readable byte stream. */
  type: 'bytes';
}

// ---------------------------------------------------------------------------
// Underlying sinks (WritableStream)
// ---------------------------------------------------------------------------

/** Called once, when the stream is constructed. */
export type UnderlyingSinkStartCallback = (controller: WritableStreamDefaultController) => any;
/** Called for each chunk written to the stream. */
export type UnderlyingSinkWriteCallback<W = any> = (
  chunk: W,
  controller: WritableStreamDefaultController,
) => void | PromiseLike<void>;
/** Called after every queued chunk has been written, when the stream is closed. */
export type UnderlyingSinkCloseCallback = () => void | PromiseLike<void>;
/** Called when the stream is aborted. */
export type UnderlyingSinkAbortCallback = (reason?: any) => void | PromiseLike<void>;

/** The underlying sink of a `WritableStream`. */
export interface UnderlyingSink<W = any> {
  /** Called when the stream is aborted. */
  abort?: UnderlyingSinkAbortCallback | undefined;
  /** Called after every queued chunk has been written, when the stream is closed. */
  close?: UnderlyingSinkCloseCallback | undefined;
  /** Called once, when the stream is constructed. */
  start?: UnderlyingSinkStartCallback | undefined;
  /** Reserved; must be `undefined` (a RangeError otherwise). */
  type?: undefined;
  /** Called for each chunk written to the stream. */
  write?: UnderlyingSinkWriteCallback<W> | undefined;
}

// ---------------------------------------------------------------------------
// Transformers (TransformStream)
// ---------------------------------------------------------------------------

/** Called once, when the stream is constructed. */
export type TransformerStartCallback<O = any> = (controller: TransformStreamDefaultController<O>) => any;
/** Called for each chunk written to the writable side. */
export type TransformerTransformCallback<I = any, O = any> = (
  chunk: I,
  controller: TransformStreamDefaultController<O>,
) => void | PromiseLike<void>;
/** Called after every chunk has been transformed, when the writable side closes. */
export type TransformerFlushCallback<O = any> = (controller: TransformStreamDefaultController<O>) => void | PromiseLike<void>;
/** Called when the readable side is cancelled or the writable side is aborted. */
export type TransformerCancelCallback = (reason: any) => void | PromiseLike<void>;

/** The transformer of a `TransformStream`. */
export interface Transformer<I = any, O = any> {
  /** Called when the readable side is cancelled or the writable side is aborted. */
  cancel?: TransformerCancelCallback | undefined;
  /** Called after every chunk has been transformed, when the writable side closes. */
  flush?: TransformerFlushCallback<O> | undefined;
  /** Reserved; must be `undefined` (a RangeError otherwise). */
  readableType?: undefined;
  /** Called once, when the stream is constructed. */
  start?: TransformerStartCallback<O> | undefined;
  /** Called for each chunk written to the writable side (default: pass it through). */
  transform?: TransformerTransformCallback<I, O> | undefined;
  /** Reserved; must be `undefined` (a RangeError otherwise). */
  writableType?: undefined;
}

// ---------------------------------------------------------------------------
// Method options
// ---------------------------------------------------------------------------

/** The value of `ReadableStreamGetReaderOptions.mode`. */
export type ReadableStreamReaderMode = 'byob';

/** Options of `ReadableStream.getReader()`. */
export interface ReadableStreamGetReaderOptions {
  /** `'byob'` for a `ReadableStreamBYOBReader` (byte streams only); omit for a default reader. */
  mode?: ReadableStreamReaderMode | undefined;
}

/** Options of `ReadableStream.values()` and `[Symbol.asyncIterator]()`. */
export interface ReadableStreamIteratorOptions {
  /** Leave the stream uncancelled when the loop exits early (`break`, `return`, `throw`). */
  preventCancel?: boolean | undefined;
}

/** Options of `ReadableStreamBYOBReader.read()`. */
export interface ReadableStreamBYOBReaderReadOptions {
  /** Minimum number of elements to fill before resolving (default 1; at most the view's length). */
  min?: number | undefined;
}

/** Options of `ReadableStream.pipeTo()` and `ReadableStream.pipeThrough()`. */
export interface StreamPipeOptions {
  /** Don't abort the destination when the source errors. */
  preventAbort?: boolean | undefined;
  /** Don't cancel the source when the destination errors or closes. */
  preventCancel?: boolean | undefined;
  /** Don't close the destination when the source closes. */
  preventClose?: boolean | undefined;
  /** Aborts the pipe (a real `AbortSignal`). */
  signal?: GlobalAbortSignal | undefined;
}

/** A `{ readable, writable }` pair, such as a `TransformStream`, for `ReadableStream.pipeThrough()`. */
export interface ReadableWritablePair<R = any, W = any> {
  /** The side `pipeThrough()` returns. */
  readable: ReadableStream<R>;
  /** The side `pipeThrough()` pipes into. */
  writable: WritableStream<W>;
}
