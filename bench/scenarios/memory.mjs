// Heap held per idle stream: servers keep thousands of open streams (one per
// connection or subscription), so per-instance size is a memory bill.
// Children of these scenarios run with --expose-gc; the value is bytes per
// stream (lower is better), not a rate.
import { Readable, Transform } from 'node:stream';
import { QUICK } from './common.mjs';

const N = QUICK ? 2000 : 10000;

function perStream(make) {
  return () => {
    if (typeof globalThis.gc !== 'function') throw new Error('memory scenarios need --expose-gc');
    const keep = new Array(N);
    globalThis.gc();
    globalThis.gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < N; i++) keep[i] = make();
    globalThis.gc();
    globalThis.gc();
    const after = process.memoryUsage().heapUsed;
    if (keep.length !== N) throw new Error('unreachable');
    return (after - before) / N;
  };
}

export default [
  {
    name: 'heap per idle ReadableStream',
    unit: 'memory',
    flags: ['--expose-gc'],
    about: 'a ReadableStream with a reader attached, nothing read yet',
    web: perStream(() => {
      const s = new ReadableStream({ pull() {} });
      return [s, s.getReader()];
    }),
    node: perStream(() => new Readable({ objectMode: true, read() {} })),
  },
  {
    name: 'heap per idle TransformStream',
    unit: 'memory',
    flags: ['--expose-gc'],
    about: 'an unused TransformStream',
    web: perStream(() => new TransformStream()),
    node: perStream(() => new Transform({ objectMode: true, transform(c, _e, cb) { cb(null, c); } })),
  },
];
