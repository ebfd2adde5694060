// Intrinsics captured when this module first loads, before any user code can
// patch them. Every spec algorithm calls through these, so a program that
// replaces Promise.prototype.then, Function.prototype.call or Array methods
// cannot change how our streams behave (the Web Platform Tests check this).

import { types as nodeUtilTypes } from 'node:util';
import { probeDetachArrayBuffer } from './node-internals/buffer-binding.js';

export const ReflectApply = Reflect.apply;
export const ReflectDeleteProperty = Reflect.deleteProperty;
/** `fn` as a function of its receiver: uncurryThis(fn)(x, ...args) is fn.call(x, ...args), whatever call becomes later. */
export const uncurryThis = Function.prototype.bind.bind(Function.prototype.call);
/** functionCall(fn, thisArg, ...args) is fn.call(thisArg, ...args) with the original call: no argument list. */
export const functionCall = uncurryThis(Function.prototype.call);
export const ObjectPrototype = Object.prototype;
export const ObjectCreate = Object.create;
export const ObjectDefineProperty = Object.defineProperty;
export const ObjectFreeze = Object.freeze;
export const ObjectGetPrototypeOf = Object.getPrototypeOf;
export const ObjectSetPrototypeOf = Object.setPrototypeOf;
export const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
export const ObjectHasOwn = Object.hasOwn;
export const ObjectKeys = Object.keys;
export const StringPrototypeStartsWith = uncurryThis(String.prototype.startsWith);
export const ArrayCtor = Array;
export const ArrayIsArray = Array.isArray;
/** Array.from: an array of what an iterable (not an array: copy those by index) yields. */
export const ArrayFrom = Array.from;
export const StringCtor = String;
export const StringPrototypeCharCodeAt = uncurryThis(String.prototype.charCodeAt);
export const StringPrototypeSlice = uncurryThis(String.prototype.slice);

// The keyed collections, as functions of the collection: mapGet(map, key).
export const MapCtor = Map;
export const mapGet = uncurryThis(Map.prototype.get);
export const mapSet = uncurryThis(Map.prototype.set);
export const mapHas = uncurryThis(Map.prototype.has);
export const mapForEach = uncurryThis(Map.prototype.forEach);
export const SetCtor = Set;
export const setAdd = uncurryThis(Set.prototype.add);
export const setForEach = uncurryThis(Set.prototype.forEach);
export const WeakMapCtor = WeakMap;
export const weakMapGet = uncurryThis(WeakMap.prototype.get);
export const weakMapSet = uncurryThis(WeakMap.prototype.set);

export const OriginalPromise = Promise;
export const PromisePrototype = Promise.prototype;
/** Promise.prototype.then itself, to tell whether a program replaced it. */
export const PromisePrototypeThen = Promise.prototype.then;
/** then() as a plain function, promiseThen(promise, onFulfilled, onRejected): immune to a patched Promise.prototype.then. */
export const promiseThen = uncurryThis(Promise.prototype.then);
export const promiseFinally = uncurryThis(Promise.prototype.finally);
export const PromiseResolve = Promise.resolve.bind(Promise);
export const PromiseReject = Promise.reject.bind(Promise);
export const PromiseAll = Promise.all.bind(Promise);

export const OriginalError = Error;
export const OriginalTypeError = TypeError;
export const OriginalRangeError = RangeError;

// Node's Buffer statics, for the zlib driver (they do not use `this`).
export const BufferFrom = Buffer.from;
export const BufferConcat = Buffer.concat;

// Node's timers, for the zlib driver's batch sent after the writer's turn.
export const SetImmediate = setImmediate;
export const DOMExceptionCtor = globalThis.DOMException;

export const SymbolCtor = Symbol;
export const SymbolAsyncIterator = Symbol.asyncIterator;
export const SymbolIterator = Symbol.iterator;
export const SymbolToStringTag = Symbol.toStringTag;

export const NumberIsNaN = Number.isNaN;
export const MathTrunc = Math.trunc;
export const MathMin = Math.min;
export const NumberMAX_SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

