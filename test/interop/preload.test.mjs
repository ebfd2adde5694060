// The preload itself: globals, node:stream/web (import and require, workers), instanceof both ways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import * as web from 'node:stream/web';
import { ReadableStream as WebRS } from 'stream/web';
import { fast, N, T, assertPatched } from './helpers.mjs';

const require = createRequire(import.meta.url);
const NAMES = Object.keys(N);

test('the patch is active', T, () => assertPatched());

test('node:stream/web and stream/web give our classes, by import and by require', T, () => {
  for (const name of NAMES) {
    assert.equal(web[name], fast[name], `import node:stream/web ${name}`);
    assert.equal(require('stream/web')[name], fast[name], `require stream/web ${name}`);
    assert.equal(require('node:stream/web')[name], fast[name], `require node:stream/web ${name}`);
  }
  assert.equal(WebRS, fast.ReadableStream);
  // Node's own web-stream producers stay available from the module.
  assert.equal(typeof web.TextDecoderStream, 'function');
});

test('a worker started with the flag inherited has the patch, stream/web included', T, async () => {
  const code = `
    const { parentPort } = require('node:worker_threads');
    const web = require('node:stream/web');
    import('node:stream/web').then((ns) => parentPort.postMessage({
      ours: String(globalThis.ReadableStream).includes('#impl'),
      required: web.ReadableStream === globalThis.ReadableStream,
      imported: ns.ReadableStream === globalThis.ReadableStream,
    }));`;
  const { writeFileSync, mkdtempSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const file = join(mkdtempSync(join(tmpdir(), 'fws-')), 'worker.cjs');
  writeFileSync(file, code);
  const worker = new Worker(file);
  const message = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  assert.deepEqual(message, { ours: true, required: true, imported: true });
});

test('native streams are instances of the patched globals', T, async () => {
  const natives = [
    new N.ReadableStream(),
    new N.TransformStream().readable,
    new CompressionStream('gzip').readable,
    new Blob(['x']).stream(),
  ];
  for (const s of natives) assert.ok(s instanceof ReadableStream);
  assert.ok(new CompressionStream('gzip').writable instanceof WritableStream);
  assert.ok(new N.TransformStream() instanceof TransformStream);
  assert.ok(new N.ReadableStream().getReader() instanceof ReadableStreamDefaultReader);
  assert.ok(!({} instanceof ReadableStream));
});

test('our streams are instances of the native classes, and subclasses keep the ordinary check', T, () => {
  assert.ok(new ReadableStream() instanceof N.ReadableStream);
  assert.ok(new WritableStream() instanceof N.WritableStream);
  assert.ok(new TransformStream() instanceof N.TransformStream);
  assert.ok(new ReadableStream().getReader() instanceof N.ReadableStreamDefaultReader);
  assert.ok(!(new WritableStream() instanceof N.ReadableStream));
  class Sub extends N.ReadableStream {}
  assert.ok(new Sub() instanceof Sub);
  assert.ok(!(new ReadableStream() instanceof Sub));
  assert.ok(!({} instanceof N.ReadableStream));
});

test('native streams still work after getting our prototype in their chain', T, async () => {
  const s = new N.ReadableStream({ start(c) { c.enqueue('a'); c.close(); } });
  assert.equal(s.locked, false);
  const chunks = [];
  for await (const c of s) chunks.push(c);
  assert.deepEqual(chunks, ['a']);
  // Node 20/22 assign these symbols on each native instance: must not throw.
  assert.equal(typeof new N.ReadableStream()[Symbol.for('nodejs.webstream.isClosedPromise')], 'object');
});
