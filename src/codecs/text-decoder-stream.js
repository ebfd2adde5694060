// TextDecoderStream (Encoding standard, "Interface TextDecoderStream") on the
// library's TransformStream. Label, options and decoding are TextDecoder's own
// (as in Node's class), so the labels taken, the errors thrown and the text
// produced are exactly native's; what changes is the stream around it.
import { uncurryThis, ObjectFreeze, ObjectGetOwnPropertyDescriptor, promiseThen } from '../intrinsics.js';
import { promiseRejectedWith, resolvedUndefined, returnUndefined } from '../promise.js';
import { createCodecTransform, enqueueOutput, readableOf, writableOf } from './codec-transform.js';
import { brandError, defineCodecShape } from './shape.js';
import { invalidArgType, ERR_INVALID_ARG_TYPE } from '../errors.js';
import { nativeChunkOutcome } from './natives.js';

const TextDecoderCtor = TextDecoder;
const decode = uncurryThis(TextDecoder.prototype.decode);
const decoderGetter = (name) => uncurryThis(ObjectGetOwnPropertyDescriptor(TextDecoder.prototype, name).get);
const decoderEncoding = decoderGetter('encoding');
const decoderFatal = decoderGetter('fatal');
const decoderIgnoreBOM = decoderGetter('ignoreBOM');
const STREAM = ObjectFreeze({ stream: true });

// TextDecoder.decode() takes a missing input as empty, and so did Node 20's
// class; Node 22+ refuses an undefined chunk (not a BufferSource). Which one
// this Node does shows only when a write settles, so it is asked of Node's
// class when the first undefined chunk comes (natives.js#nativeChunkOutcome).
const REFUSED = { ctor: 'TypeError', code: ERR_INVALID_ARG_TYPE };

function undefinedChunk(controller) {
  const outcome = nativeChunkOutcome('TextDecoderStream', 'undefined', returnUndefined, undefined, REFUSED);
  if (!outcome.settled) return promiseThen(outcome.promise, () => undefinedChunk(controller));
  if (outcome.answer === null) return undefined;
  return promiseRejectedWith(invalidArgType('chunk', 'of type string', undefined, outcome.answer.code));
}

// `this` is the controller record; its codec slot is the TextDecoder.
function decodeAndEnqueue(chunk) {
  if (chunk === undefined) return undefinedChunk(this);
  try {
    const text = decode(this.codec, chunk, STREAM);
    if (text.length !== 0) enqueueOutput(this, text);
    return undefined;
  } catch (error) {
    return promiseRejectedWith(error);
  }
}

function flushAndEnqueue() {
  try {
    const text = decode(this.codec);
    if (text.length !== 0) enqueueOutput(this, text);
  } catch (error) {
    return promiseRejectedWith(error);
  }
  return resolvedUndefined();
}

export class TextDecoderStream {
  #decoder;
  #transform;

  constructor(label = 'utf-8', options = undefined) {
    const decoder = new TextDecoderCtor(label, options);
    this.#decoder = decoder;
    this.#transform = createCodecTransform(decoder, decodeAndEnqueue, flushAndEnqueue, resolvedUndefined);
  }

  get encoding() {
    if (!isTextDecoderStream(this)) throw brandError('TextDecoderStream', 'encoding');
    return decoderEncoding(this.#decoder);
  }

  get fatal() {
    if (!isTextDecoderStream(this)) throw brandError('TextDecoderStream', 'fatal');
    return decoderFatal(this.#decoder);
  }

  get ignoreBOM() {
    if (!isTextDecoderStream(this)) throw brandError('TextDecoderStream', 'ignoreBOM');
    return decoderIgnoreBOM(this.#decoder);
  }

  get readable() {
    if (!isTextDecoderStream(this)) throw brandError('TextDecoderStream', 'readable');
    return readableOf(this.#transform);
  }

  get writable() {
    if (!isTextDecoderStream(this)) throw brandError('TextDecoderStream', 'writable');
    return writableOf(this.#transform);
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #transform in value;
  }
}
const isTextDecoderStream = TextDecoderStream.isInstance;
delete TextDecoderStream.isInstance;
defineCodecShape(TextDecoderStream, 'TextDecoderStream', ['encoding', 'fatal', 'ignoreBOM', 'readable', 'writable'], false);
