// A journal of what the patch changed, so uninstall() can put back every
// original exactly: property descriptors (or their absence) and prototypes.
import { debug } from './debug.js';

export class Journal {
  constructor() {
    this.entries = [];
  }

  /**
   * Defines `key` on `target`, remembering the descriptor it had (or that it
   * had none). Where another library made that impossible (a frozen object, a
   * non-configurable property), leaves it as it is and returns false: the
   * patch never throws into the program, and NODE_DEBUG says what was left.
   */
  define(target, key, descriptor) {
    if (!this.canRedefine(target, key)) {
      debug('left native: %s cannot be redefined (another library froze it)', String(key));
      return false;
    }
    this.entries.push({ kind: 'property', target, key, before: Object.getOwnPropertyDescriptor(target, key) });
    Object.defineProperty(target, key, descriptor);
    return true;
  }

  /**
   * Whether define() can replace `key` on `target` without throwing: another
   * library may have made it non-configurable (or the object non-extensible).
   */
  canRedefine(target, key) {
    const d = Object.getOwnPropertyDescriptor(target, key);
    return d === undefined ? Object.isExtensible(target) : d.configurable === true;
  }

  /** Replaces a method or value, keeping the property's attributes. */
  replaceValue(target, key, value) {
    const before = Object.getOwnPropertyDescriptor(target, key);
    return this.define(target, key, before === undefined
      ? { value, writable: true, enumerable: false, configurable: true }
      : { ...before, value });
  }

  /** Replaces an accessor's getter, keeping the rest of the descriptor. */
  replaceGetter(target, key, get) {
    const before = Object.getOwnPropertyDescriptor(target, key);
    return this.define(target, key, { ...before, get });
  }

  /** Sets target's [[Prototype]]; false (nothing changed) where the object was made non-extensible. */
  setPrototypeOf(target, proto) {
    const before = Object.getPrototypeOf(target);
    if (!Reflect.setPrototypeOf(target, proto)) {
      debug('left native: a prototype link (the object was made non-extensible)');
      return false;
    }
    this.entries.push({ kind: 'prototype', target, before });
    return true;
  }

  /** Something to run at restore time (after the entries recorded after it are undone). */
  onRestore(fn) {
    this.entries.push({ kind: 'callback', fn });
  }

  restore() {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e.kind === 'prototype') Object.setPrototypeOf(e.target, e.before);
      else if (e.kind === 'callback') e.fn();
      else if (e.before === undefined) delete e.target[e.key];
      else Object.defineProperty(e.target, e.key, e.before);
    }
    this.entries = [];
  }
}

/** Copies name and length from the original so a wrapper looks like it. */
export function sameShape(wrapper, original) {
  Object.defineProperty(wrapper, 'name', { value: original.name, configurable: true });
  Object.defineProperty(wrapper, 'length', { value: original.length, configurable: true });
  return wrapper;
}
