// Shared sizes and building blocks. The parent passes the sizes through the
// environment so every implementation of a scenario moves exactly the same
// bytes. Web-stream helpers use only the globals (native, ours or the peer,
// depending on the preload); node:stream helpers are kept apart at the bottom.
import { Readable, Writable, Transform } from 'node:stream';

export const CHUNK = Number(process.env.BENCH_CHUNK ?? 1024);
export const TOTAL = Number(process.env.BENCH_BYTES ?? 32 * 1024 * 1024);
export const COUNT = Math.ceil(TOTAL / CHUNK);
export const QUICK = process.env.BENCH_QUICK === '1';
// One shared chunk: default streams pass references, so allocation would only
// add noise. Byte streams transfer their buffers and allocate per chunk.
export const chunk = new Uint8Array(CHUNK);

// The harness's upstream (bench/server.mjs): TOTAL bytes per request, zero
// bytes by default, `sse: true` for Server-Sent Events of CHUNK bytes each.
export function upstreamUrl({ sse = false } = {}) {
  if (!process.env.BENCH_URL) throw new Error('BENCH_URL is not set (the harness starts bench/server.mjs)');
  return `${process.env.BENCH_URL}/?bytes=${TOTAL}${sse ? `&sse=${CHUNK}` : ''}`;
}

// A pull-based source that fills its queue up to the high-water mark on each
// pull, as real producers (file readers, renderers) do.
export function source(count = COUNT) {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      while (controller.desiredSize > 0 && sent < count) {
        controller.enqueue(chunk);
        sent++;
      }
      if (sent >= count) controller.close();
    },
  }, { highWaterMark: 16 });
}

// A pull-based byte source: one fresh chunk per pull, no queue of its own
// (high-water mark 0), so each read drives one pull.
export function byteSource(count = COUNT) {
  let sent = 0;
  return new ReadableStream({
    type: 'bytes',
    pull(controller) {
      controller.enqueue(new Uint8Array(CHUNK));
      if (++sent >= count) controller.close();
    },
  });
}

// The identity transform users write by hand (default strategies).
export function passThrough() {
  return new TransformStream({ transform(c, controller) { controller.enqueue(c); } });
}

export function countingSink() {
  let bytes = 0;
  const sink = new WritableStream({ write(c) { bytes += c.byteLength; } });
  return { sink, bytes: () => bytes };
}

export async function drainReader(reader) {
  let bytes = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

// A CPU-bound step: a multiplicative hash over every byte, 8 rounds (about
// 20 us per KB here, several times the per-chunk cost of a pipe hop), so
// that the work (not the stream machinery) dominates and every implementation
// should converge to the same throughput.
export function cpuWork(bytes) {
  let h = 0x811c9dc5;
  for (let round = 0; round < 8; round++) {
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ (bytes[i] + round), 16777619);
  }
  return h;
}

// --- node:stream counterparts (object mode, same chunk, same queue depth) ---

export function nodeSource(count = COUNT) {
  let sent = 0;
  return new Readable({
    objectMode: true,
    highWaterMark: 16,
    read() {
      while (sent < count) {
        sent++;
        if (!this.push(chunk)) break;
      }
      if (sent >= count) this.push(null);
    },
  });
}

export function nodePassThrough() {
  return new Transform({ objectMode: true, transform(c, _enc, cb) { cb(null, c); } });
}

export function nodeCountingSink() {
  let bytes = 0;
  const sink = new Writable({ objectMode: true, write(c, _enc, cb) { bytes += c.byteLength; cb(); } });
  return { sink, bytes: () => bytes };
}
