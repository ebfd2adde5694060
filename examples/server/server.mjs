// An ordinary Node HTTP server (node:http, no framework) whose routes use Web
// Streams the way production servers do. It imports nothing from
// fast-webstreams: run it with `node --import fast-webstreams/register` (or the
// NODE_OPTIONS in docker/Dockerfile) and its streams become ours.
//
//   GET /ssr       React renderToReadableStream -> TransformStream injecting a <script> before </body>
//   GET /proxy     fetch() from the upstream process -> three TransformStreams -> the response
//   GET /forward   a fetch-style handler returns a Web Response; its body is forwarded
//   GET /ndjson    rows from an async cursor -> NDJSON encoder TransformStream -> the response
//   GET /sse       fetch() of Server-Sent Events from the upstream -> TextDecoderStream -> an event
//                  splitter -> reshaped events -> TextEncoderStream -> the response (an LLM relay)
//   GET /health    {"ok":true,"webStreams":"fast-webstreams"|"native",...}
//
//   PORT (default 8080; 0 = any free port), HOST (default 127.0.0.1),
//   UPSTREAM_URL (default http://127.0.0.1:8081; start examples/server/upstream.mjs)
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderPage } from './ssr.mjs';
import { injectBeforeBodyEnd, mask, meter, ndjsonEncoder, sizeLimit, sseEvents, sseFormat } from './transforms.mjs';
import { sendWebResponse, sendWebStream, toWebRequest } from './web-to-node.mjs';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const upstreamUrl = (process.env.UPSTREAM_URL ?? 'http://127.0.0.1:8081').replace(/\/$/, '');

// Which Web Streams the globals are: ask fast-webstreams (resolved from the working
// directory, as --import resolves it) whether the global class is its own.
async function detectWebStreams() {
  try {
    const require = createRequire(join(process.cwd(), 'index.js'));
    const lib = await import(pathToFileURL(require.resolve('fast-webstreams')).href);
    return globalThis.ReadableStream === lib.ReadableStream ? 'fast-webstreams' : 'native';
  } catch {
    return 'native';
  }
}
const webStreams = await detectWebStreams();

const HYDRATION = '<script>window.__DATA__={"page":"shop","streamed":true}</script>';

async function ssr(req, res) {
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  let stream;
  try {
    stream = await renderPage({ signal: abort.signal });
  } catch (err) {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`render failed: ${err.message}`);
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  await sendWebStream(stream.pipeThrough(injectBeforeBodyEnd(HYDRATION)), res);
}

/**
 * fetch() of the upstream's `path`, aborted when the client goes away. A
 * failure or a non-2xx answer is told to the client as a 502 here, and
 * gives undefined.
 */
async function fetchUpstream(res, path) {
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  let upstream;
  try {
    upstream = await fetch(`${upstreamUrl}${path}`, { signal: abort.signal });
  } catch (err) {
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`upstream failed: ${err.cause?.code ?? err.message}`);
    return undefined;
  }
  if (!upstream.ok || upstream.body === null) {
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`upstream answered ${upstream.status}`);
    await upstream.body?.cancel();
    return undefined;
  }
  return upstream;
}

async function proxy(req, res, url) {
  const kb = Number(url.searchParams.get('kb')) || 64;
  const upstream = await fetchUpstream(res, `/data?kb=${kb}`);
  if (upstream === undefined) return;
  const body = upstream.body
    .pipeThrough(meter(() => {}))
    .pipeThrough(mask('sk_live_51Hx9Q'))
    .pipeThrough(sizeLimit(8 * 1024 * 1024));
  res.writeHead(200, { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream' });
  await sendWebStream(body, res);
}

// A fetch-style handler (Request in, Response out), as in Hono, Remix or
// edge-style code, mounted on node:http through a small adapter.
const REPORT_CHUNK = new TextEncoder().encode(`<tr><td>${'report row '.repeat(90)}</td></tr>\n`.slice(0, 1024));
async function reportHandler(request) {
  const rows = Number(new URL(request.url).searchParams.get('rows')) || 64;
  let sent = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (sent === 0) controller.enqueue(new TextEncoder().encode('<!doctype html><table>\n'));
      if (sent < rows) {
        controller.enqueue(REPORT_CHUNK.slice());
        sent++;
      } else {
        controller.enqueue(new TextEncoder().encode('</table>\n'));
        controller.close();
      }
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8', 'x-handler': 'report' } });
}

async function forward(req, res) {
  const response = await reportHandler(toWebRequest(req, `http://${req.headers.host ?? 'localhost'}`));
  await sendWebResponse(response, res);
}

// Rows from an async cursor, a batch per pull, streamed as NDJSON.
async function ndjson(req, res, url) {
  const total = Number(url.searchParams.get('rows')) || 500;
  const batch = 50;
  let next = 0;
  const rows = new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setImmediate(resolve)); // the database round trip
      const end = Math.min(total, next + batch);
      for (; next < end; next++) controller.enqueue({ id: next, name: `row ${next}`, score: (next * 7919) % 1000, ok: next % 3 !== 0 });
      if (next >= total) controller.close();
    },
  }, { highWaterMark: batch });
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  await sendWebStream(rows.pipeThrough(ndjsonEncoder()), res);
}

// An LLM-style relay: the upstream's events are decoded, split, reshaped (only
// the text delta goes on) and encoded again for the client, event by event.
async function sse(req, res, url) {
  const n = Number(url.searchParams.get('n')) || 200;
  const upstream = await fetchUpstream(res, `/events?n=${n}`);
  if (upstream === undefined) return;
  const reshape = new TransformStream({
    transform(event, controller) { controller.enqueue({ n: event.i, text: event.delta }); },
  });
  const body = upstream.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(sseEvents())
    .pipeThrough(reshape)
    .pipeThrough(sseFormat())
    .pipeThrough(new TextEncoderStream());
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  await sendWebStream(body, res);
}

function health(req, res) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ ok: true, webStreams, node: process.version, pid: process.pid }));
}

function index(req, res) {
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`fast-webstreams example server (web streams: ${webStreams})\n/ssr /proxy /forward /ndjson /sse /health\n`);
}

const routes = { '/ssr': ssr, '/proxy': proxy, '/forward': forward, '/ndjson': ndjson, '/sse': sse, '/health': health, '/': index };

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const route = routes[url.pathname];
  if (route === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
    return;
  }
  Promise.resolve(route(req, res, url)).catch((err) => {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`error: ${err.message}\n`);
  });
});
server.keepAliveTimeout = 65000;
server.listen(port, host, () => {
  const { address, port: bound } = server.address();
  console.log(`example server listening on http://${address.includes(':') ? `[${address}]` : address}:${bound} (web streams: ${webStreams}, ${process.version})`);
});

// Stop accepting, finish in-flight requests, then exit (docker stop sends SIGTERM).
for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
