// The outward shape the codec classes share with Node's own: enumerable
// accessors, Node's brand-check error, and util.inspect output.
import { ObjectDefineProperty, ObjectGetOwnPropertyDescriptor, SymbolToStringTag } from '../intrinsics.js';
import { illegalInvocation } from '../webidl.js';
import { brandCode } from './natives.js';

const kInspect = Symbol.for('nodejs.util.inspect.custom');

/** The TypeError for `member` read on an object that is not a `name`, with the code native uses. */
export function brandError(name, member) {
  return illegalInvocation(name, member, brandCode(name));
}

/**
 * Makes `members` enumerable (as Node's are), adds Symbol.toStringTag only
 * where Node's class has one (Compression/DecompressionStream: yes, the
 * Text*Streams: no), and an inspect method that prints the members.
 */
export function defineCodecShape(ctor, name, members, withTag) {
  const proto = ctor.prototype;
  for (let i = 0; i < members.length; i++) {
    const member = members[i];
    const desc = ObjectGetOwnPropertyDescriptor(proto, member);
    desc.enumerable = true;
    ObjectDefineProperty(proto, member, desc);
  }
  ObjectDefineProperty(proto, kInspect, {
    value: function inspect(depth, options, inspectValue) {
      if (depth < 0) return `${name} [Object]`;
      const fields = {};
      for (let i = 0; i < members.length; i++) fields[members[i]] = this[members[i]];
      const nested = { ...options, depth: options.depth == null ? null : options.depth - 1 };
      return `${name} ${inspectValue(fields, nested)}`;
    },
    writable: true, enumerable: false, configurable: true,
  });
  if (withTag) {
    ObjectDefineProperty(proto, SymbolToStringTag, { value: name, writable: false, enumerable: false, configurable: true });
  }
}
