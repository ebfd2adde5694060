// Transfer of our streams: structuredClone(value, { transfer }) and
// MessagePort.prototype.postMessage(value, transfer). V8 only transfers streams
// that Node's constructors marked, so each of our streams in the transfer list
// is swapped for a native twin (src/bridge/native-twin.js), in the list and in
// the value, before Node's own function runs.
import {
  ReflectApply, SymbolIterator, ArrayIsArray, ArrayFrom, ObjectCreate, ObjectGetPrototypeOf, ObjectKeys, ObjectPrototype,
  DOMExceptionCtor, MapCtor, mapGet, mapSet, mapHas, mapForEach, SetCtor, setAdd, setForEach, StructuredClone,
  OriginalError,
} from '../intrinsics.js';
import { unwrapReadableStream } from '../readable/readable-stream.js';
import { unwrapWritableStream } from '../writable/writable-stream.js';
import { unwrapTransformStream } from '../transform/transform-stream.js';
import {
  nativeReadableFrom, nativeWritableTo, nativeTransformOver,
} from '../bridge/native-twin.js';
import { IsReadableStreamLocked } from '../readable/stream-ops.js';
import { IsWritableStreamLocked } from '../writable/stream-ops.js';
import { natives } from '../bridge/natives.js';

// What ours calls: the global as install() finds it (another preload's wrapper
// included), or Node's own where the application replaced the global before
// its first stream (the lazy install keeps its function, src/patch/lazy.js).
let originalStructuredClone = globalThis.structuredClone;
const structuredCloneDescriptor = Object.getOwnPropertyDescriptor(globalThis, 'structuredClone');
const MessagePortPrototype = globalThis.MessagePort?.prototype;
const originalPostMessage = MessagePortPrototype?.postMessage;
const postMessageDescriptor = MessagePortPrototype && Object.getOwnPropertyDescriptor(MessagePortPrototype, 'postMessage');

/** Node's DataCloneError for a locked `what` ('ReadableStream' or 'WritableStream'). */
function dataCloneError(what) {
  return new DOMExceptionCtor(`Cannot transfer a locked ${what}`, 'DataCloneError');
}

/** The native twin for one of our streams, or undefined if `value` is not ours. */
function twinFor(value) {
  const readable = unwrapReadableStream(value);
  if (readable !== undefined) {
    if (IsReadableStreamLocked(readable)) throw dataCloneError('ReadableStream');
    return nativeReadableFrom(readable);
  }
  const writable = unwrapWritableStream(value);
  if (writable !== undefined) {
    if (IsWritableStreamLocked(writable)) throw dataCloneError('WritableStream');
    return nativeWritableTo(writable);
  }
  const transform = unwrapTransformStream(value);
  if (transform !== undefined) {
    // Node names the locked side, the readable one first.
    if (IsReadableStreamLocked(transform.readable)) throw dataCloneError('ReadableStream');
    if (IsWritableStreamLocked(transform.writable)) throw dataCloneError('WritableStream');
    return nativeTransformOver(transform);
  }
  return undefined;
}

/** Replaces our streams by their twins in a transfer list; undefined if it holds none of ours. */
function substituteTransferList(list, twins) {
  if (list === undefined || list === null || typeof list[SymbolIterator] !== 'function') return undefined;
  // An array is read by index, as Node reads it (a program may have replaced the array iterator).
  const items = ArrayIsArray(list) ? copyArray(list) : ArrayFrom(list);
  let found = false;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (mapHas(twins, item)) {
      items[i] = mapGet(twins, item);
      found = true;
      continue;
    }
    const twin = twinFor(item);
    if (twin !== undefined) {
      mapSet(twins, item, twin);
      items[i] = twin;
      found = true;
    }
  }
  return found ? items : undefined;
}

function copyArray(list) {
  const items = [];
  for (let i = 0; i < list.length; i++) items[i] = list[i];
  return items;
}

/** Copies plain containers in `value` that lead to our streams, with the twins in their place. */
function substituteValue(value, twins, seen) {
  if (typeof value !== 'object' || value === null) return value;
  if (mapHas(twins, value)) return mapGet(twins, value);
  if (mapHas(seen, value)) return mapGet(seen, value);
  if (ArrayIsArray(value)) {
    const copy = [];
    mapSet(seen, value, copy);
    for (let i = 0; i < value.length; i++) copy[i] = substituteValue(value[i], twins, seen);
    return copy;
  }
  const proto = ObjectGetPrototypeOf(value);
  if (proto === ObjectPrototype || proto === null) {
    const copy = proto === null ? ObjectCreate(null) : {};
    mapSet(seen, value, copy);
    const keys = ObjectKeys(value);
    for (let i = 0; i < keys.length; i++) copy[keys[i]] = substituteValue(value[keys[i]], twins, seen);
    return copy;
  }
  if (value instanceof MapCtor) {
    const copy = new MapCtor();
    mapSet(seen, value, copy);
    mapForEach(value, (v, k) => mapSet(copy, substituteValue(k, twins, seen), substituteValue(v, twins, seen)));
    return copy;
  }
  if (value instanceof SetCtor) {
    const copy = new SetCtor();
    mapSet(seen, value, copy);
    setForEach(value, (v) => setAdd(copy, substituteValue(v, twins, seen)));
    return copy;
  }
  return value;
}

