// The codec classes (src/codecs/): shape and errors as Node's own on this
// Node, the Encoding and Compression standards' behaviour, bounded memory,
// and install/uninstall. Every test has a time bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { inspect } from 'node:util';
import { ReadableStream } from '../../src/index.js';
import { TextDecoderStream } from '../../src/codecs/text-decoder-stream.js';
import { TextEncoderStream } from '../../src/codecs/text-encoder-stream.js';
import { CompressionStream } from '../../src/codecs/compression-stream.js';
import { DecompressionStream } from '../../src/codecs/decompression-stream.js';
import { installCodecs, uninstallCodecs, codecClasses } from '../../src/codecs/install.js';

const T = { timeout: 20000 };
const ours = { TextEncoderStream, TextDecoderStream, CompressionStream, DecompressionStream };
const native = {
  TextEncoderStream: globalThis.TextEncoderStream,
  TextDecoderStream: globalThis.TextDecoderStream,
  CompressionStream: globalThis.CompressionStream,
  DecompressionStream: globalThis.DecompressionStream,
};
const args = { TextEncoderStream: [], TextDecoderStream: [], CompressionStream: ['gzip'], DecompressionStream: ['gzip'] };

/** What a call throws: [constructor name, code]; ['ok'] when it does not throw. */
function outcome(fn) {
  try {
    fn();
    return ['ok'];
  } catch (e) {
    return [e.constructor.name, e.code];
  }
}

/** `bytes` in views of `size` bytes. */
function chunksOf(bytes, size) {
  const chunks = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return chunks;
}

async function collect(readable) {
  const out = [];
  for await (const chunk of readable) out.push(chunk);
  return out;
}

/** Writes `chunks` into `codec` while reading its output; resolves to the output chunks. */
async function run(codec, chunks) {
  const reading = collect(codec.readable);
  const writing = (async () => {
    const writer = codec.writable.getWriter();
    for (const chunk of chunks) await writer.write(chunk);
    await writer.close();
  })();
  const [read, written] = await Promise.allSettled([reading, writing]);
  if (read.status === 'rejected') throw read.reason;
  if (written.status === 'rejected') throw written.reason;
  return read.value;
}

/**
 * How `codec` treats one chunk: [constructor, code] of the write's error, or
 * ['ok', what close gives, the output as hex] when it takes it. Native Node
 * 20/22 leave the readable side pending after refusing a chunk, so only the
 * write is awaited then.
 */
async function chunkOutcome(codec, chunk) {
  const writer = codec.writable.getWriter();
  const reading = collect(codec.readable).catch(() => []);
  try {
    await writer.write(chunk);
  } catch (e) {
    return [e.constructor.name, e.code];
  }
  const closed = await writer.close().then(() => 'closed', (e) => `${e.constructor.name} ${e.code}`);
  const out = await reading;
  return ['ok', closed, out.every((c) => typeof c === 'string') ? out.join('') : concat(out).toString('hex')];
}

const detachedView = () => {
  const view = new Uint8Array(4);
  structuredClone(view.buffer, { transfer: [view.buffer] });
  return view;
};

const randomBytes = (n) => {
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, i + 65536));
  return out;
};
const concat = (chunks) => Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));

test('class shape matches Node\'s own', T, () => {
  for (const name of Object.keys(ours)) {
    const [O, N] = [ours[name], native[name]];
    assert.equal(O.name, N.name);
    assert.equal(O.length, N.length, `${name}.length`);
    assert.deepEqual(Reflect.ownKeys(O.prototype).map(String).sort(), Reflect.ownKeys(N.prototype).map(String).sort(), name);
    for (const key of Reflect.ownKeys(N.prototype)) {
      const [o, n] = [Object.getOwnPropertyDescriptor(O.prototype, key), Object.getOwnPropertyDescriptor(N.prototype, key)];
      assert.equal(o.enumerable, n.enumerable, `${name}.${String(key)} enumerable`);
      assert.equal(typeof o.get, typeof n.get, `${name}.${String(key)} getter`);
    }
    assert.equal(Object.prototype.toString.call(new O(...args[name])), Object.prototype.toString.call(new N(...args[name])));
    assert.deepEqual(outcome(() => O()), outcome(() => N()), `${name}() without new`);
    for (const member of ['readable', 'writable']) {
      const get = (C) => Object.getOwnPropertyDescriptor(C.prototype, member).get;
      assert.deepEqual(outcome(() => get(O).call({})), outcome(() => get(N).call({})), `${name}.${member} brand check`);
      assert.deepEqual(outcome(() => get(O).call(new N(...args[name]))), outcome(() => get(N).call({})));
    }
    const o = new O(...args[name]);
    assert.ok(o instanceof O);
    assert.equal(o.readable, o.readable);
    assert.ok(o.readable instanceof ReadableStream, 'the streams are the library\'s');
    assert.match(inspect(o), new RegExp(`^${name} \\{\\s+(encoding: 'utf-8',\\s+)?.*readable: ReadableStream`, 's'));
  }
});

