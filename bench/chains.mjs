// The suite's chain (bench/scenarios/core.mjs: a pull() source refilling to a
// high-water mark of 16, n pass-through transforms, a counting sink), built
// four ways, for the tools that take a chain apart: bench/pipe-floor.mjs (CPU
// time against a floor) and bench/instructions.mjs (instructions per chunk).
// Each returns a promise of the bytes it moved.
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export const CHUNK = 1024;
/** The ways bench/instructions-child.mjs builds the chain (floorChain, webChain of ours or the globals, nodeChain). */
export const WAYS = ['ours', 'native', 'node:stream', 'floor'];
export const HWM = 16;
const chunk = new Uint8Array(CHUNK);
const resolved = Promise.resolve();

// The suite's callbacks (bench/scenarios/common.mjs), shared by every way below.
export function makePull(count) {
  let sent = 0;
  return (controller) => {
    while (controller.desiredSize > 0 && sent < count) {
      controller.enqueue(chunk);
      sent++;
    }
    if (sent >= count) controller.close();
  };
}
const passOn = (c, controller) => controller.enqueue(c);

/** The floor's source: a queue with desiredSize and enqueue(), no stream records. */
class FloorSource {
  constructor() {
    this.queue = [];
    this.closed = false;
  }

  get desiredSize() {
    return HWM - this.queue.length;
  }

  enqueue(c) {
    this.queue.push(c);
  }

  close() {
    this.closed = true;
  }
}

class FloorHop {
  constructor() {
    this.chunk = undefined;
  }

  enqueue(c) {
    this.chunk = c;
  }
}

/**
 * The floor: the same pull() and transform() callbacks called by a plain
 * loop, the sink's count inline, and one microtask per pull (the one reaction
 * to pull()'s result any spec pipe must wait for).
 */
export function floorChain(n, count) {
  const pull = makePull(count);
  const source = new FloorSource();
  const hop = new FloorHop();
  let bytes = 0;
  return new Promise((done) => {
    const step = () => {
      pull(source);
      const queue = source.queue;
      for (let i = 0; i < queue.length; i++) {
        let c = queue[i];
        for (let t = 0; t < n; t++) {
          passOn(c, hop);
          c = hop.chunk;
        }
        bytes += c.byteLength; // the sink's write()
      }
      queue.length = 0;
      if (source.closed) done(bytes);
      else resolved.then(step);
    };
    resolved.then(step);
  });
}

/** The chain of Web streams from `lib`'s classes (globalThis for the native ones). */
export async function webChain(lib, n, count) {
  const pull = makePull(count);
  let stream = new lib.ReadableStream({ pull }, { highWaterMark: HWM });
  for (let t = 0; t < n; t++) stream = stream.pipeThrough(new lib.TransformStream({ transform: passOn }));
  let bytes = 0;
  await stream.pipeTo(new lib.WritableStream({ write(c) { bytes += c.byteLength; } }));
  return bytes;
}

/** An object-mode Readable of `count` chunks, high-water mark 16. */
export function nodeSource(count) {
  let sent = 0;
  return new Readable({
    objectMode: true,
    highWaterMark: HWM,
    read() {
      while (sent < count) {
        sent++;
        if (!this.push(chunk)) return;
      }
      this.push(null);
    },
  });
}

/** stream.pipeline() through as many object-mode Transforms. */
export async function nodeChain(n, count) {
  const source = nodeSource(count);
  const transforms = [];
  for (let t = 0; t < n; t++) transforms.push(new Transform({ objectMode: true, transform(c, _e, cb) { cb(null, c); } }));
  let bytes = 0;
  const sink = new Writable({ objectMode: true, write(c, _e, cb) { bytes += c.byteLength; cb(); } });
  await pipeline(source, ...transforms, sink);
  return bytes;
}
