// Backpressure: a fast producer feeding a slow consumer must stay bounded by
// the high-water marks along the path, for reads, pipeTo and pipeThrough
// chains. Runs against our classes directly (no global patch). No timing
// assertions: the consumer is slowed by yielding a macrotask per chunk, which
// gives an unbounded producer every chance to race ahead.
//
// What is counted: a chunk is "outstanding" from the moment the source
// enqueues it until the consumer has finished with it (the reader's read()
// resolved, or the sink's write() promise settled). The bound asserted is the
// sum of the high-water marks in the path plus a slack that the spec allows,
// derived for each case below. A producer that ignored backpressure would
// reach the total chunk count (hundreds), far above every bound here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadableStream, WritableStream, TransformStream, CountQueuingStrategy } from '../../src/index.js';

const TOTAL = 300;
const macrotask = () => new Promise((resolve) => setImmediate(resolve));

// A pull source that fills its queue while desiredSize > 0, as file readers
// and renderers do; it records how far ahead of the consumer it ever got.
function trackedSource(hwm, meter, { total = TOTAL } = {}) {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      while (controller.desiredSize > 0 && next < total) {
        controller.enqueue(next++);
        meter.produced++;
        meter.max = Math.max(meter.max, meter.produced - meter.consumed);
      }
      if (next >= total) controller.close();
    },
  }, new CountQueuingStrategy({ highWaterMark: hwm }));
}

function newMeter() {
  return { produced: 0, consumed: 0, max: 0 };
}

// A sink that takes a macrotask per chunk and checks order.
function slowSink(meter, hwm, seen) {
  return new WritableStream({
    async write(chunk) {
      await macrotask();
      seen.push(chunk);
      meter.consumed++;
    },
  }, new CountQueuingStrategy({ highWaterMark: hwm }));
}

function identity(writableHwm, readableHwm) {
  return new TransformStream(
    { transform(chunk, controller) { controller.enqueue(chunk); } },
    new CountQueuingStrategy({ highWaterMark: writableHwm }),
    new CountQueuingStrategy({ highWaterMark: readableHwm }),
  );
}

const inOrder = (seen, total = TOTAL) => assert.deepEqual(seen, Array.from({ length: total }, (_, i) => i));

for (const hwm of [1, 4, 16]) {
  test(`reader: pull source (highWaterMark ${hwm}) read slowly stays within hwm + 1`, async () => {
    const meter = newMeter();
    const reader = trackedSource(hwm, meter).getReader();
    const seen = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen.push(value);
      meter.consumed++;
      await macrotask();
    }
    inOrder(seen);
    // Slack 1: a read() dequeues a chunk, which lets pull() refill the queue
    // to hwm before the reader's promise callback has run and counted it.
    assert.ok(meter.max <= hwm + 1, `outstanding reached ${meter.max}, bound ${hwm + 1}`);
    assert.ok(meter.max >= hwm, `source never filled its queue (max ${meter.max})`);
  });
}

test('pipeTo: pull source into a slow sink stays within source hwm + sink hwm + 2', async () => {
  for (const [hs, hw] of [[1, 1], [8, 3], [16, 16]]) {
    const meter = newMeter();
    const seen = [];
    await trackedSource(hs, meter).pipeTo(slowSink(meter, hw, seen));
    inOrder(seen);
    // The sink's queue counts the chunk being written (the spec dequeues it
    // only when write() settles). Slack 2: the chunk the pipe has read but not
    // yet handed to the writer, plus the refill pull() makes as soon as that
    // read dequeued it (the same window as in the reader case).
    const bound = hs + hw + 2;
    assert.ok(meter.max <= bound, `[${hs}, ${hw}] outstanding reached ${meter.max}, bound ${bound}`);
  }
});

for (const [label, transforms] of [
  ['1 default transform', [[1, 0]]],
  ['3 default transforms', [[1, 0], [1, 0], [1, 0]]],
  ['8 default transforms', Array.from({ length: 8 }, () => [1, 0])],
  ['3 transforms with custom marks', [[4, 2], [1, 8], [3, 0]]],
]) {
  test(`pipeThrough: ${label} into a slow sink stays bounded`, async () => {
    const hs = 4;
    const hw = 2;
    const meter = newMeter();
    const seen = [];
    let stream = trackedSource(hs, meter);
    for (const [w, r] of transforms) stream = stream.pipeThrough(identity(w, r));
    await stream.pipeTo(slowSink(meter, hw, seen));
    inOrder(seen);
    const marks = hs + hw + transforms.reduce((sum, [w, r]) => sum + w + r, 0);
    // Slack, per hop: each pipe (one per transform, plus the final pipeTo)
    // holds one chunk between its read and its write; each transform may
    // enqueue one chunk into a readable side whose queue is already at its
    // mark (enqueue() never refuses a chunk, it only signals backpressure,
    // which stops the next transform() call). Plus 1 for the source refill
    // window described in the reader case.
    const pipes = transforms.length + 1;
    const slack = pipes + transforms.length + 1;
    assert.ok(meter.max <= marks + slack, `outstanding reached ${meter.max}, bound ${marks} + ${slack}`);
  });
}

test('byte stream: pull source (highWaterMark 4 KB) read slowly stays within hwm + one chunk', async () => {
  const CHUNK = 1024;
  const HWM = 4 * CHUNK;
  let produced = 0;
  let consumed = 0;
  let max = 0;
  let sent = 0;
  const stream = new ReadableStream({
    type: 'bytes',
    pull(controller) {
      while (controller.desiredSize > 0 && sent < TOTAL) {
        controller.enqueue(new Uint8Array(CHUNK));
        sent++;
        produced += CHUNK;
        max = Math.max(max, produced - consumed);
      }
      if (sent >= TOTAL) controller.close();
    },
  }, { highWaterMark: HWM });
  const reader = stream.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    consumed += value.byteLength;
    await macrotask();
  }
  assert.equal(consumed, TOTAL * CHUNK);
  // Same slack as the default reader case, in bytes: one chunk.
  assert.ok(max <= HWM + CHUNK, `outstanding reached ${max} bytes, bound ${HWM + CHUNK}`);
});