test('constructor errors match Node\'s own', T, () => {
  const formats = ['deflate', 'deflate-raw', 'gzip', 'brotli', 'zstd', 'br', 'GZIP', '', undefined, null, 1,
    { toString: () => 'gzip' }, Symbol('gzip')];
  for (const format of formats) {
    for (const name of ['CompressionStream', 'DecompressionStream']) {
      assert.deepEqual(outcome(() => new ours[name](format)), outcome(() => new native[name](format)),
        `new ${name}(${String(format)})`);
    }
  }
  const labels = [undefined, 'utf8', ' UTF-16LE ', 'latin1', 'replacement', 'nope', 5, {}];
  const options = [undefined, null, {}, { fatal: 1, ignoreBOM: 'x' }, 5, 'x'];
  for (const label of labels) {
    for (const option of options) {
      assert.deepEqual(outcome(() => new TextDecoderStream(label, option)),
        outcome(() => new native.TextDecoderStream(label, option)), `TextDecoderStream(${String(label)}, ${option})`);
    }
    if (outcome(() => new native.TextDecoderStream(label))[0] === 'ok') {
      const [o, n] = [new TextDecoderStream(label, { fatal: true }), new native.TextDecoderStream(label, { fatal: true })];
      assert.deepEqual([o.encoding, o.fatal, o.ignoreBOM], [n.encoding, n.fatal, n.ignoreBOM]);
    }
  }
});

test('TextDecoderStream decodes across chunk boundaries and errors as the standard says', T, async () => {
  const euro = [0xe2, 0x82, 0xac];
  const chunks = [new Uint8Array([0xef, 0xbb, 0xbf, 0x61, euro[0]]), new Uint8Array([euro[1]]), new Uint8Array([euro[2], 0x62])];
  assert.deepEqual(await run(new TextDecoderStream(), chunks), ['a', '€b']);
  assert.deepEqual(await run(new TextDecoderStream('utf-8', { ignoreBOM: true }), chunks), ['\ufeffa', '€b']);
  assert.deepEqual(await run(new TextDecoderStream(), [new Uint8Array([0x61, 0xe2])]), ['a', '\ufffd'], 'flush ends an incomplete sequence');
  assert.deepEqual(await run(new TextDecoderStream('utf-16le'), [new Uint8Array([0x61]), new Uint8Array([0, 0x62, 0])]), ['ab']);
  assert.deepEqual(await run(new TextDecoderStream(), [new Uint8Array(0), new ArrayBuffer(1)]), ['\0'], 'no empty string is enqueued');
  await assert.rejects(run(new TextDecoderStream('utf-8', { fatal: true }), [new Uint8Array([0xff])]), TypeError);
  await assert.rejects(run(new TextDecoderStream('utf-8', { fatal: true }), [new Uint8Array([0xe2])]), TypeError);
  const odd = [undefined, null, 'abc', 5, {}, new ArrayBuffer(2), new Uint8Array(new SharedArrayBuffer(2)), detachedView()];
  for (const chunk of odd) {
    const [o, n] = await Promise.all([chunkOutcome(new TextDecoderStream(), chunk), chunkOutcome(new native.TextDecoderStream(), chunk)]);
    assert.deepEqual(o, n, `as native, chunk ${Object.prototype.toString.call(chunk)}`);
  }
});

