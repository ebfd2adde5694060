// Splitting input into chunks at random boundaries, and turning a chunk's
// description into a fresh value of its kind at run time (every run, native
// or ours, gets its own objects: nothing is shared between the two sides).

/** Cut points for `length` units: sorted, in [0, length], some repeated (an empty chunk). */
function cutPoints(rng, length) {
  const pieces = length === 0 ? rng.int(0, 2) : rng.weighted([[3, 1], [4, rng.int(2, 6)], [3, rng.int(2, 24)]]);
  const cuts = [];
  for (let i = 1; i < pieces; i++) cuts.push(rng.chance(0.1) ? cuts.at(-1) ?? 0 : rng.int(0, length));
  cuts.sort((a, b) => a - b);
  return [0, ...cuts, length];
}

/** `bytes` (a Uint8Array) cut into pieces, some empty, some inside multi-byte sequences. */
export function splitBytes(rng, bytes) {
  const cuts = cutPoints(rng, bytes.length);
  const parts = [];
  for (let i = 1; i < cuts.length; i++) parts.push(bytes.slice(cuts[i - 1], cuts[i]));
  return parts;
}

/** `text` cut at UTF-16 code unit boundaries (so surrogate pairs get split too). */
export function splitText(rng, text) {
  const cuts = cutPoints(rng, text.length);
  const parts = [];
  for (let i = 1; i < cuts.length; i++) parts.push(text.slice(cuts[i - 1], cuts[i]));
  return parts;
}

// The kinds a byte chunk is written as; `i16` only fits an even length.
// Every Node's classes take these:
const COMMON_KINDS = [[10, 'u8'], [3, 'sub'], [2, 'dv'], [2, 'buf'], [1, 'i16']];
// and these differ between Node versions and classes (a bare ArrayBuffer, a
// view on a SharedArrayBuffer): cases with them are rarer where they are refused,
// since Node 20/22's zlib classes then leave reads pending (time spent waiting).
const EXOTIC_KINDS = [[2, 'ab'], [1, 'sab']];
// Values that are not BufferSources (refused, or converted, depending on the class and Node).
export const ODD_VALUES = ['string', 'number', 'undefined', 'null', 'object', 'array', 'bool'];

/**
 * Byte pieces described as chunks of random kinds. `exotic`: the chance that
 * this case uses the kinds Node versions disagree on, and non-BufferSource values.
 */
export function byteChunks(rng, pieces, exotic) {
  const kinds = rng.chance(exotic) ? [...COMMON_KINDS, ...EXOTIC_KINDS] : COMMON_KINDS;
  const oddRate = kinds === COMMON_KINDS ? 0 : 0.1;
  return pieces.map((bytes) => {
    if (rng.chance(oddRate)) return { kind: rng.pick(ODD_VALUES) };
    let kind = rng.weighted(kinds);
    if (kind === 'i16' && bytes.length % 2 !== 0) kind = 'u8';
    return { kind, bytes };
  });
}

/** A new value for chunk description `c`. */
export function materialize(c) {
  const b = c.bytes;
  switch (c.kind) {
    case 'u8': return b.slice();
    case 'sub': { // a view that starts inside a larger buffer and stops before its end
      const big = new Uint8Array(b.length + 7);
      big.fill(0xee);
      big.set(b, 3);
      return big.subarray(3, 3 + b.length);
    }
    case 'dv': return new DataView(b.slice().buffer);
    case 'ab': return b.slice().buffer;
    case 'buf': return Buffer.from(b);
    case 'i16': return new Int16Array(b.slice().buffer);
    case 'sab': {
      const view = new Uint8Array(new SharedArrayBuffer(b.length));
      view.set(b);
      return view;
    }
    case 'text': return c.text;
    case 'string': return 'abc';
    case 'number': return 65;
    case 'undefined': return undefined;
    case 'null': return null;
    case 'object': return {};
    case 'array': return [104, 105];
    case 'bool': return true;
    case 'toString': return { toString: () => c.text };
    case 'symbol': return Symbol('chunk');
    case 'throwing': return { toString() { throw new RangeError('no string'); } };
    default: throw new Error(`unknown chunk kind ${c.kind}`);
  }
}

/** A short line for one chunk description (--show). */
export function describeChunk(c) {
  if (c.bytes) return `${c.kind}[${c.bytes.length}]${c.bytes.length <= 24 ? ` ${Buffer.from(c.bytes).toString('hex')}` : ''}`;
  if (c.text !== undefined) return `${c.kind} ${JSON.stringify(c.text.length > 40 ? `${c.text.slice(0, 40)}...` : c.text)}`;
  return c.kind;
}
