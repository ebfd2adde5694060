// The upstream for the fetch scenario, in its own process so that serving the
// bytes is not timed together with consuming them. Prints its URL on stdout,
// then streams `?bytes=N` zero bytes per request in 16 KB writes (the size a
// typical upstream, e.g. a file or a proxy, sends), honouring backpressure.
import http from 'node:http';

const WRITE = 16 * 1024;
const block = Buffer.alloc(WRITE);

const server = http.createServer(async (req, res) => {
  const total = Number(new URL(req.url, 'http://x').searchParams.get('bytes') ?? 0);
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  let left = total;
  while (left > 0) {
    const n = Math.min(WRITE, left);
    left -= n;
    if (!res.write(n === WRITE ? block : block.subarray(0, n))) {
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