test('TextEncoderStream pairs surrogates across chunks', T, async () => {
  const bytes = async (chunks) => [...concat(await run(new TextEncoderStream(), chunks))];
  assert.deepEqual(await bytes(['\ud83d', '\ude00']), [0xf0, 0x9f, 0x98, 0x80]);
  assert.deepEqual(await bytes(['a\ud83d', '', '\ude00b']), [0x61, 0xf0, 0x9f, 0x98, 0x80, 0x62]);
  assert.deepEqual(await bytes(['\ud83d', 'x']), [0xef, 0xbf, 0xbd, 0x78], 'a high surrogate then no low one');
  assert.deepEqual(await bytes(['a\ud83d']), [0x61, 0xef, 0xbf, 0xbd], 'a high surrogate at the end');
  assert.deepEqual(await bytes(['\ude00']), [0xef, 0xbf, 0xbd], 'a lone low surrogate');
  assert.deepEqual(await bytes([1, { toString: () => 'x' }, null]), [0x31, 0x78, 0x6e, 0x75, 0x6c, 0x6c]);
  const out = await run(new TextEncoderStream(), ['', 'é']);
  assert.equal(out.length, 1, 'nothing is enqueued for an empty string');
  assert.equal(out[0].constructor, Uint8Array);
  const [o, n] = await Promise.all([chunkOutcome(new TextEncoderStream(), Symbol('x')), chunkOutcome(new native.TextEncoderStream(), Symbol('x'))]);
  assert.deepEqual(o, n, 'a Symbol chunk as native');
  const thrown = new Error('toString');
  await assert.rejects(run(new TextEncoderStream(), [{ toString() { throw thrown; } }]), (e) => e === thrown);
});

const formatsHere = ['deflate', 'deflate-raw', 'gzip', 'brotli', 'zstd'].filter((f) => outcome(() => new native.CompressionStream(f))[0] === 'ok');
const syncDecompress = {
  deflate: zlib.inflateSync, 'deflate-raw': zlib.inflateRawSync, gzip: zlib.gunzipSync,
  brotli: zlib.brotliDecompressSync, zstd: zlib.zstdDecompressSync,
};

test('compression round trips, readable by zlib, for every format native takes', T, async () => {
  const text = Buffer.from('fast-webstreams '.repeat(5000));
  const random = zlib.deflateSync(Buffer.from(crypto.getRandomValues(new Uint8Array(65536)))); // incompressible
  for (const format of formatsHere) {
    for (const input of [text, random]) {
      const pieces = [input.subarray(0, 1), input.subarray(1, 700), new DataView(input.buffer, input.byteOffset + 700, 300),
        input.subarray(1000, 1000), input.subarray(1000)];
      const compressed = await run(new CompressionStream(format), pieces);
      assert.ok(compressed.every((c) => c.constructor === Uint8Array), 'Uint8Array chunks');
      assert.deepEqual(syncDecompress[format](concat(compressed)), input, `${format}: zlib reads ours`);
      const split = concat(compressed);
      const parts = [];
      for (let i = 0; i < split.length; i += 100) parts.push(split.subarray(i, i + 100));
      assert.deepEqual(concat(await run(new DecompressionStream(format), parts)), input, `${format}: round trip`);
    }
  }
});

test('many small chunks and a writer that reuses its buffer', T, async () => {
  const cs = new CompressionStream('gzip');
  const reading = collect(cs.readable);
  const writer = cs.writable.getWriter();
  const buffer = new Uint8Array(100);
  const expected = [];
  for (let i = 0; i < 3000; i++) {
    buffer.fill(i % 251);
    expected.push(Buffer.from(buffer));
    await writer.write(buffer); // the same memory every time, changed once the write settles
  }
  await writer.close();
  assert.deepEqual(zlib.gunzipSync(concat(await reading)), Buffer.concat(expected));
});

test('the chunks written in one turn reach zlib as one write', T, async () => {
  // Counted on zlib's own write, shadowed on Gzip.prototype for the test.
  const original = zlib.Gzip.prototype.write;
  const sizes = [];
  zlib.Gzip.prototype.write = function (chunk, ...rest) {
    sizes.push(chunk.byteLength);
    return original.call(this, chunk, ...rest);
  };
  try {
    const cs = new CompressionStream('gzip');
    const reading = collect(cs.readable);
    const writer = cs.writable.getWriter();
    const chunks = Array.from({ length: 10 }, () => randomBytes(1000));
    for (const chunk of chunks) writer.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(sizes, [10000], 'one zlib write for the ten chunks');
    await writer.close();
    assert.deepEqual(zlib.gunzipSync(concat(await reading)), concat(chunks));
  } finally {
    delete zlib.Gzip.prototype.write;
  }
  assert.equal(zlib.Gzip.prototype.write, original);
});

