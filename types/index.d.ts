/**
 * fast-webstreams: a from-scratch, spec-complete implementation of the WHATWG
 * Streams Standard (https://streams.spec.whatwg.org/) for Node.js.
 *
 * One flag, no code changes: preload the register module and the global
 * `ReadableStream`, `WritableStream`, `TransformStream`, their readers, writers
 * and controllers, and the two queuing strategies become these classes:
 *
 * ```sh
 * node --import fast-webstreams/register app.js
 * # or: NODE_OPTIONS="--import fast-webstreams/register"; FAST_WEBSTREAMS=0 turns it off
 * ```
 *
 * Or use the classes directly, without touching globals:
 *
 * ```ts
 * import { ReadableStream, TransformStream, install, uninstall } from 'fast-webstreams';
 * ```
 *
 * What needs the preload (or `install()`): Node's own code checks that a stream
 * is one of Node's classes, so without the patch `Readable.fromWeb(ours)`,
 * `Writable.fromWeb(ours)`, `Duplex.fromWeb(ours)`, a native stream piped into
 * or through ours, ours through Node's global `CompressionStream`, and
 * `structuredClone` transfer of ours type-check here and throw at run time.
 * `new Response(ours)`, `fetch()` bodies, `stream.pipeline`, `node:stream/consumers`
 * and this package's codec classes work without it (the README's table).
 *
 * These declarations are self-contained (no `lib.dom` or `@types/node` needed)
 * and module-scoped, so they never clash with the global stream types those
 * libraries declare. `install()` changes the globals at run time only; the
 * global *types* stay whatever your `lib`/`types` settings say. Where those
 * libraries are present, our streams, readers and writers are assignable to
 * and from theirs (`node:stream/web`'s and the globals), both ways.
 * Requires TypeScript 5.6 or later.
 *
 * @packageDocumentation
 */

import type {
  ArrayBufferUint8Array,
  GlobalAbortSignal,
  QueuingStrategy,
  QueuingStrategyInit,
  QueuingStrategySize,
  ReadableStreamBYOBReaderReadOptions,
  ReadableStreamGetReaderOptions,
  ReadableStreamIteratorOptions,
  ReadableWritablePair,
  StreamPipeOptions,
  Transformer,
  UnderlyingByteSource,
  UnderlyingDefaultSource,
  UnderlyingSink,
  UnderlyingSource,
} from './dictionaries.js';

export type {
  ArrayBufferUint8Array,
  GlobalAbortSignal,
  QueuingStrategy,
  QueuingStrategyInit,
  QueuingStrategySize,
  ReadableStreamBYOBReaderReadOptions,
  ReadableStreamController,
  ReadableStreamGetReaderOptions,
  ReadableStreamIteratorOptions,
  ReadableStreamReaderMode,
  ReadableStreamType,
  ReadableWritablePair,
  StreamAbortSignal,
  StreamPipeOptions,
  Transformer,
  TransformerCancelCallback,
  TransformerFlushCallback,
  TransformerStartCallback,
  TransformerTransformCallback,
  UnderlyingByteSource,
  UnderlyingDefaultSource,
  UnderlyingSink,
  UnderlyingSinkAbortCallback,
  UnderlyingSinkCloseCallback,
  UnderlyingSinkStartCallback,
  UnderlyingSinkWriteCallback,
  UnderlyingSource,
  UnderlyingSourceCancelCallback,
  UnderlyingSourcePullCallback,
  UnderlyingSourceStartCallback,
} from './dictionaries.js';

// ---------------------------------------------------------------------------
// Read results and async iteration
// ---------------------------------------------------------------------------

