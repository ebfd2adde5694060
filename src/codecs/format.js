// The CompressionFormat argument: converted and checked the way this Node's
// own classes do it (see natives.js), taking exactly the formats they take.
import { codedTypeError, invalidArgValue } from '../errors.js';
import { formatIsConverted, nativeCodecs, nativeTakesFormat, symbolFormatCode } from './natives.js';
import { zlibHasFormat } from './zlib-driver.js';

/** The format as a string, or a TypeError thrown: code ERR_INVALID_ARG_VALUE (native's). */
export function convertFormat(format, className) {
  if (formatIsConverted()) {
    if (typeof format === 'symbol') {
      throw codedTypeError(`Failed to construct '${className}': a Symbol cannot be converted to a CompressionFormat`,
        symbolFormatCode());
    }
    format = `${format}`;
  }
  if (typeof format !== 'string' || !zlibHasFormat(format) || !takenByNode(format)) {
    const shown = typeof format === 'string' ? `'${format}'` : typeof format === 'object' && format !== null ? 'an object' : String(format);
    throw invalidArgValue(`Failed to construct '${className}': ${shown} is not a CompressionFormat this Node supports`);
  }
  return format;
}

// The three formats of the standard are always taken; others (brotli on
// Node 22+) as Node's own class takes them.
function takenByNode(format) {
  if (format === 'deflate' || format === 'deflate-raw' || format === 'gzip') return true;
  return nativeCodecs.CompressionStream !== undefined && nativeTakesFormat(format);
}
