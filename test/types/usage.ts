// Type-level usage test for types/index.d.ts and types/register.d.ts.
// Must compile cleanly with `--lib es2022` (no DOM, no @types/node) and with `--lib es2022,dom`:
//   npx -y -p typescript@5 tsc -p test/types          (tsconfig.json next to this file)
// The `// @ts-expect-error` lines prove misuse is rejected. Compiled to JS, main() also runs
// against the real library (everything except misuse(), whose lines all throw at run time).
import 'fast-webstreams/register';
import {
  ReadableStream,
  ReadableStreamDefaultReader,
  ReadableStreamBYOBReader,
  ReadableStreamDefaultController,
  ReadableByteStreamController,
  ReadableStreamBYOBRequest,
  WritableStream,
  WritableStreamDefaultWriter,
  WritableStreamDefaultController,
  TransformStream,
  TransformStreamDefaultController,
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
  install,
  uninstall,
  isInstalled,
  nativeClasses,
  startMetricsFromEnv,
  TextEncoderStream,
  TextDecoderStream,
  CompressionStream,
  DecompressionStream,
  getSites,
  getCounters,
} from 'fast-webstreams';
import type {
  ArrayBufferUint8Array,
  QueuingStrategy,
  ReadableStreamReadResult,
  ReadableWritablePair,
  StreamPipeOptions,
  Transformer,
  UnderlyingByteSource,
  UnderlyingDefaultSource,
  UnderlyingSink,
  UnderlyingSource,
} from 'fast-webstreams';

// --- type assertion helpers -------------------------------------------------
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): void {}
function expectType<T>(_value: T): void {}

// --- a default stream ------------------------------------------------------
async function defaultStream(): Promise<void> {
  const source: UnderlyingDefaultSource<string> = {
    start(controller) {
      controller.enqueue('a');
    },
  };
  const fromSource = new ReadableStream(source);
  assertType<Equal<typeof fromSource, ReadableStream<string>>>();

  // The general source gets the controller union; narrow it with instanceof.
  const general: UnderlyingSource<number> = {
    pull(controller) {
      if (controller instanceof ReadableStreamDefaultController) {
        expectType<ReadableStreamDefaultController<number>>(controller);
        controller.enqueue(1);
      } else {
        expectType<ReadableByteStreamController>(controller);
        controller.close();
      }
    },
  };
  assertType<Equal<typeof general extends UnderlyingSource<infer R> ? R : never, number>>();
  const fromGeneral = new ReadableStream(general);
  assertType<Equal<typeof fromGeneral, ReadableStream<number>>>();

  let n = 0;
  const counter = new ReadableStream<number>(
    {
      pull(controller) {
        expectType<ReadableStreamDefaultController<number>>(controller);
        expectType<number | null>(controller.desiredSize);
        if (n === 3) controller.close();
        else controller.enqueue(n++);
      },
      cancel(reason) {
        void reason;
      },
    },
    new CountQueuingStrategy({ highWaterMark: 2 }),
  );
  expectType<boolean>(counter.locked);

  const [left, right] = counter.tee();
  assertType<Equal<typeof left, ReadableStream<number>>>();

  const reader = left.getReader();
  assertType<Equal<typeof reader, ReadableStreamDefaultReader<number>>>();
  const result = await reader.read();
  if (result.done) {
    // Typed as in lib.dom / @types/node; a default reader's done value is undefined at run time.
    assertType<Equal<typeof result.value, number | undefined>>();
  } else {
    assertType<Equal<typeof result.value, number>>();
  }
  reader.releaseLock();
  // A tee branch's cancel() settles once both branches are cancelled or the source closes.
  const leftCancelled = left.cancel('done');

  const explicitReader = new ReadableStreamDefaultReader(right);
  expectType<Promise<void>>(explicitReader.closed);
  explicitReader.releaseLock();

  for await (const chunk of right) {
    expectType<number>(chunk);
  }
  await leftCancelled;

  const iterated = ReadableStream.from(['x', 'y']);
  const iterator = iterated.values({ preventCancel: true });
  const step = await iterator.next();
  if (!step.done) expectType<string>(step.value);
  await iterator.return?.();

  async function* generate(): AsyncGenerator<number> {
    yield 1;
    yield 2;
  }
  const fromAsync = ReadableStream.from(generate());
  assertType<Equal<typeof fromAsync, ReadableStream<number>>>();
  const fromPromises = ReadableStream.from([Promise.resolve(true), false]);
  assertType<Equal<typeof fromPromises, ReadableStream<boolean>>>();
}

