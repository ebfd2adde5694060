// Queuing strategies: the two built-in strategy classes and the abstract
// operations that read a user-supplied strategy (ExtractHighWaterMark,
// ExtractSizeAlgorithm). https://streams.spec.whatwg.org/#qs
import { NumberIsNaN, ReflectApply } from './intrinsics.js';
import {
  requireDictionary, convertUnrestrictedDouble, convertCallback,
  illegalInvocation, defineInterface,
} from './webidl.js';
import { invalidArgType, invalidArgValueRange, missingOption, strategyBrandCode } from './errors.js';
import { refusedHighWaterMark } from './messages.js';

// The converted form of a missing (undefined or null) QueuingStrategy, shared:
// nothing ever writes to a converted strategy.
const noStrategy = { highWaterMark: undefined, givenHighWaterMark: undefined, size: undefined };

/**
 * Reads a QueuingStrategy dictionary in WebIDL order (highWaterMark, then
 * size); `name` is the argument's, as Node names it ('strategy').
 * `givenHighWaterMark` is the value before conversion, for the error.
 */
export function convertQueuingStrategy(strategy, name) {
  if (strategy === undefined || strategy === null) return noStrategy;
  requireDictionary(strategy, name);
  const hwm = strategy.highWaterMark;
  const highWaterMark = hwm === undefined ? undefined : convertUnrestrictedDouble(hwm);
  const sizeValue = strategy.size;
  // Node names the member 'strategy.size' whichever strategy argument it is.
  const size = sizeValue === undefined ? undefined : convertCallback(sizeValue, 'strategy.size');
  return { highWaterMark, givenHighWaterMark: hwm, size };
}

/** ExtractHighWaterMark */
export function ExtractHighWaterMark(strategy, defaultHWM) {
  const hwm = strategy.highWaterMark;
  if (hwm === undefined) return defaultHWM;
  if (NumberIsNaN(hwm) || hwm < 0) {
    throw invalidArgValueRange('strategy.highWaterMark', refusedHighWaterMark(strategy.givenHighWaterMark, hwm));
  }
  return hwm;
}

/** ExtractSizeAlgorithm: undefined means "every chunk has size 1". */
export function ExtractSizeAlgorithm(strategy) {
  const size = strategy.size;
  if (size === undefined) return undefined;
  // The callback's return value is converted to unrestricted double.
  return (chunk) => convertUnrestrictedDouble(ReflectApply(size, undefined, [chunk]));
}

function convertInit(init) {
  // Node checks for an object first: null and undefined are its ERR_INVALID_ARG_TYPE.
  if (init === undefined || init === null) throw invalidArgType('init', 'of type object', init);
  requireDictionary(init, 'init');
  const hwm = init.highWaterMark;
  if (hwm === undefined) throw missingOption('init.highWaterMark');
  return convertUnrestrictedDouble(hwm);
}

// The size functions are shared by every instance (one per realm) and are not
// constructors, hence method shorthand.
const byteLengthSize = { size(chunk) { return chunk.byteLength; } }.size;
const countSize = { size() { return 1; } }.size;

export class ByteLengthQueuingStrategy {
  #highWaterMark;

  constructor(init) {
    this.#highWaterMark = convertInit(init);
  }

  get highWaterMark() {
    if (!isByteLengthQueuingStrategy(this)) throw illegalInvocation('ByteLengthQueuingStrategy', 'highWaterMark', strategyBrandCode());
    return this.#highWaterMark;
  }

  get size() {
    if (!isByteLengthQueuingStrategy(this)) throw illegalInvocation('ByteLengthQueuingStrategy', 'size', strategyBrandCode());
    return byteLengthSize;
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #highWaterMark in value;
  }
}
const isByteLengthQueuingStrategy = ByteLengthQueuingStrategy.isInstance;
delete ByteLengthQueuingStrategy.isInstance;

export class CountQueuingStrategy {
  #highWaterMark;

  constructor(init) {
    this.#highWaterMark = convertInit(init);
  }

  get highWaterMark() {
    if (!isCountQueuingStrategy(this)) throw illegalInvocation('CountQueuingStrategy', 'highWaterMark', strategyBrandCode());
    return this.#highWaterMark;
  }

  get size() {
    if (!isCountQueuingStrategy(this)) throw illegalInvocation('CountQueuingStrategy', 'size', strategyBrandCode());
    return countSize;
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #highWaterMark in value;
  }
}
const isCountQueuingStrategy = CountQueuingStrategy.isInstance;
delete CountQueuingStrategy.isInstance;

defineInterface(ByteLengthQueuingStrategy, 'ByteLengthQueuingStrategy', ['highWaterMark', 'size']);
defineInterface(CountQueuingStrategy, 'CountQueuingStrategy', ['highWaterMark', 'size']);
