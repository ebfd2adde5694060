// Streams meeting undici (Node's fetch and Response): body consumption,
// proxy-style forwarding, and a real HTTP download piped through transforms.
// The HTTP server runs in its own process (bench/server.mjs, started by the
// harness) so its work is not timed with the client's; its URL arrives in
// BENCH_URL.
import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import { source, passThrough, countingSink, drainReader, nodePassThrough, nodeCountingSink, upstreamUrl } from './common.mjs';

const url = () => upstreamUrl();

export default [
  {
    name: 'Response.text()',
    about: 'new Response(readableStream).text(): a stream body consumed by undici',
    async web() {
      const text = await new Response(source()).text();
      return text.length; // the chunks are zero bytes, so one char per byte
    },
  },
  {
    name: 'Response forwarding',
    about: "a Response's body forwarded into new Response(body), as a proxy or middleware does, then consumed",
    async web() {
      const upstream = new Response(source());
      const forwarded = new Response(upstream.body, { headers: { 'x-proxied': '1' } });
      const buf = await forwarded.arrayBuffer();
      return buf.byteLength;
    },
  },
  {
    // Isolates the fetch body itself (undici producing into the body stream)
    // from the transforms below it: if 'fetch -> 3 transforms' is slow, this
    // row says whether the body or the chain is to blame.
    name: 'fetch -> reader',
    about: 'fetch() from a local server, body drained with a reader (no transforms)',
    needsServer: true,
    async web() {
      const res = await fetch(url());
      return drainReader(res.body.getReader());
    },
  },
  {
    name: 'fetch -> 3 transforms',
    about: 'fetch() from a local server, body piped through 3 transforms into a WritableStream',
    needsServer: true,
    async web() {
      const res = await fetch(url());
      const { sink, bytes } = countingSink();
      await res.body.pipeThrough(passThrough()).pipeThrough(passThrough()).pipeThrough(passThrough()).pipeTo(sink);
      return bytes();
    },
    // The classic equivalent: http.get and stream.pipeline through 3 Transforms.
    async node() {
      const res = await new Promise((resolve, reject) => http.get(url(), resolve).on('error', reject));
      const { sink, bytes } = nodeCountingSink();
      await pipeline(res, nodePassThrough(), nodePassThrough(), nodePassThrough(), sink);
      return bytes();
    },
  },
];
