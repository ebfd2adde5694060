// Node's toWeb adapters in a chain, for bench/instructions.mjs: built from
// the globals and node:stream as an application under the preload builds
// them (the child installs ours first, or leaves Node's). Each returns a
// promise of the bytes it moved. The suite's rows `Readable.toWeb ->
// transform` and `pipeTo(Writable.toWeb)` run the same patterns.
import { Readable, Writable } from 'node:stream';
import { HWM, makePull, nodeSource } from './chains.mjs';

/** An object-mode Readable (high-water mark 16) -> Readable.toWeb -> TransformStream -> WritableStream. */
export async function readableToWebChain(count) {
  let bytes = 0;
  await Readable.toWeb(nodeSource(count)).pipeThrough(new TransformStream({ transform(c, k) { k.enqueue(c); } }))
    .pipeTo(new WritableStream({ write(c) { bytes += c.byteLength; } }));
  return bytes;
}

/** The suite's pull source (high-water mark 16) -> pipeTo(Writable.toWeb(an object-mode Writable, high-water mark 16)). */
export async function writableToWebChain(count) {
  let bytes = 0;
  const sink = new Writable({ objectMode: true, highWaterMark: HWM, write(c, _enc, cb) { bytes += c.byteLength; cb(); } });
  await new ReadableStream({ pull: makePull(count) }, { highWaterMark: HWM }).pipeTo(Writable.toWeb(sink));
  return bytes;
}

export const patterns = { 'readable-to-web': readableToWebChain, 'writable-to-web': writableToWebChain };
