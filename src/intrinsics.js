// Intrinsics captured when this module first loads, before any user code can
// patch them. Every spec algorithm calls through these, so a program that
// replaces Promise.prototype.then, Function.prototype.call or Array methods
// cannot change how our streams behave (the Web Platform Tests check this).

import { types as nodeUtilTypes } from 'node:util';

export const ReflectApply = Reflect.apply;
export const ReflectGet = Reflect.get;
export const ObjectCreate = Object.create;
export const ObjectDefineProperty = Object.defineProperty;
export const ObjectDefineProperties = Object.defineProperties;
export const ObjectFreeze = Object.freeze;
export const ObjectGetPrototypeOf = Object.getPrototypeOf;
export const ObjectSetPrototypeOf = Object.setPrototypeOf;
export const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
export const ObjectPrototype = Object.prototype;

export const OriginalPromise = Promise;
export const PromisePrototypeThen = Promise.prototype.then;
/** then() as a plain function, promiseThen(promise, onFulfilled, onRejected): immune to a patched Promise.prototype.then. */
export const promiseThen = Function.prototype.call.bind(Promise.prototype.then);
export const PromiseResolve = Promise.resolve.bind(Promise);
export const PromiseReject = Promise.reject.bind(Promise);

export const OriginalTypeError = TypeError;
export const OriginalRangeError = RangeError;

export const SymbolAsyncIterator = Symbol.asyncIterator;
export const SymbolIterator = Symbol.iterator;
export const SymbolToStringTag = Symbol.toStringTag;

export const NumberIsNaN = Number.isNaN;
export const NumberIsInteger = Number.isInteger;
export const MathTrunc = Math.trunc;
export const MathMin = Math.min;
export const MathMax = Math.max;
export const NumberMAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

export const ArrayBufferCtor = ArrayBuffer;
export const ArrayBufferIsView = ArrayBuffer.isView;
const ArrayBufferPrototype = ArrayBuffer.prototype;
const byteLengthGetter = ObjectGetOwnPropertyDescriptor(ArrayBufferPrototype, 'byteLength').get;
const detachedGetter = ObjectGetOwnPropertyDescriptor(ArrayBufferPrototype, 'detached')?.get;
const transferMethod = ArrayBufferPrototype.transfer;
export const ArrayBufferPrototypeSlice = ArrayBufferPrototype.slice;
export const SharedArrayBufferCtor = globalThis.SharedArrayBuffer;
const sharedByteLengthGetter = SharedArrayBufferCtor &&
  ObjectGetOwnPropertyDescriptor(SharedArrayBufferCtor.prototype, 'byteLength').get;

export const TypedArrayPrototype = ObjectGetPrototypeOf(Uint8Array.prototype);
const typedArrayBufferGetter = ObjectGetOwnPropertyDescriptor(TypedArrayPrototype, 'buffer').get;
const typedArrayByteOffsetGetter = ObjectGetOwnPropertyDescriptor(TypedArrayPrototype, 'byteOffset').get;
const typedArrayByteLengthGetter = ObjectGetOwnPropertyDescriptor(TypedArrayPrototype, 'byteLength').get;
const typedArrayLengthGetter = ObjectGetOwnPropertyDescriptor(TypedArrayPrototype, 'length').get;
const typedArrayTagGetter = ObjectGetOwnPropertyDescriptor(TypedArrayPrototype, Symbol.toStringTag).get;
const DataViewPrototype = DataView.prototype;
const dataViewBufferGetter = ObjectGetOwnPropertyDescriptor(DataViewPrototype, 'buffer').get;
const dataViewByteOffsetGetter = ObjectGetOwnPropertyDescriptor(DataViewPrototype, 'byteOffset').get;
const dataViewByteLengthGetter = ObjectGetOwnPropertyDescriptor(DataViewPrototype, 'byteLength').get;
export const Uint8ArrayCtor = Uint8Array;
export const DataViewCtor = DataView;
const TypedArraySet = TypedArrayPrototype.set;

/** Is `view` a TypedArray (not a DataView)? */
export function isTypedArray(view) {
  return ReflectApply(typedArrayTagGetter, view, []) !== undefined;
}
/** The element type's constructor name, e.g. 'Uint8Array'. */
export function typedArrayName(view) {
  return ReflectApply(typedArrayTagGetter, view, []);
}
export function viewBuffer(view) {
  return isTypedArray(view)
    ? ReflectApply(typedArrayBufferGetter, view, [])
    : ReflectApply(dataViewBufferGetter, view, []);
}
export function viewByteOffset(view) {
  return isTypedArray(view)
    ? ReflectApply(typedArrayByteOffsetGetter, view, [])
    : ReflectApply(dataViewByteOffsetGetter, view, []);
}
export function viewByteLength(view) {
  return isTypedArray(view)
    ? ReflectApply(typedArrayByteLengthGetter, view, [])
    : ReflectApply(dataViewByteLengthGetter, view, []);
}
export function typedArrayLength(view) {
  return ReflectApply(typedArrayLengthGetter, view, []);
}
/** Is `value` a SharedArrayBuffer? (util.types answers without throwing.) */
export const isSharedArrayBuffer = nodeUtilTypes.isSharedArrayBuffer;
/** Is `value` a (non-shared) ArrayBuffer? */
export const isArrayBuffer = nodeUtilTypes.isArrayBuffer;
export function arrayBufferByteLength(buffer) {
  return ReflectApply(byteLengthGetter, buffer, []);
}
/** Copies `length` bytes between ArrayBuffers (spec: CopyDataBlockBytes). */
export function copyDataBlockBytes(toBuffer, toIndex, fromBuffer, fromIndex, length) {
  ReflectApply(TypedArraySet, new Uint8ArrayCtor(toBuffer, toIndex, length),
    [new Uint8ArrayCtor(fromBuffer, fromIndex, length)]);
}