test('a writer that reuses its buffer, large chunks among small ones', T, async () => {
  // Large chunks go to zlib uncopied (their write waits for zlib), small ones
  // are copied and batched: every switch between the two keeps the bytes.
  const sizes = [100, 70000, 20000, 100, 300, 65536, 16384, 16383, 1];
  const buffer = new Uint8Array(70000);
  const expected = [];
  const written = [];
  for (const [name, format] of [['CompressionStream', 'deflate'], ['DecompressionStream', 'deflate']]) {
    const input = name === 'CompressionStream' ? null : zlib.deflateSync(Buffer.concat(Array.from({ length: 5 }, () => crypto.getRandomValues(new Uint8Array(60000)))));
    const stream = new ours[name](format);
    const reading = collect(stream.readable);
    const writer = stream.writable.getWriter();
    let offset = 0;
    for (let i = 0; input === null ? i < 60 : offset < input.length; i++) {
      const size = sizes[i % sizes.length];
      if (input === null) {
        // Random bytes: zlib takes a while over them, long enough to see a
        // change made while it still reads.
        for (let at = 0; at < size; at += 65536) crypto.getRandomValues(buffer.subarray(at, Math.min(size, at + 65536)));
        expected.push(Buffer.from(buffer.subarray(0, size)));
      } else {
        buffer.set(input.subarray(offset, offset + size));
      }
      const length = input === null ? size : Math.min(size, input.length - offset);
      offset += length;
      await writer.write(buffer.subarray(0, length)); // changed again once the write settles
    }
    await writer.close();
    const out = concat(await reading);
    written.push(input === null ? [zlib.inflateSync(out), Buffer.concat(expected)] : [out, zlib.inflateSync(input)]);
  }
  for (const [got, want] of written) assert.ok(Buffer.from(got).equals(want), 'the bytes written, in order');
});

test('odd chunks and corrupt input are treated as native treats them', T, async () => {
  const odd = () => [undefined, null, 'abc', 5, true, Symbol('x'), [1, 2], {}, new ArrayBuffer(4), new ArrayBuffer(0),
    new Uint8Array(new SharedArrayBuffer(4)), new SharedArrayBuffer(4), detachedView(), new Uint8Array(0)];
  for (const name of ['CompressionStream', 'DecompressionStream']) {
    const [mine, theirs] = [odd(), odd()];
    for (let i = 0; i < mine.length; i++) {
      const [o, n] = await Promise.all([chunkOutcome(new ours[name]('deflate'), mine[i]), chunkOutcome(new native[name]('deflate'), theirs[i])]);
      assert.deepEqual(o, n, `${name}: chunk ${Object.prototype.toString.call(mine[i])} ${String(mine[i]?.byteLength ?? '')}`);
    }
  }
  const good = zlib.deflateSync('hello');
  const cases = {
    corrupt: ['deflate', new Uint8Array([1, 2, 3, 4])],
    truncated: ['deflate', good.subarray(0, good.length - 2)],
    empty: ['deflate', new Uint8Array(0)],
    trailing: ['deflate', Buffer.concat([good, Buffer.from([1, 2, 3])])],
    trailingRaw: ['deflate-raw', Buffer.concat([zlib.deflateRawSync('hello'), Buffer.from([1, 2, 3])])],
    twoGzipMembers: ['gzip', Buffer.concat([zlib.gzipSync('a'), zlib.gzipSync('b')])],
  };
  for (const [name, [format, bytes]] of Object.entries(cases)) {
    const settle = (C) => run(new C(format), [bytes]).then((out) => `ok ${concat(out)}`, (e) => `error ${e.constructor.name} ${e.code}`);
    const [o, n] = await Promise.all([settle(DecompressionStream), settle(native.DecompressionStream)]);
    assert.equal(o, n, name);
  }
});

