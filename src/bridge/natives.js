// Node's own Web Streams classes, captured when fast-webstreams first loads,
// before the global patch can replace them.
const names = [
  'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest',
  'ReadableStreamDefaultController', 'ReadableByteStreamController', 'WritableStream',
  'WritableStreamDefaultWriter', 'WritableStreamDefaultController', 'TransformStream',
  'TransformStreamDefaultController', 'ByteLengthQueuingStrategy', 'CountQueuingStrategy',
];

/** name -> the global property descriptor as Node defined it (Node uses lazy accessors). */
export const nativeDescriptors = new Map();

/** name -> Node's class. */
export const natives = {};

for (const name of names) {
  nativeDescriptors.set(name, Object.getOwnPropertyDescriptor(globalThis, name));
  natives[name] = globalThis[name];
}
