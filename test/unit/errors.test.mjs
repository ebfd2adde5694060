// Bad input gets an error of the right type whose message names what is wrong
// in Node's words (the argument or property as Node names it, the value as
// Node shows it); test/errors/ compares every site's text with native Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ReadableStream, WritableStream, TransformStream, CountQueuingStrategy, ByteLengthQueuingStrategy,
  ReadableStreamDefaultReader, WritableStreamDefaultWriter, ReadableStreamDefaultController,
} from 'fast-webstreams';

const mentions = (type, ...words) => (error) => {
  assert.ok(error instanceof type, `expected ${type.name}, got ${error?.constructor?.name}: ${error?.message}`);
  for (const word of words) assert.ok(error.message.includes(word), `message ${JSON.stringify(error.message)} should mention ${word}`);
  return true;
};

test('constructor arguments', () => {
  assert.throws(() => new ReadableStream(5), mentions(TypeError, 'The "source" argument must be of type object', 'type number (5)'));
  assert.throws(() => new ReadableStream(null), mentions(TypeError, '"source"', 'Received null'));
  assert.throws(() => new ReadableStream({ pull: 5 }), mentions(TypeError, 'The "source.pull" property must be of type function'));
  assert.throws(() => new ReadableStream({ type: 'nope' }), mentions(TypeError, "The property 'source.type' is invalid", "'nope'"));
  assert.throws(() => new ReadableStream({ type: 'bytes', autoAllocateChunkSize: 0 }),
    mentions(TypeError, "'source.autoAllocateChunkSize'", 'Received 0'));
  assert.throws(() => new ReadableStream({}, { highWaterMark: -1 }), mentions(RangeError, "'strategy.highWaterMark'", 'Received -1'));
  assert.throws(() => new ReadableStream({}, { size: 'big' }), mentions(TypeError, '"strategy.size"', "type string ('big')"));
  assert.throws(() => new ReadableStream({ type: 'bytes' }, { size() { return 1; } }),
    mentions(RangeError, "'strategy.size'", '[Function: size]'));
  assert.throws(() => new WritableStream({ write: {} }), mentions(TypeError, '"sink.write"', 'an instance of Object'));
  assert.throws(() => new WritableStream({ type: 'bytes' }), mentions(RangeError, "The argument 'type' is invalid"));
  assert.throws(() => new TransformStream({ transform: 1 }), mentions(TypeError, '"transformer.transform"'));
  assert.throws(() => new TransformStream({ readableType: 'bytes' }), mentions(RangeError, "'transformer.readableType'"));
  assert.throws(() => new TransformStream({}, { highWaterMark: NaN }), mentions(RangeError, "'strategy.highWaterMark'", 'NaN'));
  assert.throws(() => new CountQueuingStrategy(), mentions(TypeError, 'The "init" argument must be of type object'));
  assert.throws(() => new ByteLengthQueuingStrategy({}), mentions(TypeError, 'init.highWaterMark is required'));
});

test('methods name the argument or state at fault', async () => {
  const rs = new ReadableStream();
  assert.throws(() => rs.getReader({ mode: 'fast' }), mentions(TypeError, "'options.mode'", "'fast'"));
  await assert.rejects(rs.pipeTo({}), mentions(TypeError, 'an instance of WritableStream', 'an instance of Object'));
  await assert.rejects(rs.pipeTo(new WritableStream(), { signal: {} }), mentions(TypeError, '"options.signal"', 'AbortSignal'));
  assert.throws(() => rs.pipeThrough({ readable: rs }), mentions(TypeError, '"transform.writable"', 'Received undefined'));
  assert.throws(() => new ReadableStreamDefaultReader({}), mentions(TypeError, '"stream"', 'an instance of ReadableStream'));
  assert.throws(() => new WritableStreamDefaultWriter(rs), mentions(TypeError, '"stream"', 'an instance of WritableStream'));
  rs.getReader();
  assert.throws(() => rs.getReader(), mentions(TypeError, 'Invalid state: ReadableStream is locked'));
  await assert.rejects(rs.cancel(), mentions(TypeError, 'Invalid state: ReadableStream is locked'));
  assert.throws(() => ReadableStream.from(42), mentions(TypeError, '42 must be iterable'));
});

test('brand checks: methods on the wrong object say which interface they need', async () => {
  const fake = Object.create(ReadableStream.prototype);
  assert.throws(() => fake.getReader(), mentions(TypeError, 'Value of "this" must be of type ReadableStream'));
  assert.throws(() => Reflect.get(ReadableStream.prototype, 'locked', {}), mentions(TypeError, 'ReadableStream'));
  await assert.rejects(ReadableStream.prototype.cancel.call({}), mentions(TypeError, 'ReadableStream'));
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
