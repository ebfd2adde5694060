// What arrives after a pipe or a tee has ended its part: a chunk that reaches
// a pipe after its shutdown released the writer, a BYOB read's chunk that
// reaches a tee branch the source's pull() errored meanwhile. Nothing may
// escape as an unhandled rejection (each was one, found by the differential
// fuzzer, test/fuzz/; native Node has none in the first case).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadableStream, TransformStream } from '../../src/index.js';

function trackUnhandled() {
  const seen = [];
  const onUnhandled = (reason) => seen.push(reason);
  process.on('unhandledRejection', onUnhandled);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.off('unhandledRejection', onUnhandled);
    return seen;
  };
}

test('a chunk enqueued after an aborted pipe into an errored transform is dropped (fuzz seed 87675)', async () => {
  const done = trackUnhandled();
  let source;
  let transform;
  const r0 = new ReadableStream({ start(c) { source = c; } });
  const failure = new Error('size');
  let sized = 0;
  const t1 = new TransformStream({ start(c) { transform = c; c.enqueue('e'); } }, undefined, {
    highWaterMark: 1,
    size() {
      if (sized++ === 1) throw failure;
      return 1;
    },
  });
  const ac = new AbortController();
  t1.readable.getReader().closed.catch(() => {});
  r0.pipeThrough(t1, { preventAbort: true, preventCancel: true, signal: ac.signal });
  assert.throws(() => transform.enqueue('f'), (e) => e === failure); // errors the transform, the pipe's destination
  ac.abort();
  source.enqueue('g'); // reaches the pipe's read: the shutdown had not waited for writes
  assert.deepEqual(await done(), []);
  assert.equal(r0.locked, false, 'the pipe released the source');
});

test('a BYOB read into a tee whose source errored in its pull() meets an errored branch, and nothing escapes (fuzz seed 72837)', async () => {
  const done = trackUnhandled();
  let source;
  const failure = new Error('pull');
  const r0 = new ReadableStream({
    type: 'bytes',
    start(c) { source = c; c.enqueue(new Uint8Array([1, 2])); },
    pull(c) {
      c.error(failure);
      throw new Error('thrown after error()');
    },
  }, { highWaterMark: 1 });
  const [r1, r2] = r0.tee();
  const reader = r1.getReader({ mode: 'byob' });
  await null;
  const [r4] = r2.tee();
  await new Promise((resolve) => setTimeout(resolve, 0));
  const cancelled = r4.cancel(new Error('cancel'));
  for (let i = 0; i < 5; i++) await null;
  source.enqueue(new Uint8Array([3, 4]));
  const reads = [reader.read(new Uint8Array(6), { min: 4 }), reader.read(new Uint8Array(2))];
  for (const read of reads) await assert.rejects(read, (e) => e === failure);
  await cancelled;
  assert.deepEqual(await done(), []);
});
