#!/usr/bin/env node
// What the codec classes do with every kind of input, natively and under the
// preload, compared: each case writes chunks, closes and reads everything,
// and records how each write and the close settled (error constructor and
// code), how reading ended, and a digest of the output. Complements the error
// table (which compares errors only) with the data; run it on a new Node
// version to see whether our classes still behave as its own (docs/codecs.md).
//   node test/errors/codec-parity.mjs [--filter=TEXT]    exit 1 if any case differs
// Where Node's class leaves reading pending forever (Node 20/22 after a refused
// chunk), the read is not compared: ours errors the readable side instead.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const filter = process.argv.find((a) => a.startsWith('--filter='))?.slice(9);
const PENDING_MS = 1500;

const shape = (e) => {
  const isObject = (typeof e === 'object' && e !== null) || typeof e === 'function';
  return `${isObject ? e.constructor?.name : typeof e}${isObject && e.code !== undefined ? ` [${e.code}]` : ''}`;
};

function digest(parts) {
  if (parts.length === 0) return 'none';
  if (typeof parts[0] === 'string') return `text:${JSON.stringify(parts.join('')).slice(0, 60)}`;
  const hash = createHash('sha1');
  let bytes = 0;
  const types = new Set();
  for (const p of parts) {
    types.add(p?.constructor?.name);
    hash.update(p);
    bytes += p.byteLength;
  }
  return `${[...types].join(',')}:${bytes}:${hash.digest('hex').slice(0, 8)}`;
}

const settled = (promise) => promise.then(() => 'ok', (e) => `rejected ${shape(e)}`);
const orPending = (promise) => Promise.race([promise, new Promise((r) => setTimeout(() => r('pending'), PENDING_MS))]);

async function run(make, chunks) {
  let codec;
  try {
    codec = make();
  } catch (e) {
    return `constructor throws ${shape(e)}`;
  }
  const writer = codec.writable.getWriter();
  const reader = codec.readable.getReader();
  const out = [];
  const reading = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return 'end';
        out.push(value);
      }
    } catch (e) {
      return `rejected ${shape(e)}`;
    }
  })();
  const writes = chunks.map((c) => settled(writer.write(typeof c === 'function' ? c() : c)));
  const close = settled(writer.close());
  const w = await orPending(Promise.all(writes));
  const c = await orPending(close);
  const r = await orPending(reading);
  return `writes=${Array.isArray(w) ? w.join('|') : w} close=${c} read=${r} output=${digest(out)}`;
}

