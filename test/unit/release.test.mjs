// Releasing a reader or a writer rejects its promises with a TypeError that is
// made only when someone looks (src/promise.js LazyTypeError). What a program
// can observe must not change: the error's class, one error shared by a
// writer's two promises, a fresh one per release, and no unhandled rejection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadableStream, WritableStream, TransformStream } from '../../src/index.js';

function trackUnhandled() {
  const seen = [];
  const onUnhandled = (reason) => seen.push(reason);
  process.on('unhandledRejection', onUnhandled);
  return async () => {
    await new Promise((resolve) => setImmediate(resolve));
    process.off('unhandledRejection', onUnhandled);
    return seen;
  };
}

test('a released reader: closed rejects with a TypeError, looked at before or after the release', async () => {
  const done = trackUnhandled();
  const early = new ReadableStream().getReader();
  const earlyClosed = early.closed; // made before the release
  early.releaseLock();
  await assert.rejects(earlyClosed, TypeError);

  const late = new ReadableStream().getReader();
  late.releaseLock();
  const closed = late.closed; // made after the release
  assert.equal(late.closed, closed, 'the same promise every time');
  const error = await closed.then(() => assert.fail('fulfilled'), (e) => e);
  assert.ok(error instanceof TypeError);
  assert.equal(await late.closed.catch((e) => e), error, 'the same error every time');
  assert.deepEqual(await done(), []);
});

test('a reader released after its stream closed gets a rejected closed promise', async () => {
  const stream = new ReadableStream({ start(c) { c.close(); } });
  const reader = stream.getReader();
  await reader.closed;
  reader.releaseLock();
  await assert.rejects(reader.closed, TypeError);
});

test('a pending read is rejected with a TypeError on release; none is needed without one', async () => {
  const reader = new ReadableStream().getReader();
  const read = reader.read();
  reader.releaseLock();
  await assert.rejects(read, TypeError);
  await assert.rejects(reader.read(), TypeError);
});

test('a released writer: ready and closed reject with one and the same TypeError', async () => {
  const done = trackUnhandled();
  for (const lookFirst of ['ready', 'closed', 'none']) {
    const writer = new WritableStream().getWriter();
    const before = lookFirst === 'none' ? undefined : writer[lookFirst];
    writer.releaseLock();
    const ready = await writer.ready.then(() => assert.fail('ready fulfilled'), (e) => e);
    const closed = await writer.closed.then(() => assert.fail('closed fulfilled'), (e) => e);
    assert.ok(ready instanceof TypeError, lookFirst);
    assert.equal(ready, closed, `one releasedError (${lookFirst} looked at first)`);
    // A ready promise already fulfilled is replaced; a pending closed promise is rejected.
    if (lookFirst === 'ready') assert.equal(await before, undefined);
    if (lookFirst === 'closed') assert.equal(await before.catch((e) => e), ready);
  }
  const a = new WritableStream().getWriter();
  const b = new WritableStream().getWriter();
  a.releaseLock();
  b.releaseLock();
  assert.notEqual(await a.closed.catch((e) => e), await b.closed.catch((e) => e), 'a new error per release');
  assert.deepEqual(await done(), []);
});

test('a writer released after its stream errored keeps rejecting with the release TypeError', async () => {
  const stream = new WritableStream({ start(c) { c.error(new Error('boom')); } });
  const writer = stream.getWriter();
  await assert.rejects(writer.closed, /boom/);
  writer.releaseLock();
  await assert.rejects(writer.closed, TypeError);
  await assert.rejects(writer.ready, TypeError);
});

test('a finished pipe leaves its released reader and writer rejecting with TypeErrors', async () => {
  const done = trackUnhandled();
  const source = new ReadableStream({ start(c) { c.enqueue('a'); c.close(); } });
  const chunks = [];
  const dest = new WritableStream({ write(c) { chunks.push(c); } });
  await source.pipeThrough(new TransformStream()).pipeTo(dest);
  assert.deepEqual(chunks, ['a']);
  assert.equal(source.locked, false);
  assert.equal(dest.locked, false);
  const writer = dest.getWriter();
  await writer.closed; // the destination closed; the pipe's writer is gone
  assert.deepEqual(await done(), []);
});