/** How many of `chunks`' writes settle while nobody reads (waits until the count stops moving). */
async function settledWithoutReader(codec, chunks) {
  const writer = codec.writable.getWriter();
  let settled = 0;
  const writes = chunks.map((c) => writer.write(c).then(() => settled++));
  for (let last = -1; last !== settled;) {
    last = settled;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { writer, writes, settled };
}

test('writes go ahead of reads as far as Node\'s class lets them, and memory stays bounded', T, async () => {
  const bomb = zlib.gzipSync(Buffer.alloc(32 << 20)); // ~32 KiB that inflate to 32 MiB
  const random = randomBytes(1 << 20); // does not compress: each write's output is as large
  const cases = [
    ['DecompressionStream', () => chunksOf(bomb, 512)],
    ['CompressionStream', () => chunksOf(random, 1024)],
  ];
  for (const [name, chunks] of cases) {
    const theirs = await settledWithoutReader(new native[name]('gzip'), chunks());
    const before = process.memoryUsage().arrayBuffers;
    const codec = new ours[name]('gzip');
    const mine = await settledWithoutReader(codec, chunks());
    // Node's class takes input and holds output up to zlib's high-water marks
    // (16 KiB on Node 20, 64 KiB on 22+) while nobody reads; ours the same.
    assert.ok(mine.settled > 0, `${name}: no write settled without a reader`);
    assert.ok(Math.abs(mine.settled - theirs.settled) <= 2, `${name}: ours ${mine.settled}, Node's ${theirs.settled}`);
    assert.ok(process.memoryUsage().arrayBuffers - before < 4 << 20, `${name}: output held without a reader`);
    // Reading it all lets every write through.
    const reading = collect(codec.readable);
    await Promise.all(mine.writes);
    await mine.writer.close();
    const out = Buffer.concat(await reading);
    if (name === 'DecompressionStream') assert.equal(out.length, 32 << 20);
    else assert.deepEqual(zlib.gunzipSync(out), Buffer.from(random));
    // Node's class leaves the writes waiting for room pending after an abort: not awaited.
    for (const w of theirs.writes) w.catch(() => {});
    theirs.writer.abort().catch(() => {});
  }
});

test('a write and the close settle before anything is read, as in Node\'s class', T, async () => {
  for (const name of ['CompressionStream', 'DecompressionStream']) {
    const input = name === 'CompressionStream' ? new TextEncoder().encode('hello '.repeat(1000)) : zlib.gzipSync('hello');
    const codec = new ours[name]('gzip');
    const writer = codec.writable.getWriter();
    await writer.write(input);
    await writer.close();
    const out = Buffer.concat(await collect(codec.readable));
    assert.equal(String(name === 'CompressionStream' ? zlib.gunzipSync(out) : out), name === 'CompressionStream' ? 'hello '.repeat(1000) : 'hello');
  }
});

test('cancel and abort stop zlib and settle everything', T, async () => {
  const input = zlib.gzipSync(randomBytes(1 << 20)); // 1 MiB, more than zlib is fed ahead
  const ds = new DecompressionStream('gzip');
  const writer = ds.writable.getWriter();
  const reader = ds.readable.getReader();
  const writes = [];
  for (let i = 0; i < input.length; i += 4096) writes.push(writer.write(input.subarray(i, i + 4096)).then(() => 'ok', (e) => e));
  const first = await reader.read();
  assert.equal(first.done, false);
  const reason = new Error('enough');
  await reader.cancel(reason);
  const outcomes = await Promise.all(writes);
  assert.ok(outcomes.includes(reason), `writes after the cancel reject with its reason: ${outcomes.map(String).join(', ')}`);
  await assert.rejects(writer.closed, (e) => e === reason);

  const cs = new CompressionStream('deflate');
  const w2 = cs.writable.getWriter();
  const r2 = cs.readable.getReader();
  const pending = w2.write(new Uint8Array(100000));
  const read = r2.read();
  await w2.abort(reason);
  await pending.catch(() => {});
  await assert.rejects(r2.closed, (e) => e === reason);
  await read.catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 50)); // any late zlib callback comes in here

  // A write waiting for zlib to take more input when the cancel comes: a
  // small write is in flight (zlib answers no sooner than the next event loop
  // turn), and the 100 KB one behind it is over the limit fed ahead.
  const cs3 = new CompressionStream('deflate');
  const w3 = cs3.writable.getWriter();
  const r3 = cs3.readable.getReader();
  const small = w3.write(randomBytes(1000));
  const large = w3.write(randomBytes(100000));
  const read3 = r3.read();
  await small;
  for (let i = 0; i < 10; i++) await null;
  await r3.cancel(reason);
  await assert.rejects(large, (e) => e === reason);
  assert.deepEqual(await read3, { done: true, value: undefined });
});

