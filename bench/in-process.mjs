#!/usr/bin/env node
// Side by side in ONE process: native Web Streams and one or more copies of
// the library (src/index.js of this checkout, or of another checkout given
// by path), run one after the other for several rounds, timed in CPU time.
// On a shared, loaded machine this holds steadier than the suite's
// fresh-process wall-clock runs (npm run bench): a load spike hits every
// implementation of a round alike. The price: every implementation runs in
// the same JIT, so call sites in the scenario code see several classes.
//   node bench/in-process.mjs [--rounds=11] [--filter=read,chain3] [impl ...]
//   impl: native | <path to a checkout's src/index.js>   (default: native ./src/index.js)
// Prints, per scenario, MB/s (median over the rounds) and the ratio to the first impl.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from './stats.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  return arg === undefined ? fallback : arg.slice(name.length + 3);
};
const rounds = Number(option('rounds', 11));
const filter = option('filter', '').split(',').filter(Boolean);
const specs = args.filter((a) => !a.startsWith('--'));
if (specs.length === 0) specs.push('native', './src/index.js');

const COUNT = 1 << 16; // chunks per run: 64 MB of 1 KB chunks
const chunk = new Uint8Array(1024).fill(0x61);
const text = 'a'.repeat(1024);

const impls = [];
for (const spec of specs) {
  const lib = spec === 'native' ? globalThis : await import(pathToFileURL(resolve(spec)).href);
  impls.push({ name: spec, ReadableStream: lib.ReadableStream, WritableStream: lib.WritableStream,
    TransformStream: lib.TransformStream, TextEncoderStream: lib.TextEncoderStream,
    TextDecoderStream: lib.TextDecoderStream });
}

// A pull source that refills its queue to the high-water mark on each pull.
function source(I) {
  let sent = 0;
  return new I.ReadableStream({
    pull(c) {
      while (c.desiredSize > 0 && sent < COUNT) { c.enqueue(chunk); sent++; }
      if (sent >= COUNT) c.close();
    },
  }, { highWaterMark: 16 });
}

async function drain(reader) {
  let bytes = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

// A pull source of `item`, like source(), through one codec stream into a sink.
async function codec(I, item, codecStream, measure) {
  let sent = 0;
  let bytes = 0;
  const s = new I.ReadableStream({
    pull(c) {
      while (c.desiredSize > 0 && sent < COUNT) { c.enqueue(item); sent++; }
      if (sent >= COUNT) c.close();
    },
  }, { highWaterMark: 16 });
  await s.pipeThrough(codecStream).pipeTo(new I.WritableStream({ write(c) { bytes += measure(c); } }));
  return bytes;
}

async function chain(I, transforms) {
  let bytes = 0;
  let s = source(I);
  for (let i = 0; i < transforms; i++) {
    s = s.pipeThrough(new I.TransformStream({ transform(c, controller) { controller.enqueue(c); } }));
  }
  await s.pipeTo(new I.WritableStream({ write(c) { bytes += c.byteLength; } }));
  return bytes;
}

const scenarios = {
  read: (I) => drain(source(I).getReader()),
  iter: async (I) => {
    let bytes = 0;
    for await (const c of source(I)) bytes += c.byteLength;
    return bytes;
  },
  write: async (I) => {
    let bytes = 0;
    const writer = new I.WritableStream({ write(c) { bytes += c.byteLength; } }).getWriter();
    for (let i = 0; i < COUNT; i++) {
      if (writer.desiredSize <= 0) await writer.ready;
      writer.write(chunk);
    }
    await writer.close();
    return bytes;
  },
  pipe: (I) => chain(I, 0),
  // A pull() source with the default high-water mark (1), one chunk per pull.
  pipe1: async (I) => {
    let bytes = 0;
    let sent = 0;
    const s = new I.ReadableStream({ pull(c) { c.enqueue(chunk); if (++sent >= COUNT) c.close(); } });
    await s.pipeTo(new I.WritableStream({ write(c) { bytes += c.byteLength; } }));
    return bytes;
  },
  chain1: (I) => chain(I, 1),
  chain3: (I) => chain(I, 3),
  chain8: (I) => chain(I, 8),
  // The codec classes in a chain: 1 KB ASCII strings encoded, 1 KB bytes decoded.
  encode: (I) => codec(I, text, new I.TextEncoderStream(), (c) => c.byteLength),
  decode: (I) => codec(I, chunk, new I.TextDecoderStream(), (c) => c.length),
  // A pull-based bytes stream, one fresh chunk per pull, read with a default reader.
  bread: (I) => {
    let sent = 0;
    return drain(new I.ReadableStream({
      type: 'bytes',
      pull(c) { c.enqueue(new Uint8Array(1024)); if (++sent >= COUNT) c.close(); },
    }).getReader());
  },
  // React Flight: a bytes stream fed from outside by enqueue(), yielding every 64 chunks.
  flight: async (I) => {
    let controller;
    const s = new I.ReadableStream({ type: 'bytes', start(c) { controller = c; } });
    const produce = (async () => {
      for (let i = 0; i < COUNT; i++) {
        controller.enqueue(new Uint8Array(1024));
        if (i % 64 === 63) await null;
      }
      controller.close();
    })();
    const bytes = await drain(s.getReader());
    await produce;
    return bytes;
  },
};

const names = Object.keys(scenarios).filter((n) => filter.length === 0 || filter.includes(n));
console.log(`Node ${process.version}, ${rounds} rounds of ${COUNT} x 1 KB, CPU time, median; ratio to ${impls[0].name}`);
for (const name of names) {
  const run = scenarios[name];
  for (const I of impls) for (let i = 0; i < 5; i++) await run(I); // warm up
  const times = impls.map(() => []);
  for (let r = 0; r < rounds; r++) {
    // Alternate the order, so no implementation always runs right after the same one.
    const order = r % 2 === 0 ? impls.map((_, i) => i) : impls.map((_, i) => impls.length - 1 - i);
    for (const i of order) {
      const t0 = process.cpuUsage();
      const bytes = await run(impls[i]);
      const used = process.cpuUsage(t0);
      if (bytes !== COUNT * 1024) throw new Error(`${impls[i].name} ${name}: moved ${bytes} bytes`);
      times[i].push(used.user + used.system);
    }
  }
  const base = median(times[0]);
  const cells = impls.map((I, i) => {
    const t = median(times[i]);
    return `${I.name} ${Math.round((COUNT * 1024) / t)} MB/s (${(base / t).toFixed(2)}x)`;
  });
  console.log(`${name.padEnd(7)} ${cells.join('  ')}`);
}
