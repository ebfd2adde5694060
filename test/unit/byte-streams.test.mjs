// Byte streams against Node's own classes: the argument checks of
// controller.enqueue() and the order of start/pull reactions relative to
// other microtasks, which the byte controller schedules without a closure
// per stream. Runs against our classes directly (no global patch).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as web from 'node:stream/web';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ReadableStream } from '../../src/index.js';

const impls = { ours: ReadableStream, native: web.ReadableStream };

function controllerOf(RS) {
  let controller;
  const stream = new RS({ type: 'bytes', start(c) { controller = c; } });
  return { stream, controller };
}

test('enqueue() accepts TypedArrays and DataViews at an offset, and detaches their buffer', async () => {
  const { stream, controller } = controllerOf(ReadableStream);
  const reader = stream.getReader();
  const u16 = new Uint16Array([1, 2, 3, 4]).subarray(1, 3);
  controller.enqueue(u16);
  assert.equal(u16.byteLength, 0);
  assert.equal(u16.buffer.byteLength, 0);
  const first = await reader.read();
  assert.deepEqual([...first.value], [2, 0, 3, 0]);
  assert.equal(first.value.byteOffset, 2);
  const dv = new DataView(new Uint8Array([9, 8, 7, 6]).buffer, 1, 2);
  const buffer = dv.buffer;
  controller.enqueue(dv);
  assert.equal(buffer.byteLength, 0);
  const second = await reader.read();
  assert.ok(second.value instanceof Uint8Array);
  assert.deepEqual([...second.value], [8, 7]);
});

test('enqueue() throws TypeErrors for what it must refuse, as Node does', () => {
  const shared = typeof SharedArrayBuffer === 'function' ? new Uint8Array(new SharedArrayBuffer(4)) : null;
  const resizable = new ArrayBuffer(4, { maxByteLength: 8 });
  const detachedView = () => {
    const v = new Uint8Array(4);
    structuredClone(v.buffer, { transfer: [v.buffer] });
    return v;
  };
  const detachedDataView = () => {
    const b = new ArrayBuffer(4);
    const v = new DataView(b);
    structuredClone(b, { transfer: [b] });
    return v;
  };
  const cases = {
    'not a view': () => ({}),
    'an ArrayBuffer': () => new ArrayBuffer(4),
    'an empty view': () => new Uint8Array(0),
    'an empty view of a non-empty buffer': () => new Uint8Array(new ArrayBuffer(4), 4),
    'a detached TypedArray': detachedView,
    'a detached DataView': detachedDataView,
    ...(shared ? { 'a view of a SharedArrayBuffer': () => shared } : {}),
  };
  for (const [name, make] of Object.entries(cases)) {
    for (const [impl, RS] of Object.entries(impls)) {
      const { controller } = controllerOf(RS);
      assert.throws(() => controller.enqueue(make()), TypeError, `${impl}: ${name}`);
    }
  }
  // WebIDL's ArrayBufferView excludes resizable buffers ([AllowResizable] is
  // absent); Node accepts them, so only ours is checked.
  if (resizable.resizable) {
    const { controller } = controllerOf(ReadableStream);
    const view = new Uint8Array(resizable);
    assert.throws(() => controller.enqueue(view), TypeError);
    assert.equal(view.byteLength, 4);
  }
});

test('enqueue() after close() or on an errored stream throws, and the chunk keeps its buffer', () => {
  for (const RS of Object.values(impls)) {
    const { controller } = controllerOf(RS);
    controller.close();
    const chunk = new Uint8Array(4);
    assert.throws(() => controller.enqueue(chunk), TypeError);
    assert.equal(chunk.byteLength, 4);
    const errored = controllerOf(RS);
    errored.controller.error(new Error('x'));
    assert.throws(() => errored.controller.enqueue(chunk), TypeError);
    assert.equal(chunk.byteLength, 4);
  }
});

test('enqueue() refuses a buffer that cannot be detached and leaves it attached', () => {
  const memory = new WebAssembly.Memory({ initial: 1 });
  const { controller } = controllerOf(ReadableStream);
  assert.throws(() => controller.enqueue(new Uint8Array(memory.buffer, 0, 16)), TypeError);
  assert.equal(memory.buffer.byteLength, 65536);
  const chunk = new Uint8Array([1, 2, 3]);
  controller.enqueue(chunk);
  assert.equal(chunk.byteLength, 0);
});

test('detaching chunks prints no deprecation warning, also under --pending-deprecation', () => {
  // On Node 20 (no ArrayBuffer.prototype.transfer) byte streams detach through
  // the buffer binding unless process.binding would warn.
  const index = fileURLToPath(new URL('../../src/index.js', import.meta.url));
  const code = `const { ReadableStream } = await import(${JSON.stringify(index)});
    let c; const s = new ReadableStream({ type: 'bytes', start(x) { c = x; } });
    const u = new Uint8Array(8); c.enqueue(u);
    if (u.byteLength !== 0) throw new Error('not detached');
    const { value } = await s.getReader().read();
    if (value.byteLength !== 8) throw new Error('lost bytes');`;
  for (const flags of [[], ['--pending-deprecation']]) {
    const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', code], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /Deprecation|DEP0/, `${flags.join(' ')}: ${r.stderr}`);
  }
});

// Start and pull reactions of several streams, interleaved with other
// microtasks: the order must be the one each stream's own promise reaction
// would give (sources that return synchronously, where Node follows the spec).
async function reactionOrder(RS) {
  const log = [];
  const tick = (label) => Promise.resolve().then(() => log.push(label));
  const make = (name, hwm) => new RS({
    type: 'bytes',
    start() { log.push(`start ${name}`); },
    pull(c) {
      log.push(`pull ${name}`);
      if (name === 'b' && log.filter((l) => l === 'pull b').length === 1) c.enqueue(new Uint8Array(1));
    },
  }, { highWaterMark: hwm });
  make('a', 1);
  tick('m1');
  const b = make('b', 2);
  tick('m2');
  const c = make('c', 0);
  const read = c.getReader().read();
  tick('m3');
  for (let i = 0; i < 10; i++) await null;
  const reader = b.getReader();
  await reader.read();
  tick('m4');
  for (let i = 0; i < 10; i++) await null;
  void read;
  return log;
}

test('start and pull reactions run in the same microtask order as Node', async () => {
  const ours = await reactionOrder(impls.ours);
  const native = await reactionOrder(impls.native);
  assert.deepEqual(ours, native);
  assert.ok(ours.includes('pull c'), ours.join(', '));
});
