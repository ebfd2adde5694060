// The /metrics HTTP server: node:http, loaded only when a port is bound.
import { PROMETHEUS_CONTENT_TYPE } from './prometheus.js';
import { builtin } from '../patch/builtins.js';

/**
 * Serves `render()` at /metrics; resolves to the server once listening (or
 * null if it could not listen). `log` prints one line (the URL, or why not).
 */
export function servePrometheus(port, host, render, log) {
  // Through require, not an ESM import: node:http's namespace loads Node's
  // bundled undici (50-80 ms at every start).
  const { createServer } = builtin('node:http');
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('fast-webstreams: metrics are at /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' });
      res.end();
      return;
    }
    const body = render();
    res.writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE, 'content-length': Buffer.byteLength(body) });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  // Keep-alive sockets from a scraper must not hold the process open either.
  server.on('connection', (socket) => socket.unref());
  return new Promise((resolve) => {
    server.once('error', (err) => {
      log(`metrics server not started on ${host}:${port}: ${err.code ?? err.message}`);
      resolve(null);
    });
    // exclusive: in a cluster worker, a port of its own, never one shared through the primary.
    server.listen({ port, host, exclusive: true }, () => {
      server.unref();
      const { address, port: bound } = server.address();
      const shown = address.includes(':') ? `[${address}]` : address;
      log(`Prometheus metrics at http://${shown}:${bound}/metrics (pid ${process.pid})`);
      resolve(server);
    });
  });
}