// Why some declarations below look odd. TypeScript compares our classes with
// lib.dom's and @types/node's by shape, and when it does (an assignment, or
// `fetchBody.pipeThrough(ourTransform)`) it infers the chunk type of one side
// from the other's members. Two same-shaped copies of these declarations
// already disagree there (a closed read's `value: T | undefined` is matched
// against an open read's `value: T`, and a BYOB reader against a default
// reader), so lib.dom's and @types/node's own streams do not accept each
// other. Ours do, both ways, because:
// - chunk types in read results are `NoInfer`: nothing is inferred from them;
// - `pipeThrough()` and BYOB `read()` have two overloads (with and without
//   options): TypeScript compares overloaded methods without inferring;
// - `getReader()` and the default reader's `read()` end with an overload that
//   TypeScript uses for inference only (a caller always matches an earlier one).
// test/types/interop.ts checks all of it against @types/node 20, 22, 24, 26.

/** A read that produced a chunk. */
export interface ReadableStreamReadValueResult<T> {
  done: false;
  /** The chunk (for a BYOB read: a view of the filled bytes, in a transferred buffer). */
  value: NoInfer<T>;
}

/** A read that found the stream closed. */
export interface ReadableStreamReadDoneResult<T> {
  done: true;
  /** `undefined` for a default reader; for a BYOB read, the (empty) view, or `undefined` if the stream was cancelled. */
  value: NoInfer<T> | undefined;
}

/** The result of a reader's `read()`, discriminated on `done`. */
export type ReadableStreamReadResult<T> = ReadableStreamReadValueResult<T> | ReadableStreamReadDoneResult<T>;

/** Either kind of reader. */
export type ReadableStreamReader<R = any> = ReadableStreamDefaultReader<R> | ReadableStreamBYOBReader;

/**
 * The async iterator returned by `ReadableStream.values()` and `[Symbol.asyncIterator]()`:
 * `next()` reads the next chunk, `return(value)` releases the reader and, unless
 * `preventCancel` was set, cancels the stream with `value`. The same shape as
 * lib.dom's and `@types/node`'s, so the two are interchangeable (TypeScript 5.6+).
 */
export interface ReadableStreamAsyncIterator<R = any> extends AsyncIteratorObject<R, BuiltinIteratorReturn, unknown> {
  [Symbol.asyncIterator](): ReadableStreamAsyncIterator<R>;
}

// ---------------------------------------------------------------------------
// ReadableStream
// ---------------------------------------------------------------------------

/** A source of data that can be read, piped, teed and iterated (spec 4.2). */
export interface ReadableStream<R = any> {
  /** Whether the stream is locked to a reader (or a pipe). */
  readonly locked: boolean;
  /** Cancels the stream, signalling loss of interest; rejects if the stream is locked. */
  cancel(reason?: any): Promise<void>;
  /** Locks the stream to a new BYOB reader (byte streams only). */
  getReader(options: { mode: 'byob' }): ReadableStreamBYOBReader;
  /** Locks the stream to a new reader of the requested mode (a default reader without one). */
  getReader(options: ReadableStreamGetReaderOptions | undefined): ReadableStreamReader<R>;
  /** Locks the stream to a new default reader. */
  getReader(): ReadableStreamDefaultReader<R>;
  /**
   * A default reader, again: no call reaches this overload (the two above
   * take every argument it does). It ends the list so that the last two
   * overloads, the ones TypeScript infers chunk types from when it compares
   * this stream with lib.dom's or @types/node's, both return a default reader.
   */
  getReader(options?: { mode?: undefined }): ReadableStreamDefaultReader<R>;
  /** Pipes this stream into `transform.writable` and returns `transform.readable`. */
  pipeThrough<T>(transform: ReadableWritablePair<T, R>): ReadableStream<T>;
  /** Pipes this stream into `transform.writable` and returns `transform.readable`. */
  pipeThrough<T>(transform: ReadableWritablePair<T, R>, options?: StreamPipeOptions): ReadableStream<T>;
  /** Pipes this stream into `destination`; resolves when the pipe completes. */
  pipeTo(destination: WritableStream<R>, options?: StreamPipeOptions): Promise<void>;
  /** Splits the stream into two branches that each see every chunk. */
  tee(): [ReadableStream<R>, ReadableStream<R>];
  /** Returns an async iterator over the stream's chunks (locks the stream). */
  values(options?: ReadableStreamIteratorOptions): ReadableStreamAsyncIterator<R>;
  /** `for await (const chunk of stream)`; same function as `values()`. */
  [Symbol.asyncIterator](options?: ReadableStreamIteratorOptions): ReadableStreamAsyncIterator<R>;
}

