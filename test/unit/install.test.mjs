// install()/uninstall(): the global patch replaces exactly what it says and
// puts every original back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fast from 'fast-webstreams';

const NAMES = [
  'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest',
  'ReadableStreamDefaultController', 'ReadableByteStreamController', 'WritableStream',
  'WritableStreamDefaultWriter', 'WritableStreamDefaultController', 'TransformStream',
  'TransformStreamDefaultController', 'ByteLengthQueuingStrategy', 'CountQueuingStrategy',
];

function snapshot() {
  const out = {};
  for (const name of NAMES) out[name] = Object.getOwnPropertyDescriptor(globalThis, name);
  out.structuredClone = Object.getOwnPropertyDescriptor(globalThis, 'structuredClone');
  out.postMessage = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'postMessage');
  return out;
}

test('install replaces every stream global with our class', (t) => {
  t.after(() => fast.uninstall());
  assert.equal(fast.install(), true);
  for (const name of NAMES) {
    assert.equal(globalThis[name], fast[name], `${name} should be ours`);
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    assert.equal(d.enumerable, false, `${name} stays non-enumerable like Node's`);
    assert.equal(d.configurable, true);
  }
  assert.equal(fast.isInstalled(), true);
});

test('install twice is harmless and uninstall restores the exact original descriptors', () => {
  const before = snapshot();
  fast.install();
  assert.equal(fast.install(), false, 'second install reports it did nothing');
  assert.notDeepEqual(snapshot().ReadableStream, before.ReadableStream);
  assert.equal(fast.uninstall(), true);
  assert.equal(fast.uninstall(), false, 'second uninstall reports it did nothing');
  const after = snapshot();
  for (const key of Object.keys(before)) {
    assert.deepEqual(after[key], before[key], `${key} restored`);
  }
  assert.equal(fast.isInstalled(), false);
  assert.notEqual(globalThis.ReadableStream, fast.ReadableStream);
});

test('install/uninstall round-trips many times', () => {
  const before = snapshot();
  for (let i = 0; i < 5; i++) {
    fast.install();
    assert.equal(globalThis.WritableStream, fast.WritableStream);
    fast.uninstall();
  }
  assert.deepEqual(snapshot(), before);
});

test('nativeClasses() returns Node\'s classes, not ours, even while installed', (t) => {
  t.after(() => fast.uninstall());
  const nativeBefore = fast.nativeClasses();
  fast.install();
  const native = fast.nativeClasses();
  assert.equal(native.ReadableStream, nativeBefore.ReadableStream);
  assert.notEqual(native.ReadableStream, fast.ReadableStream);
  assert.equal(typeof new native.ReadableStream().getReader, 'function');
});

test('streams created while patched keep working after uninstall, and vice versa', async () => {
  fast.install();
  const made = new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); c.close(); } });
  const writtenWhilePatched = [];
  const sink = new WritableStream({ write(chunk) { writtenWhilePatched.push(chunk); } });
  fast.uninstall();
  assert.ok(made instanceof fast.ReadableStream);
  await made.pipeTo(sink);
  assert.deepEqual(writtenWhilePatched, ['a', 'b']);

  const nativeMade = new ReadableStream({ start(c) { c.enqueue(1); c.close(); } });
  fast.install();
  const chunks = [];
  for await (const chunk of nativeMade) chunks.push(chunk);
  assert.deepEqual(chunks, [1]);
  const ours = new ReadableStream({ start(c) { c.enqueue(2); c.close(); } });
  fast.uninstall();
  const reader = ours.getReader();
  assert.deepEqual(await reader.read(), { value: 2, done: false });
  assert.deepEqual(await reader.read(), { value: undefined, done: true });
});

test('the transfer patch is active only while installed', async (t) => {
  t.after(() => fast.uninstall());
  const rs = new fast.ReadableStream({ start(c) { c.enqueue('x'); c.close(); } });
  assert.throws(() => structuredClone(rs, { transfer: [rs] }), /transfer/i);
  fast.install();
  const copy = structuredClone(rs, { transfer: [rs] });
  assert.equal(rs.locked, true, 'transferring locks the original');
  assert.deepEqual(await copy.getReader().read(), { value: 'x', done: false });
});
