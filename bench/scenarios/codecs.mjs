// Chains through the codec classes (TextDecoderStream, TextEncoderStream,
// CompressionStream, DecompressionStream): native's, ours under the preload
// (`fast`), or Node's between our streams with FAST_WEBSTREAMS_CODECS=0 (the
// `fast-nocodecs` implementation; `codecs: true` marks the scenarios it runs). Sources and transforms are the globals, so
// under the preload they are ours either way.
import http from 'node:http';
import { createGunzip, createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform, Writable } from 'node:stream';
import { CHUNK, COUNT, upstreamUrl } from './common.mjs';
import { nodeByteSink } from './node-sinks.mjs';

// --- data: 1 MiB of log-like JSON lines (about 4:1 under gzip), cut in CHUNK
// slices that the sources cycle through, so gzip sees text, not one chunk
// repeated inside its window.
const POOL = 1024 * 1024;
function logText() {
  let seed = 0x2545f491;
  const rand = (n) => {
    seed ^= seed << 13; seed ^= seed >>> 17; seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const levels = ['info', 'info', 'info', 'warn', 'debug', 'error'];
  const paths = ['/api/items', '/api/users', '/health', '/api/orders', '/static/app.js'];
  let text = '';
  for (let i = 0; text.length < POOL; i++) {
    text += `{"ts":${1764150000000 + i * 37 + rand(37)},"level":"${levels[rand(6)]}","msg":"request done",` +
      `"path":"${paths[rand(5)]}/${rand(100000)}","status":${rand(10) ? 200 : 404},"ms":${rand(900)}}\n`;
  }
  return text.slice(0, POOL);
}
// Made on first use: every child loads every scenario file. Exported for
// bench/floors-child.mjs, whose floors encode the same strings.
let pool = null;
export function chunks() {
  if (pool === null) {
    const bytes = new TextEncoder().encode(logText());
    const byteChunks = Array.from({ length: POOL / CHUNK }, (_, i) => bytes.subarray(i * CHUNK, (i + 1) * CHUNK));
    const decoder = new TextDecoder();
    pool = { byteChunks, textChunks: byteChunks.map((c) => decoder.decode(c)) }; // ASCII: CHUNK characters each
  }
  return pool;
}

// A pull source like common.mjs#source, cycling through `chunks`.
function cyclingSource(chunks) {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      while (controller.desiredSize > 0 && sent < COUNT) controller.enqueue(chunks[sent++ % chunks.length]);
      if (sent >= COUNT) controller.close();
    },
  }, { highWaterMark: 16 });
}

function nodeCyclingSource(chunks) {
  let sent = 0;
  return new Readable({
    objectMode: true,
    highWaterMark: 16,
    read() {
      while (sent < COUNT) {
        if (!this.push(chunks[sent++ % chunks.length])) break;
      }
      if (sent >= COUNT) this.push(null);
    },
  });
}

// --- SSE: `data: <payload>\n\n` events out of decoded text, split across
// chunk borders as they fall. Each event counts its payload plus the 8 bytes
// of framing, so a run accounts for every byte the server sent. Exported for
// bench/floors-child.mjs, which calls it inline with no TransformStream.
export class SseSplitter {
  rest = '';
  push(text, emit) {
    const buf = this.rest + text;
    let start = 0;
    let end;
    while ((end = buf.indexOf('\n\n', start)) !== -1) {
      if (!buf.startsWith('data: ', start)) throw new Error(`not an SSE data event at ${start}`);
      emit(buf.slice(start + 6, end));
      start = end + 2;
    }
    this.rest = buf.slice(start);
  }
  end() {
    if (this.rest) throw new Error(`the stream ended inside an event (${this.rest.length} characters)`);
  }
}

function sseSplitter() {
  const splitter = new SseSplitter();
  return new TransformStream({
    transform(text, controller) { splitter.push(text, (event) => controller.enqueue(event)); },
    flush() { splitter.end(); },
  });
}

function nodeSseSplitter() {
  const splitter = new SseSplitter();
  return new Transform({
    readableObjectMode: true,
    decodeStrings: false,
    transform(text, _enc, cb) {
      splitter.push(text, (event) => this.push(event));
      cb();
    },
    flush(cb) {
      splitter.end();
      cb();
    },
  });
}

function nodeEventSink() {
  let bytes = 0;
  const sink = new Writable({ objectMode: true, write(event, _enc, cb) { bytes += event.length + 8; cb(); } });
  return { sink, bytes: () => bytes };
}

export default [
  {
    name: 'SSE: fetch -> TextDecoderStream',
    about: 'fetch() of Server-Sent Events (CHUNK bytes each) -> TextDecoderStream -> an SSE event splitter TransformStream -> reader',
    needsServer: true,
    codecs: true,
    async web() {
      const res = await fetch(upstreamUrl({ sse: true }));
      const reader = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(sseSplitter()).getReader();
      let bytes = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return bytes;
        bytes += value.length + 8;
      }
    },
    // http.get, setEncoding('utf8'), the same splitter in a Transform.
    async node() {
      const res = await new Promise((resolve, reject) => http.get(upstreamUrl({ sse: true }), resolve).on('error', reject));
      res.setEncoding('utf8');
      const { sink, bytes } = nodeEventSink();
      await pipeline(res, nodeSseSplitter(), sink);
      return bytes();
    },
  },
  {
    name: 'gzip round trip',
    about: "log-like JSON text -> CompressionStream('gzip') -> DecompressionStream('gzip') -> WritableStream",
    codecs: true,
    async web() {
      let bytes = 0;
      const sink = new WritableStream({ write(c) { bytes += c.byteLength; } });
      await cyclingSource(chunks().byteChunks)
        .pipeThrough(new CompressionStream('gzip'))
        .pipeThrough(new DecompressionStream('gzip'))
        .pipeTo(sink);
      return bytes;
    },
    async node() {
      const { sink, bytes } = nodeByteSink();
      await pipeline(nodeCyclingSource(chunks().byteChunks), createGzip(), createGunzip(), sink);
      return bytes();
    },
  },
  {
    name: 'TextEncoderStream',
    about: 'strings of CHUNK characters -> TextEncoderStream -> WritableStream',
    codecs: true,
    async web() {
      let bytes = 0;
      const sink = new WritableStream({ write(c) { bytes += c.byteLength; } });
      await cyclingSource(chunks().textChunks).pipeThrough(new TextEncoderStream()).pipeTo(sink);
      return bytes;
    },
    // The same encoding in a Transform (TextEncoder, as Node's class uses).
    async node() {
      const encoder = new TextEncoder();
      const encode = new Transform({ objectMode: true, transform(s, _enc, cb) { cb(null, encoder.encode(s)); } });
      const { sink, bytes } = nodeByteSink();
      await pipeline(nodeCyclingSource(chunks().textChunks), encode, sink);
      return bytes();
    },
  },
];
