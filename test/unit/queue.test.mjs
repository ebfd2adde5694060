// Every controller starts with one shared empty queue (src/queue.js) and takes
// its own at its first enqueue. The shared one must stay empty whatever the
// streams around it do: a chunk written into it would appear in every stream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadableStream, WritableStream, TransformStream } from '../../src/index.js';
import { emptyQueue, emptyQueueWithSizes } from '../../src/queue.js';

function assertSharedQueueEmpty() {
  assert.equal(emptyQueueWithSizes.length, 0);
  assert.equal(emptyQueueWithSizes.totalSize, 0);
  assert.equal(emptyQueueWithSizes.sizes, undefined);
}

test('queued chunks, sizes, cancel and error leave the shared empty queue empty', async () => {
  // Readable: queue, read some, cancel with chunks queued; error with chunks queued.
  const rs = new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); } }, { highWaterMark: 4 });
  const reader = rs.getReader();
  assert.deepEqual(await reader.read(), { value: 'a', done: false });
  await reader.cancel('done');
  let controller;
  // eslint-disable-next-line no-new -- the stream is reached through its controller
  new ReadableStream({ start(c) { controller = c; } }, { size: (chunk) => chunk.length, highWaterMark: 8 });
  controller.enqueue('xyz');
  assert.equal(controller.desiredSize, 5);
  controller.error(new Error('boom'));
  assert.equal(controller.desiredSize, null);
  assert.throws(() => controller.enqueue('late'), TypeError);
  assertSharedQueueEmpty();

  // A fresh stream after all that starts empty.
  const fresh = new ReadableStream({ start(c) { controller = c; } }, { highWaterMark: 3 });
  assert.equal(controller.desiredSize, 3);
  controller.enqueue(1);
  assert.equal(controller.desiredSize, 2);
  assert.deepEqual(await fresh.getReader().read(), { value: 1, done: false });
  assertSharedQueueEmpty();
});

test('writes, a bad size, close and abort leave the shared empty queue empty', async () => {
  const written = [];
  const ws = new WritableStream({ write(chunk) { written.push(chunk); return new Promise((r) => setTimeout(r, 1)); } },
    { highWaterMark: 4 });
  const writer = ws.getWriter();
  const writes = [writer.write(1), writer.write(2), writer.write(3)];
  assert.equal(writer.desiredSize, 1); // the chunk in flight stays queued until its write is done
  await Promise.all(writes);
  await writer.close();
  assert.deepEqual(written, [1, 2, 3]);

  const sized = new WritableStream({}, { size() { return -1; } });
  const sizedWriter = sized.getWriter();
  await assert.rejects(sizedWriter.write('x'), RangeError);

  const aborted = new WritableStream({ write() { return new Promise(() => {}); } }, { highWaterMark: 4 });
  const abortedWriter = aborted.getWriter();
  abortedWriter.write('never').catch(() => {});
  abortedWriter.write('queued').catch(() => {});
  await abortedWriter.abort(new Error('stop'));
  assertSharedQueueEmpty();

  const fresh = new WritableStream({}, { highWaterMark: 2 });
  assert.equal(fresh.getWriter().desiredSize, 2);
});

test('a transform chain leaves the shared empty queue empty', async () => {
  const source = new ReadableStream({ start(c) { for (let i = 0; i < 10; i++) c.enqueue(i); c.close(); } });
  const out = [];
  await source
    .pipeThrough(new TransformStream({ transform(chunk, c) { c.enqueue(chunk * 2); } }))
    .pipeThrough(new TransformStream({ async transform(chunk, c) { await null; c.enqueue(chunk + 1); } }))
    .pipeTo(new WritableStream({ write(chunk) { out.push(chunk); } }));
  assert.deepEqual(out, [1, 3, 5, 7, 9, 11, 13, 15, 17, 19]);
  assertSharedQueueEmpty();
});

test('an item pushed onto either shared empty queue is refused (an internal error, loudly)', () => {
  assert.throws(() => emptyQueue.push('leak'), /shared empty queue/);
  assert.throws(() => emptyQueueWithSizes.enqueue('leak', 1), /shared empty queue/);
  assert.equal(emptyQueue.length, 0);
  assertSharedQueueEmpty();
});
