// Node's own stream producers and transforms next to ours: Blob, FileHandle,
// Compression/Decompression/TextEncoder/TextDecoder streams in every position of
// a chain, and transfer (structuredClone, worker postMessage).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { open, writeFile, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { fast, N, T, TIER, assertPatched, enc, dec, oursFrom, oursSink, readAll } from './helpers.mjs';

test('the patch is active', T, () => assertPatched());

const ourUpper = () => new TransformStream({
  transform(c, ctl) { ctl.enqueue(typeof c === 'string' ? c.toUpperCase() : enc(dec([c]).toUpperCase())); },
});

test('Blob.prototype.stream() piped into ours and through ours', T, async () => {
  const sink = oursSink();
  await new Blob(['blob ', 'data']).stream().pipeTo(sink.stream);
  assert.equal(dec(sink.chunks), 'blob data');
  const out = await readAll(new Blob(['abc']).stream().pipeThrough(ourUpper()));
  assert.equal(dec(out), 'ABC');
});

test("a native pipe into ours writes directly while ours is idle; a sink's promise or throw still settles it", TIER, async () => {
  const chunks = () => { let i = 0; return new N.ReadableStream({ pull(c) { if (i < 4) c.enqueue(i++); else c.close(); } }); };
  const before = fast.getCounters();
  const seen = [];
  await chunks().pipeTo(new WritableStream({ write(c) { seen.push(c); } }));
  assert.deepEqual(seen, [0, 1, 2, 3]);
  const counted = fast.getCounters();
  assert.equal(counted.syncWrites - before.syncWrites, 4, 'each chunk written directly');
  assert.equal(counted.specWrites - before.specWrites, 0);
  // A write() that returns a promise stays in flight: the native pipe waits for it.
  const order = [];
  await chunks().pipeTo(new WritableStream({
    async write(c) {
      order.push(`start ${c}`);
      await new Promise((r) => setTimeout(r, 1));
      order.push(`end ${c}`);
    },
  }));
  assert.deepEqual(order, ['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  // A write() that throws errors the pipe with its error, and our stream too.
  const boom = new Error('boom');
  const failing = new WritableStream({ write(c) { if (c === 2) throw boom; } });
  await assert.rejects(chunks().pipeTo(failing), (e) => e === boom);
  await assert.rejects(failing.getWriter().closed, (e) => e === boom);
  // Through our transform, whose output is read: the chunks arrive in order.
  const out = await readAll(chunks().pipeThrough(new TransformStream({ transform(c, k) { k.enqueue(c * 10); } })));
  assert.deepEqual(out, [0, 10, 20, 30]);
});

// Node 20 closes the FileHandle itself at the end of its stream, and Node 22 before 22.15 when the stream
// is cancelled; a second close() aborts the process there (natively too).
const [major, minor] = process.versions.node.split('.').map(Number);
const closedAtEnd = major === 20;
const closedAtCancel = major === 20 || (major === 22 && minor < 15);

test('FileHandle.readableWebStream() piped through ours, and cancelled mid-file', T, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'fws-'));
  const file = join(dir, 'f.txt');
  await writeFile(file, 'x'.repeat(200000));
  const fh = await open(file);
  try {
    const sink = oursSink();
    await fh.readableWebStream().pipeThrough(new TransformStream()).pipeTo(sink.stream);
    assert.equal(sink.chunks.reduce((n, c) => n + c.byteLength, 0), 200000);
  } finally {
    if (!closedAtEnd) await fh.close();
  }
  const fh2 = await open(file);
  try {
    const failing = oursSink({ failOn: 1 });
    await assert.rejects(fh2.readableWebStream().pipeTo(failing.stream), /sink failed/);
  } finally {
    if (!closedAtCancel) await fh2.close();
  }
});

