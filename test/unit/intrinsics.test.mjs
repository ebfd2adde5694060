// User code that patches built-ins after we load cannot change how streams behave.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadableStream, WritableStream, TransformStream } from 'fast-webstreams';

async function roundTrip() {
  const out = [];
  await new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); } })
    .pipeThrough(new TransformStream({ transform(chunk, c) { c.enqueue(chunk + '!'); } }))
    .pipeTo(new WritableStream({ write(chunk) { out.push(chunk); } }));
  return out;
}

test('a patched Promise.prototype.then is never called by our internals', async (t) => {
  const originalThen = Promise.prototype.then;
  let intercepted = 0;
  t.after(() => { Promise.prototype.then = originalThen; });
  Promise.prototype.then = function (...args) {
    intercepted++;
    return Reflect.apply(originalThen, this, args);
  };
  // Nothing here hands a promise to user code or resolves one with a thenable,
  // so the spec never looks `then` up: every reaction is internal.
  const out = [];
  let n = 0;
  const rs = new ReadableStream({ pull(c) { c.enqueue(n++); if (n > 4) c.close(); } });
  await rs.pipeTo(new WritableStream({ write(chunk) { out.push(chunk); } }));
  const reader = new ReadableStream({ start(c) { c.enqueue('r'); c.close(); } }).getReader();
  const read = await reader.read();
  Promise.prototype.then = originalThen;
  assert.deepEqual(out, [0, 1, 2, 3, 4]);
  assert.deepEqual(read, { value: 'r', done: false });
  assert.equal(intercepted, 0, 'no internal step went through the patched then');
});

test('a patched Function.prototype.call and apply do not break piping', async (t) => {
  const { call, apply } = Function.prototype;
  t.after(() => {
    Function.prototype.call = call;
    Function.prototype.apply = apply;
  });
  Function.prototype.call = function () { throw new Error('call was used'); };
  Function.prototype.apply = function () { throw new Error('apply was used'); };
  const result = roundTrip();
  Function.prototype.call = call;
  Function.prototype.apply = apply;
  assert.deepEqual(await result, ['a!', 'b!']);
});

test('patched Array.prototype methods and Symbol.iterator on arrays do not break tee', async (t) => {
  const { push, shift } = Array.prototype;
  t.after(() => {
    Array.prototype.push = push;
    Array.prototype.shift = shift;
  });
  Array.prototype.push = function () { throw new Error('push was used'); };
  Array.prototype.shift = function () { throw new Error('shift was used'); };
  const [a, b] = new ReadableStream({ start(c) { c.enqueue('x'); c.close(); } }).tee();
  const ra = a.getReader();
  const rb = b.getReader();
  const results = Promise.all([ra.read(), rb.read()]);
  Array.prototype.push = push;
  Array.prototype.shift = shift;
  assert.deepEqual((await results).map((r) => r.value), ['x', 'x']);
});

test('byte streams are ours and work on every supported Node (no ArrayBuffer.prototype.transfer needed)', async () => {
  let controller;
  const rs = new ReadableStream({ type: 'bytes', start(c) { controller = c; } });
  assert.equal(rs.constructor, ReadableStream);
  const reader = rs.getReader({ mode: 'byob' });
  const read = reader.read(new Uint8Array(4));
  controller.enqueue(new Uint8Array([1, 2, 3]));
  const { value, done } = await read;
  assert.equal(done, false);
  assert.deepEqual([...value], [1, 2, 3]);
});

test('pull, write and transform get exactly their arguments and their object as this, whatever their own call is', async () => {
  const seen = [];
  const record = (name) => function (...args) {
    seen.push([name, args.length, this]);
    if (name === 'transform') args[1].enqueue(args[0]);
    if (name === 'pull') { args[0].enqueue('x'); args[0].close(); }
  };
  const callbacks = ['pull', 'write', 'transform'].map((name) => {
    const fn = record(name);
    fn.call = () => { throw new Error(`${name}'s own call was used`); }; // the spec calls it directly
    return fn;
  });
  const source = { pull: callbacks[0] };
  const sink = { write: callbacks[1] };
  const transformer = { transform: callbacks[2] };
  await new ReadableStream(source).pipeThrough(new TransformStream(transformer)).pipeTo(new WritableStream(sink));
  assert.deepEqual(seen.map(([name, count]) => [name, count]), [['pull', 1], ['transform', 2], ['write', 2]]);
  assert.equal(seen[0][2], source);
  assert.equal(seen[1][2], transformer);
  assert.equal(seen[2][2], sink);
});
