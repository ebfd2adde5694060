// The objects read() and the async iterator settle with. read()'s is a
// ReadableStreamReadResult dictionary, converted with its members in
// lexicographic order (done, value); next()'s is an ECMAScript iterator
// result (value, done). console.log() and JSON.stringify() show the order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadableStream } from '../../src/index.js';

const keys = (result) => Object.keys(result).join(',');

test('read() results list done, then value, whatever path the read takes', async () => {
  let controller;
  const rs = new ReadableStream({ start(c) { controller = c; c.enqueue('queued'); } });
  const reader = rs.getReader();
  assert.equal(keys(await reader.read()), 'done,value'); // a queued chunk
  const waiting = reader.read(); // a read request
  controller.enqueue('waited');
  assert.equal(keys(await waiting), 'done,value');
  controller.close();
  assert.equal(keys(await reader.read()), 'done,value');

  const bytes = new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array([1])); c.close(); } });
  const byob = bytes.getReader({ mode: 'byob' });
  assert.equal(keys(await byob.read(new Uint8Array(1))), 'done,value');
  assert.equal(keys(await byob.read(new Uint8Array(1))), 'done,value');
});

test('async iterator results list value, then done', async () => {
  let controller;
  const rs = new ReadableStream({ start(c) { controller = c; c.enqueue('a'); c.enqueue('b'); } });
  const it = rs.values();
  assert.equal(keys(await it.next()), 'value,done');
  assert.equal(keys(await it.next()), 'value,done'); // queued: the tier 1 path
  const waiting = it.next();
  controller.enqueue('c');
  assert.equal(keys(await waiting), 'value,done');
  assert.equal(keys(await it.return('r')), 'value,done');
});
