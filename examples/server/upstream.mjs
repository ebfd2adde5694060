// The upstream the /proxy and /sse routes fetch from, run as its own process (as
// a real backend would be): GET /data?kb=N answers N lines of about 1 KB of JSON
// text, written as separate chunks, some carrying a token the proxy masks;
// GET /events?n=N answers N Server-Sent Events of an LLM-style completion
// (`data: {"i":..,"delta":".."}`, about 100 bytes each), one write per event,
// then `data: [DONE]`.
//   PORT (default 8081), HOST (default 127.0.0.1)
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 8081);
const host = process.env.HOST ?? '127.0.0.1';
const bodies = new Map();

function linesFor(kb) {
  let lines = bodies.get(kb);
  if (lines === undefined) {
    lines = [];
    for (let i = 0; i < kb; i++) {
      const record = { seq: i, token: i % 8 === 0 ? 'sk_live_51Hx9Q' : 'none', pad: '' };
      const base = JSON.stringify(record).length + 1;
      record.pad = 'x'.repeat(Math.max(0, 1024 - base));
      lines.push(Buffer.from(`${JSON.stringify(record)}\n`));
    }
    bodies.set(kb, lines);
  }
  return lines;
}

const WORDS = ['stream', 'ing ', 'the ', 'answer', ', one ', 'token ', 'at a ', 'time', '. ', 'Über', 'näive ', '→ '];
const eventBodies = new Map();
function eventsFor(n) {
  let events = eventBodies.get(n);
  if (events === undefined) {
    events = [];
    for (let i = 0; i < n; i++) {
      const delta = Array.from({ length: 6 }, (_, k) => WORDS[(i * 7 + k) % WORDS.length]).join('');
      events.push(Buffer.from(`data: ${JSON.stringify({ i, delta, model: 'example-1' })}\n\n`));
    }
    events.push(Buffer.from('data: [DONE]\n\n'));
    eventBodies.set(n, events);
  }
  return events;
}

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://upstream');
  if (url.pathname === '/health') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
    return;
  }
  if (url.pathname === '/events') {
    const n = Math.min(10000, Math.max(1, Number(url.searchParams.get('n')) || 200));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const event of eventsFor(n)) res.write(event);
    res.end();
    return;
  }
  if (url.pathname !== '/data') {
    res.writeHead(404);
    res.end();
    return;
  }
  const kb = Math.min(4096, Math.max(1, Number(url.searchParams.get('kb')) || 64));
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  for (const line of linesFor(kb)) res.write(line);
  res.end();
});
server.keepAliveTimeout = 65000;
server.listen(port, host, () => {
  const { address, port: bound } = server.address();
  console.log(`upstream listening on http://${address}:${bound}`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)).closeAllConnections?.());
