// Tier 0 end to end: what a chain of transforms delivers, in order, and which
// counters moved it. Uses the library's classes directly (no global patch).
import { test } from 'node:test';
import { inspect } from 'node:util';
import assert from 'node:assert/strict';
import {
  ReadableStream, WritableStream, TransformStream, TextEncoderStream, TextDecoderStream, getCounters, resetCounters,
} from '../../src/index.js';

function fromArray(items) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      while (controller.desiredSize > 0 && i < items.length) controller.enqueue(items[i++]);
      if (i === items.length) controller.close();
    },
  }, { highWaterMark: 4 });
}

// Tags each chunk, and emits a trailer from flush() as a framing transform does.
const tagging = (tag) => new TransformStream({
  transform(chunk, controller) { controller.enqueue(`${chunk}${tag}`); },
  flush(controller) { controller.enqueue(`end${tag}`); },
});

async function collect(readable) {
  const out = [];
  await readable.pipeTo(new WritableStream({ write(chunk) { out.push(chunk); } }));
  return out;
}

test('flush() output passes down a fused chain in order, with no spec-path pipe step', async () => {
  resetCounters();
  const out = await collect(fromArray(['a', 'b', 'c']).pipeThrough(tagging('1')).pipeThrough(tagging('2')));
  assert.deepEqual(out, ['a12', 'b12', 'c12', 'end12', 'end2']);
  const c = getCounters();
  assert.equal(c.fusedChains, 1);
  assert.ok(c.fusedChunks >= 6, `fusedChunks ${c.fusedChunks}`);
  // Every chunk, the trailers included, was moved without a microtask per pipe step.
  assert.equal(c.specPipeChunks, 0);
});

test('a flush() that returns a promise still delivers its output after the chunks', async () => {
  const slowFlush = new TransformStream({
    transform(chunk, controller) { controller.enqueue(chunk); },
    async flush(controller) {
      await null;
      controller.enqueue('late');
    },
  });
  const out = await collect(fromArray(['x', 'y']).pipeThrough(slowFlush).pipeThrough(tagging('!')));
  assert.deepEqual(out, ['x!', 'y!', 'late!', 'end!']);
});

test('a flush() that throws errors the rest of the chain and rejects the pipe', async () => {
  const failing = new TransformStream({
    flush() { throw new Error('flush failed'); },
  });
  await assert.rejects(collect(fromArray(['x']).pipeThrough(failing).pipeThrough(tagging('!'))), /flush failed/);
});

test('a pull() source with the default high-water mark: the pipe writes each chunk when pull() returns', async () => {
  resetCounters();
  let next = 0;
  const source = new ReadableStream({
    pull(controller) {
      controller.enqueue(next++);
      if (next === 200) controller.close();
    },
  });
  const out = await collect(source);
  assert.deepEqual(out, Array.from({ length: 200 }, (_, i) => i));
  const c = getCounters();
  assert.equal(c.specPipeChunks, 0);
  assert.equal(c.syncPipeChunks, 200);
});

test('a pull() that enqueues and then errors the stream: the chunk is written, then the pipe rejects', async () => {
  const written = [];
  const source = new ReadableStream({
    start(controller) { controller.enqueue('first'); },
    pull(controller) {
      if (written.length === 0) return;
      controller.enqueue('second');
      controller.error(new Error('source broke'));
    },
  });
  await assert.rejects(source.pipeTo(new WritableStream({ write(chunk) { written.push(chunk); } })), /source broke/);
  assert.deepEqual(written, ['first', 'second']);
});

// The codec classes are TransformStreams of ours without a size algorithm:
// a chain through them moves its chunks as the same chain of user transforms.
test('a chain through TextEncoderStream and TextDecoderStream is fused as user transforms are', async () => {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta'];
  const run = async (encoder, decoder) => {
    resetCounters();
    const out = await collect(fromArray(words).pipeThrough(encoder).pipeThrough(decoder));
    assert.equal(out.join(''), words.join(''));
    const { fusedChains, fusedChunks, specPipeChunks, fallbackReasons } = getCounters();
    return { fusedChains, fusedChunks, specPipeChunks, fallbackReasons };
  };
  const textEncoder = new TextEncoder();
  const textDecoder = new TextDecoder();
  const user = await run(
    new TransformStream({ transform(chunk, controller) { controller.enqueue(textEncoder.encode(chunk)); } }),
    new TransformStream({ transform(chunk, controller) { controller.enqueue(textDecoder.decode(chunk, { stream: true })); } }));
  const codecs = await run(new TextEncoderStream(), new TextDecoderStream());
  assert.deepEqual(codecs, user);
  assert.equal(codecs.fusedChains, 1);
  assert.ok(codecs.fusedChunks >= 2 * words.length - 2, `fusedChunks ${codecs.fusedChunks}`);
});

