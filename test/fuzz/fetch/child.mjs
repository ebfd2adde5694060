// Runs the fetch cases of seeds [from, from + count) against a local server
// and prints one line per case: what the response said, or the error's
// constructor, code and cause code. Run natively and under the preload (in
// either order with a preload that used fetch() first, and after a library
// replaced the globals: test/fuzz/fetch.test.mjs); the lines must agree.
//   node [preloads] test/fuzz/fetch/child.mjs FROM COUNT
import { createServer } from 'node:http';
import { generate } from './generate.mjs';

const [from, count] = process.argv.slice(2).map(Number);
const encoder = new TextEncoder();
const ours = () => new ReadableStream({ start(c) { c.enqueue(encoder.encode('s')); c.close(); } });

let retries = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const [path, answer] = req.url.split('?');
    const body = Buffer.concat(chunks).toString();
    if (path === '/start' && answer === 'twice307') return res.writeHead(307, { location: '/start?307' }).end();
    if (path === '/start' && /^30\d$/.test(answer)) return res.writeHead(Number(answer), { location: '/echo' }).end();
    if (path === '/start' && (answer === '401' || answer === 'auth401') && retries++ % 2 === 0) {
      return res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' }).end('denied');
    }
    res.end(`${req.method} ${path} ${body.length > 40 ? `${body.length} bytes` : JSON.stringify(body)}`);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = server.address().port;

function bodyOf(kind) {
  switch (kind) {
    case 'string': return 'x';
    case 'bytes': return encoder.encode('y');
    case 'params': return new URLSearchParams({ a: '1' });
    case 'form': { const f = new FormData(); f.set('a', '1'); return f; }
    case 'blob': return new Blob(['b']);
    case 'ours': return ours();
    case 'blobStream': return new Blob(['n']).stream();
    default: return undefined;
  }
}

async function readResponse(res, how) {
  const head = `${res.status} ${res.redirected ? 'redirected' : ''}`;
  switch (how) {
    case 'reader': {
      if (res.body === null) return `${head} null body`;
      const r = res.body.getReader();
      let text = '';
      for (;;) {
        const { value, done } = await r.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      return `${head} ${text}`;
    }
    case 'clone': { const c = res.clone(); return `${head} ${await res.text()} | ${await c.text()}`; }
    case 'pipeThrough': {
      if (res.body === null) return `${head} null body`;
      return `${head} ${await new Response(res.body.pipeThrough(new TransformStream())).text()}`;
    }
    case 'cancel': { await res.body?.cancel('done'); return `${head} cancelled ${res.bodyUsed}`; }
    case 'bodyUsed': { const before = res.bodyUsed; await res.arrayBuffer(); return `${head} ${before} ${res.bodyUsed}`; }
    default: return `${head} ${await res.text()}`;
  }
}

const describe = (e) => `${e?.constructor?.name} ${e?.code ?? ''} ${e?.cause?.code ?? e?.cause?.name ?? ''}`.trim();

for (let seed = from; seed < from + count; seed++) {
  const c = generate(seed);
  const auth = c.answer === 'auth401' ? 'u:p@' : '';
  const url = `http://${auth}127.0.0.1:${port}/start?${c.answer}`;
  let line;
  try {
    const init = { method: c.method, redirect: c.redirect };
    let res;
    if (c.body === 'request') {
      res = await fetch(new Request(url, { ...init, body: 'q' }));
    } else {
      const body = bodyOf(c.body);
      if (body !== undefined) init.body = body;
      if (body instanceof ReadableStream) init.duplex = 'half';
      res = await fetch(url, init);
    }
    line = await readResponse(res, c.read);
  } catch (e) {
    line = `ERR ${describe(e)}`;
  }
  console.log(`${seed} ${JSON.stringify(c).replace(/"seed":\d+,/, '')} -> ${line}`);
}
server.close();
