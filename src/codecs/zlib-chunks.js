// The chunks a CompressionStream or DecompressionStream takes, as this Node's
// own class takes them. Every Node takes a view on an ordinary ArrayBuffer
// (the fast path, in zlib-driver.js); the other kinds of chunk differ between
// Node versions and from the Compression standard (a BufferSource):
//   string          taken as UTF-8 by Node 20-26 (zlib's own write takes it)
//   arraybuffer     refused by Node 20-22, taken by 24+
//   shared-view     a view on a SharedArrayBuffer: taken by Node 20-22, refused by 24+
//   detached-view   refused with a TypeError without code (20-26)
//   null            refused with ERR_STREAM_NULL_VALUES (20-26)
//   anything else   refused with ERR_INVALID_ARG_TYPE
// So each kind is asked of Node's class the first time one is written
// (natives.js#nativeChunkOutcome), with a representative value of the kind.
import {
  ArrayBufferCtor, ArrayBufferIsView, BufferFrom, OriginalError, OriginalTypeError, OriginalRangeError, SharedArrayBufferCtor,
  SymbolCtor, Uint8ArrayCtor, arrayBufferTransfer, isArrayBuffer, isSharedArrayBuffer, viewBuffer, viewByteOffset, viewByteLength,
} from '../intrinsics.js';
import { codedError, ERR_INVALID_ARG_TYPE } from '../errors.js';
import { zlibChunkMessage } from '../messages.js';
import { nativeChunkOutcome } from './natives.js';

/** The kind of a chunk that is not a view on an ordinary, attached ArrayBuffer. */
export function chunkKind(chunk) {
  if (typeof chunk === 'string') return 'string';
  if (chunk === null) return 'null';
  if (ArrayBufferIsView(chunk)) return isSharedArrayBuffer(viewBuffer(chunk)) ? 'shared-view' : 'detached-view';
  if (isArrayBuffer(chunk)) return 'arraybuffer';
  if (isSharedArrayBuffer(chunk)) return 'shared-buffer';
  return typeof chunk;
}

function detachedView() {
  const view = new Uint8ArrayCtor(1);
  arrayBufferTransfer(viewBuffer(view));
  return view;
}

// kind -> a value of that kind, made when asked (never the user's chunk:
// asking Node must not run the user's code or keep the user's memory).
const representatives = {
  string: () => 'x',
  null: () => null,
  arraybuffer: () => new ArrayBufferCtor(1),
  'shared-view': () => new Uint8ArrayCtor(new SharedArrayBufferCtor(1)),
  'detached-view': detachedView,
  'shared-buffer': () => new SharedArrayBufferCtor(1),
  undefined: () => undefined,
  number: () => 0,
  boolean: () => false,
  bigint: () => 0n,
  symbol: () => SymbolCtor('chunk'),
  object: () => ({}),
  function: () => () => {},
};

// If Node never answers: the standard's answer (a BufferSource, not shared).
const REFUSED = { ctor: 'TypeError', code: ERR_INVALID_ARG_TYPE };

/** The probe entry ({ settled, answer, promise }) for `kind` written to Node's `className`. */
export function chunkOutcome(className, kind) {
  return nativeChunkOutcome(className, kind, representatives[kind], 'deflate', kind === 'arraybuffer' ? null : REFUSED);
}

/** The bytes zlib gets for a chunk of `kind` that Node takes (a copy is made after). */
export function takenBytes(kind, chunk) {
  if (kind === 'string') return BufferFrom(chunk, 'utf8');
  if (kind === 'arraybuffer') return new Uint8ArrayCtor(chunk);
  if (kind === 'shared-view') return new Uint8ArrayCtor(viewBuffer(chunk), viewByteOffset(chunk), viewByteLength(chunk));
  return new Uint8ArrayCtor(0);
}

const ctors = { TypeError: OriginalTypeError, RangeError: OriginalRangeError, Error: OriginalError };

/** The error for `chunk`, of `kind`, that Node refuses with `shape` ({ ctor, code }), worded as Node's. */
export function refusedChunkError(chunk, kind, shape) {
  const Ctor = ctors[shape.ctor] ?? OriginalTypeError;
  return codedError(Ctor, shape.code, zlibChunkMessage(kind, chunk));
}
