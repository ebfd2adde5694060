// Node 20 has no ArrayBuffer.prototype.transfer. Its buffer binding's
// detachArrayBuffer (what Node 20's own streams use, reached through
// process.binding('buffer')) detaches a buffer and returns a new one over the
// same memory, for far less per chunk than structuredClone with a transfer
// list (src/intrinsics.js). Node 22+ no longer exposes it there.
//
// Probe, on a throwaway buffer: taken only while process.binding is Node's own
// function (with --pending-deprecation Node wraps it to warn, DEP0111; under
// the permission model it throws) and detachArrayBuffer moves the bytes.
// What it uses of the language is captured when the library loads, as in
// src/intrinsics.js (which imports this module, so cannot be imported here).
const ArrayBufferCtor = ArrayBuffer;
const byteLengthGetter = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
const ReflectApply = Reflect.apply;
const byteLength = (buffer) => ReflectApply(byteLengthGetter, buffer, []);

/** Node's detachArrayBuffer(buffer) -> new buffer (undefined if not detachable), or undefined when the probe fails. */
export function probeDetachArrayBuffer() {
  try {
    const binding = process.binding;
    if (typeof binding !== 'function' || binding.name !== 'binding') return undefined;
    const detach = binding('buffer').detachArrayBuffer;
    if (typeof detach !== 'function') return undefined;
    const probe = new ArrayBufferCtor(1);
    const moved = detach(probe);
    if (moved === undefined || byteLength(moved) !== 1 || byteLength(probe) !== 0) return undefined;
    return detach;
  } catch {
    return undefined;
  }
}