// The armed read (src/fast/armed-read.js): between chunks, the pump reading a
// transform's output holds its read without queueing it. These check that
// what user code sees of that read is the spec's, against Node's own streams
// (the same scenario on both, logs compared) where they agree on every Node,
// and against the spec's values elsewhere.
const tick = () => new Promise((resolve) => setImmediate(resolve));
const backpressureOf = (t) => /backpressure: (\w+)/.exec(inspect(t))[1];

async function sameAsNative(scenario) {
  const native = [];
  await scenario(globalThis, native);
  const ours = [];
  await scenario({ ReadableStream, WritableStream, TransformStream }, ours);
  assert.deepEqual(ours, native);
  return ours;
}

test('armed: util.inspect() shows the backpressure the pending read lowered', async () => {
  const log = await sameAsNative(async (I, log) => {
    let source;
    const t = new I.TransformStream({ transform(c, k) { k.enqueue(c); } });
    const done = new I.ReadableStream({ start(c) { source = c; } }).pipeThrough(t)
      .pipeTo(new I.WritableStream({ write(c) { log.push(`w ${c}`); } }));
    for (let i = 0; i < 3; i++) {
      source.enqueue(i);
      await tick();
      log.push(backpressureOf(t));
    }
    source.close();
    await done;
  });
  assert.deepEqual(log, ['w 0', 'false', 'w 1', 'false', 'w 2', 'false']);
});

test('armed: terminate() or an abort right after the enqueue ends the chain as natively', async () => {
  await sameAsNative(async (I, log) => {
    let i = 0;
    const source = new I.ReadableStream({ pull(c) { log.push(`pull ${i}`); if (i < 4) c.enqueue(i++); else c.close(); } });
    const t = new I.TransformStream({ transform(c, k) { k.enqueue(c); if (c === 2) k.terminate(); } });
    await source.pipeThrough(t).pipeThrough(new I.TransformStream())
      .pipeTo(new I.WritableStream({ write(c) { log.push(`w ${c}`); } }))
      .then(() => log.push('done'), (e) => log.push(`rejected ${e.name}`));
  });
  await sameAsNative(async (I, log) => {
    const items = [1, 2, 3, 4];
    let i = 0;
    const source = new I.ReadableStream({ pull(c) { log.push(`pull ${i}`); if (i < items.length) c.enqueue(items[i++]); else c.close(); } });
    const ac = new AbortController();
    const t1 = new I.TransformStream({ transform(c, k) { k.enqueue(c); } });
    const t2 = new I.TransformStream({ transform(c, k) { log.push(`t2 ${c}`); if (c === 2) ac.abort(new Error('stop')); k.enqueue(c); } });
    await source.pipeThrough(t1, { signal: ac.signal }).pipeThrough(t2)
      .pipeTo(new I.WritableStream({ write(c) { log.push(`w ${c}`); } }))
      .then(() => log.push('done'), (e) => log.push(`rejected ${e.message}`));
  });
});

test('armed: only the first enqueue() of a transform() meets the read; the second is queued', async () => {
  const out = [];
  const sizes = [];
  const t = new TransformStream({
    transform(c, k) {
      k.enqueue(`${c}a`);
      sizes.push(k.desiredSize);
      k.enqueue(`${c}b`);
      sizes.push(k.desiredSize);
    },
  });
  await fromArray(['x', 'y']).pipeThrough(t).pipeThrough(new TransformStream())
    .pipeTo(new WritableStream({ write(c) { out.push(c); } }));
  assert.deepEqual(out, ['xa', 'xb', 'ya', 'yb']);
  assert.deepEqual(sizes, [0, -1, 0, -1]);
});

