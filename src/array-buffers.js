// The ECMAScript ArrayBuffer operations the streams spec calls:
// TransferArrayBuffer and CloneArrayBuffer, on the intrinsics
// captured in intrinsics.js, throwing the errors a stream user understands.
import { ArrayBufferCtor, arrayBufferTransfer, isDetachedBuffer, copyDataBlockBytes } from './intrinsics.js';
import { codedTypeError, notTransferableCode, plainTypeError } from './errors.js';
import { notTransferableMessage } from './messages.js';

/**
 * TransferArrayBuffer. Throws a TypeError for a buffer that cannot be detached
 * (e.g. a WebAssembly.Memory's).
 */
export function TransferArrayBuffer(buffer) {
  // The intrinsic throws for buffers that cannot be detached (on Node 20 too);
  // the error is made as Node's for the running version.
  try {
    return arrayBufferTransfer(buffer);
  } catch {
    throw codedTypeError(notTransferableMessage(), notTransferableCode());
  }
}

/** CloneArrayBuffer(srcBuffer, srcByteOffset, srcLength, %ArrayBuffer%) */
export function CloneArrayBuffer(srcBuffer, srcByteOffset, srcLength) {
  // Node clones with ArrayBuffer.prototype.slice: V8's text.
  if (isDetachedBuffer(srcBuffer)) throw plainTypeError('Cannot perform ArrayBuffer.prototype.slice on a detached ArrayBuffer');
  const targetBuffer = new ArrayBufferCtor(srcLength);
  copyDataBlockBytes(targetBuffer, 0, srcBuffer, srcByteOffset, srcLength);
  return targetBuffer;
}
