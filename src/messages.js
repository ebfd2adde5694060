// The text of the errors we make, as Node's own Web Streams word them on the
// running Node. Node's bundled undici and applications match on these texts
// (undici's readableStreamClose swallows a close() error only when its message
// says "Controller is already closed" or "ReadableStream is already closed"),
// so they are an interface, like the codes of src/errors.js.
//
// Two parts: the formats of Node's error kinds (ERR_INVALID_ARG_TYPE's
// "Received type number (5)", ERR_INVALID_ARG_VALUE's inspected value, ...),
// and, below them, every text that differs between the Node majors we support
// (nodeMajor, src/node-version.js): the one place such a choice is made.
// Everything here runs only when an error is made.
// test/errors/ compares every site's message with native Node on each major.
import util from 'node:util';
import { ReflectApply, ObjectGetOwnPropertyDescriptor, uncurryThis } from './intrinsics.js';
import { nodeMajor } from './node-version.js';

// Node's own errors use these (they honour util.inspect.defaultOptions as ours do).
const { inspect, format } = util;

const StringSlice = uncurryThis(String.prototype.slice);
const StringIncludes = uncurryThis(String.prototype.includes);
const SymbolToString = uncurryThis(Symbol.prototype.toString);
const JSONStringify = JSON.stringify;
const NumberIsInteger = Number.isInteger;
const MathAbs = Math.abs;
const FunctionCall = Function.prototype.call;
// The getters whose failure on a SharedArrayBuffer Node reports (`detached`: V8 12+).
const arrayBufferGetters = {
  byteLength: ObjectGetOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get,
  detached: ObjectGetOwnPropertyDescriptor(ArrayBuffer.prototype, 'detached')?.get,
};

// ---------------------------------------------------------------------------
// Node's error kinds

/** "argument" for a name like 'view', "property" for a path like 'source.pull'. */
const nameKind = (name) => (StringIncludes(name, '.') ? 'property' : 'argument');

/**
 * A value as ERR_INVALID_ARG_TYPE shows what it received: 'null',
 * 'type number (5)', "type string ('x')", 'an instance of Object', 'function f'.
 */
function describeReceived(value) {
  if (value === null || value === undefined) return `${value}`;
  switch (typeof value) {
    case 'bigint': return `type bigint (${value}n)`;
    case 'number': return `type number (${value === 0 && 1 / value < 0 ? '-0' : `${value}`})`;
    case 'boolean': return `type boolean (${value})`;
    case 'symbol': return `type symbol (${SymbolToString(value)})`;
    case 'function': return `function ${value.name}`;
    case 'string': {
      const shown = value.length > 28 ? `${StringSlice(value, 0, 25)}...` : value;
      return StringIncludes(shown, "'") ? `type string (${JSONStringify(shown)})` : `type string ('${shown}')`;
    }
    default: {
      const name = instanceName(value);
      return name === undefined ? inspect(value, { depth: -1 }) : `an instance of ${name}`;
    }
  }
}

/**
 * The constructor name that makes "an instance of X", or undefined (then the
 * value is inspected). Node 24+ take it only when it is a non-empty string;
 * Node 20 and 22 take whatever `name` a constructor has, '' included.
 */
function instanceName(object) {
  const ctor = object.constructor;
  if (nodeMajor >= 24) {
    const name = ctor?.name;
    return typeof name === 'string' && name !== '' ? name : undefined;
  }
  return ctor && 'name' in ctor ? `${ctor.name}` : undefined;
}

/** ERR_INVALID_ARG_TYPE: `expected` is Node's wording ('of type object', 'an instance of ReadableStream'). */
export function argTypeMessage(name, expected, actual) {
  return `The "${name}" ${nameKind(name)} must be ${expected}. Received ${describeReceived(actual)}`;
}

/** util.inspect() output, cut at 128 characters as Node cuts the value of ERR_INVALID_ARG_VALUE. */
function inspected(value) {
  const text = inspect(value);
  return text.length > 128 ? `${StringSlice(text, 0, 128)}...` : text;
}

/** ERR_INVALID_ARG_VALUE: "The property 'source.type' is invalid. Received 'nope'". */
export function argValueMessage(name, value, reason = 'is invalid') {
  return `The ${nameKind(name)} '${name}' ${reason}. Received ${inspected(value)}`;
}