/**
 * The `ReadableStream` class's static side.
 *
 * As with `lib.dom` and `@types/node`, subclass it with an explicit chunk type:
 * `class MyStream extends ReadableStream<string> {}`.
 */
export interface ReadableStreamConstructor {
  readonly prototype: ReadableStream;
  /** Creates a readable byte stream, readable with a BYOB reader. */
  new (
    underlyingSource: UnderlyingByteSource,
    strategy?: { highWaterMark?: number | undefined; size?: undefined },
  ): ReadableStream<ArrayBufferUint8Array>;
  /** Creates a default readable stream of `R` chunks. */
  new <R = any>(underlyingSource: UnderlyingDefaultSource<R>, strategy?: QueuingStrategy<R>): ReadableStream<R>;
  /** Creates a readable stream (a byte stream if `underlyingSource.type` is `'bytes'`). */
  new <R = any>(underlyingSource?: UnderlyingSource<R>, strategy?: QueuingStrategy<R>): ReadableStream<R>;
  /** Creates a stream from an async iterable, or a sync iterable of values or promises. */
  from<R>(asyncIterable: AsyncIterable<R> | Iterable<R | PromiseLike<R>>): ReadableStream<R>;
}

/**
 * A source of data that can be read, piped, teed and iterated (spec 4.2).
 * Without the preload or `install()`, Node's `Readable.fromWeb()` and a native
 * stream's `pipeTo()`/`pipeThrough()` refuse it at run time (see the top of this file).
 */
export declare const ReadableStream: ReadableStreamConstructor;

/** A reader that reads chunks from a stream it locks (spec 4.3). */
export declare class ReadableStreamDefaultReader<R = any> {
  /** Locks `stream` to a new reader; throws if it is already locked. */
  constructor(stream: ReadableStream<R>);
  /** Resolves when the stream closes; rejects if it errors or the lock is released. */
  readonly closed: Promise<void>;
  /** Cancels the stream. */
  cancel(reason?: any): Promise<void>;
  /** Reads the next chunk (when `done`, `value` is `undefined`). */
  read(): Promise<ReadableStreamReadResult<R>>;
  /**
   * The same read, as TypeScript's inference sees it (a call always matches
   * the overload above): the closed result leaves `value` out, so inferring a
   * chunk type from it adds no `undefined`.
   */
  read(): Promise<ReadableStreamReadValueResult<R> | { done: true }>;
  /** Releases the lock; pending reads reject. */
  releaseLock(): void;
}

/** A reader that reads a byte stream into buffers you supply (spec 4.4). */
export declare class ReadableStreamBYOBReader {
  /** Locks the byte stream `stream` to a new BYOB reader; throws if it is locked or not a byte stream. */
  constructor(stream: ReadableStream<ArrayBufferView>);
  /** Resolves when the stream closes; rejects if it errors or the lock is released. */
  readonly closed: Promise<void>;
  /** Cancels the stream. */
  cancel(reason?: any): Promise<void>;
  /**
   * Reads bytes into `view` (whose buffer is transferred) and resolves with a view
   * of the same type over the filled part, once at least `options.min` elements are filled.
   */
  read<T extends ArrayBufferView>(view: T): Promise<ReadableStreamReadResult<T>>;
  read<T extends ArrayBufferView>(view: T, options?: ReadableStreamBYOBReaderReadOptions): Promise<ReadableStreamReadResult<T>>;
  /** Releases the lock; pending reads reject. */
  releaseLock(): void;
}

