// ReadableStream: constructor arguments, strategies, locking, pipes, tee,
// async iteration, ReadableStream.from, default readers and controllers.
import {
  site, lockedReadable, lockedWritable, defaultController, releasedReader,
} from './helpers.mjs';

const constructor = [
  site('RS ctor: source is a number', () => new ReadableStream(5)),
  site('RS ctor: source is null', () => new ReadableStream(null)),
  site('RS ctor: source is a string', () => new ReadableStream('x')),
  site('RS ctor: start not callable', () => new ReadableStream({ start: 5 })),
  site('RS ctor: pull not callable', () => new ReadableStream({ pull: {} })),
  site('RS ctor: cancel not callable', () => new ReadableStream({ cancel: 'x' })),
  site('RS ctor: type is not bytes', () => new ReadableStream({ type: 'nope' })),
  site('RS ctor: type is null', () => new ReadableStream({ type: null })),
  site('RS ctor: type bytes with size()', () => new ReadableStream({ type: 'bytes' }, { size() { return 1; } })),
  site('RS ctor: autoAllocateChunkSize 0', () => new ReadableStream({ type: 'bytes', autoAllocateChunkSize: 0 })),
  site('RS ctor: autoAllocateChunkSize NaN', () => new ReadableStream({ type: 'bytes', autoAllocateChunkSize: NaN })),
  site('RS ctor: autoAllocateChunkSize -1', () => new ReadableStream({ type: 'bytes', autoAllocateChunkSize: -1 })),
  site('RS ctor: autoAllocateChunkSize Infinity',
    () => new ReadableStream({ type: 'bytes', autoAllocateChunkSize: Infinity })),
  site('RS ctor: strategy is a number', () => new ReadableStream({}, 5)),
  site('RS ctor: highWaterMark -1', () => new ReadableStream({}, { highWaterMark: -1 })),
  site('RS ctor: highWaterMark NaN', () => new ReadableStream({}, { highWaterMark: NaN })),
  site('RS ctor: highWaterMark a word', () => new ReadableStream({}, { highWaterMark: 'lots' })),
  site('RS ctor: highWaterMark a Symbol', () => new ReadableStream({}, { highWaterMark: Symbol('x') })),
  site('RS ctor: byte stream highWaterMark -1', () => new ReadableStream({ type: 'bytes' }, { highWaterMark: -1 })),
  site('RS ctor: size not callable', () => new ReadableStream({}, { size: 'big' })),
  site('RS ctor: start throws (passes through)', () => new ReadableStream({ start() { throw new Error('mine'); } })),
  site('RS ctor: start rejects (stream errored)', () => {
    const rs = new ReadableStream({ start() { return Promise.reject(new RangeError('mine')); } });
    return rs.getReader().read();
  }),
  site('RS ctor: pull throws (read rejects)', () => new ReadableStream({ pull() { throw new SyntaxError('p'); } })
    .getReader().read()),
];

const locking = [
  site('RS getReader: locked', () => lockedReadable().getReader()),
  site('RS getReader byob: locked', () => {
    const rs = new ReadableStream({ type: 'bytes' });
    rs.getReader();
    return rs.getReader({ mode: 'byob' });
  }),
  site('RS getReader: bad mode', () => new ReadableStream().getReader({ mode: 'nope' })),
  site('RS getReader: options a number', () => new ReadableStream().getReader(5)),
  site('RS getReader: byob on a default stream', () => new ReadableStream().getReader({ mode: 'byob' })),
  site('RS cancel: locked', () => lockedReadable().cancel()),
  site('RS cancel: errored stream (stored error)', () => {
    const { stream, controller } = defaultController();
    controller.error(new URIError('stored'));
    return stream.cancel();
  }),
  site('RS cancel: underlying cancel throws', () => new ReadableStream({ cancel() { throw new EvalError('c'); } })
    .cancel()),
  site('RS tee: locked', () => lockedReadable().tee()),
  site('RS values: locked', () => lockedReadable().values()),
  site('RS asyncIterator: locked', () => lockedReadable()[Symbol.asyncIterator]()),
  site('RS values: options a number', () => new ReadableStream().values(5)),
];