export const ArrayBufferCtor = ArrayBuffer;
export const ArrayBufferIsView = ArrayBuffer.isView;
export const SharedArrayBufferCtor = globalThis.SharedArrayBuffer;
export const Uint8ArrayCtor = Uint8Array;
export const DataViewCtor = DataView;
export const TypedArrayPrototype = ObjectGetPrototypeOf(Uint8Array.prototype);
const ArrayBufferPrototype = ArrayBuffer.prototype;
const DataViewPrototype = DataView.prototype;
export const ArrayBufferPrototypeSlice = ArrayBufferPrototype.slice;

// The view and buffer accessors, called as plain functions of their receiver.
// They run several times per byte-stream chunk: ReflectApply(getter, view, [])
// would build an argument array per call, which even optimised code keeps.
const getterOf = (proto, key) => ObjectGetOwnPropertyDescriptor(proto, key)?.get;

/** A TypedArray's [[TypedArrayName]], e.g. 'Uint8Array'; undefined for anything else (never throws). */
export const typedArrayName = uncurryThis(getterOf(TypedArrayPrototype, SymbolToStringTag));
/** A TypedArray's [[ViewedArrayBuffer]], [[ByteOffset]], byte length and length (0 once detached). */
export const typedArrayBuffer = uncurryThis(getterOf(TypedArrayPrototype, 'buffer'));
export const typedArrayByteOffset = uncurryThis(getterOf(TypedArrayPrototype, 'byteOffset'));
export const typedArrayByteLength = uncurryThis(getterOf(TypedArrayPrototype, 'byteLength'));
export const typedArrayLength = uncurryThis(getterOf(TypedArrayPrototype, 'length'));
/** %TypedArray%.prototype.set: copies a TypedArray's elements into another (no observable lookups). */
export const typedArraySet = uncurryThis(TypedArrayPrototype.set);
/** The same slots of a DataView (byteOffset and byteLength throw once its buffer is detached). */
export const dataViewBuffer = uncurryThis(getterOf(DataViewPrototype, 'buffer'));
export const dataViewByteOffset = uncurryThis(getterOf(DataViewPrototype, 'byteOffset'));
export const dataViewByteLength = uncurryThis(getterOf(DataViewPrototype, 'byteLength'));

/** Is `view` a TypedArray (not a DataView)? */
export function isTypedArray(view) {
  return typedArrayName(view) !== undefined;
}
/** The slots of any ArrayBufferView. */
export function viewBuffer(view) {
  return isTypedArray(view) ? typedArrayBuffer(view) : dataViewBuffer(view);
}
export function viewByteOffset(view) {
  return isTypedArray(view) ? typedArrayByteOffset(view) : dataViewByteOffset(view);
}
export function viewByteLength(view) {
  return isTypedArray(view) ? typedArrayByteLength(view) : dataViewByteLength(view);
}

/** Is `value` a SharedArrayBuffer? (util.types answers without throwing.) */
export const isSharedArrayBuffer = nodeUtilTypes.isSharedArrayBuffer;
/** Is value an ArrayBuffer (not a SharedArrayBuffer)? A brand check that throws nothing. */
export const isArrayBuffer = nodeUtilTypes.isArrayBuffer;
/** Is value an ArrayBuffer or a SharedArrayBuffer? */
export const isAnyArrayBuffer = nodeUtilTypes.isAnyArrayBuffer;
export const isProxy = nodeUtilTypes.isProxy;
/** An ArrayBuffer's [[ArrayBufferByteLength]] (0 once detached); throws for anything else, a SharedArrayBuffer too. */
export const arrayBufferByteLength = uncurryThis(getterOf(ArrayBufferPrototype, 'byteLength'));
const resizableGetter = getterOf(ArrayBufferPrototype, 'resizable');
/** Is the ArrayBuffer `buffer` resizable? (false where resizable buffers do not exist) */
export const isResizableArrayBuffer = resizableGetter === undefined ? () => false : uncurryThis(resizableGetter);