test('armed: a pipe released with its read armed hands the output to the next reader', async () => {
  const ac = new AbortController();
  const t = new TransformStream({ transform(c, k) { k.enqueue(c * 10); } });
  const output = fromArray([1, 2, 3, 4]).pipeThrough(t);
  let written = 0;
  await assert.rejects(output.pipeTo(new WritableStream({
    write() { if (++written === 2) ac.abort(new Error('stop')); },
  }), { signal: ac.signal, preventCancel: true }), /stop/);
  const reader = output.getReader();
  const read = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    read.push(value);
  }
  assert.deepEqual(read, [30, 40]);
});

// A clean hop (PipePump.destClean / sourceClean in src/fast/pipe-pump.js)
// skips the checks of what only something other than the hop can change. Each
// scenario here is such a thing, done at the third chunk in the middle of a
// fused chain, from a place the hop does not expect it.
test('clean hop: what ends or detours a hop mid-chain is seen at the next chunk, as natively', async () => {
  const events = [
    'error-upstream', 'terminate-upstream', 'enqueue-upstream', 'error-middle', 'terminate-middle', 'sink-error',
    'late-enqueue', 'async-transform', 'abort', 'double-enqueue', 'cancel-signal',
  ];
  for (const event of events) for (const late of [3, 4]) {
    const log = await sameAsNative(async (I, log) => {
      let i = 0;
      let pulls = 0; // in total: when each pull runs in a chain this long differs from native (on main too)
      let k1;
      let k2;
      let sinkController;
      const ac = new AbortController();
      // Chunk `late` comes a few milliseconds late: the chain waits with its reads armed.
      // 'late-enqueue' pushes a chunk into t1 from outside meanwhile, and only then starts
      // the wait's own timer: two timers racing each other lost, natively, on a loaded
      // machine (the clean clone's npm test, Node 24 and 26).
      const source = new I.ReadableStream({
        pull(c) {
          if (i === late && !log.includes('waited')) {
            const wait = (resolve) => setTimeout(resolve, 5);
            const lateEnqueue = (resolve) => setTimeout(() => {
              try { k1.enqueue('late'); } catch { log.push('refused'); }
              wait(resolve);
            }, 1);
            return new Promise(event === 'late-enqueue' ? lateEnqueue : wait).then(() => log.push('waited'));
          }
          pulls++;
          if (i < 6) c.enqueue(i++); else c.close();
          return undefined;
        },
      });
      const t1 = new I.TransformStream({ start(k) { k1 = k; }, transform(c, k) { k.enqueue(c); } });
      const t2 = new I.TransformStream({
        start(k) { k2 = k; },
        transform(c, k) {
          // Node 20 and 22 read the next chunk later than 24+: after a sink error, only 24+ transform it.
          if (event !== 'sink-error') log.push(`t2 ${c}`);
          if (c === 2 && event === 'double-enqueue') k.enqueue('extra');
          k.enqueue(c);
          if (c === 2 && event === 'async-transform') {
            return new Promise((resolve) => setTimeout(resolve, 1)).then(() => log.push('t2 2 settled'));
          }
          return undefined;
        },
      });
      const t3 = new I.TransformStream({
        transform(c, k) {
          k.enqueue(c);
          if (c !== 2) return;
          if (event === 'error-upstream') k1.error(new Error('upstream'));
          if (event === 'terminate-upstream') k1.terminate();
          if (event === 'error-middle') k2.error(new Error('middle'));
          if (event === 'terminate-middle') k2.terminate();
          if (event === 'enqueue-upstream') k1.enqueue('pushed');
          if (event === 'abort') ac.abort(new Error('stop'));
        },
      });
      const sink = new I.WritableStream({
        start(c) { sinkController = c; },
        write(c) {
          log.push(`w ${c}`);
          if (c === 2 && event === 'sink-error') sinkController.error(new Error('sink'));
          if (c === 2 && event === 'cancel-signal') ac.abort(new Error('cancelled'));
        },
      });
      const signal = event === 'cancel-signal' ? { signal: ac.signal } : undefined;
      await source.pipeThrough(t1).pipeThrough(t2, { signal: ac.signal }).pipeThrough(t3).pipeTo(sink, signal)
        .then(() => log.push('done'), (e) => log.push(`rejected ${e.message}`));
      log.push(`${pulls} pulls`);
    });
    assert.ok(log.includes('w 2'), `${event}: ${log}`);
  }
});
