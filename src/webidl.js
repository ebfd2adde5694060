// WebIDL conversions used by the public classes: dictionaries, callbacks,
// numbers, buffer views and brand-check errors. Errors are worded as Node's
// own streams word them (src/messages.js), naming the argument or member
// Node names ('source.pull', 'options.min').
import {
  NumberIsNaN, MathTrunc, NumberMAX_SAFE_INTEGER,
  ReflectApply, ObjectDefineProperty, ObjectGetOwnPropertyDescriptor, SymbolToStringTag,
  PromiseReject, ArrayBufferIsView, viewBuffer, viewByteLength, isSharedArrayBuffer,
  isResizableArrayBuffer,
} from './intrinsics.js';
import { promiseResolvedWith } from './promise.js';
import {
  invalidThis, invalidArgType, invalidArgValue, codedTypeError, noCode, ERR_INVALID_THIS,
} from './errors.js';
import { brandMessage, argValueMessage } from './messages.js';

export function isObject(value) {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** TypeError for a member called on an object that is not of the interface (Node's code by default). */
export function illegalInvocation(interfaceName, member, code = ERR_INVALID_THIS) {
  return invalidThis(brandMessage(interfaceName, member), code);
}

/** Conversion of argument or member `name` to a WebIDL dictionary: null/undefined mean "empty". */
export function requireDictionary(value, name) {
  if (value !== undefined && value !== null && !isObject(value)) {
    throw invalidArgType(name, 'of type object', value);
  }
}

/** Reads a dictionary member (undefined for a missing dictionary). */
export function getMember(dict, name) {
  return dict === undefined || dict === null ? undefined : dict[name];
}

/**
 * Conversion to a WebIDL callback function type: must be callable.
 * `notCallable(value)` makes the error where Node's is not its
 * ERR_INVALID_ARG_TYPE for `name`.
 */
export function convertCallback(value, name, notCallable = undefined) {
  if (typeof value !== 'function') {
    throw notCallable === undefined ? invalidArgType(name, 'of type function', value) : notCallable(value);
  }
  return value;
}

/**
 * [EnforceRange] unsigned long long; a value refused is reported as
 * `name`'s ERR_INVALID_ARG_VALUE, with Node's reason for a value that is not
 * a finite number and for one out of range.
 */
export function convertEnforceRangeULL(value, name, notFiniteReason = undefined, outOfRangeReason = undefined) {
  let x = +value;
  if (NumberIsNaN(x) || x === Infinity || x === -Infinity) {
    throw invalidArgValue(name, value, notFiniteReason);
  }
  x = MathTrunc(x);
  if (x < 0 || x > NumberMAX_SAFE_INTEGER) {
    throw invalidArgValue(name, value, outOfRangeReason);
  }
  return x === 0 ? 0 : x; // normalise -0
}

/** unrestricted double (ToNumber; throws on Symbol and BigInt). */
export function convertUnrestrictedDouble(value) {
  return +value;
}

/** A `type`-style enum member `name`: undefined stays undefined; anything else must be `allowed`. */
export function convertEnum(value, allowed, name) {
  const s = `${value}`;
  if (s !== allowed) {
    throw invalidArgValue(name, value);
  }
  return s;
}

/** Calls a Promise-returning callback and converts throws to a rejected promise. */
export function invokePromiseCallback(fn, thisArg, args) {
  try {
    return promiseResolvedWith(ReflectApply(fn, thisArg, args));
  } catch (error) {
    return PromiseReject(error);
  }
}

/** Sets Symbol.toStringTag and makes prototype members enumerable, as WebIDL interfaces do. */
export function defineInterface(ctor, name, members) {
  const proto = ctor.prototype;
  for (let i = 0; i < members.length; i++) {
    const member = members[i];
    const desc = ObjectGetOwnPropertyDescriptor(proto, member);
    desc.enumerable = true;
    ObjectDefineProperty(proto, member, desc);
  }
  ObjectDefineProperty(proto, SymbolToStringTag, {
    value: name, writable: false, enumerable: false, configurable: true,
  });
}

/**
 * WebIDL conversion of argument `name` to ArrayBufferView: a TypedArray or
 * DataView whose buffer is neither shared nor resizable ([AllowShared] and
 * [AllowResizable] are absent). A view on a SharedArrayBuffer gets Node's
 * code and message for the site (`sharedCodeOf()`, `sharedMessageOf(view,
 * buffer)`); a resizable buffer, which Node takes, the same code.
 */
export function convertArrayBufferView(value, name, sharedCodeOf = noCode, sharedMessageOf = undefined) {
  if (!ArrayBufferIsView(value)) {
    throw invalidArgType(name, 'an instance of Buffer, TypedArray, or DataView', value);
  }
  const buffer = viewBuffer(value);
  if (isSharedArrayBuffer(buffer)) {
    throw codedTypeError(sharedMessageOf(value, buffer), sharedCodeOf());
  }
  if (isResizableArrayBuffer(buffer)) {
    throw codedTypeError(argValueMessage(name, value, 'must not be backed by a resizable ArrayBuffer'), sharedCodeOf());
  }
  return value;
}

/**
 * A view's [[ByteLength]]; 0 for a DataView whose buffer is detached (whose
 * byteLength getter throws instead).
 */
export function viewByteLengthOrZero(view) {
  try {
    return viewByteLength(view);
  } catch {
    return 0;
  }
}
