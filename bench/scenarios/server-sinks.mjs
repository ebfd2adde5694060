// Where servers spend their stream time (issue 35): sinks whose write()
// returns a promise (a socket's or a file's backpressure, Next.js's response
// sink), transforms written as `async transform()` (the AI SDK's), and an AI
// proxy's token chain. Chunks are --chunk bytes, but the token chain's 50-200.
import { pipeline } from 'node:stream/promises';
import { TOTAL, source, passThrough, nodeSource, nodePassThrough, nodeCountingSink } from './common.mjs';

/** A WritableStream whose write() is async: it returns a settled promise per chunk. */
function asyncSink() {
  let bytes = 0;
  return { sink: new WritableStream({ async write(c) { bytes += c.byteLength; } }), bytes: () => bytes };
}

/** Next.js's response sink (server/pipe-readable.js): res.write(chunk), awaiting 'drain' when it says so. */
function nextStyleSink() {
  const { sink: res, bytes } = nodeCountingSink();
  const drained = () => new Promise((resolve) => res.once('drain', resolve));
  return { sink: new WritableStream({ async write(c) { if (!res.write(c)) await drained(); } }), bytes };
}

const asyncPassThrough = () => new TransformStream({ async transform(c, controller) { controller.enqueue(c); } });

async function nodeInto(transforms) {
  const { sink, bytes } = nodeCountingSink();
  await pipeline(nodeSource(), ...Array.from({ length: transforms }, nodePassThrough), sink);
  return bytes();
}

/**
 * An LLM provider's stream as an AI proxy relays it: SSE frames of 50-200
 * bytes, TOTAL bytes in all (the last is an SSE comment that pads to it), to
 * be decoded, split into events, parsed, reframed and encoded again.
 */
function tokenFrames(expected) {
  const encoder = new TextEncoder();
  const frames = [];
  const reframed = []; // the bytes reframe() makes of each, to check what arrives
  for (let i = 0; i < 64; i++) {
    const delta = 't'.repeat(20 + ((i * 37) % 130));
    frames.push(encoder.encode(`data: {"id":${i},"delta":"${delta}"}\n\n`));
    reframed.push(`0:${JSON.stringify(delta)}\n`.length);
  }
  let left = TOTAL;
  let i = 0;
  return new ReadableStream({
    pull(c) {
      if (left > 250) {
        const frame = frames[i % frames.length];
        expected.bytes += reframed[i++ % frames.length];
        c.enqueue(frame);
        left -= frame.byteLength;
        return;
      }
      c.enqueue(encoder.encode(`:${' '.repeat(left - 3)}\n\n`));
      c.close();
    },
  });
}

function sseParser() {
  let buffered = '';
  return new TransformStream({
    transform(text, c) {
      buffered += text;
      let end;
      while ((end = buffered.indexOf('\n\n')) !== -1) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (event.startsWith('data: ')) c.enqueue(event.slice(6));
      }
    },
  });
}

const jsonParse = () => new TransformStream({ transform(data, c) { c.enqueue(JSON.parse(data)); } });
const reframe = () => new TransformStream({ transform(event, c) { c.enqueue(`0:${JSON.stringify(event.delta)}\n`); } });

export default [
  {
    name: 'pipeTo(async write())',
    about: 'a pipe into a WritableStream whose write() is an async function (every sink that respects backpressure)',
    async web() {
      const { sink, bytes } = asyncSink();
      await source().pipeTo(sink);
      return bytes();
    },
    node: () => nodeInto(0),
  },
  {
    name: 'pipeTo(Next.js sink)',
    about: 'a route handler body into Next.js\'s sink: async write() { if (!res.write(chunk)) await drain }',
    async web() {
      const { sink, bytes } = nextStyleSink();
      await source().pipeTo(sink);
      return bytes();
    },
    node: () => nodeInto(0),
  },
  {
    name: '3 transforms -> async write()',
    about: 'three pass-through transforms, then a sink whose write() is async',
    async web() {
      const { sink, bytes } = asyncSink();
      await source().pipeThrough(passThrough()).pipeThrough(passThrough()).pipeThrough(passThrough()).pipeTo(sink);
      return bytes();
    },
    node: () => nodeInto(3),
  },
  {
    name: '3 async transform()s',
    about: 'three `async transform()` pass-throughs into a sink (the AI SDK writes its stages so)',
    async web() {
      const { sink, bytes } = asyncSink();
      await source().pipeThrough(asyncPassThrough()).pipeThrough(asyncPassThrough()).pipeThrough(asyncPassThrough())
        .pipeTo(sink);
      return bytes();
    },
    node: () => nodeInto(3),
  },
  {
    name: 'token chain: decode -> SSE -> JSON -> encode',
    about: 'SSE frames of 50-200 bytes through TextDecoderStream, an SSE parser, JSON.parse, reframing and TextEncoderStream, into an async sink',
    codecs: true,
    async web() {
      const { sink, bytes } = asyncSink();
      const expected = { bytes: 0 };
      await tokenFrames(expected).pipeThrough(new TextDecoderStream()).pipeThrough(sseParser()).pipeThrough(jsonParse())
        .pipeThrough(reframe()).pipeThrough(new TextEncoderStream()).pipeTo(sink);
      if (bytes() !== expected.bytes) throw new Error(`token chain: ${bytes()} bytes out, expected ${expected.bytes}`);
      return TOTAL; // what went in
    },
  },
];
