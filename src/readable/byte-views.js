// The view and ArrayBuffer intrinsics on the byte streams' per-chunk paths
// (enqueue, and the reads that hand chunks out), captured at load like those
// of src/intrinsics.js but called as plain functions: `ReflectApply(getter,
// view, [])` builds an argument array per call, which even optimised code
// keeps (about 16 bytes and a few ns per call, and an enqueue made a dozen).
import { transferArrayBuffer } from '../intrinsics.js';

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
 * Detaches `buffer` and returns a new ArrayBuffer with its contents (spec:
 * TransferArrayBuffer); throws for a buffer that cannot be detached. Node 20
 * has no ArrayBuffer.prototype.transfer: src/intrinsics.js does it there.
 */
export const arrayBufferTransfer = transferMethod === undefined ? transferArrayBuffer : uncurryThis(transferMethod);
