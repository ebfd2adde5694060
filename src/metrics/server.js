// The /metrics HTTP server: node:http, loaded only when a port is set. It also
// takes the reports of this process's child processes (POST REPORT_PATH, with
// the token they inherited: child-report.js).
import { PROMETHEUS_CONTENT_TYPE } from './prometheus.js';
import { builtin } from '../patch/builtins.js';

export const REPORT_PATH = '/fast-webstreams/report';
export const TOKEN_HEADER = 'x-fast-webstreams-token';
const MAX_REPORT_BYTES = 256 * 1024;

function takeReport(req, res, token, onReport) {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' });
    res.end();
    return;
  }
  if (req.headers[TOKEN_HEADER] !== token) {
    // Not one of this process's children: refused before its body is read.
    req.resume();
    res.writeHead(403);
    res.end();
    return;
  }
  const chunks = [];
  let size = 0;
  req.on('data', (chunk) => {
    size += chunk.length;
    if (size <= MAX_REPORT_BYTES) chunks.push(chunk);
  });
  req.on('end', () => {
    let status = 413;
    if (size <= MAX_REPORT_BYTES) {
      try {
        const report = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        status = onReport(report) ? 204 : 400;
      } catch {
        status = 400;
      }
    }
    res.writeHead(status);
    res.end();
  });
}

/**
 * Serves `render()` at /metrics, and at REPORT_PATH the reports that carry
 * `token` (`onReport(report)`: true when taken). Resolves to { server } once
 * listening, or { code } (EADDRINUSE, ...) if it could not listen. `log` prints the URL.
 */
export function servePrometheus(port, host, { render, token, onReport }, log) {
  // Through require, not an ESM import: node:http's namespace loads Node's
  // bundled undici (50-80 ms at every start).
  const { createServer } = builtin('node:http');
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === REPORT_PATH) {
      takeReport(req, res, token, onReport);
      return;
    }
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
    server.once('error', (err) => resolve({ code: err.code ?? err.message }));
    // exclusive: in a cluster worker, a port of its own, never one shared through the primary.
    server.listen({ port, host, exclusive: true }, () => {
      server.unref();
      const { address, port: bound } = server.address();
      const shown = address.includes(':') ? `[${address}]` : address;
      log(`fast-webstreams: Prometheus metrics at http://${shown}:${bound}/metrics (pid ${process.pid})`);
      resolve({ server });
    });
  });
}