// --- a byte stream with a BYOB reader --------------------------------------
async function byteStream(): Promise<void> {
  const bytes = new ReadableStream(
    {
      type: 'bytes',
      autoAllocateChunkSize: 1024,
      pull(controller) {
        expectType<ReadableByteStreamController>(controller);
        const request = controller.byobRequest;
        if (request !== null) {
          expectType<ReadableStreamBYOBRequest>(request);
          const view = request.view;
          if (view !== null) {
            expectType<ArrayBufferUint8Array>(view);
            view[0] = 42;
            request.respond(1);
          }
        } else {
          controller.enqueue(new Uint8Array([1, 2, 3]));
        }
      },
    },
    { highWaterMark: 0 },
  );
  assertType<Equal<typeof bytes, ReadableStream<ArrayBufferUint8Array>>>();

  const byob = bytes.getReader({ mode: 'byob' });
  assertType<Equal<typeof byob, ReadableStreamBYOBReader>>();
  const view16 = new Uint16Array(8);
  const r = await byob.read(view16, { min: 1 });
  // The result's view has exactly the type of the view passed in.
  assertType<Equal<typeof r, ReadableStreamReadResult<typeof view16>>>();
  if (!r.done) {
    expectType<Uint16Array>(r.value);
    expectType<number>(r.value.byteLength);
  } else {
    expectType<Uint16Array | undefined>(r.value);
  }
  const dv = await byob.read(new DataView(new ArrayBuffer(4)));
  if (!dv.done) expectType<DataView>(dv.value);
  byob.releaseLock();

  // The general `mode` option yields the reader union.
  const mode: 'byob' | undefined = Math.random() > 0.5 ? 'byob' : undefined;
  const either = bytes.getReader({ mode });
  if (either instanceof ReadableStreamBYOBReader) expectType<ReadableStreamBYOBReader>(either);
  else expectType<ReadableStreamDefaultReader<ArrayBufferUint8Array>>(either);
  either.releaseLock();

  const byteSource: UnderlyingByteSource = {
    type: 'bytes',
    start(controller) {
      controller.close();
    },
  };
  const explicitByob = new ReadableStreamBYOBReader(new ReadableStream(byteSource));
  await explicitByob.cancel();

  const strategy = new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 });
  expectType<number>(strategy.highWaterMark);
  expectType<number>(strategy.size(new Uint8Array(4)));
  const viaStrategy = new ReadableStream<Uint8Array>({}, strategy);
  void viaStrategy;
}

// --- pipeThrough: T -> U ---------------------------------------------------
async function piping(): Promise<void> {
  const transformer: Transformer<string, number> = {
    start(controller) {
      expectType<TransformStreamDefaultController<number>>(controller);
    },
    transform(chunk, controller) {
      expectType<string>(chunk);
      controller.enqueue(chunk.length);
    },
    flush(controller) {
      controller.terminate();
    },
    cancel(reason) {
      void reason;
    },
  };
  const lengths = new TransformStream(transformer);
  assertType<Equal<typeof lengths, TransformStream<string, number>>>();
  expectType<WritableStream<string>>(lengths.writable);
  expectType<ReadableStream<number>>(lengths.readable);

  const doubled = new TransformStream<number, number>({
    transform(chunk, controller) {
      controller.enqueue(chunk * 2);
    },
  });

  const words = ReadableStream.from(['alpha', 'beta']);
  const out = words.pipeThrough(lengths).pipeThrough(doubled);
  assertType<Equal<typeof out, ReadableStream<number>>>();

  // Any { readable, writable } pair works, not just TransformStream.
  const pair: ReadableWritablePair<boolean, number> = {
    readable: ReadableStream.from([true]),
    writable: new WritableStream<number>(),
  };
  const flags = out.pipeThrough(pair);
  assertType<Equal<typeof flags, ReadableStream<boolean>>>();

  const options: StreamPipeOptions = { preventAbort: false, preventCancel: false, preventClose: false };
  const sink = new WritableStream<boolean>({
    write(chunk) {
      expectType<boolean>(chunk);
    },
  });
  await flags.pipeTo(sink, options);

  // A pass-through TransformStream keeps the chunk type when typed explicitly.
  const identity = new TransformStream<string, string>();
  const same = ReadableStream.from(['z']).pipeThrough(identity);
  assertType<Equal<typeof same, ReadableStream<string>>>();

  // @ts-expect-error a ReadableStream<number> cannot be piped into a writable side of strings
  ReadableStream.from([1, 2]).pipeThrough(new TransformStream<string, number>());

  // @ts-expect-error pipeTo's destination must accept the source's chunk type
  await ReadableStream.from([1]).pipeTo(new WritableStream<string>());
}