/** Controls a default readable stream: given to the underlying source (spec 4.6). Not constructible. */
export declare class ReadableStreamDefaultController<R = any> {
  private constructor();
  /** High-water mark minus queued size; `null` if errored, 0 if closed. */
  readonly desiredSize: number | null;
  /** Closes the stream once queued chunks are read. */
  close(): void;
  /** Queues a chunk for reading. */
  enqueue(chunk?: R): void;
  /** Errors the stream. */
  error(e?: any): void;
}

/** Controls a readable byte stream: given to the underlying byte source (spec 4.7). Not constructible. */
export declare class ReadableByteStreamController {
  private constructor();
  /** The pending BYOB read to fill, or `null` if none. */
  readonly byobRequest: ReadableStreamBYOBRequest | null;
  /** High-water mark minus queued bytes; `null` if errored, 0 if closed. */
  readonly desiredSize: number | null;
  /** Closes the stream once queued bytes are read. */
  close(): void;
  /** Queues the bytes of `chunk` (its buffer is transferred). */
  enqueue(chunk: ArrayBufferView): void;
  /** Errors the stream. */
  error(e?: any): void;
}

/** A pending BYOB read that the underlying byte source fills (spec 4.8). Not constructible. */
export declare class ReadableStreamBYOBRequest {
  private constructor();
  /** The bytes to fill, or `null` once responded to. */
  readonly view: ArrayBufferUint8Array | null;
  /** Reports that `bytesWritten` bytes were written into `view`. */
  respond(bytesWritten: number): void;
  /** Fulfills the request with `view`, which must cover the same buffer region as `this.view`. */
  respondWithNewView(view: ArrayBufferView): void;
}

// ---------------------------------------------------------------------------
// WritableStream
// ---------------------------------------------------------------------------

/** A destination for data, with backpressure (spec 5.2). */
export declare class WritableStream<W = any> {
  /** Creates a writable stream over `underlyingSink`. */
  constructor(underlyingSink?: UnderlyingSink<W>, strategy?: QueuingStrategy<W>);
  /** Whether the stream is locked to a writer (or a pipe). */
  readonly locked: boolean;
  /** Aborts the stream, discarding queued chunks; rejects if the stream is locked. */
  abort(reason?: any): Promise<void>;
  /** Closes the stream after queued chunks are written; rejects if the stream is locked. */
  close(): Promise<void>;
  /** Locks the stream to a new writer. */
  getWriter(): WritableStreamDefaultWriter<W>;
}

/** A writer that writes chunks to a stream it locks (spec 5.3). */
export declare class WritableStreamDefaultWriter<W = any> {
  /** Locks `stream` to a new writer; throws if it is already locked. */
  constructor(stream: WritableStream<W>);
  /** Resolves when the stream closes; rejects if it errors or the lock is released. */
  readonly closed: Promise<void>;
  /** High-water mark minus queued size; `null` if errored or erroring, 0 if closed. */
  readonly desiredSize: number | null;
  /** Resolves when `desiredSize` turns positive (no backpressure). */
  readonly ready: Promise<void>;
  /** Aborts the stream. */
  abort(reason?: any): Promise<void>;
  /** Closes the stream after queued chunks are written. */
  close(): Promise<void>;
  /** Releases the lock; the writer's promises reject. */
  releaseLock(): void;
  /** Writes a chunk; resolves once the underlying sink has processed it. */
  write(chunk?: W): Promise<void>;
  /**
   * The same write, as TypeScript's inference sees it (a call always matches
   * the overload above): @types/node's writer takes a chunk that is not
   * optional, lib.dom's an optional one, and inference pairs their one
   * signature with this last one. A required `NoInfer` chunk adds no
   * `undefined` to a chunk type inferred from ours, nor infers one from theirs.
   */
  write(chunk: NoInfer<W>): Promise<void>;
}

/** Controls a writable stream: given to the underlying sink (spec 5.4). Not constructible. */
export declare class WritableStreamDefaultController {
  private constructor();
  /** Aborted when the stream is aborted: lets the sink stop an in-flight write. */
  readonly signal: GlobalAbortSignal;
  /** Errors the stream. */
  error(e?: any): void;
}

