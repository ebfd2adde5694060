// Brand checks: every method and getter of every class, called on an object
// that is not of the class. The member lists are the spec's, fixed here so the
// site names do not depend on what an implementation happens to define.
import { site } from './helpers.mjs';

const members = {
  ReadableStream: { getters: ['locked'], methods: ['cancel', 'getReader', 'pipeThrough', 'pipeTo', 'tee', 'values'] },
  ReadableStreamDefaultReader: { getters: ['closed'], methods: ['read', 'releaseLock', 'cancel'] },
  ReadableStreamBYOBReader: { getters: ['closed'], methods: ['read', 'releaseLock', 'cancel'] },
  ReadableStreamDefaultController: { getters: ['desiredSize'], methods: ['close', 'enqueue', 'error'] },
  ReadableByteStreamController: { getters: ['byobRequest', 'desiredSize'], methods: ['close', 'enqueue', 'error'] },
  ReadableStreamBYOBRequest: { getters: ['view'], methods: ['respond', 'respondWithNewView'] },
  WritableStream: { getters: ['locked'], methods: ['abort', 'close', 'getWriter'] },
  WritableStreamDefaultWriter: {
    getters: ['closed', 'desiredSize', 'ready'], methods: ['abort', 'close', 'releaseLock', 'write'],
  },
  WritableStreamDefaultController: { getters: ['signal'], methods: ['error'] },
  TransformStream: { getters: ['readable', 'writable'], methods: [] },
  TransformStreamDefaultController: { getters: ['desiredSize'], methods: ['enqueue', 'error', 'terminate'] },
  ByteLengthQueuingStrategy: { getters: ['highWaterMark', 'size'], methods: [] },
  CountQueuingStrategy: { getters: ['highWaterMark', 'size'], methods: [] },
};

const sites = [];
for (const [name, { getters, methods }] of Object.entries(members)) {
  for (const key of getters) {
    sites.push(site(`brand: ${name}.${key} getter`, () => {
      const desc = Object.getOwnPropertyDescriptor(globalThis[name].prototype, key);
      return desc.get.call({});
    }));
  }
  for (const key of methods) {
    sites.push(site(`brand: ${name}.${key}()`, () => globalThis[name].prototype[key].call({})));
  }
}

// A receiver of a sibling class, not just a plain object.
sites.push(
  site('brand: ReadableStream.getReader on a WritableStream',
    () => ReadableStream.prototype.getReader.call(new WritableStream())),
  site('brand: BYOBReader.read on a default reader',
    () => ReadableStreamBYOBReader.prototype.read.call(new ReadableStream().getReader(), new Uint8Array(1))),
  site('brand: WritableStream.getWriter on a TransformStream',
    () => WritableStream.prototype.getWriter.call(new TransformStream())),
  site('brand: ReadableStream.locked on undefined',
    () => Object.getOwnPropertyDescriptor(ReadableStream.prototype, 'locked').get.call(undefined)),
  site('brand: ReadableStream.cancel on null', () => ReadableStream.prototype.cancel.call(null)),
);

export default sites;
