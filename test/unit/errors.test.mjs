// Bad input gets an error of the right type whose message names what is wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ReadableStream, WritableStream, TransformStream, CountQueuingStrategy, ByteLengthQueuingStrategy,
  ReadableStreamDefaultReader, WritableStreamDefaultWriter, ReadableStreamDefaultController,
} from 'fast-webstreams';

const mentions = (type, ...words) => (error) => {
  assert.ok(error instanceof type, `expected ${type.name}, got ${error?.constructor?.name}: ${error?.message}`);
  for (const word of words) assert.match(error.message, new RegExp(word), `message should mention ${word}`);
  return true;
};

test('constructor arguments', () => {
  assert.throws(() => new ReadableStream(5), mentions(TypeError, 'underlyingSource'));
  assert.throws(() => new ReadableStream(null), mentions(TypeError, 'underlyingSource'));
  assert.throws(() => new ReadableStream({ pull: 5 }), mentions(TypeError, "'pull'", 'UnderlyingSource'));
  assert.throws(() => new ReadableStream({ type: 'nope' }), mentions(TypeError, "'type'", 'nope'));
  assert.throws(() => new ReadableStream({ type: 'bytes', autoAllocateChunkSize: 0 }),
    mentions(TypeError, 'autoAllocateChunkSize'));
  assert.throws(() => new ReadableStream({}, { highWaterMark: -1 }), mentions(RangeError, 'highWaterMark'));
  assert.throws(() => new ReadableStream({}, { size: 'big' }), mentions(TypeError, "'size'", 'strategy'));
  assert.throws(() => new ReadableStream({ type: 'bytes' }, { size() { return 1; } }), mentions(RangeError, 'size'));
  assert.throws(() => new WritableStream({ write: {} }), mentions(TypeError, "'write'", 'UnderlyingSink'));
  assert.throws(() => new WritableStream({ type: 'bytes' }), mentions(RangeError, "'type'"));
  assert.throws(() => new TransformStream({ transform: 1 }), mentions(TypeError, "'transform'", 'Transformer'));
  assert.throws(() => new TransformStream({ readableType: 'bytes' }), mentions(RangeError, 'readableType'));
  assert.throws(() => new TransformStream({}, { highWaterMark: NaN }), mentions(RangeError, 'highWaterMark'));
  assert.throws(() => new CountQueuingStrategy(), mentions(TypeError, 'CountQueuingStrategy'));
  assert.throws(() => new ByteLengthQueuingStrategy({}), mentions(TypeError, 'highWaterMark'));
});

test('methods name the argument or state at fault', async () => {
  const rs = new ReadableStream();
  assert.throws(() => rs.getReader({ mode: 'fast' }), mentions(TypeError, "'mode'", 'fast'));
  await assert.rejects(rs.pipeTo({}), mentions(TypeError, 'argument 1', 'WritableStream'));
  await assert.rejects(rs.pipeTo(new WritableStream(), { signal: {} }), mentions(TypeError, "'signal'", 'AbortSignal'));
  assert.throws(() => rs.pipeThrough({ readable: rs }), mentions(TypeError, "'writable'"));
  assert.throws(() => new ReadableStreamDefaultReader({}), mentions(TypeError, 'argument 1', 'ReadableStream'));
  assert.throws(() => new WritableStreamDefaultWriter(rs), mentions(TypeError, 'argument 1', 'WritableStream'));
  rs.getReader();
  assert.throws(() => rs.getReader(), mentions(TypeError, 'locked'));
  await assert.rejects(rs.cancel(), mentions(TypeError, 'locked'));
  assert.throws(() => ReadableStream.from(42), mentions(TypeError, 'iterable'));
});

test('brand checks: methods on the wrong object say which interface they need', async () => {
  const fake = Object.create(ReadableStream.prototype);
  assert.throws(() => fake.getReader(), mentions(TypeError, 'ReadableStream', 'getReader'));
  assert.throws(() => Reflect.get(ReadableStream.prototype, 'locked', {}), mentions(TypeError, 'locked'));
  await assert.rejects(ReadableStream.prototype.cancel.call({}), mentions(TypeError, 'cancel'));
  assert.throws(() => new ReadableStreamDefaultController(), mentions(TypeError, 'Illegal constructor'));
});

test('a broken underlying source errors the stream with its own error and loses no chunk', async () => {
  const boom = new Error('boom');
  let calls = 0;
  const rs = new ReadableStream({
    pull(c) {
      calls++;
      if (calls === 3) throw boom;
      c.enqueue(calls);
    },
  }, { highWaterMark: 0 });
  const reader = rs.getReader();
  assert.deepEqual(await reader.read(), { value: 1, done: false });
  assert.deepEqual(await reader.read(), { value: 2, done: false });
  await assert.rejects(reader.read(), (e) => e === boom);
  await assert.rejects(reader.closed, (e) => e === boom);
});
