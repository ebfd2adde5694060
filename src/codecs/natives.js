// Node's own codec classes, captured when this module first loads (before
// installCodecs() can replace them), and the facts about them that differ
// between Node versions, each asked of the native class the first time it is
// needed rather than read from a version table.
import { ReflectApply, ObjectGetOwnPropertyDescriptor } from '../intrinsics.js';
import { askNativeOnce, thrownCode } from '../errors.js';

export const codecNames = ['TextEncoderStream', 'TextDecoderStream', 'CompressionStream', 'DecompressionStream'];

/** name -> Node's class (undefined where this Node has none). */
export const nativeCodecs = {};
for (const name of codecNames) nativeCodecs[name] = globalThis[name];

// A probe runs Node's class, never ours; each is asked once (errors.js keeps the answers).
const ask = askNativeOnce;

/**
 * The code of the TypeError a getter called on a foreign object throws:
 * ERR_INVALID_THIS on Node 20, none on 22+ (a private-field brand check).
 */
export function brandCode(name) {
  return ask(`brand:${name}`, () => thrownCode(() => {
    ReflectApply(ObjectGetOwnPropertyDescriptor(nativeCodecs[name].prototype, 'readable').get, {}, []);
  }));
}

/** True when Node's CompressionStream takes `format` (a string) on this Node. */
export function nativeTakesFormat(format) {
  return ask(`format:${format}`, () => {
    try {
      // eslint-disable-next-line no-new
      new nativeCodecs.CompressionStream(format);
      return true;
    } catch {
      return false;
    }
  }) === true;
}

/**
 * Whether the format argument is converted to a string first (WebIDL
 * DOMString, Node 22+) or compared as given (Node 20, where an object whose
 * toString() gives 'gzip' is refused).
 */
export function formatIsConverted() {
  return ask('formatConverted', () => {
    try {
      // eslint-disable-next-line no-new
      new nativeCodecs.CompressionStream({ toString: () => 'deflate' });
      return true;
    } catch {
      return false;
    }
  }) === true;
}

/** The code for a Symbol given as format: ERR_INVALID_ARG_VALUE up to Node 22, ERR_INVALID_ARG_TYPE from 24. */
export function symbolFormatCode() {
  return ask('symbolFormat', () => thrownCode(() => new nativeCodecs.CompressionStream(Symbol('format'))));
}