// ArrayBuffer.prototype.transfer and .detached arrived in Node 21/22. On Node 20
// structuredClone with a transfer list detaches the source the same way.
const structuredCloneFn = globalThis.structuredClone;
export const isDetachedBuffer = detachedGetter !== undefined
  ? (buffer) => ReflectApply(detachedGetter, buffer, [])
  : (buffer) => {
      // A detached buffer reports byteLength 0 and cannot be sliced.
      if (ReflectApply(byteLengthGetter, buffer, []) !== 0) return false;
      try {
        ReflectApply(ArrayBufferPrototypeSlice, buffer, [0, 0]);
        return false;
      } catch {
        return true;
      }
    };
export const transferArrayBuffer = transferMethod !== undefined
  ? (buffer) => ReflectApply(transferMethod, buffer, [])
  : (buffer) => {
      // structuredClone copies (rather than detaches) buffers that cannot be
      // detached, e.g. a WebAssembly.Memory's; transfer() throws for those.
      // A buffer that had bytes and now reports none was detached: that test
      // avoids isDetachedBuffer's thrown exception on the per-chunk path.
      const length = ReflectApply(byteLengthGetter, buffer, []);
      const transferred = structuredCloneFn(buffer, { transfer: [buffer] });
      const detached = length !== 0 ? ReflectApply(byteLengthGetter, buffer, []) === 0 : isDetachedBuffer(buffer);
      if (!detached) throw new OriginalTypeError('This ArrayBuffer cannot be transferred');
      return transferred;
    };

// AbortController / AbortSignal, for WritableStreamDefaultController.signal and pipeTo's signal.
export const AbortControllerCtor = AbortController;
const abortControllerProto = AbortController.prototype;
export const AbortControllerAbort = abortControllerProto.abort;
const abortControllerSignalGetter = ObjectGetOwnPropertyDescriptor(abortControllerProto, 'signal').get;
export function abortControllerSignal(controller) {
  return ReflectApply(abortControllerSignalGetter, controller, []);
}
const abortSignalProto = AbortSignal.prototype;
const abortSignalAbortedGetter = ObjectGetOwnPropertyDescriptor(abortSignalProto, 'aborted').get;
const abortSignalReasonGetter = ObjectGetOwnPropertyDescriptor(abortSignalProto, 'reason').get;
/** Is value a genuine AbortSignal? (Node's getters throw for anything else.) */
export function isAbortSignal(value) {
  if (typeof value !== 'object' || value === null) return false;
  try {
    ReflectApply(abortSignalAbortedGetter, value, []);
    return true;
  } catch {
    return false;
  }
}
export function abortSignalAborted(signal) {
  return ReflectApply(abortSignalAbortedGetter, signal, []);
}
export function abortSignalReason(signal) {
  return ReflectApply(abortSignalReasonGetter, signal, []);
}
const EventTargetProto = EventTarget.prototype;
export const EventTargetAddEventListener = EventTargetProto.addEventListener;
export const EventTargetRemoveEventListener = EventTargetProto.removeEventListener;

// ----- Appended for byte streams (byte-controller.js, byob-reader.js, byte-tee.js) -----
// "The typed array constructors table": [[TypedArrayName]] -> constructor and
// element size, captured now so user code that replaces globals or patches
// `view.constructor` cannot change which views byte streams create.
export const TypedArrayConstructorsByName = ObjectCreate(null);
export const TypedArrayElementSizeByName = ObjectCreate(null);
for (const name of ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array',
  'Int32Array', 'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array',
  'BigUint64Array']) {
  const ctor = globalThis[name];
  if (typeof ctor !== 'function') continue;
  TypedArrayConstructorsByName[name] = ctor;
  TypedArrayElementSizeByName[name] = ctor.BYTES_PER_ELEMENT;
}
ObjectFreeze(TypedArrayConstructorsByName);
ObjectFreeze(TypedArrayElementSizeByName);
const resizableGetter = ObjectGetOwnPropertyDescriptor(ArrayBufferPrototype, 'resizable')?.get;
/** Is `buffer` a resizable ArrayBuffer? (false where resizable buffers do not exist) */
export function isResizableArrayBuffer(buffer) {
  return resizableGetter !== undefined && ReflectApply(resizableGetter, buffer, []);
}

