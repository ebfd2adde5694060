// Inputs for CompressionStream and DecompressionStream: a format (the three
// every Node has, the ones only some Node versions have, and invalid ones),
// data of 0 to ~300 KB, and for decompression a compressed stream of that
// format, whole or damaged (trailing garbage, truncated, a flipped byte, two
// members, nothing, garbage).
import zlib from 'node:zlib';
import { splitBytes, byteChunks } from './chunks.mjs';

const FORMATS = [[4, 'gzip'], [3, 'deflate'], [3, 'deflate-raw'], [1, 'brotli'], [0.5, 'zstd'],
  [0.2, 'GZIP'], [0.2, 'deflate64'], [0.1, undefined]];

// format -> one-shot compressor of node:zlib (where this Node has it)
const COMPRESS = { gzip: 'gzipSync', deflate: 'deflateSync', 'deflate-raw': 'deflateRawSync', brotli: 'brotliCompressSync', zstd: 'zstdCompressSync' };

const WORDS = ['data: ', '{"id":', '42', ',"name":"', 'stream', '"}\n', 'lorem ', 'ipsum ', 'été ', '😀'];

// brotli's default quality compresses about 1 MB/s: 300 KB would keep zlib
// busy, with nothing to see, longer than the idle time that means 'pending'.
const SLOW_FORMATS = ['brotli', 'zstd'];

function plainData(rng, format) {
  let size = rng.weighted([[1, 0], [5, rng.int(1, 2000)], [3, rng.int(2000, 40_000)], [1, rng.int(40_000, 300_000)]]);
  if (SLOW_FORMATS.includes(format) && size > 40_000) size = 40_000;
  const kind = rng.weighted([[4, 'text'], [2, 'random'], [1, 'zeros']]);
  const out = new Uint8Array(size);
  if (kind === 'random') {
    for (let i = 0; i < size; i++) out[i] = rng.int(0, 255);
  } else if (kind === 'text') {
    const enc = new TextEncoder();
    let at = 0;
    while (at < size) {
      const word = enc.encode(rng.pick(WORDS));
      out.set(word.subarray(0, size - at), at);
      at += word.length;
    }
  }
  return { bytes: out, what: `${size} bytes of ${kind}` };
}

function compressed(format, bytes) {
  const name = COMPRESS[format];
  const fn = typeof zlib[name] === 'function' ? zlib[name] : zlib.gzipSync;
  return new Uint8Array(fn(bytes));
}

const DAMAGE = [[6, 'whole'], [1, 'trailing garbage'], [1, 'truncated'], [1, 'flipped byte'], [1, 'two members'],
  [0.5, 'empty'], [0.5, 'garbage']];

function damaged(rng, damage, good) {
  switch (damage) {
    case 'trailing garbage': return Buffer.concat([good, Uint8Array.from({ length: rng.int(1, 20) }, () => rng.int(0, 255))]);
    case 'truncated': return good.slice(0, rng.int(0, Math.max(0, good.length - 1)));
    case 'flipped byte': {
      const out = good.slice();
      if (out.length > 0) out[rng.int(0, out.length - 1)] ^= 1 << rng.int(0, 7);
      return out;
    }
    case 'two members': return Buffer.concat([good, good]);
    case 'empty': return new Uint8Array(0);
    case 'garbage': return Uint8Array.from({ length: rng.int(1, 64) }, () => rng.int(0, 255));
    default: return good;
  }
}

export function compressionCase(rng) {
  const format = rng.weighted(FORMATS);
  const { bytes, what } = plainData(rng, format);
  return { cls: 'CompressionStream', args: [format], input: what, chunks: byteChunks(rng, splitBytes(rng, bytes), 0.12) };
}

export function decompressionCase(rng) {
  const format = rng.weighted(FORMATS);
  const { bytes, what } = plainData(rng, format);
  const damage = rng.weighted(DAMAGE);
  const input = new Uint8Array(damaged(rng, damage, compressed(format, bytes)));
  return {
    cls: 'DecompressionStream', args: [format], input: `${what}, compressed (${input.length} bytes), ${damage}`,
    chunks: byteChunks(rng, splitBytes(rng, input), 0.12),
  };
}
