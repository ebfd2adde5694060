// The ECMAScript ArrayBuffer operations the streams spec calls:
// TransferArrayBuffer and CloneArrayBuffer, on the intrinsics
// captured in intrinsics.js, throwing the errors a stream user understands.
import { ArrayBufferCtor, arrayBufferTransfer, isDetachedBuffer, copyDataBlockBytes } from './intrinsics.js';
import { typeError } from './webidl.js';
import { codedTypeError, notTransferableCode } from './errors.js';

/**
 * TransferArrayBuffer. Throws a TypeError for a buffer that cannot be detached
 * (e.g. a WebAssembly.Memory's).
 */
export function TransferArrayBuffer(buffer) {
  // The intrinsic throws for buffers that cannot be detached (on Node 20 too);
  // say why in terms a stream user understands.
  try {
    return arrayBufferTransfer(buffer);
  } catch {
    throw codedTypeError('The ArrayBuffer cannot be transferred (it is not detachable, e.g. a WebAssembly.Memory buffer)',
      notTransferableCode());
  }
}

/** CloneArrayBuffer(srcBuffer, srcByteOffset, srcLength, %ArrayBuffer%) */
export function CloneArrayBuffer(srcBuffer, srcByteOffset, srcLength) {
  if (isDetachedBuffer(srcBuffer)) throw typeError('Cannot clone a detached ArrayBuffer');
  const targetBuffer = new ArrayBufferCtor(srcLength);
  copyDataBlockBytes(targetBuffer, 0, srcBuffer, srcByteOffset, srcLength);
  return targetBuffer;
}