const isOurStream = (value) => unwrapReadableStream(value) !== undefined ||
  unwrapWritableStream(value) !== undefined || unwrapTransformStream(value) !== undefined;

/**
 * Is `value` one of our streams, or a plain array or object with one as a
 * direct member? (Deeper nesting is not searched: that would cost every
 * structuredClone() a walk of its whole value.)
 */
function holdsOurStream(value) {
  if (typeof value !== 'object' || value === null) return false;
  if (isOurStream(value)) return true;
  const proto = ObjectGetPrototypeOf(value);
  if (!ArrayIsArray(value) && proto !== ObjectPrototype && proto !== null) return false;
  const keys = ObjectKeys(value);
  for (let i = 0; i < keys.length; i++) {
    const member = value[keys[i]];
    if (typeof member === 'object' && member !== null && isOurStream(member)) return true;
  }
  return false;
}

function structuredClone(value, options = undefined) {
  if (arguments.length === 0) return ReflectApply(originalStructuredClone, undefined, []);
  const transfer = options === undefined || options === null ? undefined : options.transfer;
  const twins = new MapCtor();
  const list = substituteTransferList(transfer, twins);
  if (list === undefined) {
    // Cloned, not transferred: native throws for a stream. V8 would copy ours
    // as a plain {}; give Node a stream of its own there so it throws its own
    // error (the shape differs between Node versions).
    if (holdsOurStream(value)) return ReflectApply(originalStructuredClone, undefined, [new natives.ReadableStream(), options]);
    return ReflectApply(originalStructuredClone, undefined, [value, options]);
  }
  return ReflectApply(originalStructuredClone, undefined,
    [substituteValue(value, twins, new MapCtor()), { ...options, transfer: list }]);
}

function postMessage(message, transferOrOptions = undefined) {
  if (arguments.length === 0) return ReflectApply(originalPostMessage, this, []);
  const twins = new MapCtor();
  const isOptions = transferOrOptions !== null && typeof transferOrOptions === 'object' &&
    typeof transferOrOptions[SymbolIterator] !== 'function';
  const list = substituteTransferList(isOptions ? transferOrOptions.transfer : transferOrOptions, twins);
  if (list === undefined) return ReflectApply(originalPostMessage, this, [message, transferOrOptions]);
  const substituted = substituteValue(message, twins, new MapCtor());
  return ReflectApply(originalPostMessage, this,
    [substituted, isOptions ? { ...transferOrOptions, transfer: list } : list]);
}

let installedPatch = false;
let replacedClone = false;
let replacedPost = false;

/** Our structuredClone while the patch is installed (what a structuredClone captured before it calls). */
export function patchedStructuredClone() {
  return installedPatch && originalStructuredClone !== undefined ? structuredClone : undefined;
}

export function installTransferPatch(keep) {
  if (installedPatch) return;
  if (keep?.has('structuredClone')) {
    originalStructuredClone = StructuredClone;
  } else if (originalStructuredClone !== undefined) {
    // A global or prototype a program froze before its first stream (the lazy
    // install comes after it): our streams could not be transferred, so
    // install() leaves everything native (src/patch/globals.js).
    if (structuredCloneDescriptor?.configurable !== true) throw new OriginalError('globalThis.structuredClone cannot be replaced');
    replacedClone = true;
    Object.defineProperty(globalThis, 'structuredClone', {
      value: structuredClone, writable: true, enumerable: true, configurable: true,
    });
  }
  if (originalPostMessage !== undefined) {
    if (postMessageDescriptor?.configurable !== true) throw new OriginalError('MessagePort.prototype.postMessage cannot be replaced');
    replacedPost = true;
    Object.defineProperty(MessagePortPrototype, 'postMessage', {
      value: postMessage, writable: true, enumerable: true, configurable: true,
    });
  }
  installedPatch = true;
}

export function uninstallTransferPatch() {
  if (!installedPatch) return;
  if (replacedClone) Object.defineProperty(globalThis, 'structuredClone', structuredCloneDescriptor);
  if (replacedPost) Object.defineProperty(MessagePortPrototype, 'postMessage', postMessageDescriptor);
  replacedClone = false;
  replacedPost = false;
  installedPatch = false;
}