// --- a WritableStream with signal ------------------------------------------
async function writable(): Promise<void> {
  const received: string[] = [];
  const sink: UnderlyingSink<string> = {
    start(controller) {
      expectType<WritableStreamDefaultController>(controller);
    },
    async write(chunk, controller) {
      const signal = controller.signal;
      expectType<boolean>(signal.aborted);
      signal.throwIfAborted();
      signal.addEventListener('abort', () => received.push(`aborted: ${String(signal.reason)}`), { once: true });
      received.push(chunk);
    },
    close() {},
    abort(reason) {
      void reason;
    },
  };
  const strategy: QueuingStrategy<string> = { highWaterMark: 16, size: (chunk) => chunk.length };
  const stream = new WritableStream(sink, strategy);
  assertType<Equal<typeof stream, WritableStream<string>>>();

  const writer = stream.getWriter();
  assertType<Equal<typeof writer, WritableStreamDefaultWriter<string>>>();
  expectType<number | null>(writer.desiredSize);
  await writer.ready;
  await writer.write('hello');

  writer.releaseLock();
  await stream.close();

  const second = new WritableStreamDefaultWriter(new WritableStream<Uint8Array>());
  await second.abort(new Error('stop'));
}

// --- misuse is rejected -----------------------------------------------------
function misuse(): void {
  const writer = new WritableStream<string>().getWriter();
  // @ts-expect-error a WritableStream<string> does not accept numbers
  void writer.write(42);

  // @ts-expect-error controllers are not constructible
  new ReadableStreamDefaultController();

  // @ts-expect-error a BYOB read needs an ArrayBufferView
  void new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' }).read([1, 2, 3]);

  // @ts-expect-error enqueue on a ReadableStream<number> controller takes numbers
  new ReadableStream<number>({ start: (c) => c.enqueue('one') });

  // @ts-expect-error Transformer.readableType is reserved and must be undefined
  new TransformStream({ readableType: 'bytes' });
}

// --- install / uninstall ----------------------------------------------------
function patching(): void {
  const natives = nativeClasses();
  const NativeReadable = natives.ReadableStream;
  const native = new NativeReadable<string>();
  expectType<boolean>(native.locked);
  void natives.CountQueuingStrategy;
  void natives.TransformStreamDefaultController;

  expectType<boolean>(isInstalled());
  // `fast-webstreams/register` already installed the patch above, so this returns false.
  const installedNow: boolean = install();
  const removed: boolean = uninstall();
  expectType<boolean>(installedNow && removed);
  // What the preload does after install(); with FAST_WEBSTREAMS=0 it starts nothing.
  expectType<void>(startMetricsFromEnv({ FAST_WEBSTREAMS: '0' }));
  startMetricsFromEnv();
}

// --- codec classes and the counters -----------------------------------------
async function codecs(): Promise<void> {
  const bytes = ReadableStream.from(['héllo']).pipeThrough(new TextEncoderStream());
  assertType<Equal<typeof bytes, ReadableStream<ArrayBufferUint8Array>>>();
  const round = bytes.pipeThrough(new CompressionStream('gzip')).pipeThrough(new DecompressionStream('gzip'))
    .pipeThrough(new TextDecoderStream('utf-8', { fatal: true }));
  assertType<Equal<typeof round, ReadableStream<string>>>();
  let text = '';
  for await (const chunk of round) text += chunk;
  expectType<string>(text);
  expectType<'utf-8'>(new TextEncoderStream().encoding);
  // @ts-expect-error not a CompressionFormat
  void (() => new CompressionStream('zip'));
  const [first] = getSites(3);
  if (first !== undefined) expectType<number>(first.events['fallback:async-write'] ?? first.total);
  expectType<number>(getCounters().fusedChunks);
}

export async function main(): Promise<void> {
  await codecs();
  await defaultStream();
  await byteStream();
  await piping();
  await writable();
  void misuse; // compile-time only: every line in it throws at run time
  patching();
}
