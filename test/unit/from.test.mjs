// ReadableStream.from() over a sync iterable goes through ECMAScript's
// CreateAsyncFromSyncIterator, whose continuation takes PromiseResolve(%Promise%,
// value): an item that is already a native promise is used as it is, so it
// reaches the reader in as many microtask turns as a plain item does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadableStream } from '../../src/index.js';

async function turnsPerRead(items) {
  let turn = 0;
  let stop = false;
  (async () => { while (!stop) { await null; turn++; } })();
  const reader = ReadableStream.from(items).getReader();
  const turns = [];
  for (let i = 0; i < items.length; i++) {
    const before = turn;
    await reader.read();
    turns.push(turn - before);
  }
  stop = true;
  return turns;
}

test('from() takes a promise item as it is, in a plain item\'s turns', async () => {
  const plain = await turnsPerRead(['a', 'b', 'c']);
  const promised = await turnsPerRead(['a', Promise.resolve('b'), Promise.resolve('c')]);
  assert.deepEqual(promised.slice(1), plain.slice(1));
});

test('from() still waits for a promise item and reads its value', async () => {
  const reader = ReadableStream.from([new Promise((r) => setTimeout(() => r('late'), 5)), 'next']).getReader();
  assert.deepEqual(await reader.read(), { done: false, value: 'late' });
  assert.deepEqual(await reader.read(), { done: false, value: 'next' });
});
