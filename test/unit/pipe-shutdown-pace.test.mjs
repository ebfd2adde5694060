// When a pipe whose source errored (preventAbort) lets go of its writable,
// against Node's own pipeTo() on the running Node: Node 20 and 22 wait a
// microtask more for the pipe's writes than Node 24+, with a write in flight
// or none (src/node-pace.js). Fuzz seeds 64357, 124976 and 128001: a second
// pipeTo() into the writable, natively refused as locked, ran under the
// preload and waited forever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as ours from '../../src/index.js';

const native = { ReadableStream: globalThis.ReadableStream, WritableStream: globalThis.WritableStream };

/** The microtask the writable is unlocked in, and pipeTo() settles in, after the source errors. */
async function release(S, writeInFlight) {
  let tick = 0;
  const log = [];
  const ticker = () => {
    tick++;
    if (tick < 40) queueMicrotask(ticker);
  };
  let source;
  let finishWrite;
  const readable = new S.ReadableStream({
    start(c) {
      source = c;
      c.enqueue('x');
    },
  });
  const writable = new S.WritableStream({
    write() {
      if (writeInFlight) return new Promise((resolve) => { finishWrite = resolve; });
      return undefined;
    },
  }, { highWaterMark: 4 });
  await new Promise((resolve) => setTimeout(resolve, 1));
  queueMicrotask(ticker);
  readable.pipeTo(writable, { preventAbort: true }).catch(() => log.push(`pipeTo@${tick}`));
  const at = (n, f) => {
    const go = () => (tick >= n ? f() : queueMicrotask(go));
    queueMicrotask(go);
  };
  const watch = () => {
    if (!writable.locked) log.push(`unlocked@${tick}`);
    else if (tick < 40) queueMicrotask(watch);
  };
  at(6, () => {
    source.error(new Error('E'));
    watch();
  });
  if (writeInFlight) at(9, () => finishWrite());
  await new Promise((resolve) => setTimeout(resolve, 10));
  return log.join(' ');
}

test('with no write in flight, the pipe lets go in the microtask Node\'s does', async () => {
  assert.equal(await release(ours, false), await release(native, false));
});

test('with a write in flight, the pipe lets go in the microtask Node\'s does', async () => {
  assert.equal(await release(ours, true), await release(native, true));
});

/** Seed 64357, reduced: the second pipeTo() into the writable the first one still holds is refused. */
async function secondPipe(S) {
  const errored = new S.ReadableStream({
    start(c) {
      c.error(new Error('E0'));
    },
  });
  const [, branch] = errored.tee();
  const writable = new S.WritableStream({ start: () => new Promise((resolve) => setTimeout(resolve, 1)) });
  const first = branch.pipeTo(writable, { preventAbort: true }).catch((e) => e.message);
  await Promise.resolve();
  await Promise.resolve();
  await Promise.resolve();
  const second = new S.ReadableStream().pipeTo(writable).then(() => 'ok', (e) => `${e.name} ${e.code}`);
  const settled = await Promise.race([second, new Promise((resolve) => setTimeout(resolve, 50, 'pending'))]);
  return `${await first} / ${settled}`;
}

test('a second pipeTo() in the microtasks after a first pipe\'s source error meets what Node\'s does', async () => {
  assert.equal(await secondPipe(ours), await secondPipe(native));
});
