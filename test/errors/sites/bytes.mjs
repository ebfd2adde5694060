// Readable byte streams: BYOB readers, the byte controller and BYOB requests.
import {
  site, quiet, byteController, byobRequest, releasedByobReader, detach, detachedView,
} from './helpers.mjs';

const byobReader = () => new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' });

const readerSites = [
  site('BYOBReader ctor: no argument', () => new ReadableStreamBYOBReader()),
  site('BYOBReader ctor: not a stream', () => new ReadableStreamBYOBReader({})),
  site('BYOBReader ctor: default stream', () => new ReadableStreamBYOBReader(new ReadableStream())),
  site('BYOBReader ctor: locked byte stream', () => {
    const rs = new ReadableStream({ type: 'bytes' });
    rs.getReader();
    return new ReadableStreamBYOBReader(rs);
  }),
  site('BYOBReader read: no view', () => byobReader().read()),
  site('BYOBReader read: view a number', () => byobReader().read(5)),
  site('BYOBReader read: view a plain ArrayBuffer', () => byobReader().read(new ArrayBuffer(4))),
  site('BYOBReader read: zero-length view', () => byobReader().read(new Uint8Array(0))),
  site('BYOBReader read: view on an empty buffer', () => byobReader().read(new Uint8Array(new ArrayBuffer(0)))),
  site('BYOBReader read: zero-length view on a full buffer',
    () => byobReader().read(new Uint8Array(new ArrayBuffer(8), 8))),
  site('BYOBReader read: detached view', () => byobReader().read(detachedView())),
  site('BYOBReader read: view on a SharedArrayBuffer',
    () => byobReader().read(new Uint8Array(new SharedArrayBuffer(4)))),
  site('BYOBReader read: view on WebAssembly memory',
    () => byobReader().read(new Uint8Array(new WebAssembly.Memory({ initial: 1 }).buffer, 0, 4))),
  site('BYOBReader read: view on a resizable ArrayBuffer', () => {
    const buffer = new ArrayBuffer(4, { maxByteLength: 8 });
    return byobReader().read(new Uint8Array(buffer));
  }),
  site('BYOBReader read: queued bytes short of an element at close', () => {
    const { stream, controller } = byteController();
    controller.enqueue(new Uint8Array(1));
    controller.close();
    return stream.getReader({ mode: 'byob' }).read(new Uint16Array(1));
  }),
  site('BYOBReader read: options a number', () => byobReader().read(new Uint8Array(4), 5)),
  site('BYOBReader read: min 0', () => byobReader().read(new Uint8Array(4), { min: 0 })),
  site('BYOBReader read: min above length', () => byobReader().read(new Uint8Array(4), { min: 5 })),
  site('BYOBReader read: min above DataView length', () => byobReader().read(new DataView(new ArrayBuffer(4)), { min: 5 })),
  site('BYOBReader read: min above element count', () => byobReader().read(new Uint16Array(2), { min: 3 })),
  site('BYOBReader read: min NaN', () => byobReader().read(new Uint8Array(4), { min: NaN })),
  site('BYOBReader read: min negative', () => byobReader().read(new Uint8Array(4), { min: -1 })),
  site('BYOBReader read: released', () => releasedByobReader().read(new Uint8Array(4))),
  site('BYOBReader cancel: released', () => releasedByobReader().cancel()),
  site('BYOBReader closed: released', () => releasedByobReader().closed),
  site('BYOBReader read: pending read when released', () => {
    const reader = byobReader();
    const read = reader.read(new Uint8Array(4));
    reader.releaseLock();
    return read;
  }),
  site('BYOBReader read: errored stream', () => {
    const { stream, controller } = byteController();
    controller.error(new RangeError('bytes'));
    return stream.getReader({ mode: 'byob' }).read(new Uint8Array(4));
  }),
];

