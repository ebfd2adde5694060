// Byte streams (`type: 'bytes'`): what React's renderer and Next.js produce,
// and what fetch bodies are made of.
import { CHUNK, COUNT, byteSource, drainReader } from './common.mjs';

// React Flight's pattern: the controller is captured in start() and fed from
// outside with enqueue() as the renderer produces output, yielding to the
// event loop now and then. Returns the stream and a function that runs the
// producer to completion.
function flight() {
  let controller;
  const stream = new ReadableStream({ type: 'bytes', start(c) { controller = c; } });
  async function produce() {
    for (let i = 0; i < COUNT; i++) {
      controller.enqueue(new Uint8Array(CHUNK));
      if (i % 64 === 63) await null; // the renderer yields between segments
    }
    controller.close();
  }
  return { stream, produce };
}

export default [
  {
    name: 'Flight bytes -> reader',
    about: 'React Flight: bytes stream fed by external enqueue(), drained by a reader',
    async web() {
      const { stream, produce } = flight();
      const [bytes] = await Promise.all([drainReader(stream.getReader()), produce()]);
      return bytes;
    },
  },
  {
    name: 'Flight bytes -> Response',
    about: 'React Flight stream handed to new Response(stream).arrayBuffer() (an SSR response body)',
    async web() {
      const { stream, produce } = flight();
      const [buf] = await Promise.all([new Response(stream).arrayBuffer(), produce()]);
      return buf.byteLength;
    },
  },
  {
    name: 'byte read loop',
    about: 'pull-based bytes stream read with a default reader',
    web: () => drainReader(byteSource().getReader()),
  },
  {
    name: 'byte tee',
    about: 'tee() of a bytes stream, both branches drained (caching proxies, logging)',
    async web() {
      const [a, b] = byteSource().tee();
      const [x, y] = await Promise.all([drainReader(a.getReader()), drainReader(b.getReader())]);
      if (x !== y) throw new Error(`tee branches differ: ${x} vs ${y}`);
      return x;
    },
  },
];
