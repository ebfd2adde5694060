// Node's stream consumers with our streams, in both directions, with errors and
// cancellation in the middle of a stream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Readable, Writable, Duplex, PassThrough, pipeline, finished, compose, isReadable, isDisturbed, isErrored,
  addAbortSignal,
} from 'node:stream';
import { pipeline as pipelineP, finished as finishedP } from 'node:stream/promises';
import { text, json, arrayBuffer } from 'node:stream/consumers';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { N, T, assertPatched, isOurs, enc, dec, oursFrom, endlessOurs, oursSink, upper, readAll } from './helpers.mjs';
import { toWebFollowed } from '../../src/bridge/node-adapters/node-behaviour.js';

test('the patch is active', T, () => assertPatched());

const collect = () => {
  const chunks = [];
  return { chunks, writable: new Writable({ write(c, e, cb) { chunks.push(c); cb(); } }) };
};

test('Readable.fromWeb(ours) reads every chunk', T, async () => {
  const r = Readable.fromWeb(oursFrom(['a', 'b', 'c']));
  assert.equal(dec(await r.toArray()), 'abc');
});

test('Readable.fromWeb(ours) also takes a byte stream and objectMode/encoding options', T, async () => {
  assert.equal(dec(await Readable.fromWeb(oursFrom(['x', 'y'], { bytes: true })).toArray()), 'xy');
  const r = Readable.fromWeb(ReadableStream.from(['s', 't']), { objectMode: true });
  assert.deepEqual(await r.toArray(), ['s', 't']);
});

test('Readable.fromWeb(ours) surfaces an error thrown mid-stream', T, async () => {
  const r = Readable.fromWeb(oursFrom(['a'], { error: new Error('boom') }));
  await assert.rejects(r.toArray(), /boom/);
});

test('destroying Readable.fromWeb(ours) cancels our source with the reason', T, async () => {
  const { stream, state } = endlessOurs();
  const r = Readable.fromWeb(stream);
  // eslint-disable-next-line no-unreachable-loop -- one chunk; the break destroys r
  for await (const chunk of r) {
    assert.ok(chunk);
    break; // destroys r
  }
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(state.cancelled, true);
});

test('Readable.fromWeb rejects a locked stream of ours as it rejects a locked native one', T, () => {
  const s = oursFrom(['a']);
  s.getReader();
  assert.throws(() => Readable.fromWeb(s), { code: 'ERR_INVALID_STATE' });
  assert.throws(() => Readable.fromWeb({}), { code: 'ERR_INVALID_ARG_TYPE' });
});

test('Writable.fromWeb(ours) writes, ends, and errors', T, async () => {
  const { stream, chunks, state } = oursSink();
  const w = Writable.fromWeb(stream, { decodeStrings: false });
  w.write('a');
  w.end('b');
  await finishedP(w);
  assert.deepEqual(chunks, ['a', 'b']);
  assert.equal(state.closed, true);

  const failing = oursSink({ failOn: 1 });
  const w2 = Writable.fromWeb(failing.stream, { decodeStrings: false });
  w2.write('1');
  w2.write('2');
  await assert.rejects(finishedP(w2), /sink failed/);
});