const controllerSites = [
  site('RBSController ctor: illegal', () => new ReadableByteStreamController()),
  site('RBSController enqueue: a number', () => byteController().controller.enqueue(5)),
  site('RBSController enqueue: an ArrayBuffer', () => byteController().controller.enqueue(new ArrayBuffer(4))),
  site('RBSController enqueue: no argument', () => byteController().controller.enqueue()),
  site('RBSController enqueue: zero-length view', () => byteController().controller.enqueue(new Uint8Array(0))),
  site('RBSController enqueue: view on an empty buffer',
    () => byteController().controller.enqueue(new Uint8Array(new ArrayBuffer(0)))),
  site('RBSController enqueue: detached view', () => byteController().controller.enqueue(detachedView())),
  site('RBSController enqueue: view on a SharedArrayBuffer',
    () => byteController().controller.enqueue(new Uint8Array(new SharedArrayBuffer(4)))),
  site('RBSController enqueue: view on WebAssembly memory',
    () => byteController().controller.enqueue(new Uint8Array(new WebAssembly.Memory({ initial: 1 }).buffer, 0, 4))),
  site('RBSController enqueue: after close', () => {
    const { controller } = byteController();
    controller.close();
    controller.enqueue(new Uint8Array(1));
  }),
  site('RBSController enqueue: after error', () => {
    const { controller } = byteController();
    controller.error(new Error('x'));
    controller.enqueue(new Uint8Array(1));
  }),
  site('RBSController close: twice', () => {
    const { controller } = byteController();
    controller.close();
    controller.close();
  }),
  site('RBSController close: after error', () => {
    const { controller } = byteController();
    controller.error(new Error('x'));
    controller.close();
  }),
  site('RBSController close: after cancel', async () => {
    const { stream, controller } = byteController();
    await stream.cancel();
    controller.close();
  }),
  site('RBSController close: partial element pending (throws)', async () => {
    const { controller, read } = await byobRequest(() => new Uint16Array(1));
    quiet(read);
    controller.enqueue(new Uint8Array(1));
    controller.close();
  }),
  site('RBSController close: partial element pending (read rejects)', async () => {
    const { controller, read } = await byobRequest(() => new Uint16Array(1));
    controller.enqueue(new Uint8Array(1));
    try { controller.close(); } catch {}
    return read;
  }),
  site('RBSController enqueue: pending request buffer detached', async () => {
    const { controller, request } = await byobRequest();
    detach(request.view.buffer);
    controller.enqueue(new Uint8Array(1));
  }),
];

const requestSites = [
  site('BYOBRequest ctor: illegal', () => new ReadableStreamBYOBRequest()),
  site('BYOBRequest respond: 0 while readable', ({ request }) => request.respond(0), byobRequest),
  site('BYOBRequest respond: more than the view', ({ request }) => request.respond(5), byobRequest),
  site('BYOBRequest respond: NaN', ({ request }) => request.respond(NaN), byobRequest),
  site('BYOBRequest respond: negative', ({ request }) => request.respond(-1), byobRequest),
  site('BYOBRequest respond: Infinity', ({ request }) => request.respond(Infinity), byobRequest),
  site('BYOBRequest respond: no argument', ({ request }) => request.respond(), byobRequest),
  site('BYOBRequest respond: non-zero after close', ({ controller, request }) => {
    controller.close();
    request.respond(1);
  }, byobRequest),
  site('BYOBRequest respond: after it was answered', ({ request }) => {
    request.respond(1);
    request.respond(1);
  }, byobRequest),
  site('BYOBRequest respond: view buffer detached', ({ request }) => {
    detach(request.view.buffer);
    request.respond(1);
  }, byobRequest),
  site('BYOBRequest respond: after the controller errored', ({ controller, request }) => {
    controller.error(new Error('x'));
    request.respond(1);
  }, byobRequest),
  site('BYOBRequest respondWithNewView: a number', ({ request }) => request.respondWithNewView(5), byobRequest),
  site('BYOBRequest respondWithNewView: no argument', ({ request }) => request.respondWithNewView(), byobRequest),
  site('BYOBRequest respondWithNewView: an ArrayBuffer',
    ({ request }) => request.respondWithNewView(new ArrayBuffer(4)), byobRequest),
  site('BYOBRequest respondWithNewView: zero length while readable', ({ request }) => {
    request.respondWithNewView(new Uint8Array(request.view.buffer, 0, 0));
  }, byobRequest),
  site('BYOBRequest respondWithNewView: wrong offset', ({ request }) => {
    request.respondWithNewView(new Uint8Array(request.view.buffer, 1, 1));
  }, byobRequest),
  site('BYOBRequest respondWithNewView: other buffer length', ({ request }) => {
    request.respondWithNewView(new Uint8Array(new ArrayBuffer(8), 0, 1));
  }, byobRequest),
  site('BYOBRequest respondWithNewView: too long', ({ request }) => {
    const view = request.view;
    request.respondWithNewView(new Uint8Array(new ArrayBuffer(view.buffer.byteLength), 0, view.byteLength + 1));
  }, () => byobRequest(() => new Uint8Array(new ArrayBuffer(8), 0, 4))),
  site('BYOBRequest respondWithNewView: detached view', ({ request }) => {
    request.respondWithNewView(detachedView());
  }, byobRequest),
  site('BYOBRequest respondWithNewView: non-empty after close', ({ controller, request }) => {
    controller.close();
    request.respondWithNewView(new Uint8Array(request.view.buffer, 0, 1));
  }, byobRequest),
  site('BYOBRequest respondWithNewView: SharedArrayBuffer view', ({ request }) => {
    request.respondWithNewView(new Uint8Array(new SharedArrayBuffer(4)));
  }, byobRequest),
];

export default [...readerSites, ...controllerSites, ...requestSites];
