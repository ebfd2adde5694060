// The codec classes: TextEncoderStream, TextDecoderStream, CompressionStream,
// DecompressionStream (ours under the preload, src/codecs/). Constructor
// arguments, brand checks, chunks of every kind, and what zlib reports for bad
// input. A chunk site returns the write's promise, not a read: after refusing
// a chunk Node 20 and 22 leave the readable side pending forever.
import zlib from 'node:zlib';
import { site, detachedView, getOn, quiet } from './helpers.mjs';

/** Writes `chunks` in order and returns the last write's promise (earlier ones quieted). */
function writeAll(codec, chunks) {
  const writer = codec.writable.getWriter();
  quiet(codec.readable.getReader().read());
  let last;
  for (const chunk of chunks) last = quiet(writer.write(chunk));
  return last;
}

/** Writes `chunks`, closes, and returns the first read that fails (or the end). */
async function readToEnd(codec, chunks) {
  const writer = codec.writable.getWriter();
  for (const chunk of chunks) quiet(writer.write(chunk));
  quiet(writer.close());
  const reader = codec.readable.getReader();
  for (;;) {
    const { done } = await reader.read();
    if (done) return;
  }
}

const compressed = {
  deflate: zlib.deflateSync('hello hello hello'),
  'deflate-raw': zlib.deflateRawSync('hello hello hello'),
  gzip: zlib.gzipSync('hello hello hello'),
};

const ctorSites = [
  site('TextDecoderStream: label a Symbol', () => new TextDecoderStream(Symbol('label'))),
  site('TextDecoderStream: options a number', () => new TextDecoderStream('utf-8', 5)),
  site('TextDecoderStream: options getter throws', () => new TextDecoderStream('utf-8', {
    get fatal() { throw new URIError('fatal'); },
  })),
  site('CompressionStream: no format', () => new CompressionStream()),
  site('CompressionStream: format a Symbol', () => new CompressionStream(Symbol('gzip'))),
  site('CompressionStream: format an object saying gzip', () => new CompressionStream({ toString: () => 'gzip' })),
  site('CompressionStream: format toString throws', () => new CompressionStream({ toString() { throw new URIError('format'); } })),
  site('CompressionStream: format GZIP', () => new CompressionStream('GZIP')),
  site('CompressionStream: format brotli', () => new CompressionStream('brotli')),
  site('DecompressionStream: format null', () => new DecompressionStream(null)),
  site('DecompressionStream: format zstd', () => new DecompressionStream('zstd')),
];

const brandSites = [];
for (const [name, member, make] of [
  ['TextEncoderStream', 'encoding'], ['TextEncoderStream', 'readable'],
  ['TextDecoderStream', 'encoding'], ['TextDecoderStream', 'fatal'], ['TextDecoderStream', 'writable'],
  ['CompressionStream', 'readable'], ['DecompressionStream', 'writable'],
  ['CompressionStream', 'readable', () => new DecompressionStream('gzip')],
]) {
  const receiver = make === undefined ? 'a plain object' : 'another codec';
  brandSites.push(site(`brand: ${name}.${member} on ${receiver}`,
    () => getOn(globalThis[name].prototype, member, make === undefined ? {} : make())));
}

// Chunk kinds written to each zlib class: which are taken and which refused
// (and how) differs between Node versions.
const chunkKinds = {
  'a string': () => 'text',
  null: () => null,
  undefined: () => undefined,
  'a number': () => 5,
  'an array': () => [1, 2],
  'an ArrayBuffer': () => new ArrayBuffer(4),
  'an empty ArrayBuffer': () => new ArrayBuffer(0),
  'a SharedArrayBuffer': () => new SharedArrayBuffer(4),
  'a view on a SharedArrayBuffer': () => new Uint8Array(new SharedArrayBuffer(4)),
  'a detached view': () => detachedView(),
};
const chunkSites = [];
for (const [kind, make] of Object.entries(chunkKinds)) {
  chunkSites.push(site(`CompressionStream write: chunk ${kind}`, () => writeAll(new CompressionStream('deflate'), [make()])));
  chunkSites.push(site(`DecompressionStream write: chunk ${kind}`, () => writeAll(new DecompressionStream('deflate'), [make()])));
}
chunkSites.push(
  site('CompressionStream: chunk after a refused one', () => writeAll(new CompressionStream('gzip'), [5, new Uint8Array(1)])),
  site('TextDecoderStream: chunk undefined', () => writeAll(new TextDecoderStream(), [undefined])),
  site('TextDecoderStream: chunk null', () => writeAll(new TextDecoderStream(), [null])),
  site('TextDecoderStream: chunk a string', () => writeAll(new TextDecoderStream(), ['text'])),
  site('TextDecoderStream: chunk a view on a SharedArrayBuffer',
    () => writeAll(new TextDecoderStream(), [new Uint8Array(new SharedArrayBuffer(2))])),
  site('TextDecoderStream: fatal, incomplete at the end', () => readToEnd(new TextDecoderStream('utf-8', { fatal: true }),
    [new Uint8Array([0xe2, 0x82])])),
  site('TextEncoderStream: chunk a Symbol', () => writeAll(new TextEncoderStream(), [Symbol('chunk')])),
  site('TextEncoderStream: chunk whose toString throws', () => writeAll(new TextEncoderStream(), [{
    toString() { throw new URIError('toString'); },
  }])),
);

// What zlib reports, and when: corrupt, truncated, empty input, data after the end.
const zlibSites = [];
for (const format of ['deflate', 'deflate-raw', 'gzip']) {
  const good = compressed[format];
  zlibSites.push(
    site(`DecompressionStream ${format}: corrupt input`, () => readToEnd(new DecompressionStream(format), [new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8])])),
    site(`DecompressionStream ${format}: truncated input`, () => readToEnd(new DecompressionStream(format), [good.subarray(0, good.length - 3)])),
    site(`DecompressionStream ${format}: empty input`, () => readToEnd(new DecompressionStream(format), [])),
    site(`DecompressionStream ${format}: data after the end`, () => readToEnd(new DecompressionStream(format), [good, new Uint8Array([1, 2, 3])])),
    site(`DecompressionStream ${format}: two streams back to back`, () => readToEnd(new DecompressionStream(format), [Buffer.concat([good, good])])),
  );
}
zlibSites.push(
  site('DecompressionStream: write after corrupt input', async () => {
    const ds = new DecompressionStream('deflate');
    const writer = ds.writable.getWriter();
    quiet(ds.readable.getReader().read());
    await writer.write(new Uint8Array([1, 2, 3, 4])).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 50)); // zlib has failed by now
    return writer.write(new Uint8Array([5]));
  }),
  site('DecompressionStream: a string chunk, then close', () => readToEnd(new DecompressionStream('gzip'), ['text'])),
  site('pipeThrough: corrupt bytes into DecompressionStream', () => {
    const rs = new ReadableStream({ start(c) { c.enqueue(new Uint8Array([9, 9, 9, 9])); c.close(); } });
    return rs.pipeThrough(new DecompressionStream('gzip')).getReader().read();
  }),
);

export default [...ctorSites, ...brandSites, ...chunkSites, ...zlibSites];
