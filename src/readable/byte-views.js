// The view and ArrayBuffer intrinsics on the byte streams' per-chunk paths
// (enqueue, and the reads that hand chunks out), captured at load like those
// of src/intrinsics.js but called as plain functions: `ReflectApply(getter,
// view, [])` builds an argument array per call, which even optimised code
// keeps (about 16 bytes and a few ns per call, and an enqueue made a dozen).
import { OriginalTypeError, transferArrayBuffer } from '../intrinsics.js';

const FunctionPrototypeCall = Function.prototype.call;
const FunctionPrototypeBind = Function.prototype.bind;
/** `fn` as a function of its receiver: uncurryThis(f)(x, ...args) is f.call(x, ...args). */
const uncurryThis = FunctionPrototypeBind.bind(FunctionPrototypeCall);

const getter = (proto, key) => Object.getOwnPropertyDescriptor(proto, key)?.get;
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const ArrayBufferPrototype = ArrayBuffer.prototype;
const DataViewPrototype = DataView.prototype;

/** A TypedArray's [[TypedArrayName]], e.g. 'Uint8Array'; undefined for anything else (never throws). */
export const typedArrayTag = uncurryThis(getter(TypedArrayPrototype, Symbol.toStringTag));
/** A TypedArray's [[ViewedArrayBuffer]], [[ByteOffset]] and byte length (0 once detached). */
export const typedArrayBuffer = uncurryThis(getter(TypedArrayPrototype, 'buffer'));
export const typedArrayByteOffset = uncurryThis(getter(TypedArrayPrototype, 'byteOffset'));
export const typedArrayByteLength = uncurryThis(getter(TypedArrayPrototype, 'byteLength'));
/** %TypedArray%.prototype.set: copies a TypedArray's elements into another (no observable lookups). */
export const typedArraySet = uncurryThis(TypedArrayPrototype.set);
/** The same for a DataView (byteOffset and byteLength throw once its buffer is detached). */
export const dataViewBuffer = uncurryThis(getter(DataViewPrototype, 'buffer'));
export const dataViewByteOffset = uncurryThis(getter(DataViewPrototype, 'byteOffset'));
export const dataViewByteLength = uncurryThis(getter(DataViewPrototype, 'byteLength'));
/** An ArrayBuffer's [[ArrayBufferByteLength]] (0 once detached); throws for anything else, a SharedArrayBuffer too. */
export const arrayBufferByteLength = uncurryThis(getter(ArrayBufferPrototype, 'byteLength'));

const resizableGetter = getter(ArrayBufferPrototype, 'resizable');
/** Is the ArrayBuffer `buffer` resizable? (false where resizable buffers do not exist) */
export const arrayBufferResizable = resizableGetter === undefined ? () => false : uncurryThis(resizableGetter);

const transferMethod = ArrayBufferPrototype.transfer;

/**
 * Node 20 has no ArrayBuffer.prototype.transfer, and the structuredClone
 * fallback of src/intrinsics.js costs several microseconds per chunk. Node 20
 * detaches through its buffer binding's detachArrayBuffer (a new ArrayBuffer
 * over the same memory; undefined for a buffer that cannot be detached),
 * which process.binding('buffer') exposes there. Taken only while
 * process.binding is Node's own function: with --pending-deprecation (or
 * NODE_PENDING_DEPRECATION=1) Node wraps it to warn (DEP0111), and under the
 * permission model it throws; the structuredClone path stays in both cases.
 */
function bindingDetach() {
  if (transferMethod !== undefined) return undefined;
  try {
    const binding = process.binding;
    if (typeof binding !== 'function' || binding.name !== 'binding') return undefined;
    const detach = binding('buffer').detachArrayBuffer;
    if (typeof detach !== 'function') return undefined;
    const probe = new ArrayBuffer(1);
    const moved = detach(probe);
    if (moved === undefined || arrayBufferByteLength(moved) !== 1 || arrayBufferByteLength(probe) !== 0) {
      return undefined;
    }
    return detach;
  } catch {
    return undefined;
  }
}
const detachArrayBuffer = bindingDetach();

function transferByBinding(buffer) {
  const moved = detachArrayBuffer(buffer);
  if (moved === undefined) throw new OriginalTypeError('This ArrayBuffer cannot be transferred');
  return moved;
}

/**
 * Detaches `buffer` and returns a new ArrayBuffer with its contents (spec:
 * TransferArrayBuffer); throws for a buffer that cannot be detached. `buffer`
 * must be an ArrayBuffer that is not detached.
 */
export const arrayBufferTransfer = transferMethod !== undefined
  ? uncurryThis(transferMethod)
  : detachArrayBuffer !== undefined ? transferByBinding : transferArrayBuffer;
