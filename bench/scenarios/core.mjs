// Default (object) streams: the loops and pipes every Web Streams program is
// built from. Each scenario has a `web` body (globals only) and, where Node's
// classic streams have the same shape, a `node` body for comparison.
import { pipeline } from 'node:stream/promises';
import { once } from 'node:events';
import { Readable, Transform } from 'node:stream';
import {
  COUNT, chunk, source, passThrough, countingSink, drainReader, cpuWork,
  nodeSource, nodePassThrough, nodeCountingSink,
} from './common.mjs';

async function* chunks() {
  for (let i = 0; i < COUNT; i++) yield chunk;
}

const chunkArray = () => Array.from({ length: COUNT }, () => chunk);

function chain(n) {
  let s = source();
  for (let i = 0; i < n; i++) s = s.pipeThrough(passThrough());
  return s;
}

async function nodeChain(n) {
  const { sink, bytes } = nodeCountingSink();
  await pipeline(nodeSource(), ...Array.from({ length: n }, nodePassThrough), sink);
  return bytes();
}

async function webChain(n) {
  const { sink, bytes } = countingSink();
  await chain(n).pipeTo(sink);
  return bytes();
}

export default [
  {
    name: 'read loop',
    about: 'reader.read() in a loop on a pull source that keeps its queue full',
    web: () => drainReader(source().getReader()),
    // Node's idiom for pulling: read() until null, then wait for 'readable'.
    async node() {
      const r = nodeSource();
      let bytes = 0;
      for (;;) {
        let c;
        while ((c = r.read()) !== null) bytes += c.byteLength;
        if (r.readableEnded) return bytes;
        await Promise.race([once(r, 'readable'), once(r, 'end')]);
      }
    },
  },
  {
    name: 'write loop',
    about: 'writer.write() in a loop, awaiting ready only under backpressure',
    async web() {
      const { sink, bytes } = countingSink();
      const writer = sink.getWriter();
      for (let i = 0; i < COUNT; i++) {
        if (writer.desiredSize <= 0) await writer.ready;
        writer.write(chunk);
      }
      await writer.close();
      return bytes();
    },
    async node() {
      const { sink, bytes } = nodeCountingSink();
      for (let i = 0; i < COUNT; i++) {
        if (!sink.write(chunk)) await once(sink, 'drain');
      }
      sink.end();
      await once(sink, 'finish');
      return bytes();
    },
  },
  {
    name: 'for await',
    about: 'async iteration of a ReadableStream',
    async web() {
      let bytes = 0;
      for await (const c of source()) bytes += c.byteLength;
      return bytes;
    },
    async node() {
      let bytes = 0;
      for await (const c of nodeSource()) bytes += c.byteLength;
      return bytes;
    },
  },
  {
    name: 'from(async generator)',
    about: 'ReadableStream.from() over an async generator, iterated with for await',
    async web() {
      let bytes = 0;
      for await (const c of ReadableStream.from(chunks())) bytes += c.byteLength;
      return bytes;
    },
    async node() {
      let bytes = 0;
      for await (const c of Readable.from(chunks())) bytes += c.byteLength;
      return bytes;
    },
  },
  {
    name: 'from(array) piped',
    about: 'ReadableStream.from() over an array of chunks, piped to a WritableStream',
    async web() {
      const { sink, bytes } = countingSink();
      await ReadableStream.from(chunkArray()).pipeTo(sink);
      return bytes();
    },
    async node() {
      const { sink, bytes } = nodeCountingSink();
      await pipeline(Readable.from(chunkArray()), sink);
      return bytes();
    },
  },
  {
    name: 'pipeTo',
    about: 'readable.pipeTo(writable)',
    web: () => webChain(0),
    node: () => nodeChain(0),
  },
  {
    name: 'pipeThrough',
    about: 'one pass-through TransformStream between source and sink',
    web: () => webChain(1),
    node: () => nodeChain(1),
  },
  {
    name: '3 transforms',
    about: 'a chain of 3 pass-through transforms (typical middleware stack)',
    web: () => webChain(3),
    node: () => nodeChain(3),
  },
  {
    name: '8 transforms',
    about: 'a chain of 8 pass-through transforms (SSR frameworks stack this many)',
    web: () => webChain(8),
    node: () => nodeChain(8),
  },
  {
    name: 'CPU-bound transform',
    about: 'a transform hashing every byte: the work dominates, implementations should converge',
    async web() {
      const { sink, bytes } = countingSink();
      let h = 0;
      const hash = new TransformStream({ transform(c, controller) { h ^= cpuWork(c); controller.enqueue(c); } });
      await source().pipeThrough(hash).pipeTo(sink);
      return h === 0.5 ? 0 : bytes(); // keep the hash observable
    },
    async node() {
      let h = 0;
      const { sink, bytes } = nodeCountingSink();
      const hash = new Transform({ objectMode: true, transform(c, _e, cb) { h ^= cpuWork(c); cb(null, c); } });
      await pipeline(nodeSource(), hash, sink);
      return h === 0.5 ? 0 : bytes();
    },
  },
];