// ---------------------------------------------------------------------------
// TransformStream
// ---------------------------------------------------------------------------

/** A writable side whose chunks are transformed onto a readable side (spec 6.2). */
export declare class TransformStream<I = any, O = any> {
  /** Creates a transform stream; without a `transform` callback chunks pass through unchanged. */
  constructor(transformer?: Transformer<I, O>, writableStrategy?: QueuingStrategy<I>, readableStrategy?: QueuingStrategy<O>);
  /** The side transformed chunks are read from. */
  readonly readable: ReadableStream<O>;
  /** The side chunks are written to. */
  readonly writable: WritableStream<I>;
}

/** Controls a transform stream: given to the transformer (spec 6.3). Not constructible. */
export declare class TransformStreamDefaultController<O = any> {
  private constructor();
  /** The readable side's desired size; `null` if errored. */
  readonly desiredSize: number | null;
  /** Queues a chunk on the readable side. */
  enqueue(chunk?: O): void;
  /** Errors both sides. */
  error(reason?: any): void;
  /** Closes the readable side and errors the writable side. */
  terminate(): void;
}

// ---------------------------------------------------------------------------
// Queuing strategies
// ---------------------------------------------------------------------------

/** Counts chunks by their `byteLength` (spec 7.2). */
export declare class ByteLengthQueuingStrategy implements QueuingStrategy<ArrayBufferView> {
  constructor(init: QueuingStrategyInit);
  /** The high-water mark, in bytes. */
  readonly highWaterMark: number;
  /** Returns `chunk.byteLength`. */
  readonly size: QueuingStrategySize<ArrayBufferView>;
}

/** Counts every chunk as 1 (spec 7.3). */
export declare class CountQueuingStrategy implements QueuingStrategy {
  constructor(init: QueuingStrategyInit);
  /** The high-water mark, in chunks. */
  readonly highWaterMark: number;
  /** Returns 1. */
  readonly size: QueuingStrategySize;
}

// ---------------------------------------------------------------------------
// Codec classes (docs/codecs.md): TransformStreams of this package, so chains
// through them stay fused
// ---------------------------------------------------------------------------

/** Bytes a codec class takes: an `ArrayBuffer`, or a view of one (a `SharedArrayBuffer` too, where Node takes it). */
export type CodecBufferSource = ArrayBufferView | ArrayBufferLike;

/** The formats of the Compression Standard; Node 22+ also takes `'brotli'` (where its own class does). */
export type CompressionFormat = 'deflate' | 'deflate-raw' | 'gzip' | 'brotli';

/** Encodes strings to UTF-8 bytes (Encoding Standard). */
export declare class TextEncoderStream {
  constructor();
  /** Always `'utf-8'`. */
  readonly encoding: 'utf-8';
  /** The UTF-8 bytes. */
  readonly readable: ReadableStream<ArrayBufferUint8Array>;
  /** The strings to encode. */
  readonly writable: WritableStream<string>;
  /** The class name, as `Object.prototype.toString()` shows it. */
  readonly [Symbol.toStringTag]: string;
}

/** Decodes bytes in the given encoding to strings (Encoding Standard). */
export declare class TextDecoderStream {
  constructor(label?: string, options?: { fatal?: boolean | undefined; ignoreBOM?: boolean | undefined });
  /** The encoding's canonical name, e.g. `'utf-8'`. */
  readonly encoding: string;
  /** Whether a malformed sequence errors the stream (else it decodes to U+FFFD). */
  readonly fatal: boolean;
  /** Whether a byte order mark is kept in the output. */
  readonly ignoreBOM: boolean;
  /** The decoded strings. */
  readonly readable: ReadableStream<string>;
  /** The bytes to decode. */
  readonly writable: WritableStream<CodecBufferSource>;
  /** The class name, as `Object.prototype.toString()` shows it. */
  readonly [Symbol.toStringTag]: string;
}

