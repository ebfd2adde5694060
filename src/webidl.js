// WebIDL conversions used by the public classes: dictionaries, callbacks,
// numbers, buffer views and brand-check errors. Errors name the interface, the member and the
// argument at fault, the way browsers do, so a user knows what to fix.
import {
  OriginalTypeError, NumberIsNaN, MathTrunc, NumberMAX_SAFE_INTEGER,
  ReflectApply, ObjectDefineProperty, ObjectGetOwnPropertyDescriptor, SymbolToStringTag,
  PromiseReject, ArrayBufferIsView, viewBuffer, viewByteLength, isSharedArrayBuffer,
  isResizableArrayBuffer,
} from './intrinsics.js';
import { promiseResolvedWith } from './promise.js';
import {
  invalidThis, invalidArgType, invalidArgValue, codedTypeError, noCode, ERR_INVALID_THIS, ERR_INVALID_ARG_TYPE,
} from './errors.js';

export function isObject(value) {
  return (typeof value === 'object' && value !== null) || typeof value === 'function';
}

/** TypeError for a method called on an object that is not of the interface (Node's code by default). */
export function illegalInvocation(interfaceName, member, code = ERR_INVALID_THIS) {
  return invalidThis(
    `Illegal invocation: ${interfaceName}.prototype.${member} called on an object that is not a ${interfaceName}`, code);
}

/** Conversion of an argument or value to a WebIDL dictionary: null/undefined mean "empty". */
export function requireDictionary(value, context) {
  if (value !== undefined && value !== null && !isObject(value)) {
    throw invalidArgType(`${context} must be an object, null or undefined`);
  }
}

/** Reads a dictionary member (undefined for a missing dictionary). */
export function getMember(dict, name) {
  return dict === undefined || dict === null ? undefined : dict[name];
}

/** Conversion to a WebIDL callback function type: must be callable (`code`: Node's for the member, null for none). */
export function convertCallback(value, context, code = ERR_INVALID_ARG_TYPE) {
  if (typeof value !== 'function') {
    throw invalidArgType(`${context} must be a function, got ${describe(value)}`, code);
  }
  return value;
}

/** [EnforceRange] unsigned long long */
export function convertEnforceRangeULL(value, context) {
  let x = +value;
  if (NumberIsNaN(x) || x === Infinity || x === -Infinity) {
    throw invalidArgValue(`${context} must be a finite number, got ${describe(value)}`);
  }
  x = MathTrunc(x);
  if (x < 0 || x > NumberMAX_SAFE_INTEGER) {
    throw invalidArgValue(`${context} must be between 0 and ${NumberMAX_SAFE_INTEGER}, got ${x}`);
  }
  return x === 0 ? 0 : x; // normalise -0
}

/** unrestricted double (ToNumber; throws on Symbol and BigInt). */
export function convertUnrestrictedDouble(value) {
  return +value;
}

/** A `type`-style enum member: undefined stays undefined; anything else must be one of `allowed`. */
export function convertEnum(value, allowed, context) {
  const s = `${value}`;
  if (s !== allowed) {
    throw invalidArgValue(`${context} must be '${allowed}' or undefined, got '${s}'`);
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

export function describe(value) {
  if (value === null) return 'null';
  if (typeof value === 'string') return `'${value}'`;
  if (typeof value === 'symbol' || typeof value === 'bigint') return `a ${typeof value}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

export function typeError(message) {
  return new OriginalTypeError(message);
}

/** Sets Symbol.toStringTag and makes prototype members enumerable, as WebIDL interfaces do. */
export function defineInterface(ctor, name, members) {
  const proto = ctor.prototype;
  for (const member of members) {
    const desc = ObjectGetOwnPropertyDescriptor(proto, member);
    desc.enumerable = true;
    ObjectDefineProperty(proto, member, desc);
  }
  ObjectDefineProperty(proto, SymbolToStringTag, {
    value: name, writable: false, enumerable: false, configurable: true,
  });
}

/**
 * WebIDL conversion to ArrayBufferView: a TypedArray or DataView whose buffer is
 * neither shared nor resizable ([AllowShared]/[AllowResizable] are absent).
 */
export function convertArrayBufferView(value, context, sharedCodeOf = noCode) {
  if (!ArrayBufferIsView(value)) {
    throw invalidArgType(`${context} is not an ArrayBufferView (a TypedArray or a DataView)`);
  }
  const buffer = viewBuffer(value);
  if (isSharedArrayBuffer(buffer)) {
    throw codedTypeError(`${context} is a view on a SharedArrayBuffer, which is not allowed`, sharedCodeOf());
  }
  if (isResizableArrayBuffer(buffer)) {
    throw codedTypeError(`${context} is a view on a resizable ArrayBuffer, which is not allowed`, sharedCodeOf());
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
