// One seed -> one case: a codec class with its arguments, the chunks to feed
// it, and a schedule (how it is fed and read, and what interrupts it).
// Deterministic: the same seed gives the same case on every side and Node.
import { makeRng } from '../prng.mjs';
import { decoderCase, encoderCase } from './gen-text.mjs';
import { compressionCase, decompressionCase } from './gen-zlib.mjs';
import { describeChunk } from './chunks.mjs';

const CLASSES = [[3, decoderCase], [2, encoderCase], [2, compressionCase], [3, decompressionCase]];
const REASONS = ['error', 'typeerror', 'undefined', 'string'];

export const ZLIB_CLASSES = ['CompressionStream', 'DecompressionStream'];

function schedule(rng, n, cls) {
  const feed = rng.chance(0.3) ? 'pipe' : 'writer';
  const writes = rng.chance(0.5) ? 'all' : 'each';
  // Reading late is only possible when writes are not awaited one by one
  // (the codec's readable side holds nothing, so each write waits for a read).
  // 'after-writes': every write awaited before reading starts (with nobody
  // reading, a TransformStream holds the first write back; Node's zlib classes do not).
  const read = rng.weighted([[4, 'eager'], [2, 'slow'], [feed === 'writer' && writes === 'all' ? 1 : 0, 'late'],
    [feed === 'writer' && writes === 'each' && ZLIB_CLASSES.includes(cls) ? 0.5 : 0, 'after-writes']]);
  const kinds = feed === 'pipe'
    ? [[4, null], [1, 'cancel'], [1, 'release-reader'], [1, 'source-error']]
    : [[5, null], [1, 'abort'], [1, 'cancel'], [1, 'release-reader'], [1, 'release-writer']];
  const kind = rng.weighted(kinds);
  const interrupt = kind === null ? null : { kind, at: rng.int(0, n + 1), reason: rng.pick(REASONS) };
  return { feed, writes, read, interrupt };
}

export function generate(seed) {
  const rng = makeRng(seed);
  const c = rng.weighted(CLASSES)(rng);
  return { seed, ...c, ...schedule(rng, c.chunks.length, c.cls) };
}

/** The case as text (--show). */
export function describe(c) {
  const args = c.args.map((a) => (a === undefined ? 'undefined' : JSON.stringify(a))).join(', ');
  const lines = [`seed ${c.seed}: new ${c.cls}(${args}); input ${c.input}`,
    `  feed=${c.feed} writes=${c.writes} read=${c.read} interrupt=${c.interrupt ? JSON.stringify(c.interrupt) : 'none'}`,
    `  ${c.chunks.length} chunks:`];
  for (const [i, ch] of c.chunks.entries()) lines.push(`    ${i}: ${describeChunk(ch)}`);
  return lines.join('\n');
}
