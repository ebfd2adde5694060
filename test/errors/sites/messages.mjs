// Sites whose message is the point: the texts Node's bundled undici matches
// on ("Controller is already closed", "ReadableStream is already closed"), and
// messages that show the offending value (each kind of value Node formats its
// own way: type number (-0), a cut string, an instance of X, inspected objects,
// numbers with separators). The other site files hold the rest of the API.
import { site, byteController, defaultController, byobRequest } from './helpers.mjs';

/** A controller whose stream has `queued` chunks and close() called: closeRequested, still readable. */
function closeRequested(make, chunk) {
  const { controller } = make();
  controller.enqueue(chunk);
  controller.close();
  return controller;
}

// What undici's readableStreamClose(controller) calls, and which errors it swallows.
const undiciSites = [
  site('RBSController close: close requested, bytes still queued',
    () => closeRequested(byteController, new Uint8Array(1)).close()),
  site('RBSController enqueue: close requested, bytes still queued',
    () => closeRequested(byteController, new Uint8Array(1)).enqueue(new Uint8Array(1))),
  site('RSDController close: close requested, chunks still queued', () => closeRequested(defaultController, 'a').close()),
  site('RSDController enqueue: close requested, chunks still queued',
    () => closeRequested(defaultController, 'a').enqueue('b')),
  site('RBSController close: after a reader cancelled', async () => {
    const { stream, controller } = byteController();
    await stream.getReader().cancel();
    controller.close();
  }),
  site('RBSController close: BYOB request pending, then respond(0) after close', async () => {
    const { controller, request } = await byobRequest();
    controller.close();
    request.respond(0);
    controller.close();
  }),
];

class Custom {}
const nameless = () => {
  const value = {};
  Object.defineProperty(value, 'constructor', { value: { name: '' } });
  return value;
};

// Values in ERR_INVALID_ARG_TYPE's "Received ...".
const receivedSites = [
  site('received: -0', () => new ReadableStream({}, -0)),
  site('received: a bigint', () => new WritableStream({ abort: 5n })),
  site('received: a Symbol', () => new TransformStream({ flush: Symbol('flush') })),
  site('received: true', () => new TransformStream({ transform: true })),
  site('received: a long string', () => new ReadableStream({ pull: 'abcdefghijklmnopqrstuvwxyz0123456789' })),
  site("received: a string with a '", () => new ReadableStream({ pull: "it's" })),
  site('received: an array', () => new ReadableStream({ pull: [1, 2] })),
  site('received: an instance of a class', () => new ReadableStream({ pull: new Custom() })),
  site('received: an object without prototype', () => new ReadableStream({ pull: Object.create(null) })),
  site('received: an object whose constructor has an empty name', () => new ReadableStream({ pull: nameless() })),
  site('received: a function', () => new ReadableStream().pipeTo(function destination() {})),
  site('received: an anonymous function', () => new ReadableStream().pipeTo(() => {})),
  site('received: a ReadableStream as pipeThrough writable',
    () => new ReadableStream().pipeThrough({ readable: new ReadableStream(), writable: new ReadableStream() })),
  site('received: a string as a strategy', () => new WritableStream({}, 'big')),
  site('received: a number as a size', () => new TransformStream({}, { size: 7 })),
  site('received: a string as a BYOB view', () => new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' }).read('x')),
  site('received: a DataView as a byte chunk (taken), then a Map', () => {
    const { controller } = byteController();
    controller.enqueue(new DataView(new ArrayBuffer(1)));
    controller.enqueue(new Map());
  }),
];

// Values in ERR_INVALID_ARG_VALUE (util.inspect, cut at 128) and ERR_OUT_OF_RANGE.
const valueSites = [
  site('inspected: type an object', () => new ReadableStream({ type: { kind: 'bytes' } })),
  site('inspected: type a long string', () => new ReadableStream({ type: 'x'.repeat(200) })),
  site('inspected: mode an array', () => new ReadableStream().getReader({ mode: ['byob', 'default'] })),
  site('inspected: a byte stream size function', () => new ReadableStream({ type: 'bytes' }, { size: function sized() { return 1; } })),
  site('inspected: highWaterMark an object', () => new ReadableStream({}, { highWaterMark: { valueOf: () => -2 } })),
  site('inspected: highWaterMark a numeric string', () => new WritableStream({}, { highWaterMark: '-3' })),
  site('inspected: respondWithNewView, a long view at the wrong offset', ({ request }) => {
    request.respondWithNewView(new Uint8Array(request.view.buffer, 1, 3));
  }, () => byobRequest(() => new Uint8Array(new ArrayBuffer(64), 0, 64))),
  site('inspected: a BYOB reader for a closed default stream', async () => {
    const rs = new ReadableStream({ start(c) { c.close(); } });
    const reader = rs.getReader();
    await reader.closed;
    reader.releaseLock();
    return new ReadableStreamBYOBReader(rs);
  }),
  site('out of range: min beyond 2 ** 32', () => new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' })
    .read(new Uint8Array(4), { min: 2 ** 33 })),
  site('out of range: min above a DataView of one byte', () => new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' })
    .read(new DataView(new ArrayBuffer(1)), { min: 2 })),
];

// Texts that are what Node's own code happens to throw, and differ by Node major.
const nodeTextSites = [
  site('TS ctor: start a number', () => new TransformStream({ start: 5 })),
  site('TS ctor: start a string', () => new TransformStream({ start: 'go' })),
  site('WS ctor: start an object', () => new WritableStream({ start: {} })),
  site('RS.from: return not callable (cancel)', () => ReadableStream.from({
    [Symbol.asyncIterator]() { return { next() { return new Promise(() => {}); }, return: 5 }; },
  }).cancel()),
  site('RS.from: an array-like object', () => ReadableStream.from({ length: 1, 0: 'a' })),
  site('RS.from: a Symbol', () => ReadableStream.from(Symbol('s'))),
  site('RS.from: Symbol.iterator a string', () => ReadableStream.from({ [Symbol.iterator]: 'no' })),
  site('TS abort: while start is pending, after terminate', () => {
    let controller;
    let resolveStart;
    const stream = new TransformStream({
      start(c) {
        controller = c;
        return new Promise((resolve) => { resolveStart = resolve; });
      },
    });
    const aborted = stream.writable.abort('why');
    controller.terminate();
    resolveStart();
    return aborted;
  }),
  site('CQS ctor: undefined given', () => new CountQueuingStrategy(undefined)),
  site('BLQS ctor: a string', () => new ByteLengthQueuingStrategy('x')),
  site('structuredClone: transfer a TransformStream with a locked writable', () => {
    const ts = new TransformStream();
    ts.writable.getWriter();
    return structuredClone(ts, { transfer: [ts] });
  }),
  site('BYOBRequest respond: after close, view buffer detached', ({ controller, request }) => {
    controller.close();
    structuredClone(request.view.buffer, { transfer: [request.view.buffer] });
    request.respond(0);
  }, byobRequest),
];

export default [...undiciSites, ...receivedSites, ...valueSites, ...nodeTextSites];