test('destroying Writable.fromWeb(ours) aborts our sink', T, async () => {
  const { stream, state } = oursSink();
  const w = Writable.fromWeb(stream);
  w.on('error', () => {});
  w.write('a');
  w.destroy(new Error('stop'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.match(String(state.abortReason), /stop/);
});

test('Duplex.fromWeb(our TransformStream) and Duplex.from(ours)', T, async () => {
  const d = Duplex.fromWeb(new TransformStream({ transform(c, ctl) { ctl.enqueue(String(c).toUpperCase()); } }),
    { objectMode: true });
  d.end('abc');
  assert.deepEqual(await d.toArray(), ['ABC']);
  const fromReadable = Duplex.from(oursFrom(['d', 'u']));
  assert.equal(dec(await fromReadable.toArray()), 'du');
});

test('Readable.toWeb / Writable.toWeb results mixed with ours', T, async () => {
  // Readable.toWeb -> our transform -> our sink
  const sink = oursSink();
  await Readable.toWeb(Readable.from([enc('to'), enc('web')])).pipeThrough(upper()).pipeTo(sink.stream);
  assert.equal(dec(sink.chunks), 'TOWEB');
  // native -> our transform -> our sink (Node's pipe into a native twin of ours)
  const nativeSink = oursSink();
  const parts = [enc('na'), enc('tive')];
  await new N.ReadableStream({ pull(c) { if (parts.length > 0) c.enqueue(parts.shift()); else c.close(); } })
    .pipeThrough(upper()).pipeTo(nativeSink.stream);
  assert.equal(dec(nativeSink.chunks), 'NATIVE');
  // ours -> native writable
  const { chunks, writable } = collect();
  await oursFrom(['x', 'y']).pipeThrough(upper()).pipeTo(Writable.toWeb(writable));
  assert.equal(dec(chunks), 'XY');
  // ours -> native writable that fails mid-stream: the pipe rejects and our source is cancelled
  const { stream, state } = endlessOurs();
  let n = 0;
  const failing = Writable.toWeb(new Writable({ write(c, e, cb) { cb(++n === 3 ? new Error('native sink') : null); } }));
  await assert.rejects(stream.pipeTo(failing), /native sink/);
  assert.equal(state.cancelled, true);
});

test('native source piped into ours: error mid-stream aborts our sink, cancel of ours reaches the native source', T, async () => {
  const sink = oursSink();
  let pulls = 0;
  const erroring = new N.ReadableStream({
    pull(c) {
      if (++pulls === 1) c.enqueue(enc('a'));
      else c.error(new Error('native source'));
    },
  });
  await assert.rejects(erroring.pipeTo(sink.stream), /native source/);
  assert.match(String(sink.state.abortReason), /native source/);

  let cancelled;
  const nativeSrc = new N.ReadableStream({ pull(c) { c.enqueue('n'); }, cancel(r) { cancelled = r; } });
  const failing = oursSink({ failOn: 2 });
  await assert.rejects(nativeSrc.pipeTo(failing.stream), /sink failed/);
  assert.match(String(cancelled), /sink failed/);
});

test('pipeTo with preventClose into a native writable leaves it unlocked and open', T, async () => {
  const { chunks, writable } = collect();
  const dest = Writable.toWeb(writable);
  await oursFrom(['p']).pipeTo(dest, { preventClose: true });
  assert.equal(dest.locked, false);
  const w = dest.getWriter();
  await w.write(enc('q'));
  await w.close();
  assert.equal(dec(chunks), 'pq');
  // and the mirror: native into ours with preventClose leaves ours unlocked
  const sink = oursSink();
  await new N.ReadableStream({ start(c) { c.enqueue('z'); c.close(); } }).pipeTo(sink.stream, { preventClose: true });
  assert.equal(sink.stream.locked, false);
  assert.equal(sink.state.closed, false);
});

test('ours piped into a native writable delivers, finishes and fails as a native pipe does', T, async () => {
  // Each scenario runs with a native source and with ours, into a native
  // WritableStream (high-water mark 4) whose writes finish a turn later; the
  // logs must match. Ours crosses the bridge of src/bridge/fast-over-native.js.
  const scenario = async (RS, { count, errorAt, failAt, preventClose }) => {
    const log = [];
    let pulls = 0;
    const source = new RS({
      pull(c) {
        if (++pulls === errorAt) c.error(new Error('source failed'));
        else if (pulls > count) c.close();
        else c.enqueue(pulls);
      },
      cancel(r) { log.push(`cancel ${r.message}`); },
    });
    const dest = new N.WritableStream({
      write(c) {
        log.push(`write ${c}`);
        return new Promise((resolve, reject) => setImmediate(() => (c === failAt ? reject(new Error('sink failed')) : resolve())));
      },
      close() { log.push('close'); },
      abort(r) { log.push(`abort ${r.message}`); },
    }, new N.CountQueuingStrategy({ highWaterMark: 4 }));
    try {
      await source.pipeTo(dest, { preventClose });
      log.push('resolved');
    } catch (e) {
      log.push(`rejected ${e.message}`);
    }
    log.push(`locked ${dest.locked}`);
    return log;
  };
  for (const options of [
    { count: 12 }, { count: 12, preventClose: true }, { count: 12, errorAt: 7 }, { count: 12, failAt: 3 },
  ]) {
    assert.deepEqual(await scenario(ReadableStream, options), await scenario(N.ReadableStream, options),
      JSON.stringify(options));
  }
});

// Each fixture runs its scenarios without the preload (Node's adapter) and with it; the logs must match.
function fixtureLogs(name) {
  const fixture = fileURLToPath(new URL(`./fixtures/${name}.mjs`, import.meta.url));
  const run = (args) => {
    const out = spawnSync(process.execPath, [...args, fixture], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    assert.equal(out.status, 0, out.stderr);
    return JSON.parse(out.stdout);
  };
  return { native: run([]), ours: run(['--import', fileURLToPath(new URL('../../register.mjs', import.meta.url))]) };
}

for (const [side, Node] of [['Readable', Readable], ['Writable', Writable]]) {
  test(`${side}.toWeb() gives one of ours that does what Node's adapter does`, T, () => {
    const { native, ours } = fixtureLogs(`${side.toLowerCase()}-to-web`);
    assert.ok(Object.keys(native).length >= 9);
    for (const name of Object.keys(native)) assert.deepEqual(ours[name], native[name], name);
    // Ours on the releases the adapters were compared on; Node's own adapter (bridged) on older ones.
    assert.equal(isOurs(Node.toWeb(side === 'Readable' ? new Readable({ read() {} }) : new Writable({ write(c, e, cb) { cb(); } }))),
      toWebFollowed);
  });
}

test('toWeb() adapters give Node\'s AbortError even after a program replaced AbortSignal.abort', T, () => {
  const { native, ours } = fixtureLogs('to-web-patched-abort-signal');
  assert.equal(native.readable.code, 'ABORT_ERR');
  assert.equal(native.writable.code, 'ABORT_ERR');
  assert.deepEqual(ours, native);
});

test('stream.pipeline with ours as source, transform and destination', T, async () => {
  const { chunks, writable } = collect();
  await pipelineP(oursFrom(['p', 'i']), upper(), writable);
  assert.equal(dec(chunks), 'PI');
  const sink = oursSink();
  await pipelineP(Readable.from([enc('n'), enc('o')]), sink.stream);
  assert.equal(dec(sink.chunks), 'no');
  assert.equal(sink.state.closed, true);
});

test('stream.pipeline propagates an error mid-stream from ours and from Node', T, async () => {
  await assert.rejects(pipelineP(oursFrom(['a'], { error: new Error('ours failed') }), collect().writable),
    /ours failed/);
  const sink = oursSink();
  const failingNode = new Readable({ read() { this.destroy(new Error('node failed')); } });
  await assert.rejects(pipelineP(failingNode, sink.stream), /node failed/);
});

test('stream.pipeline callback form and cancellation of our source when the destination fails', T, async () => {
  const { stream, state } = endlessOurs();
  const failing = new Writable({ write(c, e, cb) { cb(new Error('dest failed')); } });
  const err = await new Promise((resolve) => pipeline(stream, failing, resolve));
  assert.match(String(err), /dest failed/);
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(state.cancelled, true);
});

test('finished() on our readable and writable: close, error', T, async () => {
  const r = oursFrom(['a']);
  const done = finishedP(r);
  await readAll(r);
  await done;
  const e = oursFrom([], { error: new Error('err') });
  const failed = finishedP(e);
  await assert.rejects(readAll(e), /err/);
  await assert.rejects(failed, /err/);
  const sink = oursSink();
  const wDone = new Promise((resolve) => finished(sink.stream, resolve));
  await oursFrom(['w']).pipeTo(sink.stream);
  assert.equal(await wDone, undefined);
  const ws = new WritableStream();
  const wFailed = finishedP(ws);
  await ws.abort(new Error('aborted'));
  await assert.rejects(wFailed, /aborted/);
});

test('finished() on our readable: a byte stream fed from outside, already closed or errored streams', T, async () => {
  // The watcher undici puts on every fetch body: attached before any chunk,
  // settled once, at close, after every chunk was read.
  let controller;
  const bytes = new ReadableStream({ type: 'bytes', start(c) { controller = c; } });
  let calls = 0;
  const done = new Promise((resolve) => finished(bytes, (err) => { calls++; resolve(err); }));
  const reading = readAll(bytes);
  controller.enqueue(enc('a'));
  controller.enqueue(enc('b'));
  controller.close();
  assert.equal(dec(await reading), 'ab');
  assert.equal(await done, undefined);
  assert.equal(calls, 1);
  const closed = new ReadableStream({ start(c) { c.close(); } });
  await finishedP(closed);
  const errored = new ReadableStream({ start(c) { c.error(new Error('early')); } });
  await assert.rejects(finishedP(errored), /early/);
});

test('compose() with our streams', T, async () => {
  const composed = compose(oursFrom(['c', 'o']), upper());
  assert.equal(dec(await composed.toArray()), 'CO');
  const middle = compose(upper(), new PassThrough());
  const out = Readable.from([enc('m')]).pipe(middle);
  assert.equal(dec(await out.toArray()), 'M');
});

test('isReadable / isDisturbed / isErrored on ours match native', T, async () => {
  for (const make of [() => oursFrom(['a', 'b']), () => new N.ReadableStream({ start(c) { c.enqueue(enc('a')); } })]) {
    const s = make();
    assert.equal(isReadable(s), true);
    assert.equal(isDisturbed(s), false);
    assert.equal(isErrored(s), false);
    const reader = s.getReader();
    await reader.read();
    assert.equal(isDisturbed(s), true);
    await reader.cancel();
    assert.equal(isReadable(s), false);
  }
  const errored = new ReadableStream({ start(c) { c.error(new Error('x')); } });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(isErrored(errored), true);
  assert.equal(isErrored(new N.ReadableStream({ start(c) { c.error(new Error('x')); } })), true);
});

test('addAbortSignal(signal, ours) errors our stream', T, async () => {
  const controller = new AbortController();
  const { stream } = endlessOurs();
  addAbortSignal(controller.signal, stream);
  const reader = stream.getReader();
  await reader.read();
  controller.abort();
  await assert.rejects(reader.read(), { name: 'AbortError' });
});

test('stream/consumers text, json, arrayBuffer read ours, and fail with an error mid-stream', T, async () => {
  assert.equal(await text(oursFrom(['he', 'llo'])), 'hello');
  assert.deepEqual(await json(oursFrom(['{"a":', '1}'])), { a: 1 });
  assert.equal((await arrayBuffer(oursFrom(['abc']))).byteLength, 3);
  await assert.rejects(text(oursFrom(['a'], { error: new Error('consumer boom') })), /consumer boom/);
});