/** Compresses bytes (Compression Standard). */
export declare class CompressionStream {
  constructor(format: CompressionFormat);
  /** The compressed bytes. */
  readonly readable: ReadableStream<ArrayBufferUint8Array>;
  /** The bytes to compress. */
  readonly writable: WritableStream<CodecBufferSource>;
  /** The class name, as `Object.prototype.toString()` shows it. */
  readonly [Symbol.toStringTag]: string;
}

/** Decompresses bytes (Compression Standard). */
export declare class DecompressionStream {
  constructor(format: CompressionFormat);
  /** The decompressed bytes. */
  readonly readable: ReadableStream<ArrayBufferUint8Array>;
  /** The bytes to decompress. */
  readonly writable: WritableStream<CodecBufferSource>;
  /** The class name, as `Object.prototype.toString()` shows it. */
  readonly [Symbol.toStringTag]: string;
}

// ---------------------------------------------------------------------------
// The global patch
// ---------------------------------------------------------------------------

/**
 * The global `K` class's type when the program declares one (`lib.dom` or
 * `@types/node`), otherwise `Fallback` (this package's class, which has the same API).
 */
type GlobalClass<K extends string, Fallback> = typeof globalThis extends { [P in K]: infer C } ? C : Fallback;

/** Node's own Web Streams classes, as captured before any patch (see {@link nativeClasses}). */
export interface NativeClasses {
  ReadableStream: GlobalClass<'ReadableStream', typeof ReadableStream>;
  ReadableStreamDefaultReader: GlobalClass<'ReadableStreamDefaultReader', typeof ReadableStreamDefaultReader>;
  ReadableStreamBYOBReader: GlobalClass<'ReadableStreamBYOBReader', typeof ReadableStreamBYOBReader>;
  ReadableStreamBYOBRequest: GlobalClass<'ReadableStreamBYOBRequest', typeof ReadableStreamBYOBRequest>;
  ReadableStreamDefaultController: GlobalClass<'ReadableStreamDefaultController', typeof ReadableStreamDefaultController>;
  ReadableByteStreamController: GlobalClass<'ReadableByteStreamController', typeof ReadableByteStreamController>;
  WritableStream: GlobalClass<'WritableStream', typeof WritableStream>;
  WritableStreamDefaultWriter: GlobalClass<'WritableStreamDefaultWriter', typeof WritableStreamDefaultWriter>;
  WritableStreamDefaultController: GlobalClass<'WritableStreamDefaultController', typeof WritableStreamDefaultController>;
  TransformStream: GlobalClass<'TransformStream', typeof TransformStream>;
  TransformStreamDefaultController: GlobalClass<'TransformStreamDefaultController', typeof TransformStreamDefaultController>;
  ByteLengthQueuingStrategy: GlobalClass<'ByteLengthQueuingStrategy', typeof ByteLengthQueuingStrategy>;
  CountQueuingStrategy: GlobalClass<'CountQueuingStrategy', typeof CountQueuingStrategy>;
}

/**
 * Replaces the 13 global Web Streams classes with this package's, and the four codec
 * classes (`TextEncoderStream`, `TextDecoderStream`, `CompressionStream`,
 * `DecompressionStream`) unless `FAST_WEBSTREAMS_CODECS=0`, and patches
 * `structuredClone` / `MessagePort.prototype.postMessage` so these streams can be transferred.
 * @returns `false` if already installed (nothing changes), `true` otherwise.
 */
export declare function install(): boolean;

/**
 * Restores every global property `install()` replaced, exactly as it was.
 * @returns `false` if not installed (nothing changes), `true` otherwise.
 */
export declare function uninstall(): boolean;

/** Whether `install()` is currently in effect. */
export declare function isInstalled(): boolean;

/** Node's own classes, as captured when this package first loaded (before any patch). Returns a new object each call. */
export declare function nativeClasses(): NativeClasses;