/** Copies `length` bytes between ArrayBuffers (spec: CopyDataBlockBytes). */
export function copyDataBlockBytes(toBuffer, toIndex, fromBuffer, fromIndex, length) {
  typedArraySet(new Uint8ArrayCtor(toBuffer, toIndex, length), new Uint8ArrayCtor(fromBuffer, fromIndex, length));
}

// ArrayBuffer.prototype.transfer and .detached arrived in Node 21/22. Node 20
// gets the same effects another way (below).
const detachedGetter = getterOf(ArrayBufferPrototype, 'detached');
const transferMethod = ArrayBufferPrototype.transfer;

/** IsDetachedBuffer. */
export const isDetachedBuffer = detachedGetter !== undefined
  ? uncurryThis(detachedGetter)
  : (buffer) => {
      // A detached buffer reports byteLength 0 and cannot be sliced.
      if (arrayBufferByteLength(buffer) !== 0) return false;
      try {
        ReflectApply(ArrayBufferPrototypeSlice, buffer, [0, 0]);
        return false;
      } catch {
        return true;
      }
    };

// Node 20 (no transfer method): Node's buffer binding where its probe holds
// (src/node-internals/buffer-binding.js), else structuredClone.
const detachByBinding = transferMethod === undefined ? probeDetachArrayBuffer() : undefined;
const structuredCloneFn = globalThis.structuredClone;
/** Node's structuredClone, as it was at start (the lazy install comes later: src/patch/lazy.js). */
export const StructuredClone = structuredCloneFn;

function transferByBinding(buffer) {
  const moved = detachByBinding(buffer);
  if (moved === undefined) throw new OriginalTypeError('This ArrayBuffer cannot be transferred');
  return moved;
}

function transferByStructuredClone(buffer) {
  // structuredClone copies (rather than detaches) buffers that cannot be
  // detached, e.g. a WebAssembly.Memory's; transfer() throws for those.
  // A buffer that had bytes and now reports none was detached: that test
  // avoids isDetachedBuffer's thrown exception on the per-chunk path.
  const length = arrayBufferByteLength(buffer);
  const transferred = structuredCloneFn(buffer, { transfer: [buffer] });
  const detached = length !== 0 ? arrayBufferByteLength(buffer) === 0 : isDetachedBuffer(buffer);
  if (!detached) throw new OriginalTypeError('This ArrayBuffer cannot be transferred');
  return transferred;
}

/**
 * ArrayBuffer.prototype.transfer(), or what stands in for it on Node 20:
 * detaches `buffer` (an ArrayBuffer, not detached) and returns a new
 * ArrayBuffer with its contents; throws for a buffer that cannot be detached.
 * The spec's TransferArrayBuffer (src/array-buffers.js) is built on it.
 */
export const arrayBufferTransfer = transferMethod !== undefined
  ? uncurryThis(transferMethod)
  : detachByBinding !== undefined ? transferByBinding : transferByStructuredClone;

// AbortController / AbortSignal, for WritableStreamDefaultController.signal and pipeTo's signal.
export const AbortControllerCtor = AbortController;
const abortControllerProto = AbortController.prototype;
export const AbortControllerAbort = abortControllerProto.abort;
export const abortControllerSignal = uncurryThis(getterOf(abortControllerProto, 'signal'));
const abortSignalProto = AbortSignal.prototype;
export const abortSignalAborted = uncurryThis(getterOf(abortSignalProto, 'aborted'));
export const abortSignalReason = uncurryThis(getterOf(abortSignalProto, 'reason'));
/** Is value a genuine AbortSignal? (Node's getters throw for anything else.) */
export function isAbortSignal(value) {
  if (typeof value !== 'object' || value === null) return false;
  try {
    abortSignalAborted(value);
    return true;
  } catch {
    return false;
  }
}
const EventTargetProto = EventTarget.prototype;
export const EventTargetAddEventListener = EventTargetProto.addEventListener;
export const EventTargetRemoveEventListener = EventTargetProto.removeEventListener;

// For byte streams, "the typed array constructors table": [[TypedArrayName]] -> constructor and
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
