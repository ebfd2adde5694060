// CompressionStream (Compression standard) on the library's TransformStream: compresses
// through a node:zlib stream driven by zlib-driver.js. Formats, argument
// conversion and errors follow this Node's own class (format.js).
import { createCodecTransform, readableOf, writableOf } from './codec-transform.js';
import { brandError, defineCodecShape } from './shape.js';
import { convertFormat } from './format.js';
import { ZlibDriver, newCompressor, zlibTransform, zlibFlush, zlibCancel } from './zlib-driver.js';

export class CompressionStream {
  #transform;

  constructor(format) {
    const name = convertFormat(format, 'CompressionStream');
    const driver = new ZlibDriver(newCompressor(name), 'CompressionStream', name);
    this.#transform = createCodecTransform(driver, zlibTransform, zlibFlush, zlibCancel, true);
  }

  get readable() {
    if (!isCompressionStream(this)) throw brandError('CompressionStream', 'readable');
    return readableOf(this.#transform);
  }

  get writable() {
    if (!isCompressionStream(this)) throw brandError('CompressionStream', 'writable');
    return writableOf(this.#transform);
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #transform in value;
  }
}
const isCompressionStream = CompressionStream.isInstance;
delete CompressionStream.isInstance;
defineCodecShape(CompressionStream, 'CompressionStream', ['readable', 'writable'], true);
