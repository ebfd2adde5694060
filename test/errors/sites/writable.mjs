// WritableStream, its writer and controller; TransformStream and its controller.
import { site, quiet, lockedWritable, releasedWriter, transformController } from './helpers.mjs';

/** A writable whose controller was errored with `reason` by start(). */
function erroredWritable(reason) {
  return new WritableStream({ start(c) { c.error(reason); } });
}

const writableSites = [
  site('WS ctor: sink a number', () => new WritableStream(5)),
  site('WS ctor: sink null', () => new WritableStream(null)),
  site('WS ctor: start not callable', () => new WritableStream({ start: 5 })),
  site('WS ctor: write not callable', () => new WritableStream({ write: {} })),
  site('WS ctor: close not callable', () => new WritableStream({ close: 'x' })),
  site('WS ctor: abort not callable', () => new WritableStream({ abort: 1 })),
  site('WS ctor: type bytes', () => new WritableStream({ type: 'bytes' })),
  site('WS ctor: type other', () => new WritableStream({ type: 'other' })),
  site('WS ctor: strategy a number', () => new WritableStream({}, 5)),
  site('WS ctor: highWaterMark -1', () => new WritableStream({}, { highWaterMark: -1 })),
  site('WS ctor: highWaterMark NaN', () => new WritableStream({}, { highWaterMark: NaN })),
  site('WS ctor: size not callable', () => new WritableStream({}, { size: 5 })),
  site('WS ctor: start throws (passes through)', () => new WritableStream({ start() { throw new URIError('s'); } })),
  site('WS getWriter: locked', () => lockedWritable().getWriter()),
  site('WS abort: locked', () => lockedWritable().abort()),
  site('WS close: locked', () => lockedWritable().close()),
  site('WS close: twice', () => {
    const ws = new WritableStream();
    quiet(ws.close());
    return ws.close();
  }),
  site('WS close: closed', async () => {
    const ws = new WritableStream();
    await ws.close();
    return ws.close();
  }),
  site('WS close: errored (stored error)', () => erroredWritable(new RangeError('stored')).close()),
  site('WS abort: underlying abort throws', () => new WritableStream({ abort() { throw new EvalError('a'); } }).abort()),
];

const writerSites = [
  site('WSDWriter ctor: no argument', () => new WritableStreamDefaultWriter()),
  site('WSDWriter ctor: not a stream', () => new WritableStreamDefaultWriter({})),
  site('WSDWriter ctor: locked stream', () => new WritableStreamDefaultWriter(lockedWritable())),
  site('WSDWriter write: released', () => releasedWriter().write('x')),
  site('WSDWriter close: released', () => releasedWriter().close()),
  site('WSDWriter abort: released', () => releasedWriter().abort()),
  site('WSDWriter ready: released', () => releasedWriter().ready),
  site('WSDWriter closed: released', () => releasedWriter().closed),
  site('WSDWriter desiredSize: released', () => releasedWriter().desiredSize),
  site('WSDWriter write: after close', () => {
    const writer = new WritableStream().getWriter();
    quiet(writer.close());
    return writer.write('x');
  }),
  site('WSDWriter write: closed stream', async () => {
    const writer = new WritableStream().getWriter();
    await writer.close();
    return writer.write('x');
  }),
  site('WSDWriter close: twice', () => {
    const writer = new WritableStream().getWriter();
    quiet(writer.close());
    return writer.close();
  }),
  site('WSDWriter close: closed stream', async () => {
    const writer = new WritableStream().getWriter();
    await writer.close();
    return writer.close();
  }),
  site('WSDWriter write: errored stream (stored error)', () => erroredWritable(new SyntaxError('e')).getWriter().write(1)),
  site('WSDWriter ready: errored stream', () => erroredWritable(new SyntaxError('e')).getWriter().ready),
  site('WSDWriter write: aborted without reason', () => {
    const writer = new WritableStream().getWriter();
    quiet(writer.abort());
    return writer.write('x');
  }),
  site('WSDWriter write: sink write throws', () => {
    const writer = new WritableStream({ write() { throw new RangeError('w'); } }).getWriter();
    return writer.write('x');
  }),
  site('WSDWriter write: size returns NaN', () => {
    const writer = new WritableStream({}, { size() { return NaN; } }).getWriter();
    return writer.write('x');
  }),
  site('WSDWriter write: size returns -1', () => {
    const writer = new WritableStream({}, { size() { return -1; } }).getWriter();
    return writer.write('x');
  }),
  site('WSDWriter write: size throws', () => {
    const writer = new WritableStream({}, { size() { throw new URIError('size'); } }).getWriter();
    return writer.write('x');
  }),
  site('WSDWriter write: released while size runs', () => {
    let writer;
    writer = new WritableStream({}, { size() { writer.releaseLock(); return 1; } }).getWriter();
    return writer.write('x');
  }),
  site('WSDWriter ready: released while pending', () => {
    const writer = new WritableStream({}, { highWaterMark: 0 }).getWriter();
    const ready = writer.ready;
    writer.releaseLock();
    return ready;
  }),
  site('WSDWriter closed: released while open', () => {
    const writer = new WritableStream().getWriter();
    const closed = writer.closed;
    writer.releaseLock();
    return closed;
  }),
];