// ---------------------------------------------------------------------------
// Tier counters (docs/metrics.md)
// ---------------------------------------------------------------------------

/**
 * A snapshot of this process's tier counters. Every field only grows until
 * `resetCounters()`. More numeric fields may be added in later versions.
 */
export interface FastWebStreamsCounters {
  readableStreamsCreated: number;
  writableStreamsCreated: number;
  transformStreamsCreated: number;
  /** fused (tier 0): pipeThrough chains resolved at the sink into one fused pump. */
  fusedChains: number;
  fusedStreams: number;
  fusedChunks: number;
  /** sync (tier 1): operations served synchronously. */
  syncReads: number;
  syncWrites: number;
  syncPipeChunks: number;
  /** spec (tier 2): operations on the spec algorithm. */
  specReads: number;
  specWrites: number;
  specPipeChunks: number;
  /** Tier 3: bridges to or from native Node streams. */
  nativeBridges: number;
  /** Fast paths that fell back to the spec path; reasons in `fallbackReasons`. */
  fallbacks: number;
  /** Fallback reason (short kebab-case string) -> count. */
  fallbackReasons: Record<string, number>;
  [field: string]: number | Record<string, number>;
}

/** A fresh snapshot of the tier counters (a plain object; changing it changes nothing). */
export declare function getCounters(): FastWebStreamsCounters;

/** Zeroes every tier counter and forgets every fallback reason (and the per-site tallies). */
export declare function resetCounters(): void;

/** One line of application code whose streams took the spec path or fell back (see {@link getSites}). */
export interface FastWebStreamsSite {
  /** `file:line:column` of the application frame that made the stream. */
  site: string;
  /** Sum of `events`. */
  total: number;
  /** Event kind (a spec-path counter such as `specReads`, or `fallback:<reason>`) -> count. */
  events: Record<string, number>;
}

/**
 * With `FAST_WEBSTREAMS_METRICS_SITES=1`: the `limit` (default 10) application
 * sites with the most spec-path chunks and fallbacks, most first; `[]` otherwise.
 */
export declare function getSites(limit?: number): FastWebStreamsSite[];

/**
 * Starts the metrics outputs the environment asks for (`FAST_WEBSTREAMS_METRICS`,
 * `FAST_WEBSTREAMS_METRICS_PORT`, `FAST_WEBSTREAMS_METRICS_SUMMARY`, ...; docs/metrics.md)
 * and the `fast-webstreams:metrics` diagnostics channel: what the preload does after
 * `install()`, for a program that installs the patch itself. Only the first call does
 * anything; with `FAST_WEBSTREAMS=0` in `env` it starts nothing.
 */
export declare function startMetricsFromEnv(env?: Record<string, string | undefined>): void;

/** This process's counters as Prometheus text, to append to the application's own `/metrics` body. */
export declare function renderMetrics(): string;

/**
 * Registers the counters on a prom-client registry (default `client.register`); values are read at
 * each scrape. `client` is the application's own `prom-client` module (not a dependency of ours).
 */
export declare function registerPromClient(
  client: { Counter: new (config: any) => unknown; Gauge: new (config: any) => { set(labels: any, value: number): void }; register?: unknown },
  registry?: unknown,
): unknown[];

/** The parts of an `@opentelemetry/api` Meter that `registerOpenTelemetry()` uses. */
export interface FastWebStreamsMeterLike {
  createObservableCounter(name: string, options?: { description?: string }): any;
  addBatchObservableCallback(callback: (result: any) => void, observables: any[]): void;
  removeBatchObservableCallback(callback: (result: any) => void, observables: any[]): void;
}

/**
 * Observable counters (`fast_webstreams.<field>`, `fast_webstreams.fallbacks{reason}`,
 * `fast_webstreams.chunk_hops{tier}`) on the application's OpenTelemetry meter.
 * Returns a function that removes them.
 */
export declare function registerOpenTelemetry(meter: FastWebStreamsMeterLike): () => void;
