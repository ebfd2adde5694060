// undici (Node's fetch, Response, Request, and the undici npm package) with our streams.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { fast, N, T, TIER, assertPatched, enc, dec, oursFrom, readAll } from './helpers.mjs';

const require = createRequire(import.meta.url);

test('the patch is active', T, () => assertPatched());

/** A local server: echoes POST bodies; GET /stream sends parts slowly; GET /abort dies mid-body. */
async function withServer(fn) {
  const server = createServer(async (req, res) => {
    if (req.url === '/abort') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
      setTimeout(() => res.destroy(), 20);
      return;
    }
    if (req.method === 'POST') {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      res.end(Buffer.concat(chunks));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('hello ');
    setTimeout(() => res.end('world'), 5);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fn(`http://127.0.0.1:${server.address().port}`);
  } finally {
    server.closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
}

test('new Response(ours) keeps our stream as its body and reads it', T, async () => {
  const body = oursFrom(['res', 'ponse']);
  const res = new Response(body);
  assert.equal(res.body, body);
  assert.equal(await res.text(), 'response');
  assert.equal(res.bodyUsed, true);
  await assert.rejects(new Response(oursFrom(['a'], { error: new Error('body boom') })).text(), /body boom/);
});

test('new Request(url, { body: ours, duplex: "half" })', T, async () => {
  const req = new Request('http://example.invalid/', { method: 'POST', body: oursFrom(['re', 'q']), duplex: 'half' });
  assert.equal(await req.text(), 'req');
  assert.throws(() => new Request('http://example.invalid/', { method: 'POST', body: oursFrom(['x']) }),
    /duplex/);
});

test('fetch(url, { body: ours, duplex: "half" }) uploads it; an error mid-upload rejects', T, async () => {
  await withServer(async (url) => {
    const res = await fetch(url, { method: 'POST', body: oursFrom(['up', 'load']), duplex: 'half' });
    assert.equal(await res.text(), 'upload');
    await assert.rejects(fetch(url, {
      method: 'POST', body: oursFrom(['x'], { error: new Error('upload boom') }), duplex: 'half',
    }));
  });
});

test('fetch body is one of ours; piped through our transform into a native TextDecoderStream', T, async () => {
  await withServer(async (url) => {
    const res = await fetch(`${url}/stream`);
    assert.ok(res.body instanceof fast.ReadableStream);
    assert.equal(res.body, res.body);
    const upper = new TransformStream({ transform(c, ctl) { ctl.enqueue(enc(dec([c]).toUpperCase())); } });
    const out = await readAll(res.body.pipeThrough(upper).pipeThrough(new TextDecoderStream()));
    assert.equal(out.join(''), 'HELLO WORLD');
  });
});

test('fetch body: a connection dying mid-body errors our chain; cancelling it stops the download', T, async () => {
  await withServer(async (url) => {
    const res = await fetch(`${url}/abort`);
    await assert.rejects(readAll(res.body.pipeThrough(new TransformStream())));
    const res2 = await fetch(`${url}/stream`);
    const reader = res2.body.getReader();
    await reader.read();
    await reader.cancel('enough');
    assert.equal(res2.bodyUsed, true);
  });
});

test('Response.clone() with our body tees it', T, async () => {
  const res = new Response(oursFrom(['cl', 'one']));
  const copy = res.clone();
  assert.equal(await res.text(), 'clone');
  assert.equal(await copy.text(), 'clone');
});

test('a native body gets a shell: cached, lazy, truthful whichever is used first', T, async () => {
  // text() first, then body
  const r1 = new Response(new Blob(['first']));
  assert.equal(await r1.text(), 'first');
  assert.equal(r1.bodyUsed, true);
  assert.equal(r1.body.locked, true);
  // body obtained first but not read: text() still works, the shell then reports locked
  const r2 = new Response(new Blob(['second']));
  const shell = r2.body;
  assert.ok(shell instanceof fast.ReadableStream && Object.getPrototypeOf(shell) === fast.ReadableStream.prototype);
  assert.equal(r2.body, shell);
  assert.equal(r2.bodyUsed, false);
  assert.equal(await r2.text(), 'second');
  assert.equal(shell.locked, true);
  // shell read first: bodyUsed, then text() rejects like a used body
  const r3 = new Response(new Blob(['third']));
  const reader = r3.body.getReader();
  assert.equal(r3.bodyUsed, false);
  const { value } = await reader.read();
  assert.equal(dec([value]), 'third');
  assert.equal(r3.bodyUsed, true);
  await assert.rejects(r3.text(), TypeError);
  // shell locked but unread: text() rejects (the body is locked)
  const r4 = new Response(new Blob(['fourth']));
  r4.body.getReader();
  await assert.rejects(r4.text(), TypeError);
  // a pipeThrough chain on the shell
  const r5 = new Request('http://example.invalid/', { method: 'POST', body: new Blob(['fifth']) });
  const out = await readAll(r5.body.pipeThrough(new TextDecoderStream()));
  assert.equal(out.join(''), 'fifth');
  // a BYOB read on the shell
  const r6 = new Response(new Blob(['sixth']));
  const byob = r6.body.getReader({ mode: 'byob' });
  const { value: v6 } = await byob.read(new Uint8Array(16));
  assert.equal(dec([v6]), 'sixth');
});

test('new Response(native stream) and new Response(ours) both work, and the native one errors through the shell', T, async () => {
  const native = new N.ReadableStream({ start(c) { c.enqueue(enc('nat')); c.error(new Error('native body boom')); } });
  const res = new Response(native);
  await assert.rejects(readAll(res.body), /native body boom/);
  const gz = new Response(oursFrom(['zip']).pipeThrough(new CompressionStream('gzip')));
  assert.equal(await new Response(gz.body.pipeThrough(new DecompressionStream('gzip'))).text(), 'zip');
});

test('the undici npm package: its Response and Request take ours and give ours', T, async () => {
  const undici = require('undici');
  const res = new undici.Response(oursFrom(['npm', 'undici']));
  assert.equal(await res.text(), 'npmundici');
  const fromBlob = new undici.Response(new Blob(['blob']));
  assert.ok(fromBlob.body instanceof fast.ReadableStream);
  assert.equal(Object.getPrototypeOf(fromBlob.body), fast.ReadableStream.prototype);
  assert.equal(await fromBlob.clone().text(), 'blob');
  assert.equal(await fromBlob.text(), 'blob');
  const req = new undici.Request('http://example.invalid/', { method: 'POST', body: oursFrom(['r']), duplex: 'half' });
  assert.equal(await req.text(), 'r');
  await withServer(async (url) => {
    const r = await undici.fetch(`${url}/stream`);
    assert.equal((await readAll(r.body.pipeThrough(new TextDecoderStream()))).join(''), 'hello world');
  });
});

test('a shell over a native body writes each chunk through a pipe at once (tier 1), in order', TIER, async () => {
  // A native stream handed to new Response() comes back from .body as our
  // shell (src/patch/bodies.js), which reads the native stream in its own
  // reactions: a pipe waiting on the shell takes each chunk there.
  const parts = ['hello ', 'streams ', 'world'];
  const native = new N.ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setImmediate(resolve)); // a producer that is slower than the pipe
      if (parts.length === 0) controller.close();
      else controller.enqueue(enc(parts.shift()));
    },
  });
  const body = new Response(native).body;
  assert.ok(!(body instanceof N.ReadableStream) || body instanceof fast.ReadableStream, 'the body is ours');
  const got = [];
  const before = fast.getCounters();
  await body
    .pipeThrough(new TransformStream({ transform(chunk, controller) { controller.enqueue(chunk); } }))
    .pipeTo(new WritableStream({ write(chunk) { got.push(chunk); } }));
  const after = fast.getCounters();
  assert.equal(dec(got), 'hello streams world');
  assert.equal(after.specPipeChunks - before.specPipeChunks, 0, 'no chunk waited a microtask for the pipe');
  assert.ok(after.syncPipeChunks - before.syncPipeChunks >= 3, 'every chunk on the sync path');
});
