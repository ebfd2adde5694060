// The upstream for the fetch scenarios, in its own process so that serving the
// bytes is not timed together with consuming them. Prints its URL on stdout,
// then streams `?bytes=N` bytes per request in 16 KB writes (the size a
// typical upstream, e.g. a file or a proxy, sends), honouring backpressure:
// zero bytes, or with `&sse=E` Server-Sent Events of E bytes each
// (`data: <text>\n\n`, as an LLM API streams them), whole events per write.
import http from 'node:http';

const WRITE = 16 * 1024;
const zeros = Buffer.alloc(WRITE);

// One event of `size` bytes, its payload ASCII text that varies per event.
function sseEvent(size, n) {
  const text = `{"id":${n},"delta":"${'token '.repeat(Math.ceil(size / 6))}`.slice(0, size - 10);
  return `data: ${text}"}\n\n`;
}

// Whole events, at least WRITE bytes of them.
const sseBlocks = new Map();
function sseBlock(size) {
  if (!sseBlocks.has(size)) {
    const count = Math.max(1, Math.floor(WRITE / size));
    sseBlocks.set(size, Buffer.from(Array.from({ length: count }, (_, n) => sseEvent(size, n)).join('')));
  }
  return sseBlocks.get(size);
}

const server = http.createServer(async (req, res) => {
  const params = new URL(req.url, 'http://x').searchParams;
  const total = Number(params.get('bytes') ?? 0);
  const eventSize = Number(params.get('sse') ?? 0);
  if (eventSize && (eventSize < 16 || total % eventSize)) {
    res.writeHead(400).end('sse needs events of at least 16 bytes and a whole number of them');
    return;
  }
  const block = eventSize ? sseBlock(eventSize) : zeros;
  res.writeHead(200, { 'content-type': eventSize ? 'text/event-stream' : 'application/octet-stream' });
  let left = total;
  while (left > 0) {
    const n = Math.min(block.length, left);
    left -= n;
    if (!res.write(n === block.length ? block : block.subarray(0, n))) {
      await new Promise((resolve) => res.once('drain', resolve));
    }
  }
  res.end();
});

server.keepAliveTimeout = 1000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`http://127.0.0.1:${server.address().port}\n`);
});
// The harness ends us with SIGTERM; also go away if it dies without doing so.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
