// ReadableStream.from() over a sync iterable: Node 20/22 go through
// ECMAScript's CreateAsyncFromSyncIterator, whose continuation takes
// PromiseResolve(%Promise%, value), so an item that is already a native
// promise reaches the reader in as many microtask turns as a plain item
// does; Node 24+ waits for an object item in a reaction of its own, a turn
// more. Ours keeps the running Node's turns (src/node-pace.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadableStream } from '../../src/index.js';

const NativeReadableStream = globalThis.ReadableStream;

async function turnsPerRead(ReadableStreamClass, items) {
  let turn = 0;
  let stop = false;
  (async () => { while (!stop) { await null; turn++; } })();
  const reader = ReadableStreamClass.from(items).getReader();
  const turns = [];
  for (let i = 0; i < items.length; i++) {
    const before = turn;
    await reader.read();
    turns.push(turn - before);
  }
  stop = true;
  return turns;
}

test('from() reads plain and promise items in the turns Node\'s does', async () => {
  for (const items of [['a', 'b', 'c'], ['a', Promise.resolve('b'), Promise.resolve('c')]]) {
    assert.deepEqual(await turnsPerRead(ReadableStream, items), await turnsPerRead(NativeReadableStream, items));
  }
});

test('from() still waits for a promise item and reads its value', async () => {
  const reader = ReadableStream.from([new Promise((r) => setTimeout(() => r('late'), 5)), 'next']).getReader();
  assert.deepEqual(await reader.read(), { done: false, value: 'late' });
  assert.deepEqual(await reader.read(), { done: false, value: 'next' });
});
