// Node's toWeb adapters in a chain, for bench/instructions.mjs: built from
// the globals and node:stream as an application under the preload builds
// them (the child installs ours first, or leaves Node's). Each returns a
// promise of the bytes it moved. The suite's rows `Readable.toWeb ->
// transform` and `pipeTo(Writable.toWeb)` run the same patterns.
import { Readable, Writable } from 'node:stream';
import { CHUNK } from './chains.mjs';

const chunk = new Uint8Array(CHUNK);
const HWM = 16;

/** An object-mode Readable (high-water mark 16) -> Readable.toWeb -> TransformStream -> WritableStream. */
export async function readableToWebChain(count) {
  let sent = 0;
  const source = new Readable({
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
  let bytes = 0;
  await Readable.toWeb(source).pipeThrough(new TransformStream({ transform(c, k) { k.enqueue(c); } }))
    .pipeTo(new WritableStream({ write(c) { bytes += c.byteLength; } }));
  return bytes;
}

/** A pull source (high-water mark 16) -> pipeTo(Writable.toWeb(an object-mode Writable, high-water mark 16)). */
export async function writableToWebChain(count) {
  let sent = 0;
  let bytes = 0;
  const source = new ReadableStream({
    pull(controller) {
      while (controller.desiredSize > 0 && sent < count) {
        controller.enqueue(chunk);
        sent++;
      }
      if (sent >= count) controller.close();
    },
  }, { highWaterMark: HWM });
  const sink = new Writable({ objectMode: true, highWaterMark: HWM, write(c, _enc, cb) { bytes += c.byteLength; cb(); } });
  await source.pipeTo(Writable.toWeb(sink));
  return bytes;
}

export const patterns = { 'readable-to-web': readableToWebChain, 'writable-to-web': writableToWebChain };