test('a write right after a cancel of the readable side fails with its reason, as the standard\'s would', T, async () => {
  // A zlib class's writes do not wait for the readable side, so this write
  // reaches the transformer after the cancel cleared it and before the cancel
  // errored the writable side (it used to fail with a TypeError of ours).
  const settle = (p) => p.then((v) => ['ok', v], (e) => ['rejected', e]);
  const run = async (Class, reason) => {
    const stream = new Class('gzip');
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    await writer.write(new Uint8Array(10));
    const cancel = settle(reader.cancel(reason));
    const write = settle(writer.write(new Uint8Array(3)));
    return { cancel: await cancel, write: await write, closed: await settle(writer.closed) };
  };
  const ours = await run(CompressionStream, 'x');
  assert.deepEqual(ours, { cancel: ['ok', undefined], write: ['rejected', 'x'], closed: ['rejected', 'x'] });
  // Node 20 and 22 reject the write too, and with the same reason when it has one
  // (Node 24+ resolves it: docs/codecs.md, "Fuzzing").
  const theirs = await run(native.CompressionStream, 'x');
  if (theirs.write[0] === 'rejected') assert.deepEqual(theirs, await run(CompressionStream, 'x'));
});

test('an abort or a cancel without a reason errors the other side with Node\'s AbortError', T, async () => {
  // Node's zlib classes are a zlib stream behind its adapters, which report a
  // stream destroyed without an error as an AbortError (the standard would
  // use the reason, undefined). Each outcome, natively and ours, on this Node.
  const settle = (p) => p.then(() => 'ok', (e) => (e === undefined ? 'undefined' : [e.constructor, e.name, e.code, e.message]));
  const aborted = async (Class) => {
    const stream = new Class('deflate');
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    await writer.write(new Uint8Array(10));
    const abort = settle(writer.abort());
    return { abort: await abort, read: await settle(reader.read()), closed: await settle(writer.closed), readerClosed: await settle(reader.closed) };
  };
  const cancelled = async (Class) => {
    const stream = new Class('gzip');
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    await writer.write(new Uint8Array(10));
    const cancel = settle(reader.cancel());
    return { cancel: await cancel, write: await settle(writer.write(new Uint8Array(3))), closed: await settle(writer.closed) };
  };
  const abortedOurs = await aborted(CompressionStream);
  assert.deepEqual(abortedOurs, await aborted(native.CompressionStream));
  assert.equal(abortedOurs.read[2], 'ABORT_ERR');
  const cancelledOurs = await cancelled(CompressionStream);
  const cancelledNative = await cancelled(native.CompressionStream);
  // Node 24+ resolves a write after the cancel (docs/codecs.md, "Fuzzing").
  if (cancelledNative.write === 'ok') cancelledNative.write = cancelledOurs.write;
  assert.deepEqual(cancelledOurs, cancelledNative);
  assert.equal(cancelledOurs.closed[2], 'ABORT_ERR');
});

