// Re-parenting Node's Web Streams prototypes (src/patch/instanceof.js): each
// native prototype gets ours as its [[Prototype]] (or, for ReadableStream after
// an early undici, ours gets Node's). That keeps Node's streams working only
// because Node brand-checks its own objects by their internal slots, never by
// their prototype chain, and because its prototypes are ordinary objects that
// inherit from Object.prototype and can be changed.
//
// Probe, per class, without touching the shared prototypes: the prototype is
// extensible and inherits Object.prototype, and for the three stream classes
// a native instance whose own [[Prototype]] is cut off still passes the brand
// check of one of Node's getters.
const BRANDED = { ReadableStream: 'locked', WritableStream: 'locked', TransformStream: 'readable' };

/** True when Node's class `Native` (named `name`) can be re-parented as the patch does. */
export function probePrototypeLink(name, Native) {
  try {
    const proto = Native?.prototype;
    if (typeof Native !== 'function' || proto === null || typeof proto !== 'object') return false;
    if (!Object.isExtensible(proto) || Object.getPrototypeOf(proto) !== Object.prototype) return false;
    const key = BRANDED[name];
    if (key === undefined) return true;
    const getter = Object.getOwnPropertyDescriptor(proto, key)?.get;
    const instance = new Native();
    Object.setPrototypeOf(instance, null);
    if (typeof getter !== 'function') return false;
    Reflect.apply(getter, instance, []); // throws if the brand check needed the prototype
    return true;
  } catch {
    return false;
  }
}
