// instanceof both ways between Node's native classes and ours.
//
// Native streams are instances of our classes: each native prototype gets our
// prototype as its [[Prototype]] (it was Object.prototype). That is the only
// form undici 7/8 (Node 24/26) honours: it checks the prototype chain with
// Function.prototype[Symbol.hasInstance] against the class it captured (ours,
// under the preload), ignoring any custom Symbol.hasInstance. Natives keep all
// their own methods; only what they lack is looked up on ours (and our getters
// answer undefined for foreign objects, src/bridge/node-symbols.js). When an
// undici captured Node's ReadableStream before the patch, that one link goes
// the other way (inheritFromNative below).
//
// Our streams are instances of the native classes: a Symbol.hasInstance on each
// native class. It only answers `instanceof`; Node's internals never use it for
// a brand check (they test private symbols), so it cannot make Node take one of
// ours for its own. Subclasses of a native class keep the ordinary check.
import { fastClasses } from './classes.js';
import { natives, isNativeReadableStream } from '../bridge/natives.js';
import { unwrapReadableStream } from '../readable/readable-stream.js';
import { unwrapWritableStream } from '../writable/writable-stream.js';
import { unwrapTransformStream } from '../transform/transform-stream.js';
import { probePrototypeLink } from '../node-internals/prototype-link.js';
import { ReflectApply } from '../intrinsics.js';

const ordinaryHasInstance = Function.prototype[Symbol.hasInstance];

/**
 * capturedNative: an undici captured Node's ReadableStream (src/patch/order.js).
 * linkOnly: only the ReadableStream prototype link, which undici needs on Node
 * 24+, with no Symbol.hasInstance (FAST_WEBSTREAMS_INSTANCEOF=0).
 * Returns the names of the classes left alone because Node's class failed the
 * probe of src/node-internals/prototype-link.js.
 */
export function installInstanceof(journal, { capturedNative = false, linkOnly = false } = {}) {
  const refused = [];
  for (const name of Object.keys(fastClasses)) {
    const Native = natives[name];
    const Ours = fastClasses[name];
    if (typeof Native !== 'function' || Native === Ours) continue;
    if (linkOnly && name !== 'ReadableStream') continue;
    if (!probePrototypeLink(name, Native)) {
      refused.push(name);
      continue;
    }
    if (capturedNative && name === 'ReadableStream') {
      inheritFromNative(journal, Native, Ours, linkOnly);
      continue;
    }
    journal.setPrototypeOf(Native.prototype, Ours.prototype);
    if (linkOnly) continue;
    const isOurs = oursTest(name, Ours);
    journal.define(Native, Symbol.hasInstance, {
      value: function hasInstance(value) {
        if (ReflectApply(ordinaryHasInstance, this, [value])) return true;
        return this === Native && isOurs(value);
      },
      writable: false, enumerable: false, configurable: true,
    });
  }
  return refused;
}

/**
 * The other direction, for ReadableStream only, when an undici loaded before
 * the patch and captured Node's class (src/patch/order.js): our prototype gets
 * Node's as its [[Prototype]], so our streams pass that undici's prototype-chain
 * check and Node's streams still pass it as they are. Natives are then instances
 * of ours through a Symbol.hasInstance on our class. Our prototype defines every
 * method and getter; what only Node's has (its inspect hook and transfer hooks,
 * which would brand-check and throw on ours) is shadowed with undefined.
 */
function inheritFromNative(journal, Native, Ours, linkOnly) {
  for (const key of Reflect.ownKeys(Native.prototype)) {
    if (!Object.prototype.hasOwnProperty.call(Ours.prototype, key)) {
      journal.define(Ours.prototype, key, { value: undefined, writable: true, enumerable: false, configurable: true });
    }
  }
  journal.setPrototypeOf(Ours.prototype, Native.prototype);
  if (linkOnly) return;
  journal.define(Ours, Symbol.hasInstance, {
    value: function hasInstance(value) {
      if (ReflectApply(ordinaryHasInstance, this, [value])) return true;
      return this === Ours && isNativeReadableStream(value);
    },
    writable: false, enumerable: false, configurable: true,
  });
  journal.define(Native, Symbol.hasInstance, {
    value: function hasInstance(value) {
      if (ReflectApply(ordinaryHasInstance, this, [value])) return true;
      return this === Native && unwrapReadableStream(value) !== undefined;
    },
    writable: false, enumerable: false, configurable: true,
  });
}

function oursTest(name, Ours) {
  if (name === 'ReadableStream') return (v) => unwrapReadableStream(v) !== undefined;
  if (name === 'WritableStream') return (v) => unwrapWritableStream(v) !== undefined;
  if (name === 'TransformStream') return (v) => unwrapTransformStream(v) !== undefined;
  // Readers, writers, controllers, strategies: our prototype chain decides.
  return (v) => ReflectApply(ordinaryHasInstance, Ours, [v]);
}
