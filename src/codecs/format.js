// The CompressionFormat argument: converted and checked the way this Node's
// own classes do it (see natives.js), taking exactly the formats they take.
import { codedTypeError, ERR_INVALID_ARG_VALUE } from '../errors.js';
import { compressionFormatMessage } from '../messages.js';
import { formatIsConverted, nativeCodecs, nativeTakesFormat, symbolFormatCode } from './natives.js';
import { zlibHasFormat } from './zlib-driver.js';

/** The format as a string, or a TypeError thrown: code ERR_INVALID_ARG_VALUE (native's). */
export function convertFormat(format, className) {
  const given = format;
  if (formatIsConverted()) {
    if (typeof format === 'symbol') {
      throw codedTypeError(compressionFormatMessage(className, given), symbolFormatCode());
    }
    format = `${format}`;
  }
  if (typeof format !== 'string' || !zlibHasFormat(format) || !takenByNode(format)) {
    throw codedTypeError(compressionFormatMessage(className, given, format), ERR_INVALID_ARG_VALUE);
  }
  return format;
}

// The three formats of the standard are always taken; others (brotli on
// Node 22+) as Node's own class takes them.
function takenByNode(format) {
  if (format === 'deflate' || format === 'deflate-raw' || format === 'gzip') return true;
  return nativeCodecs.CompressionStream !== undefined && nativeTakesFormat(format);
}
