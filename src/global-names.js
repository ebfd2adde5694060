// The Web Streams globals the patch replaces: the preload arms each of them
// (src/patch/lazy.js), and the library takes Node's classes by these names
// (src/bridge/natives.js, src/codecs/natives.js).

/** The stream classes, their readers, writers and controllers, and the two queuing strategies. */
export const STREAM_CLASS_NAMES = [
  'ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest',
  'ReadableStreamDefaultController', 'ReadableByteStreamController', 'WritableStream',
  'WritableStreamDefaultWriter', 'WritableStreamDefaultController', 'TransformStream',
  'TransformStreamDefaultController', 'ByteLengthQueuingStrategy', 'CountQueuingStrategy',
];

/** The codec classes (src/codecs/). */
export const CODEC_CLASS_NAMES = ['TextEncoderStream', 'TextDecoderStream', 'CompressionStream', 'DecompressionStream'];
