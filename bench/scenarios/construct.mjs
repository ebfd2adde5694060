// Construction cost of each class on its own (ops/s). Servers create several
// streams per request, so this is a per-request fixed cost.
import { Readable, Writable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { QUICK, passThrough, nodePassThrough } from './common.mjs';

// Small enough that the slowest class (native TransformStream, ~25k/s on
// Node 24) finishes a run in about a second; the child's 500 ms timed window
// repeats runs of the faster ones.
const N = QUICK ? 5000 : 20000;

// Keep the last instance observable so the loop cannot be optimised away.
let sinkhole;

// A whole short-lived pipe, as a server builds one per request: a body of
// four 16 KB chunks through three transforms into a sink, then gone. It
// counts construction, pipe set-up, the chunks and the finish (releases).
const body = new Uint8Array(16384);
const PIPES = QUICK ? 500 : 2000;
function requestSource() {
  let n = 0;
  return new ReadableStream({ pull(c) { c.enqueue(body); if (++n === 4) c.close(); } });
}
function nodeRequestSource() {
  let n = 0;
  return new Readable({ objectMode: true, read() { this.push(body); if (++n === 4) this.push(null); } });
}

function loop(make) {
  return () => {
    for (let i = 0; i < N; i++) sinkhole = make();
    return sinkhole ? N : 0;
  };
}

export default [
  {
    name: 'new ReadableStream',
    unit: 'ops',
    about: 'constructing a ReadableStream with a pull source',
    web: loop(() => new ReadableStream({ pull() {} })),
    node: loop(() => new Readable({ objectMode: true, read() {} })),
  },
  {
    name: 'new WritableStream',
    unit: 'ops',
    about: 'constructing a WritableStream with a write sink',
    web: loop(() => new WritableStream({ write() {} })),
    node: loop(() => new Writable({ objectMode: true, write(_c, _e, cb) { cb(); } })),
  },
  {
    name: 'new TransformStream',
    unit: 'ops',
    about: 'constructing a TransformStream (which builds a readable and a writable)',
    web: loop(() => new TransformStream({ transform(c, ctl) { ctl.enqueue(c); } })),
    node: loop(() => new Transform({ objectMode: true, transform(c, _e, cb) { cb(null, c); } })),
  },
  {
    name: 'new bytes ReadableStream',
    unit: 'ops',
    about: "constructing a ReadableStream of type 'bytes'",
    web: loop(() => new ReadableStream({ type: 'bytes', pull() {} })),
  },
  {
    name: 'short pipe per request',
    unit: 'ops',
    about: 'a 4-chunk body -> 3 TransformStreams -> WritableStream, start to finish (one per request)',
    async web() {
      for (let i = 0; i < PIPES; i++) {
        await requestSource().pipeThrough(passThrough()).pipeThrough(passThrough()).pipeThrough(passThrough())
          .pipeTo(new WritableStream({ write() {} }));
      }
      return PIPES;
    },
    async node() {
      for (let i = 0; i < PIPES; i++) {
        await pipeline(nodeRequestSource(), nodePassThrough(), nodePassThrough(), nodePassThrough(),
          new Writable({ objectMode: true, write(_c, _e, cb) { cb(); } }));
      }
      return PIPES;
    },
  },
];
