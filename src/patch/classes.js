// Our class for each Web Streams global the patch replaces.
import { ReadableStream } from '../readable/readable-stream.js';
import { ReadableStreamDefaultReader } from '../readable/default-reader.js';
import { ReadableStreamBYOBReader } from '../readable/byob-reader.js';
import { ReadableStreamDefaultController } from '../readable/default-controller.js';
import { ReadableByteStreamController, ReadableStreamBYOBRequest } from '../readable/byte-controller.js';
import { WritableStream } from '../writable/writable-stream.js';
import { WritableStreamDefaultWriter } from '../writable/default-writer.js';
import { WritableStreamDefaultController } from '../writable/default-controller.js';
import { TransformStream } from '../transform/transform-stream.js';
import { TransformStreamDefaultController } from '../transform/default-controller.js';
import { ByteLengthQueuingStrategy, CountQueuingStrategy } from '../strategies.js';

export const fastClasses = {
  ReadableStream,
  ReadableStreamDefaultReader,
  ReadableStreamBYOBReader,
  ReadableStreamBYOBRequest,
  ReadableStreamDefaultController,
  ReadableByteStreamController,
  WritableStream,
  WritableStreamDefaultWriter,
  WritableStreamDefaultController,
  TransformStream,
  TransformStreamDefaultController,
  ByteLengthQueuingStrategy,
  CountQueuingStrategy,
};