/** Digits grouped by threes with '_', as Node shows a large number it refuses. */
function withSeparators(digits) {
  const start = digits[0] === '-' ? 1 : 0;
  let end = digits.length;
  let grouped = '';
  while (end - start > 3) {
    grouped = `_${StringSlice(digits, end - 3, end)}${grouped}`;
    end -= 3;
  }
  return `${StringSlice(digits, 0, end)}${grouped}`;
}

/** ERR_OUT_OF_RANGE: 'The value of "options.min" is out of range. It must be <= view.length. Received 5'. */
export function outOfRangeMessage(name, range, input) {
  let received;
  if (NumberIsInteger(input) && MathAbs(input) > 2 ** 32) {
    received = withSeparators(`${input}`);
  } else if (typeof input === 'bigint') {
    received = `${input > 2n ** 32n || input < -(2n ** 32n) ? withSeparators(`${input}`) : input}n`;
  } else {
    received = inspect(input);
  }
  return `The value of "${name}" is out of range. It must be ${range}. Received ${received}`;
}

/** ERR_INVALID_STATE. */
export const stateMessage = (detail) => `Invalid state: ${detail}`;

/** ERR_INVALID_THIS. */
const thisMessage = (type) => `Value of "this" must be of type ${type}`;

/** ERR_MISSING_OPTION. */
export const missingOptionMessage = (name) => `${name} is required`;

/** ERR_ARG_NOT_ITERABLE: the value as util.format's %s shows it ('5', '{}'). */
export const notIterableMessage = (value) => format('%s must be iterable', value);

/** The message of the TypeError V8 throws for `provoke()` (which must throw). */
function v8Message(provoke) {
  try {
    provoke();
  } catch (error) {
    return error.message;
  }
  return '';
}

/** V8's text for a property read on null or undefined: "Cannot read properties of null (reading 'x')". */
export function cannotReadMessage(value, key) {
  return `Cannot read properties of ${value} (reading '${typeof key === 'symbol' ? SymbolToString(key) : key}')`;
}

/** V8's text for a read of a private field absent from the receiver. */
const privateFieldMessage = (field) => `Cannot read private member ${field} from an object whose class did not declare it`;

// ---------------------------------------------------------------------------
// Texts that differ between Node majors, or that are what Node's own code
// happens to throw (a V8 TypeError from its implementation) rather than one of
// its coded errors: copied because programs see them.

/** UnderlyingSource.start or UnderlyingSink.start not callable: Node binds it first. */
export const startNotCallableMessage = () => 'Bind must be called on a function';

/**
 * A write that meets a TransformStream's algorithms cleared by a cancel: Node
 * 20/22 call the cleared slot, and V8 words it (Node 24+ take the write as done).
 */
export const clearedTransformMessage = () => 'controller[kState].transformAlgorithm is not a function';

/**
 * Node calling a member that is not callable through its FunctionPrototypeCall
 * (Transformer.start, an iterator's return()): V8 names the callee before
 * Node 26, and the receiver from 26 on.
 */
export function nodeCallMessage(value) {
  if (nodeMajor >= 26) return v8Message(() => ReflectApply(FunctionCall, value, []));
  return 'FunctionPrototypeCall is not a function';
}

/**
 * The value reported for a refused highWaterMark: Node 20 and 22 report it
 * converted to a number ('lots' is NaN), Node 24+ as given.
 */
export const refusedHighWaterMark = (given, converted) => (nodeMajor >= 24 ? given : converted);

// The private field each getter of Node's strategies and codec classes reads
// first: from Node 22 they have no brand check, and the read of the field fails.
const privateFields = {
  ByteLengthQueuingStrategy: { highWaterMark: '#state', size: '#byteSizeFunction' },
  CountQueuingStrategy: { highWaterMark: '#state', size: '#countSizeFunction' },
  TextEncoderStream: { encoding: '#handle', readable: '#transform', writable: '#transform' },
  TextDecoderStream: {
    encoding: '#handle', fatal: '#handle', ignoreBOM: '#handle', readable: '#transform', writable: '#transform',
  },
  CompressionStream: { readable: '#transform', writable: '#transform' },
  DecompressionStream: { readable: '#transform', writable: '#transform' },
};

