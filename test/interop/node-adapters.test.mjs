// Readable.fromWeb / Writable.fromWeb / Duplex.fromWeb over our streams
// against Node's own adapters over Node's streams, in the same process: each
// scenario runs twice, once with Node's classes (routed to Node's adapter)
// and once with ours (our adapter, src/bridge/node-adapters/), and both runs
// must log the same events, chunks, errors, and calls into the source or sink.
import { test } from 'node:test';
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { Readable, Writable, Duplex } from 'node:stream';
import { fast, N, T, assertPatched, MAJOR } from './helpers.mjs';
import { readEndsAtOnce, writeMode } from '../../src/bridge/node-adapters/node-behaviour.js';

test('the patch is active', T, () => assertPatched());

const OURS = {
  name: 'ours', ReadableStream: fast.ReadableStream, WritableStream: fast.WritableStream,
  TransformStream: fast.TransformStream,
};
const NATIVE = {
  name: 'native', ReadableStream: N.ReadableStream, WritableStream: N.WritableStream,
  TransformStream: N.TransformStream,
};

const bytes = (s) => new TextEncoder().encode(s);
const show = (v) => {
  if (v instanceof Error) return `${v.name}${v.code ? `[${v.code}]` : ''}${v.message.startsWith('u:') ? `:${v.message}` : ''}`;
  if (v instanceof Uint8Array) return `bytes(${Buffer.from(v).toString()})${Buffer.isBuffer(v) ? 'B' : ''}`;
  if (v === undefined) return 'undefined';
  return JSON.stringify(v);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function watch(node, log, events) {
  for (const ev of events) node.on(ev, (...a) => log.push(`${ev}${a.length ? ` ${a.map(show).join(' ')}` : ''}`));
}
const readEvents = ['data', 'end', 'close', 'error'];
const writeEvents = ['finish', 'close', 'error', 'drain'];

/** A source enqueuing `parts` one per pull, then closing or erroring. */
function source(C, log, parts, { error, hwm = 1, startAll = false } = {}) {
  let i = 0;
  return new C.ReadableStream({
    start(c) {
      if (startAll) {
        for (const p of parts) c.enqueue(p);
        if (error) c.error(error); else c.close();
        i = parts.length;
      }
    },
    pull(c) {
      log.push(`pull ${i}`);
      if (i < parts.length) c.enqueue(parts[i++]);
      else if (error) c.error(error);
      else c.close();
    },
    cancel(reason) { log.push(`cancel ${show(reason)}`); },
  }, { highWaterMark: hwm });
}

/** A sink logging writes; `failAt` throws on that write; `slow` returns a promise. */
function sink(C, log, { failAt, slow = false, hwm = 1 } = {}) {
  let n = 0;
  return new C.WritableStream({
    write(chunk) {
      log.push(`write ${show(chunk)}`);
      if (n++ === failAt) throw new Error('u:sink');
      return slow ? sleep(1) : undefined;
    },
    close() { log.push('sink close'); },
    abort(reason) { log.push(`abort ${show(reason)}`); },
  }, { highWaterMark: hwm });
}

function attempt(log, fn) {
  try {
    return fn();
  } catch (e) {
    log.push(`threw ${show(e)}`);
    return undefined;
  }
}

const scenarios = {
  // --- Readable.fromWeb ------------------------------------------------------
  'read: chunks then end'(C, log) {
    const r = Readable.fromWeb(source(C, log, [bytes('a'), bytes('b'), bytes('c')]));
    watch(r, log, readEvents);
  },
  'read: all queued at start'(C, log) {
    const r = Readable.fromWeb(source(C, log, [bytes('a'), bytes('b')], { startAll: true }));
    watch(r, log, readEvents);
  },
  'read: source errors midway'(C, log) {
    const r = Readable.fromWeb(source(C, log, [bytes('a')], { error: new Error('u:src') }));
    watch(r, log, readEvents);
  },
  'read: errored with undefined'(C, log) {
    let ctl;
    const r = Readable.fromWeb(new C.ReadableStream({ start(c) { ctl = c; } }));
    watch(r, log, readEvents);
    r.resume();
    setTimeout(() => ctl.error(undefined), 2);
  },
  'read: destroy(err) while reading'(C, log) {
    const r = Readable.fromWeb(source(C, log, [bytes('a'), bytes('b'), bytes('c'), bytes('d')]));
    watch(r, log, readEvents);
    r.once('data', () => r.destroy(new Error('u:destroy')));
  },
  'read: destroy() with no error'(C, log) {
    const r = Readable.fromWeb(source(C, log, [bytes('a'), bytes('b')]));
    watch(r, log, readEvents);
    setTimeout(() => r.destroy(), 2);
  },
  'read: encoding utf8'(C, log) {
    const r = Readable.fromWeb(source(C, log, [bytes('hé'), bytes('llo')]), { encoding: 'utf8' });
    watch(r, log, readEvents);
  },
  'read: encoding hex, paused reads'(C, log) {
    const r = Readable.fromWeb(source(C, log, [bytes('ab'), bytes('c')]), { encoding: 'hex' });
    watch(r, log, ['end', 'close', 'error']);
    r.on('readable', () => {
      let c;
      while ((c = r.read()) !== null) log.push(`read ${show(c)}`);
    });
  },
  'read: bad encoding, bad options'(C, log) {
    const s = () => new C.ReadableStream();
    attempt(log, () => Readable.fromWeb(s(), { encoding: 'nope' }));
    attempt(log, () => Readable.fromWeb(s(), null));
    attempt(log, () => Readable.fromWeb(s(), [1]));
    attempt(log, () => Readable.fromWeb(s(), 'x'));
    attempt(log, () => Readable.fromWeb(s(), { objectMode: 1 }));
    attempt(log, () => Readable.fromWeb(s(), { highWaterMark: -1 }));
    attempt(log, () => Readable.fromWeb(s(), { signal: {} }));
    const locked = s();
    locked.getReader();
    attempt(log, () => Readable.fromWeb(locked));
    attempt(log, () => Readable.fromWeb(locked, { encoding: 'nope' }));
    // A highWaterMark Node refuses after the reader was taken: the stream stays locked.
    const taken = s();
    attempt(log, () => Readable.fromWeb(taken, { highWaterMark: 'x' }));
    log.push(`locked ${taken.locked}`);
  },
  'read: objectMode with values'(C, log) {
    const r = Readable.fromWeb(source(C, log, [1, { a: 2 }, 'three']), { objectMode: true });
    watch(r, log, readEvents);
  },
  'read: a string chunk, not objectMode'(C, log) {
    const r = Readable.fromWeb(source(C, log, ['str', bytes('b')]));
    watch(r, log, readEvents);
  },
  'read: a number chunk, not objectMode'(C, log) {
    const r = Readable.fromWeb(source(C, log, [bytes('a'), 42, bytes('b')]));
    watch(r, log, readEvents);
  },
  'read: signal aborted midway'(C, log) {
    const ac = new AbortController();
    const r = Readable.fromWeb(source(C, log, [bytes('a'), bytes('b'), bytes('c')]), { signal: ac.signal });
    watch(r, log, readEvents);
    r.once('data', () => ac.abort(new Error('u:abort')));
  },
  'read: early end (pipe target ends)'(C, log) {
    const r = Readable.fromWeb(source(C, log, [bytes('a'), bytes('b'), bytes('c'), bytes('d')]));
    watch(r, log, readEvents);
    r.once('data', () => {
      r.pause();
      setTimeout(() => r.destroy(), 2);
    });
  },
  'read: backpressure holds pulls at highWaterMark'(C, log) {
    const parts = Array.from({ length: 20 }, (_, i) => i);
    const r = Readable.fromWeb(source(C, log, parts), { objectMode: true, highWaterMark: 3 });
    watch(r, log, ['end', 'close']);
    setTimeout(() => {
      log.push(`buffered ${r.readableLength}`);
      r.resume();
    }, 5);
  },

  // --- Writable.fromWeb ------------------------------------------------------
  'write: writes then end'(C, log) {
    const w = Writable.fromWeb(sink(C, log));
    watch(w, log, writeEvents);
    w.write(bytes('a'), (e) => log.push(`cb a ${show(e)}`));
    w.write('b', (e) => log.push(`cb b ${show(e)}`));
    w.end(bytes('c'), () => log.push('end cb'));
  },
  'write: slow sink, backpressure'(C, log) {
    const w = Writable.fromWeb(sink(C, log, { slow: true }), { highWaterMark: 2 });
    watch(w, log, writeEvents);
    for (const s of ['a', 'b', 'c', 'd']) log.push(`write() ${w.write(bytes(s), (e) => log.push(`cb ${s} ${show(e)}`))}`);
    w.end();
  },
  'write: sink fails a single write'(C, log) {
    const w = Writable.fromWeb(sink(C, log, { failAt: 0 }));
    watch(w, log, writeEvents);
    w.write(bytes('a'), (e) => log.push(`cb a ${show(e)}`));
  },
  // On Node 20/22 Node's adapter rejects unhandled here (a bug we do not reproduce): run from Node 23 on.
  'write: sink fails inside a writev'(C, log) {
    const w = Writable.fromWeb(sink(C, log, { failAt: 2 }));
    watch(w, log, writeEvents);
    w.write(bytes('a'), (e) => log.push(`cb a ${show(e)}`));
    w.write(bytes('b'), (e) => log.push(`cb b ${show(e)}`));
    w.write(bytes('c'), (e) => log.push(`cb c ${show(e)}`));
    w.write(bytes('d'), (e) => log.push(`cb d ${show(e)}`));
  },
  'write: corked writev'(C, log) {
    const w = Writable.fromWeb(sink(C, log));
    watch(w, log, writeEvents);
    w.cork();
    for (const s of ['a', 'b', 'c']) w.write(bytes(s), (e) => log.push(`cb ${s} ${show(e)}`));
    process.nextTick(() => w.uncork());
    setTimeout(() => w.end(), 2);
  },
  'write: destroy(err) aborts'(C, log) {
    const w = Writable.fromWeb(sink(C, log, { slow: true }));
    watch(w, log, writeEvents);
    w.write(bytes('a'));
    setTimeout(() => w.destroy(new Error('u:destroy')), 3);
  },
  'write: destroy() closes'(C, log) {
    const w = Writable.fromWeb(sink(C, log));
    watch(w, log, writeEvents);
    w.write(bytes('a'));
    setTimeout(() => w.destroy(), 2);
  },
  'write: the stream errors from its sink'(C, log) {
    let ctl;
    const ws = new C.WritableStream({ start(c) { ctl = c; }, write(ch) { log.push(`write ${show(ch)}`); } });
    const w = Writable.fromWeb(ws);
    watch(w, log, writeEvents);
    w.write(bytes('a'));
    setTimeout(() => ctl.error(new Error('u:ctl')), 2);
  },
  'write: decodeStrings false, objectMode'(C, log) {
    const w = Writable.fromWeb(sink(C, log), { decodeStrings: false });
    watch(w, log, writeEvents);
    w.write('plain');
    w.end();
    const o = Writable.fromWeb(sink(C, log), { objectMode: true });
    o.write({ x: 1 });
    o.write(7);
    o.end();
  },
  'write: not-bytes chunk, not objectMode'(C, log) {
    const w = Writable.fromWeb(sink(C, log));
    watch(w, log, writeEvents);
    attempt(log, () => w.write(42));
  },
  'write: signal aborted'(C, log) {
    const ac = new AbortController();
    const w = Writable.fromWeb(sink(C, log, { slow: true }), { signal: ac.signal });
    watch(w, log, writeEvents);
    w.write(bytes('a'));
    setTimeout(() => ac.abort(new Error('u:abort')), 2);
  },
  'write: bad options, locked'(C, log) {
    const s = () => new C.WritableStream();
    attempt(log, () => Writable.fromWeb(s(), { objectMode: 'y' }));
    attempt(log, () => Writable.fromWeb(s(), { decodeStrings: 0 }));
    attempt(log, () => Writable.fromWeb(s(), null));
    attempt(log, () => Writable.fromWeb(s(), { highWaterMark: NaN }));
    const locked = s();
    locked.getWriter();
    attempt(log, () => Writable.fromWeb(locked));
    attempt(log, () => Writable.fromWeb(locked, { decodeStrings: 0 }));
  },
  'write: a highWaterMark 0 WritableStream'(C, log) {
    const w = Writable.fromWeb(sink(C, log, { hwm: 0 }));
    watch(w, log, writeEvents);
    w.write(bytes('a'), (e) => log.push(`cb a ${show(e)}`));
    w.end();
    setTimeout(() => log.push(`buffered ${w.writableLength} finished ${w.writableFinished}`), 20);
  },
  'write: end after the stream closed'(C, log) {
    const ws = sink(C, log);
    const w = Writable.fromWeb(ws);
    watch(w, log, writeEvents);
    w.write(bytes('a'), () => {
      // finish is never emitted when the web stream closed first (Node's adapter never calls final back)
      log.push('written');
    });
    w.end();
  },

  // --- Duplex.fromWeb ----------------------------------------------------------
  'duplex: through a TransformStream'(C, log) {
    const t = new C.TransformStream({
      transform(chunk, c) { log.push(`transform ${show(chunk)}`); c.enqueue(chunk); },
      flush() { log.push('flush'); },
    });
    const d = Duplex.fromWeb(t, { encoding: 'utf8' });
    watch(d, log, [...readEvents, 'finish']);
    d.write(bytes('x'));
    d.end(bytes('y'));
  },
  'duplex: readable side errors'(C, log) {
    const pair = { readable: source(C, log, [bytes('a')], { error: new Error('u:src') }), writable: sink(C, log) };
    const d = Duplex.fromWeb(pair);
    watch(d, log, [...readEvents, 'finish']);
  },
  'duplex: destroy(err) aborts and cancels'(C, log) {
    const pair = { readable: source(C, log, [bytes('a'), bytes('b'), bytes('c')]), writable: sink(C, log) };
    const d = Duplex.fromWeb(pair, { objectMode: true });
    watch(d, log, [...readEvents, 'finish']);
    d.write(bytes('w'));
    d.once('data', () => d.destroy(new Error('u:destroy')));
  },
  'duplex: allowHalfOpen, write side ends first'(C, log) {
    const pair = { readable: source(C, log, [bytes('a'), bytes('b')]), writable: sink(C, log) };
    const d = Duplex.fromWeb(pair, { allowHalfOpen: true });
    watch(d, log, [...readEvents, 'finish']);
    d.end(bytes('z'));
  },
  'duplex: bad arguments, locked sides'(C, log) {
    const pair = () => ({ readable: new C.ReadableStream(), writable: new C.WritableStream() });
    attempt(log, () => Duplex.fromWeb(pair(), { objectMode: 3 }));
    attempt(log, () => Duplex.fromWeb(pair(), { encoding: 'x' }));
    attempt(log, () => Duplex.fromWeb(pair(), null));
    const lockedR = pair();
    lockedR.readable.getReader();
    attempt(log, () => Duplex.fromWeb(lockedR));
    log.push(`writable locked after ${lockedR.writable.locked}`);
    const lockedW = pair();
    lockedW.writable.getWriter();
    attempt(log, () => Duplex.fromWeb(lockedW));
    log.push(`readable locked after ${lockedW.readable.locked}`);
  },
};

async function run(C, scenario) {
  const log = [];
  const quiet = () => {};
  process.on('unhandledRejection', quiet);
  await sleep(1); // a clean tick state for each run
  scenario(C, log);
  // Settled: nothing logged for 80 ms (timers in the scenarios are a few ms; a loaded machine stretches them).
  let seen = -1;
  for (let waited = 0; seen !== log.length && waited < 3000; waited += 80) {
    seen = log.length;
    await sleep(80);
  }
  process.off('unhandledRejection', quiet);
  return log;
}

const nativeCrashes = new Set(MAJOR < 23 ? ['write: sink fails inside a writev'] : []);

for (const [name, scenario] of Object.entries(scenarios)) {
  test(`fromWeb, ours as native: ${name}`, { ...T, skip: nativeCrashes.has(name) && 'Node\'s adapter rejects unhandled' }, async () => {
    const native = await run(NATIVE, scenario);
    const ours = await run(OURS, scenario);
    assert.deepEqual(ours, native);
    assert.ok(native.length > 0, 'the scenario logged something');
  });
}

test(`the version table matches Node ${MAJOR}'s own adapters`, T, async () => {
  // An error while a read waits: does Node's adapter destroy at once?
  let ctl;
  const r = Readable.fromWeb(new N.ReadableStream({ start(c) { ctl = c; } }));
  r.on('error', () => {});
  r.read(0);
  ctl.error(new Error('probe'));
  assert.equal(r.destroyed, readEndsAtOnce);
  // Is a chunk written into the web stream inside write() (its size() runs at once)?
  let sized = false;
  const w = Writable.fromWeb(new N.WritableStream({}, { highWaterMark: 1, size() { sized = true; return 1; } }));
  w.write(new Uint8Array(1));
  assert.equal(sized, writeMode.writesAtOnce);
  // A failed _writev(): called back (Node 23+) or not (Node 20/22, whose adapter then rejects
  // unhandled): asked of a child process without the preload, where that rejection does no harm.
  const probe = `
    const { Writable } = require('node:stream');
    let n = 0;
    const w = Writable.fromWeb(new WritableStream({ write() { if (n++ === 1) throw new Error('x'); } }));
    w.on('error', () => {});
    process.on('unhandledRejection', () => {});
    w.write(new Uint8Array(1));
    w.write(new Uint8Array(1), () => console.log('called back'));
    w.write(new Uint8Array(1));
    setTimeout(() => {}, 20);`;
  const out = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }).stdout;
  assert.equal(out.includes('called back'), writeMode.failedBatchCallsBack);
});

test('a failed _writev() on Node 20/22: no callback, the error event, no unhandled rejection', T, async () => {
  const log = [];
  await sleep(1);
  scenarios['write: sink fails inside a writev'](OURS, log);
  await sleep(40);
  const expected = ['write bytes(a)B', 'cb a null', 'write bytes(b)B', 'write bytes(c)B', 'error Error:u:sink', 'close'];
  if (MAJOR < 23) assert.deepEqual(log, expected);
  else assert.ok(log.includes('cb b Error:u:sink'), log.join(', '));
});
