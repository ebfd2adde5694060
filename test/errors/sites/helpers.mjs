// Shared setup for the error sites: streams in the states the sites need,
// built from the GLOBAL classes so the same code measures native Node and the
// preload. Every helper settles promptly (no site may hang the probe).

/** A site: `run(ctx)` provokes one error, by a throw or a rejected promise; `setup()` (maybe async) builds ctx. */
export function site(name, run, setup = undefined) {
  return { name, run, setup };
}

/** Lets queued microtasks and one macrotask turn pass. */
export const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Marks a promise as handled, so a site's by-product never counts as an unhandled rejection. */
export function quiet(promise) {
  promise?.then?.(undefined, () => {});
  return promise;
}

/** A ReadableStream held by a default reader. */
export function lockedReadable() {
  const rs = new ReadableStream();
  rs.getReader();
  return rs;
}

/** A WritableStream held by a writer. */
export function lockedWritable() {
  const ws = new WritableStream();
  ws.getWriter();
  return ws;
}

/** A default controller and its stream. */
export function defaultController(source = {}) {
  let controller;
  const stream = new ReadableStream({ ...source, start(c) { controller = c; } });
  return { stream, controller };
}

/** A byte stream controller and its stream. */
export function byteController(source = {}) {
  let controller;
  const stream = new ReadableStream({ ...source, type: 'bytes', start(c) { controller = c; } });
  return { stream, controller };
}

/**
 * A BYOB request waiting on a read(view) of `size` bytes (view made by `makeView`):
 * { controller, request, reader, read } once pull has run.
 */
export async function byobRequest(makeView = () => new Uint8Array(4), readOptions = undefined) {
  let controller;
  let pulled;
  const pulledOnce = new Promise((resolve) => { pulled = resolve; });
  const stream = new ReadableStream({
    type: 'bytes',
    start(c) { controller = c; },
    pull() { pulled(); },
  });
  const reader = stream.getReader({ mode: 'byob' });
  const read = quiet(reader.read(makeView(), readOptions));
  await pulledOnce;
  return { stream, controller, request: controller.byobRequest, reader, read };
}

/** A released default reader (its stream stays readable). */
export function releasedReader() {
  const reader = new ReadableStream().getReader();
  reader.releaseLock();
  return reader;
}

/** A released BYOB reader. */
export function releasedByobReader() {
  const reader = new ReadableStream({ type: 'bytes' }).getReader({ mode: 'byob' });
  reader.releaseLock();
  return reader;
}

/** A released writer (its stream stays writable). */
export function releasedWriter() {
  const writer = new WritableStream().getWriter();
  writer.releaseLock();
  return writer;
}

/** A transform controller and its stream. */
export function transformController(transformer = {}) {
  let controller;
  const stream = new TransformStream({ ...transformer, start(c) { controller = c; } });
  return { stream, controller };
}

/** Detaches `buffer` (structuredClone with transfer works on every supported Node). */
export function detach(buffer) {
  structuredClone(buffer, { transfer: [buffer] });
  return buffer;
}

/** A Uint8Array whose buffer is detached. */
export function detachedView() {
  const view = new Uint8Array(8);
  detach(view.buffer);
  return view;
}

/** An object of none of the stream classes, for brand checks. */
export const notABrand = () => ({});

/** Reads a getter of `proto` on `receiver`. */
export function getOn(proto, key, receiver) {
  return Object.getOwnPropertyDescriptor(proto, key).get.call(receiver);
}