const writableControllerSites = [
  site('WSDController ctor: illegal', () => new WritableStreamDefaultController()),
];

const transformSites = [
  site('TS ctor: transformer a number', () => new TransformStream(5)),
  site('TS ctor: transformer null', () => new TransformStream(null)),
  site('TS ctor: transform not callable', () => new TransformStream({ transform: 1 })),
  site('TS ctor: flush not callable', () => new TransformStream({ flush: 'x' })),
  site('TS ctor: start not callable', () => new TransformStream({ start: {} })),
  site('TS ctor: readableType bytes', () => new TransformStream({ readableType: 'bytes' })),
  site('TS ctor: writableType bytes', () => new TransformStream({ writableType: 'bytes' })),
  site('TS ctor: writable strategy a number', () => new TransformStream({}, 5)),
  site('TS ctor: writable highWaterMark -1', () => new TransformStream({}, { highWaterMark: -1 })),
  site('TS ctor: readable highWaterMark NaN', () => new TransformStream({}, {}, { highWaterMark: NaN })),
  site('TS ctor: readable size not callable', () => new TransformStream({}, {}, { size: 3 })),
  site('TS ctor: start throws (passes through)', () => new TransformStream({ start() { throw new EvalError('t'); } })),
  site('TSDController ctor: illegal', () => new TransformStreamDefaultController()),
  site('TSDController enqueue: after terminate', () => {
    const { controller } = transformController();
    controller.terminate();
    controller.enqueue('x');
  }),
  site('TSDController enqueue: readable cancelled', async () => {
    const { stream, controller } = transformController();
    await stream.readable.cancel();
    controller.enqueue('x');
  }),
  site('TSDController enqueue: readable errored', () => {
    const { controller } = transformController();
    controller.error(new Error('x'));
    controller.enqueue('x');
  }),
  site('TS write: after terminate', () => {
    const { stream, controller } = transformController();
    controller.terminate();
    return stream.writable.getWriter().write('x');
  }),
  site('TS writer closed: after terminate', () => {
    const { stream, controller } = transformController();
    controller.terminate();
    return stream.writable.getWriter().closed;
  }),
  site('TS write: transform throws (passes through)', () => {
    const ts = new TransformStream({ transform() { throw new RangeError('t'); } });
    quiet(ts.readable.getReader().read()); // lifts the backpressure that holds the write
    return ts.writable.getWriter().write('x');
  }),
  site('TS read: after transform error', () => {
    const ts = new TransformStream({ transform() { throw new RangeError('t'); } });
    quiet(ts.writable.getWriter().write('x'));
    return ts.readable.getReader().read();
  }),
  site('TS close: flush throws', () => new TransformStream({ flush() { throw new URIError('f'); } }).writable.close()),
  site('TS read: writable aborted', () => {
    const ts = new TransformStream();
    quiet(ts.writable.abort(new SyntaxError('abort')));
    return ts.readable.getReader().read();
  }),
  site('TS write: readable cancelled', () => {
    const ts = new TransformStream();
    quiet(ts.readable.cancel(new SyntaxError('cancel')));
    return ts.writable.getWriter().write('x');
  }),
];

export default [...writableSites, ...writerSites, ...writableControllerSites, ...transformSites];
