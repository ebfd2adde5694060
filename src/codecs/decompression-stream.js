// DecompressionStream (Compression standard) on the library's TransformStream: decompresses
// through a node:zlib stream driven by zlib-driver.js. Formats, argument
// conversion and errors follow this Node's own class (format.js).
import { createCodecTransform, readableOf, writableOf } from './codec-transform.js';
import { brandError, defineCodecShape } from './shape.js';
import { convertFormat } from './format.js';
import { ZlibDriver, newDecompressor, zlibTransform, zlibFlush, zlibCancel } from './zlib-driver.js';

export class DecompressionStream {
  #transform;

  constructor(format) {
    const name = convertFormat(format, 'DecompressionStream');
    const driver = new ZlibDriver(newDecompressor(name), 'DecompressionStream', name);
    this.#transform = createCodecTransform(driver, zlibTransform, zlibFlush, zlibCancel, true);
  }

  get readable() {
    if (!isDecompressionStream(this)) throw brandError('DecompressionStream', 'readable');
    return readableOf(this.#transform);
  }

  get writable() {
    if (!isDecompressionStream(this)) throw brandError('DecompressionStream', 'writable');
    return writableOf(this.#transform);
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #transform in value;
  }
}
const isDecompressionStream = DecompressionStream.isInstance;
delete DecompressionStream.isInstance;
defineCodecShape(DecompressionStream, 'DecompressionStream', ['readable', 'writable'], true);