function cases() {
  const text = new TextEncoder().encode('héllo wörld');
  const detached = () => {
    const view = new Uint8Array(4);
    structuredClone(view.buffer, { transfer: [view.buffer] });
    return view;
  };
  const bytes = {
    Uint8Array: () => text.slice(), ArrayBuffer: () => text.slice().buffer, DataView: () => new DataView(text.slice().buffer),
    Buffer: () => Buffer.from(text), Int16Array: () => new Int16Array(4), 'view on a SharedArrayBuffer': () => new Uint8Array(new SharedArrayBuffer(4)),
    SharedArrayBuffer: () => new SharedArrayBuffer(4), 'detached view': detached, 'empty view': () => new Uint8Array(0),
    'empty ArrayBuffer': () => new ArrayBuffer(0), undefined: () => undefined, null: () => null, number: () => 5, string: () => 'abc',
    object: () => ({}), array: () => [1, 2, 3], boolean: () => true, symbol: () => Symbol('s'), bigint: () => 5n,
  };
  const list = {};
  const empty = zlib.gzipSync(Buffer.alloc(0));
  for (const [kind, make] of Object.entries(bytes)) {
    list[`TextDecoderStream, chunk ${kind}`] = () => run(() => new TextDecoderStream(), [make]);
    list[`TextDecoderStream fatal, chunk ${kind}`] = () => run(() => new TextDecoderStream('utf-8', { fatal: true }), [make]);
    for (const format of ['gzip', 'deflate', 'deflate-raw']) {
      list[`CompressionStream ${format}, chunk ${kind}`] = () => run(() => new CompressionStream(format), [make]);
    }
    list[`CompressionStream gzip, chunk ${kind}, then a Uint8Array`] = () => run(() => new CompressionStream('gzip'), [make, text]);
    list[`DecompressionStream gzip, chunk ${kind} after a header`] = () => run(() => new DecompressionStream('gzip'),
      [new Uint8Array(empty.subarray(0, 5)), make]);
  }
  const strings = {
    string: ['hello'], number: [5], undefined: [undefined], null: [null], 'object with toString': [{ toString: () => 'x' }],
    symbol: [() => Symbol('s')], 'toString throws': [{ toString() { throw new RangeError('no'); } }], 'lone surrogate': ['\ud800'],
    'surrogate pair split': ['\ud83d', '\ude00'], Uint8Array: [() => new Uint8Array([65, 66])], bigint: [5n], empty: [''], array: [[1, 2]],
  };
  for (const [kind, chunks] of Object.entries(strings)) list[`TextEncoderStream, chunk ${kind}`] = () => run(() => new TextEncoderStream(), chunks);
  const plain = Buffer.from('hello hello hello');
  const compress = { gzip: zlib.gzipSync, deflate: zlib.deflateSync, 'deflate-raw': zlib.deflateRawSync };
  for (const [format, encode] of Object.entries(compress)) {
    const good = new Uint8Array(encode(plain));
    const corrupt = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const inputs = {
      'whole stream': [good], corrupt: [corrupt], truncated: [good.subarray(0, good.length - 4)],
      'trailing data': [new Uint8Array(Buffer.concat([good, Buffer.from([1, 2, 3])]))], 'trailing data, own write': [good, new Uint8Array([1, 2, 3])],
      'two streams': [new Uint8Array(Buffer.concat([good, good]))], 'no input': [], 'corrupt, then more': [corrupt, good],
    };
    for (const [name, chunks] of Object.entries(inputs)) list[`DecompressionStream ${format}, ${name}`] = () => run(() => new DecompressionStream(format), chunks);
    list[`CompressionStream ${format}, no input`] = () => run(() => new CompressionStream(format), []);
  }
  for (const format of ['gzip', 'GZIP', 'brotli', 'zstd', 'deflate64', '', undefined, null]) {
    list[`CompressionStream format ${format}`] = () => run(() => new CompressionStream(format), [text]);
    list[`DecompressionStream format ${format}`] = () => run(() => new DecompressionStream(format), []);
  }
  const decoderArgs = {
    none: [], 'utf-16le': ['utf-16le'], unknown: ['nope'], 'a Symbol': [Symbol('x')], 'odd options': ['utf-8', { fatal: 1, ignoreBOM: 'y' }],
    'options a number': ['utf-8', 5], 'options null': ['utf-8', null], latin1: ['latin1'], 'label undefined': [undefined],
    'label null': [null], 'label an object': [{ toString: () => 'utf8' }], replacement: ['replacement'],
  };
  for (const [name, args] of Object.entries(decoderArgs)) {
    list[`TextDecoderStream(${name})`] = () => run(() => new TextDecoderStream(...args), [new Uint8Array([0xff, 0x41, 0xe2])]);
  }
  return list;
}

async function child() {
  const rows = [];
  for (const [name, fn] of Object.entries(cases())) {
    if (filter === undefined || name.includes(filter)) rows.push({ name, outcome: await fn() });
  }
  process.stdout.write(`${JSON.stringify(rows)}\n`);
  process.exit(0);
}

function runChild(preload) {
  const args = [...(preload ? ['--import', join(root, 'register.mjs')] : []), fileURLToPath(import.meta.url), '--child',
    ...(filter === undefined ? [] : [`--filter=${filter}`])];
  const env = { ...process.env, NODE_OPTIONS: '' };
  for (const key of Object.keys(env)) if (key.startsWith('FAST_WEBSTREAMS')) delete env[key];
  return JSON.parse(execFileSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', maxBuffer: 16 << 20 }));
}

function main() {
  const native = runChild(false);
  const ours = new Map(runChild(true).map((r) => [r.name, r.outcome]));
  // Where native never ends reading, what our read does is not compared.
  const comparable = (outcome, nativeOutcome) => (nativeOutcome.includes('read=pending')
    ? outcome.replace(/read=.*? output=/, 'read=* output=') : outcome);
  let differ = 0;
  for (const { name, outcome } of native) {
    const mine = ours.get(name) ?? 'missing';
    if (comparable(mine, outcome) === comparable(outcome, outcome)) continue;
    differ++;
    console.log(`${name}\n  native: ${outcome}\n  ours:   ${mine}`);
  }
  console.log(`Node ${process.version}: ${native.length} cases, ${differ} differ`);
  process.exitCode = differ === 0 ? 0 : 1;
}

if (process.argv.includes('--child')) await child();
else main();
