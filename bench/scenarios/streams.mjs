// Benchmark scenarios. Each uses only the global stream classes, so the same
// code measures Node's native streams or ours (under the preload's global patch).
// A scenario returns the number of bytes it moved (or operations it did).
const CHUNK = Number(process.env.BENCH_CHUNK ?? 1024);
const TOTAL = Number(process.env.BENCH_BYTES ?? 32 * 1024 * 1024);
const COUNT = Math.ceil(TOTAL / CHUNK);
const chunk = new Uint8Array(CHUNK);

function source() {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      // Fill the queue up to the high-water mark each pull, as real producers do.
      while (controller.desiredSize > 0 && sent < COUNT) {
        controller.enqueue(chunk);
        sent++;
      }
      if (sent >= COUNT) controller.close();
    },
  }, { highWaterMark: 16 });
}

function passThrough() {
  return new TransformStream({ transform(c, controller) { controller.enqueue(c); } });
}

function countingSink() {
  let bytes = 0;
  const sink = new WritableStream({ write(c) { bytes += c.byteLength; } });
  return { sink, bytes: () => bytes };
}

export const scenarios = {
  async 'read loop'() {
    const reader = source().getReader();
    let bytes = 0;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return bytes;
      bytes += value.byteLength;
    }
  },
  async 'write loop'() {
    const { sink, bytes } = countingSink();
    const writer = sink.getWriter();
    for (let i = 0; i < COUNT; i++) {
      if (writer.desiredSize <= 0) await writer.ready;
      writer.write(chunk);
    }
    await writer.close();
    return bytes();
  },
  async 'for await'() {
    let bytes = 0;
    for await (const c of source()) bytes += c.byteLength;
    return bytes;
  },
  async pipeTo() {
    const { sink, bytes } = countingSink();
    await source().pipeTo(sink);
    return bytes();
  },
  async pipeThrough() {
    const { sink, bytes } = countingSink();
    await source().pipeThrough(passThrough()).pipeTo(sink);
    return bytes();
  },
  async '3 transforms'() {
    const { sink, bytes } = countingSink();
    await source().pipeThrough(passThrough()).pipeThrough(passThrough()).pipeThrough(passThrough()).pipeTo(sink);
    return bytes();
  },
  async 'byte stream start+enqueue (React Flight)'() {
    let controller;
    const stream = new ReadableStream({ type: 'bytes', start(c) { controller = c; } });
    const reader = stream.getReader();
    let bytes = 0;
    const pump = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        bytes += value.byteLength;
      }
    })();
    for (let i = 0; i < COUNT; i++) {
      controller.enqueue(new Uint8Array(CHUNK));
      if (i % 64 === 63) await null; // the renderer yields now and then
    }
    controller.close();
    await pump;
    return bytes;
  },
  async 'construct (ops)'() {
    const n = 20000;
    for (let i = 0; i < n; i++) {
      new ReadableStream();
      new WritableStream();
      new TransformStream();
    }
    return n;
  },
};
