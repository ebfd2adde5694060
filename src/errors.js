// The errors we throw and reject with, shaped as Node's own Web Streams make
// them on the running Node: a real TypeError or RangeError (instanceof holds,
// constructor and name are the builtin's) with Node's `code` as an own
// enumerable property, and a stack that starts `TypeError [ERR_X]: message`.
// Node and undici branch on `code` (undici's abortFetch swallows a cancel()
// rejection only when e.code === 'ERR_INVALID_STATE'), so it must be there.
// The message is Node's too (src/messages.js words it), built only here, when
// an error is made. test/errors/ compares every site with native Node.
import {
  OriginalTypeError, OriginalRangeError, ObjectDefineProperty, ObjectGetOwnPropertyDescriptor, ReflectApply,
  SymbolAsyncIterator, Uint8ArrayCtor, SharedArrayBufferCtor, MapCtor, mapGet, mapSet,
} from './intrinsics.js';
import { natives } from './bridge/natives.js';
import { nodeMajor } from './node-version.js';
import {
  stateMessage, argTypeMessage, argValueMessage, outOfRangeMessage, missingOptionMessage, notIterableMessage,
  startNotCallableMessage, nodeCallMessage,
} from './messages.js';

export const ERR_INVALID_STATE = 'ERR_INVALID_STATE';
export const ERR_INVALID_ARG_TYPE = 'ERR_INVALID_ARG_TYPE';
export const ERR_INVALID_ARG_VALUE = 'ERR_INVALID_ARG_VALUE';
export const ERR_INVALID_THIS = 'ERR_INVALID_THIS';
export const ERR_ILLEGAL_CONSTRUCTOR = 'ERR_ILLEGAL_CONSTRUCTOR';
export const ERR_OUT_OF_RANGE = 'ERR_OUT_OF_RANGE';
export const ERR_MISSING_OPTION = 'ERR_MISSING_OPTION';
export const ERR_ARG_NOT_ITERABLE = 'ERR_ARG_NOT_ITERABLE';

/**
 * An Error of the builtin `Ctor` with `code` (none when code is null or
 * undefined). The stack header gets the code the way Node's own errors show
 * it: the name is changed while the stack is formatted, then restored, so
 * `name` stays 'TypeError'. Formatting costs a few microseconds, paid only on
 * error paths.
 */
export function codedError(Ctor, code, message) {
  const error = new Ctor(message);
  if (code === null || code === undefined) return error;
  ObjectDefineProperty(error, 'name', {
    value: `${error.name} [${code}]`, writable: true, enumerable: false, configurable: true,
  });
  // eslint-disable-next-line no-unused-expressions
  error.stack;
  delete error.name;
  error.code = code;
  // String(error) reads `TypeError [ERR_X]: message`, as Node's own errors do.
  ObjectDefineProperty(error, 'toString', {
    value: codedErrorToString, writable: true, enumerable: false, configurable: true,
  });
  return error;
}

function codedErrorToString() {
  return `${this.name} [${this.code}]: ${this.message}`;
}

/** TypeError [ERR_INVALID_STATE]: "Invalid state: <detail>" (locked, released, closed...). */
export function invalidState(detail) {
  return codedError(OriginalTypeError, ERR_INVALID_STATE, stateMessage(detail));
}

/**
 * TypeError [ERR_INVALID_ARG_TYPE] (or `code` given): argument or member
 * `name` ('source', 'source.pull') is not `expected` ('of type function').
 */
export function invalidArgType(name, expected, actual, code = ERR_INVALID_ARG_TYPE) {
  return codedError(OriginalTypeError, code, argTypeMessage(name, expected, actual));
}

/** TypeError [ERR_INVALID_ARG_VALUE]: `value` of `name` not allowed (`reason`: Node's, 'is invalid' by default). */
export function invalidArgValue(name, value, reason = undefined) {
  return codedError(OriginalTypeError, ERR_INVALID_ARG_VALUE, argValueMessage(name, value, reason));
}

/** RangeError [ERR_INVALID_ARG_VALUE]: a number or enum out of its range (Node's choice for these sites). */
export function invalidArgValueRange(name, value, reason = undefined) {
  return codedError(OriginalRangeError, ERR_INVALID_ARG_VALUE, argValueMessage(name, value, reason));
}

/** RangeError [ERR_OUT_OF_RANGE]: `input` of `name` outside `range` ('<= view.length'). */
export function outOfRange(name, range, input) {
  return codedError(OriginalRangeError, ERR_OUT_OF_RANGE, outOfRangeMessage(name, range, input));
}

/** TypeError [ERR_ILLEGAL_CONSTRUCTOR]: a class user code may not construct. */
export function illegalConstructor() {
  return codedError(OriginalTypeError, ERR_ILLEGAL_CONSTRUCTOR, 'Illegal constructor');
}

