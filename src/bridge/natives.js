// Node's own Web Streams classes, captured when fast-webstreams first loads,
// before the global patch can replace them. The classes come from
// node:stream/web (the same objects as Node's globals), not from the globals:
// loaded on a first use (src/patch/lazy.js), the library may find a global
// the application replaced or deleted before its first stream.
import { ReflectApply } from '../intrinsics.js';
import { builtin } from '../patch/builtins.js';
import { STREAM_CLASS_NAMES } from '../global-names.js';

/** name -> the global property descriptor as Node defined it (Node uses lazy accessors). */
export const nativeDescriptors = new Map();

/** name -> Node's class. */
export const natives = {};

const streamWeb = builtin('node:stream/web');
for (const name of STREAM_CLASS_NAMES) {
  void globalThis[name]; // Node 20's lazy accessor becomes the data property it turns into on first use
  nativeDescriptors.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
  natives[name] = streamWeb[name];
}

// Brand checks for Node's native streams: Node's own `locked` getters throw for
// anything its constructors did not make (ours included), so calling one is an
// exact test that no prototype trick can fool. Used once per bridge, never per chunk.
const lockedGetter = (name) => Object.getOwnPropertyDescriptor(natives[name].prototype, 'locked').get;
const readableLocked = lockedGetter('ReadableStream');
const writableLocked = lockedGetter('WritableStream');

function brandTest(getter, value) {
  if (typeof value !== 'object' || value === null) return false;
  try {
    ReflectApply(getter, value, []);
    return true;
  } catch {
    return false;
  }
}

/** True when `value` was made by Node's ReadableStream constructor. */
export const isNativeReadableStream = (value) => brandTest(readableLocked, value);
/** True when `value` was made by Node's WritableStream constructor. */
export const isNativeWritableStream = (value) => brandTest(writableLocked, value);
/** Node's `locked` for a native ReadableStream / WritableStream. */
export const nativeReadableLocked = (stream) => ReflectApply(readableLocked, stream, []);
export const nativeWritableLocked = (stream) => ReflectApply(writableLocked, stream, []);