test('CompressionStream / DecompressionStream: source side, middle, sink side', T, async () => {
  const text = 'compress me '.repeat(100);
  // middle: ours -> native -> native -> ours
  const middle = await readAll(oursFrom([text]).pipeThrough(new CompressionStream('gzip'))
    .pipeThrough(new DecompressionStream('gzip')).pipeThrough(ourUpper()));
  assert.equal(dec(middle), text.toUpperCase());
  // source side: a native compressed stream read through ours
  const zipped = new Blob([text]).stream().pipeThrough(new CompressionStream('deflate'));
  const sourceSide = await readAll(zipped.pipeThrough(new TransformStream()).pipeThrough(new DecompressionStream('deflate')));
  assert.equal(dec(sourceSide), text);
  // sink side: ours -> our transform -> native compression at the end
  const sinkSide = await new Response(oursFrom([text]).pipeThrough(ourUpper())
    .pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
  const back = await new Response(new Blob([sinkSide]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
  assert.equal(back, text.toUpperCase());
});

test('gzip round trip with our transform in the middle, and corrupt input errors the chain', T, async () => {
  const out = await readAll(oursFrom(['round ', 'trip']).pipeThrough(new CompressionStream('gzip'))
    .pipeThrough(new TransformStream()).pipeThrough(new DecompressionStream('gzip')));
  assert.equal(dec(out), 'round trip');
  await assert.rejects(readAll(oursFrom(['not gzip at all']).pipeThrough(new DecompressionStream('gzip'))));
});

test('TextEncoderStream / TextDecoderStream in every position', T, async () => {
  const strings = () => ReadableStream.from(['é', 'tude']);
  assert.equal((await readAll(strings().pipeThrough(new TextEncoderStream()).pipeThrough(new TextDecoderStream()))).join(''), 'étude');
  assert.equal((await readAll(strings().pipeThrough(new TextEncoderStream()).pipeThrough(ourUpper())
    .pipeThrough(new TextDecoderStream()))).join(''), 'ÉTUDE');
  const native = new N.ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); } });
  assert.equal((await readAll(native.pipeThrough(ourUpper()).pipeThrough(new TextEncoderStream())
    .pipeThrough(new TextDecoderStream()))).join(''), 'AB');
  // fatal decoding error in the middle of a chain
  await assert.rejects(readAll(new fast.ReadableStream({
    start(c) { c.enqueue(new Uint8Array([0xff, 0xfe])); c.close(); },
  }).pipeThrough(new TextDecoderStream('utf-8', { fatal: true })).pipeThrough(ourUpper())), TypeError);
});

test('cancelling the end of a mixed chain reaches our source', T, async () => {
  // Chunks gzip cannot shrink much, so the first decoded text comes out after
  // a few chunks (a few tiny ones would take megabytes, and seconds on a busy machine).
  const state = { cancelled: false };
  const text = new Uint8Array(64 * 1024);
  let seed = 1;
  for (let i = 0; i < text.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    text[i] = 97 + (seed >>> 16) % 26;
  }
  const stream = new fast.ReadableStream({
    pull(c) { c.enqueue(text.slice()); },
    cancel() { state.cancelled = true; },
  }, { highWaterMark: 0 });
  const reader = stream.pipeThrough(new CompressionStream('gzip')).pipeThrough(new DecompressionStream('gzip'))
    .pipeThrough(new TextDecoderStream()).getReader();
  await reader.read();
  await reader.cancel('stop');
  for (let i = 0; i < 50 && !state.cancelled; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.equal(state.cancelled, true);
});

test('structuredClone(ours, { transfer: [ours] }) for readable, writable and transform', T, async () => {
  const r = oursFrom(['trans', 'fer']);
  const moved = structuredClone(r, { transfer: [r] });
  assert.equal(r.locked, true);
  assert.equal(dec(await readAll(moved)), 'transfer');
  const sink = oursSink();
  const w = structuredClone(sink.stream, { transfer: [sink.stream] });
  const writer = w.getWriter();
  await writer.write('w');
  await writer.close();
  for (let i = 0; i < 100 && !sink.state.closed; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.deepEqual(sink.chunks, ['w']);
  assert.equal(sink.state.closed, true);
  const t = new TransformStream();
  const tt = structuredClone(t, { transfer: [t] });
  const tw = tt.writable.getWriter();
  tw.write('t');
  tw.close();
  assert.deepEqual(await readAll(tt.readable), ['t']);
  const locked = oursFrom(['x']);
  locked.getReader();
  assert.throws(() => structuredClone(locked, { transfer: [locked] }), { name: 'DataCloneError' });
});

test('postMessage of our stream to a worker, and an error mid-stream crossing it', T, async () => {
  const worker = new Worker(`
    const { parentPort } = require('node:worker_threads');
    parentPort.on('message', async (stream) => {
      const chunks = [];
      try {
        for await (const c of stream) chunks.push(Buffer.from(c).toString());
        parentPort.postMessage({ ok: chunks.join('') });
      } catch (e) {
        parentPort.postMessage({ error: String(e && e.message), got: chunks.join('') });
      }
    });`, { eval: true });
  try {
    const next = () => new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    const s = oursFrom(['to ', 'worker']);
    worker.postMessage(s, [s]);
    assert.deepEqual(await next(), { ok: 'to worker' });
    const failing = oursFrom(['part'], { error: new Error('worker boom') });
    worker.postMessage(failing, [failing]);
    const result = await next();
    assert.equal(result.got, 'part');
    assert.ok(result.error, 'the error crosses the port');
  } finally {
    await worker.terminate();
  }
});