/** TypeError [ERR_INVALID_THIS] (or `code` given): a member called on an object not of its class. */
export function invalidThis(message, code = ERR_INVALID_THIS) {
  return codedError(OriginalTypeError, code, message);
}

/** TypeError [ERR_MISSING_OPTION]: "<name> is required". */
export function missingOption(name) {
  return codedError(OriginalTypeError, ERR_MISSING_OPTION, missingOptionMessage(name));
}

/** TypeError [ERR_ARG_NOT_ITERABLE]: "<value> must be iterable". */
export function argNotIterable(value) {
  return codedError(OriginalTypeError, ERR_ARG_NOT_ITERABLE, notIterableMessage(value));
}

/** A TypeError with `code` decided by the caller (null: none). */
export function codedTypeError(message, code) {
  return codedError(OriginalTypeError, code, message);
}

/**
 * The brand check of the async iterator's next() and return(): Node 26 has one
 * (ERR_INVALID_THIS, rejecting); before, its methods fail without a code.
 */
export function asyncIteratorBrandCode() {
  return nodeMajor >= 26 ? ERR_INVALID_THIS : null;
}

/** For a site whose code is asked lazily and is none. */
export function noCode() {
  return null;
}

/** A TypeError with no code: sites where Node's own throws a plain one. */
export function plainTypeError(message) {
  return new OriginalTypeError(message);
}

/** UnderlyingSource.start or UnderlyingSink.start not callable (a plain TypeError, as Node's). */
export function startNotCallable() {
  return plainTypeError(startNotCallableMessage());
}

/** Transformer.start not callable (a plain TypeError, as Node's). */
export function transformerStartNotCallable(start) {
  return plainTypeError(nodeCallMessage(start));
}

// Codes that differ between Node versions. Each is asked of Node's own classes
// the first time it is needed (never at load: most programs never need one),
// so a Node release that changes one is followed without a version table.
const WebAssemblyMemory = globalThis.WebAssembly?.Memory;

// A probe runs Node's class, never ours: if `natives` ever held our classes, a
// probe reaching this module again would find its entry 'asking' and answer
// null rather than recurse.
const asked = new MapCtor();

/** `probe()`'s answer for `key`, asked once (src/codecs/natives.js asks through it too). */
export function askNativeOnce(key, probe) {
  let answer = mapGet(asked, key);
  if (answer === undefined) {
    mapSet(asked, key, 'asking');
    answer = probe();
    mapSet(asked, key, answer);
  }
  return answer === 'asking' ? null : answer;
}

/** The code of the error `provoke()` throws; null when it has none or nothing is thrown. */
export function thrownCode(provoke) {
  try {
    provoke();
  } catch (error) {
    return error?.code ?? null;
  }
  return null;
}

function askNative(key, provoke) {
  return askNativeOnce(key, () => thrownCode(provoke));
}

/** Enqueues `view` into a byte stream of Node's own. */
function nativeByteEnqueue(view) {
  let controller;
  // eslint-disable-next-line no-new
  new natives.ReadableStream({ type: 'bytes', start(c) { controller = c; } });
  controller.enqueue(view);
}

/**
 * Brand check of a queuing strategy getter: Node 20 says ERR_INVALID_THIS,
 * Node 22+ a plain TypeError (its strategies moved to WebIDL-generated checks).
 */
export function strategyBrandCode() {
  return askNative('strategyBrand', () => {
    ReflectApply(ObjectGetOwnPropertyDescriptor(natives.CountQueuingStrategy.prototype, 'highWaterMark').get, {}, []);
  });
}

/**
 * ReadableStream.from given an object whose Symbol.asyncIterator or
 * Symbol.iterator is not callable: ERR_ARG_NOT_ITERABLE on Node 24+, plain on
 * 20 and 22. (The same release rewrote from()'s iteration: src/node-pace.js,
 * fromIteratesInPlace.)
 */
export function fromNotCallableCode() {
  return askNative('fromNotCallable', () => natives.ReadableStream.from({ [SymbolAsyncIterator]: 5 }));
}

/** A view on a SharedArrayBuffer given to a byte stream: ERR_INVALID_ARG_VALUE on Node 24+, plain before. */
export function sharedBufferViewCode() {
  return askNative('sharedBufferView', () => nativeByteEnqueue(new Uint8ArrayCtor(new SharedArrayBufferCtor(1))));
}

/** A buffer that cannot be transferred (WebAssembly memory): ERR_OPERATION_FAILED on Node 20, plain on 22+. */
export function notTransferableCode() {
  return askNative('notTransferable', () => {
    nativeByteEnqueue(new Uint8ArrayCtor(new WebAssemblyMemory({ initial: 1 }).buffer, 0, 1));
  });
}
