// The async iterator's pace against Node's own on the running Node: which
// microtask each read reaches the stream in. Node 20 and 22 read the chunk
// after a queued one a microtask or more after next() (the ongoing promise);
// Node 24+ reads every queued chunk at once. src/node-pace.js takes
// that, and how soon a pull()'s promise is reacted to, from the version; this
// provokes Node's on each one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadableStream } from '../../src/index.js';

const NativeReadableStream = globalThis.ReadableStream;

/** Events of a loop of next() calls over a stream with queued chunks, each tagged with its microtask. */
async function pace(ReadableStreamClass) {
  let tick = 0;
  const log = [];
  const ticker = () => {
    tick++;
    if (tick < 60) queueMicrotask(ticker);
  };
  const stream = new ReadableStreamClass({
    start(c) {
      for (let i = 0; i < 6; i++) c.enqueue(i);
    },
    pull(c) {
      log.push(`${tick}:pull(${c.desiredSize})`);
    },
  }, { highWaterMark: 6 });
  await new Promise((resolve) => setTimeout(resolve, 5));
  queueMicrotask(ticker);
  const it = stream.values();
  for (let i = 0; i < 5; i++) {
    log.push(`${tick}:next`);
    const { value } = await it.next();
    log.push(`${tick}:v${value}`);
  }
  await new Promise((resolve) => setTimeout(resolve, 5));
  return log.join(' ');
}

test('next() reads a queued chunk in the same microtask as Node\'s iterator', async () => {
  assert.equal(await pace(ReadableStream), await pace(NativeReadableStream));
});

/**
 * Fuzz seed 88991: a pull() that returns a promise and enqueues nothing, then
 * one that returns at once and enqueues nothing, then one that closes. Node's
 * loop ends; a read that merged into the first pull's pullAgain left the
 * second with no pull to follow it, and the loop waited forever.
 */
async function seed88991(ReadableStreamClass) {
  const settledIn = (n) => {
    let p = Promise.resolve();
    for (let i = 1; i < n; i++) p = p.then(() => {});
    return p;
  };
  let pulls = 0;
  const stream = new ReadableStreamClass({
    start(c) { c.enqueue('e'); },
    pull(c) {
      const k = pulls++;
      if (k === 0) c.enqueue('f');
      else if (k === 1) return settledIn(3);
      else if (k === 3) c.close();
      return undefined;
    },
  }, { highWaterMark: 2 });
  const seen = [];
  const loop = (async () => {
    for await (const v of stream) seen.push(v);
    return 'ended';
  })();
  const waited = new Promise((resolve) => setTimeout(() => resolve('waiting'), 100));
  return { end: await Promise.race([loop, waited]), seen, pulls };
}

test('a pull() that enqueues nothing does not leave the loop waiting where Node\'s ends', async () => {
  const native = await seed88991(NativeReadableStream);
  assert.deepEqual(native, { end: 'ended', seen: ['e', 'f'], pulls: 4 });
  assert.deepEqual(await seed88991(ReadableStream), native);
});