test('pipes through our chain and through install()', T, async () => {
  const lines = await collect(ReadableStream.from(['a\nb', 'c\n\ud83d', '\ude00'])
    .pipeThrough(new TextEncoderStream())
    .pipeThrough(new CompressionStream('deflate-raw'))
    .pipeThrough(new DecompressionStream('deflate-raw'))
    .pipeThrough(new TextDecoderStream()));
  assert.equal(lines.join(''), 'a\nbc\n😀');

  const streamWeb = await import('node:stream/web');
  const before = Object.getOwnPropertyDescriptor(globalThis, 'TextDecoderStream');
  assert.equal(installCodecs(), true);
  assert.equal(installCodecs(), false);
  for (const name of Object.keys(codecClasses)) {
    assert.equal(globalThis[name], codecClasses[name]);
    assert.equal(streamWeb[name], codecClasses[name], `node:stream/web ${name}`);
    assert.equal(Object.getOwnPropertyDescriptor(globalThis, name).enumerable, false);
  }
  assert.equal(uninstallCodecs(), true);
  assert.equal(uninstallCodecs(), false);
  assert.deepEqual(Object.getOwnPropertyDescriptor(globalThis, 'TextDecoderStream'), before);
  installCodecs({ streamWeb: false });
  assert.equal(globalThis.CompressionStream, CompressionStream);
  assert.equal(streamWeb.CompressionStream, native.CompressionStream, 'node:stream/web left alone');
  uninstallCodecs();
  for (const name of Object.keys(codecClasses)) {
    assert.equal(globalThis[name], native[name]);
    assert.equal(streamWeb[name], native[name]);
  }
});

/** How a write of `bytes`, then the close, then the first read settle on `codec` (constructor and code). */
async function failureOutcomes(codec, bytes) {
  const shape = (p) => p.then(() => 'ok', (e) => `${e.constructor.name} ${e.code}`);
  const writer = codec.writable.getWriter();
  const reader = codec.readable.getReader();
  const read = shape((async () => { while (!(await reader.read()).done); })());
  const write = await shape(writer.write(bytes));
  const close = await shape(writer.close());
  return `write ${write}, close ${close}, read ${await read}`;
}

// Found by the codec fuzzer (test/fuzz/codecs/, docs/codecs.md "Fuzzing"):
// Node 22 wraps brotli's content errors (ERR__ERROR_FORMAT_*) in no TypeError,
// but its end-of-input Z_BUF_ERROR it does; ours wrapped both.
test('each engine failure is wrapped (or not) as Node wraps it, per format', T, async () => {
  const formats = ['deflate', 'deflate-raw', 'gzip', 'brotli'].filter((f) => outcome(() => new native.DecompressionStream(f))[0] === 'ok');
  for (const format of formats) {
    for (const [name, bytes] of [['a bad header', new Uint8Array(4).fill(0xff)], ['no input', new Uint8Array(0)]]) {
      const [o, n] = await Promise.all([failureOutcomes(new DecompressionStream(format), bytes),
        failureOutcomes(new native.DecompressionStream(format), bytes)]);
      assert.equal(o, n, `${format}, ${name}`);
    }
  }
});

// Found by the codec fuzzer: Node's class makes a write wait for zlib (and
// rejects it if zlib fails meanwhile) only from zlib's writableHighWaterMark
// (16 KiB on Node 20, 64 KiB on 22+); below it the write resolves and the
// failure goes to the close and the reads. Ours waited from 16 KiB everywhere.
test('a failing write settles as native: resolved below zlib\'s high-water mark, rejected from it', T, async () => {
  for (const size of [4, 20 << 10, 80 << 10]) {
    const bytes = new Uint8Array(size).fill(0xff);
    const [o, n] = await Promise.all([failureOutcomes(new DecompressionStream('deflate'), bytes),
      failureOutcomes(new native.DecompressionStream('deflate'), bytes)]);
    assert.equal(o, n, `${size} bytes of bad input`);
  }
});

// Found by the codec fuzzer: a zlib failure reported after the readable side
// was cancelled (Node being asked how to report it meanwhile) made later work
// fail with it; the cancellation stands instead, and nothing stays pending.
test('a cancel is not undone by a zlib failure that comes after it', T, async () => {
  for (const C of [DecompressionStream, native.DecompressionStream]) {
    const ds = new C('gzip');
    const writer = ds.writable.getWriter();
    const reader = ds.readable.getReader();
    const write = writer.write(new Uint8Array(100).fill(0xff)).then(() => 'ok', (e) => (e === 'why' ? 'the reason' : e.code));
    const cancelled = await reader.cancel('why').then(() => 'ok', (e) => e.code);
    assert.equal(cancelled, 'ok', C === DecompressionStream ? 'ours' : 'native');
    assert.ok(['ok', 'the reason'].includes(await write), `${C === DecompressionStream ? 'ours' : 'native'}: ${await write}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(await writer.closed.then(() => 'closed', (e) => (e === 'why' ? 'the reason' : e.code)), 'the reason');
  }
});
