// Inputs for TextDecoderStream and TextEncoderStream: a label and options,
// text made of pieces that exercise multi-byte and astral characters, BOMs
// and lone surrogates, encoded (or made up byte by byte, for the legacy
// encodings Node can decode but not encode), then damaged on purpose.
import { splitBytes, splitText, byteChunks } from './chunks.mjs';

const PIECES = ['a', 'hello ', '\n', 'é', 'ß', 'Ж', 'Ω', '€', '中文', 'ひらがな', '한국어', '😀', '𝄞',
  '\ufeff', '\u0000', '\ud800', '\udc00', '\udbff', '\ufffd', '\u00ff', '\u0080'];

export function randomText(rng, maxPieces) {
  let text = '';
  const n = rng.int(0, maxPieces);
  for (let i = 0; i < n; i++) text += rng.chance(0.4) ? 'abcdefghij'.slice(0, rng.int(1, 10)) : rng.pick(PIECES);
  if (rng.chance(0.05)) text = text.repeat(rng.int(20, 300)); // now and then a long one
  return text;
}

// label -> how its bytes are made
const LABELS = [
  [6, ['utf8', ['utf-8', 'utf8', 'unicode-1-1-utf-8', ' UTF-8 ', 'Utf8', undefined]]],
  [3, ['utf16le', ['utf-16le', 'utf-16', 'UTF-16LE']]],
  [2, ['utf16be', ['utf-16be']]],
  [2, ['single', ['latin1', 'windows-1252', 'iso-8859-2', 'koi8-r', 'x-user-defined', 'ascii', 'windows-1251']]],
  [3, ['cjk', ['shift_jis', 'euc-jp', 'gb18030', 'gbk', 'big5', 'euc-kr', 'iso-2022-jp']]],
  [1, ['single', ['replacement']]],
  [1, ['single', ['utf-7', 'nope', '', 'utf-32']]], // refused by TextDecoder
];

const OPTIONS = [[4, undefined], [2, {}], [2, { fatal: true }], [2, { ignoreBOM: true }], [1, { fatal: true, ignoreBOM: true }]];

const INVALID_UTF8 = [[0xff], [0xc0, 0xaf], [0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc3]];
const TRUNCATED_UTF8 = [[0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xc3], [0xf0]];

function utf16Bytes(text, bigEndian) {
  const out = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    out[2 * i + (bigEndian ? 1 : 0)] = u & 0xff;
    out[2 * i + (bigEndian ? 0 : 1)] = u >> 8;
  }
  return [...out];
}

function insertAt(rng, bytes, extra) {
  const at = rng.int(0, bytes.length);
  bytes.splice(at, 0, ...extra);
}

function cjkBytes(rng, label) {
  const out = [];
  const n = rng.int(0, 80);
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    if (r < 0.35) out.push(rng.int(0x20, 0x7e));
    else if (label === 'gb18030' && r < 0.45) out.push(rng.int(0x81, 0xfe), rng.int(0x30, 0x39), rng.int(0x81, 0xfe), rng.int(0x30, 0x39));
    else if (label === 'iso-2022-jp' && r < 0.55) out.push(...rng.pick([[0x1b, 0x24, 0x42], [0x1b, 0x28, 0x42], [0x1b, 0x28, 0x4a], [0x1b]]));
    else if (label === 'euc-jp' && r < 0.45) out.push(0x8e, rng.int(0xa1, 0xdf));
    else if (r < 0.9) out.push(rng.int(0x81, 0xfe), rng.int(0x40, 0xfe));
    else out.push(rng.int(0x80, 0xff)); // a lone lead byte, or worse
  }
  return out;
}

function decoderBytes(rng, family, label) {
  const text = randomText(rng, 40);
  let bytes;
  if (family === 'utf8') {
    bytes = [...new TextEncoder().encode(text)];
    if (rng.chance(0.3)) bytes.unshift(0xef, 0xbb, 0xbf);
    if (rng.chance(0.3)) for (let i = rng.int(1, 3); i > 0; i--) insertAt(rng, bytes, rng.pick(INVALID_UTF8));
    if (rng.chance(0.2)) bytes.push(...rng.pick(TRUNCATED_UTF8));
  } else if (family === 'utf16le' || family === 'utf16be') {
    const be = family === 'utf16be';
    bytes = utf16Bytes(text, be);
    if (rng.chance(0.3)) bytes.unshift(...(rng.chance(0.8) === be ? [0xfe, 0xff] : [0xff, 0xfe]));
    if (rng.chance(0.15)) bytes.push(...utf16Bytes('\ud83d', be)); // a high surrogate left at the end
    if (rng.chance(0.15)) bytes.push(0x41); // an odd byte at the end
  } else if (family === 'cjk') {
    bytes = cjkBytes(rng, label);
  } else {
    bytes = [];
    for (let i = rng.int(0, 120); i > 0; i--) bytes.push(rng.int(0, 255));
  }
  return new Uint8Array(bytes);
}

export function decoderCase(rng) {
  const [family, labels] = rng.weighted(LABELS);
  const label = rng.pick(labels);
  const options = rng.weighted(OPTIONS);
  const bytes = decoderBytes(rng, family, label);
  const args = label === undefined ? [] : options === undefined ? [label] : [label, options];
  return {
    cls: 'TextDecoderStream', args, input: `${bytes.length} bytes (${family})`,
    chunks: byteChunks(rng, splitBytes(rng, bytes), 0.4),
  };
}

// Chunks that are not strings: converted (toString) or, for some, refused.
const ODD_TEXT = [[3, 'number'], [2, 'null'], [2, 'undefined'], [2, 'object'], [3, 'toString'], [1, 'bool'], [1, 'array'],
  [1, 'symbol'], [1, 'throwing'], [1, 'u8']];

export function encoderCase(rng) {
  const text = randomText(rng, 50);
  const chunks = splitText(rng, text).map((t) => {
    if (!rng.chance(0.06)) return { kind: 'text', text: t };
    const kind = rng.weighted(ODD_TEXT);
    return kind === 'toString' ? { kind, text: t } : kind === 'u8' ? { kind, bytes: new Uint8Array([0x41, 0x42]) } : { kind };
  });
  return { cls: 'TextEncoderStream', args: [], input: `${text.length} UTF-16 units`, chunks };
}
