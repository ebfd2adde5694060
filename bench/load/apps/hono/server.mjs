// The load comparison's Hono app on @hono/node-server (bench/load/apps/hono,
// installed in .cache/load-apps/hono). It imports nothing from fast-webstreams.
//
//   GET /stream   a ReadableStream of ~200 chunks of 50-200 bytes, returned as new Response(stream)
//   GET /helper   the same chunks written through Hono's stream() helper (hono/streaming)
//   GET /proxy    fetch() of 64 KB from the upstream, its body returned as it comes
//   GET /health   {"ok":true,"webStreams":"fast-webstreams"|"native",...}
//
//   PORT (default 8083; 0 = any free port), HOST (default 127.0.0.1), UPSTREAM_URL,
//   LOAD_WEBSTREAMS_LIB (the library's entry, to tell which Web Streams the globals are)
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { stream } from 'hono/streaming';
import { tokens } from './tokens.mjs';

const port = Number(process.env.PORT ?? 8083);
const hostname = process.env.HOST ?? '127.0.0.1';
const upstreamUrl = (process.env.UPSTREAM_URL ?? 'http://127.0.0.1:8081').replace(/\/$/, '');

async function webStreamsInUse() {
  if (!process.env.LOAD_WEBSTREAMS_LIB) return 'unknown';
  const lib = await import(pathToFileURL(process.env.LOAD_WEBSTREAMS_LIB).href);
  return globalThis.ReadableStream === lib.ReadableStream ? 'fast-webstreams' : 'native';
}
const webStreams = await webStreamsInUse();

const app = new Hono();
const encoder = new TextEncoder();

app.get('/stream', () => {
  const iterator = tokens();
  const body = new ReadableStream({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
});

app.get('/helper', (c) => {
  c.header('content-type', 'text/plain; charset=utf-8');
  return stream(c, async (s) => {
    for await (const token of tokens()) await s.write(token);
  });
});

app.get('/proxy', async (c) => {
  const upstream = await fetch(`${upstreamUrl}/data?kb=64`, { signal: c.req.raw.signal });
  return new Response(upstream.body, {
    status: upstream.status,
    headers: { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream' },
  });
});

app.get('/health', (c) => c.json({ ok: true, webStreams, node: process.version, pid: process.pid }));

const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(`hono app listening on http://${info.address}:${info.port} (web streams: ${webStreams}, ${process.version})`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