const piping = [
  site('RS pipeTo: no argument', () => new ReadableStream().pipeTo()),
  site('RS pipeTo: not a WritableStream', () => new ReadableStream().pipeTo({})),
  site('RS pipeTo: a ReadableStream', () => new ReadableStream().pipeTo(new ReadableStream())),
  site('RS pipeTo: source locked', () => lockedReadable().pipeTo(new WritableStream())),
  site('RS pipeTo: destination locked', () => new ReadableStream().pipeTo(lockedWritable())),
  site('RS pipeTo: options a number', () => new ReadableStream().pipeTo(new WritableStream(), 5)),
  site('RS pipeTo: signal not an AbortSignal', () => new ReadableStream().pipeTo(new WritableStream(), { signal: {} })),
  site('RS pipeTo: signal a string', () => new ReadableStream().pipeTo(new WritableStream(), { signal: 'x' })),
  site('RS pipeTo: aborted signal, no reason', () => new ReadableStream().pipeTo(new WritableStream(),
    { signal: AbortSignal.abort() })),
  site('RS pipeTo: aborted signal with reason', () => new ReadableStream().pipeTo(new WritableStream(),
    { signal: AbortSignal.abort(new RangeError('why')) })),
  site('RS pipeTo: destination closed', async () => {
    const ws = new WritableStream();
    await ws.close();
    return new ReadableStream().pipeTo(ws);
  }),
  site('RS pipeTo: destination errored', () => {
    const ws = new WritableStream({ start(c) { c.error(new TypeError('dest')); } });
    return new ReadableStream().pipeTo(ws);
  }),
  site('RS pipeTo: source errored', () => {
    const rs = new ReadableStream({ start(c) { c.error(new RangeError('src')); } });
    return rs.pipeTo(new WritableStream());
  }),
  site('RS pipeThrough: no argument', () => new ReadableStream().pipeThrough()),
  site('RS pipeThrough: pair a number', () => new ReadableStream().pipeThrough(5)),
  site('RS pipeThrough: empty pair', () => new ReadableStream().pipeThrough({})),
  site('RS pipeThrough: readable missing', () => new ReadableStream().pipeThrough({ writable: new WritableStream() })),
  site('RS pipeThrough: writable missing', () => new ReadableStream().pipeThrough({ readable: new ReadableStream() })),
  site('RS pipeThrough: readable not a stream',
    () => new ReadableStream().pipeThrough({ readable: {}, writable: new WritableStream() })),
  site('RS pipeThrough: writable not a stream',
    () => new ReadableStream().pipeThrough({ readable: new ReadableStream(), writable: {} })),
  site('RS pipeThrough: source locked', () => lockedReadable().pipeThrough(new TransformStream())),
  site('RS pipeThrough: writable locked', () => {
    const ts = new TransformStream();
    ts.writable.getWriter();
    return new ReadableStream().pipeThrough(ts);
  }),
  site('RS pipeThrough: signal not an AbortSignal',
    () => new ReadableStream().pipeThrough(new TransformStream(), { signal: 5 })),
];

const iteration = [
  site('RS async iterator: next on a foreign object', () => {
    const it = new ReadableStream().values();
    return Object.getPrototypeOf(it).next.call({});
  }),
  site('RS async iterator: return on a foreign object', () => {
    const it = new ReadableStream().values();
    return Object.getPrototypeOf(it).return.call({});
  }),
  site('RS async iterator: next on an errored stream', () => {
    const rs = new ReadableStream({ start(c) { c.error(new TypeError('gone')); } });
    return rs.values().next();
  }),
  site('RS async iterator: second iterator while the first holds the lock', () => {
    const rs = new ReadableStream();
    rs.values();
    return rs.values();
  }),
  site('RS async iterator: break on a stream whose cancel throws', async () => {
    const rs = new ReadableStream({
      start(c) { c.enqueue(1); },
      cancel() { throw new RangeError('cancel'); },
    });
    // eslint-disable-next-line no-unreachable-loop
    for await (const _ of rs) break;
  }),
];

const from = [
  site('RS.from: a number', () => ReadableStream.from(5)),
  site('RS.from: null', () => ReadableStream.from(null)),
  site('RS.from: undefined', () => ReadableStream.from(undefined)),
  site('RS.from: a plain object', () => ReadableStream.from({})),
  site('RS.from: Symbol.asyncIterator not callable', () => ReadableStream.from({ [Symbol.asyncIterator]: 5 })),
  site('RS.from: Symbol.iterator not callable', () => ReadableStream.from({ [Symbol.iterator]: 5 })),
  site('RS.from: iterator method returns a number', () => ReadableStream.from({ [Symbol.iterator]() { return 5; } })),
  site('RS.from: async iterator method returns a number',
    () => ReadableStream.from({ [Symbol.asyncIterator]() { return 5; } })),
  site('RS.from: next() returns a number', () => ReadableStream.from({
    [Symbol.iterator]() { return { next() { return 5; } }; },
  }).getReader().read()),
  site('RS.from: async next() resolves to a number', () => ReadableStream.from({
    [Symbol.asyncIterator]() { return { next() { return Promise.resolve(5); } }; },
  }).getReader().read()),
  site('RS.from: next() throws', () => ReadableStream.from({
    [Symbol.iterator]() { return { next() { throw new URIError('n'); } }; },
  }).getReader().read()),
  site('RS.from: return() resolves to a number', () => ReadableStream.from({
    [Symbol.asyncIterator]() { return { next() { return new Promise(() => {}); }, return() { return Promise.resolve(5); } }; },
  }).cancel()),
  site('RS.from: on a foreign this (static, still works)', () => ReadableStream.from.call({}, 5)),
];