/** A member of `interfaceName` used on an object that is not one (the brand check). */
export function brandMessage(interfaceName, member) {
  // Node reads the foreign object's internal state before any check, and fails there.
  if (interfaceName === 'ReadableStreamDefaultController') {
    return "Cannot destructure property 'stream' of 'controller[kState]' as it is undefined.";
  }
  // Node 26 checks the iterator's brand; before, reaching its state fails.
  if (interfaceName === 'ReadableStreamAsyncIterator') {
    return nodeMajor >= 26 ? thisMessage(interfaceName) : cannotReadMessage(undefined, 'call');
  }
  const field = privateFields[interfaceName]?.[member];
  if (field !== undefined && nodeMajor >= 22) return privateFieldMessage(field);
  return thisMessage(interfaceName);
}

/**
 * A view on a SharedArrayBuffer given to a byte stream as `name` ('view' of
 * BYOB read(), 'chunk' of enqueue()): refused by name on Node 24+; before,
 * Node's read of the buffer's byteLength fails on it.
 */
export function sharedViewMessage(name, view, buffer) {
  if (nodeMajor >= 24) return argValueMessage(name, view, 'must not be backed by a SharedArrayBuffer');
  return arrayBufferGetterMessage('byteLength', buffer);
}

/** respondWithNewView() of a view on a SharedArrayBuffer: Node's read of its buffer's `detached` (22+) or byteLength fails. */
export function sharedNewViewMessage(view, buffer) {
  return arrayBufferGetterMessage(nodeMajor >= 22 ? 'detached' : 'byteLength', buffer);
}

/** V8's "Method get ArrayBuffer.prototype.<getter> called on incompatible receiver ...". */
function arrayBufferGetterMessage(getter, receiver) {
  return v8Message(() => ReflectApply(arrayBufferGetters[getter], receiver, []));
}

/** A buffer that cannot be detached (WebAssembly memory) given to a byte stream: V8's text from Node 22. */
export function notTransferableMessage() {
  if (nodeMajor >= 22) return 'ArrayBuffer is not detachable and could not be cloned.';
  return 'Operation failed: The ArrayBuffer could not be transferred';
}

/**
 * A CompressionFormat refused by `className`'s constructor: `given` as passed,
 * `converted` its string (absent for a Symbol). Node 20 names the argument;
 * 22+ convert it as WebIDL does, 22 wording it 'value ...'.
 */
export function compressionFormatMessage(className, given, converted = undefined) {
  if (nodeMajor < 22) return argValueMessage('format', given);
  const prefix = `Failed to construct '${className}': 1st argument`;
  if (nodeMajor >= 24 && typeof given === 'symbol') return `${prefix} is a Symbol and cannot be converted to a string.`;
  const text = converted ?? SymbolToString(given);
  return `${prefix} ${nodeMajor >= 24 ? '' : 'value '}'${text}' is not a valid enum value of type CompressionFormat.`;
}

/**
 * A chunk a CompressionStream or DecompressionStream refuses (which kinds it
 * refuses is asked of Node's class: src/codecs/zlib-chunks.js). The texts are
 * those of node:zlib's write(); a SharedArrayBuffer or a view on one is
 * refused by Node 24+'s BufferSource check first.
 */
export function zlibChunkMessage(kind, chunk) {
  if (kind === 'null') return 'May not write null values to stream';
  if (kind === 'detached-view') return 'Cannot perform Construct on a detached ArrayBuffer';
  if (nodeMajor >= 24 && (kind === 'shared-view' || kind === 'shared-buffer')) {
    return argTypeMessage('chunk', 'an instance of ArrayBuffer, Buffer, TypedArray, or DataView', chunk);
  }
  return argTypeMessage('chunk', 'of type string or an instance of Buffer, TypedArray, or DataView', chunk);
}

/**
 * ReadableStream.from() of an object whose Symbol.asyncIterator or
 * Symbol.iterator is not callable: Node 24+ says it is not iterable; before,
 * Node's call of the method fails.
 */
export function fromNotCallableMessage(iterable, method) {
  return nodeMajor >= 24 ? notIterableMessage(iterable) : nodeCallMessage(method);
}