const readers = [
  site('RSDReader ctor: no argument', () => new ReadableStreamDefaultReader()),
  site('RSDReader ctor: not a stream', () => new ReadableStreamDefaultReader({})),
  site('RSDReader ctor: locked stream', () => new ReadableStreamDefaultReader(lockedReadable())),
  site('RSDReader read: released', () => releasedReader().read()),
  site('RSDReader cancel: released', () => releasedReader().cancel()),
  site('RSDReader closed: released', () => releasedReader().closed),
  site('RSDReader closed: released after close', async () => {
    const rs = new ReadableStream({ start(c) { c.close(); } });
    const reader = rs.getReader();
    await reader.closed;
    reader.releaseLock();
    return reader.closed;
  }),
  site('RSDReader read: pending read when released', () => {
    const reader = new ReadableStream().getReader();
    const read = reader.read();
    reader.releaseLock();
    return read;
  }),
  site('RSDReader read: errored stream', () => {
    const { stream, controller } = defaultController();
    controller.error(new EvalError('err'));
    return stream.getReader().read();
  }),
  site('RSDReader read: errored with undefined', () => {
    const { stream, controller } = defaultController();
    controller.error();
    return stream.getReader().read();
  }),
  site('RSDReader releaseLock: twice (no error)', () => {
    const reader = new ReadableStream().getReader();
    reader.releaseLock();
    return reader.releaseLock();
  }),
];

const defaultControllerSites = [
  site('RSDController ctor: illegal', () => new ReadableStreamDefaultController()),
  site('RSDController enqueue: after close', () => {
    const { controller } = defaultController();
    controller.close();
    controller.enqueue(1);
  }),
  site('RSDController close: twice', () => {
    const { controller } = defaultController();
    controller.close();
    controller.close();
  }),
  site('RSDController close: after error', () => {
    const { controller } = defaultController();
    controller.error(new Error('x'));
    controller.close();
  }),
  site('RSDController enqueue: after error', () => {
    const { controller } = defaultController();
    controller.error(new Error('x'));
    controller.enqueue(1);
  }),
  site('RSDController enqueue: after cancel', async () => {
    const { stream, controller } = defaultController();
    await stream.cancel();
    controller.enqueue(1);
  }),
  site('RSDController close: after cancel', async () => {
    const { stream, controller } = defaultController();
    await stream.cancel();
    controller.close();
  }),
  site('RSDController enqueue: size returns NaN', () => {
    let controller;
    // eslint-disable-next-line no-new
    new ReadableStream({ start(c) { controller = c; } }, { size() { return NaN; } });
    controller.enqueue('x');
  }),
  site('RSDController enqueue: size returns -1', () => {
    let controller;
    // eslint-disable-next-line no-new
    new ReadableStream({ start(c) { controller = c; } }, { size() { return -1; } });
    controller.enqueue('x');
  }),
  site('RSDController enqueue: size returns Infinity', () => {
    let controller;
    // eslint-disable-next-line no-new
    new ReadableStream({ start(c) { controller = c; } }, { size() { return Infinity; } });
    controller.enqueue('x');
  }),
  site('RSDController enqueue: size throws (passes through)', () => {
    let controller;
    // eslint-disable-next-line no-new
    new ReadableStream({ start(c) { controller = c; } }, { size() { throw new URIError('size'); } });
    controller.enqueue('x');
  }),
  site('RSDController enqueue: size NaN errors the stream', () => {
    let controller;
    const rs = new ReadableStream({ start(c) { controller = c; } }, { size() { return NaN; } });
    try { controller.enqueue('x'); } catch {}
    return rs.getReader().closed;
  }),
];

export default [
  ...constructor, ...locking, ...piping, ...iteration, ...from, ...readers, ...defaultControllerSites,
];
