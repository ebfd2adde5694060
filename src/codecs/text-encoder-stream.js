// TextEncoderStream (Encoding standard, "Interface TextEncoderStream") on the
// library's TransformStream. A chunk is converted to a string (WebIDL
// DOMString: a Symbol throws, toString() is called), a high surrogate ending
// one chunk is held back to pair with a low surrogate starting the next (an
// unpaired one becomes U+FFFD, as the spec's encoder does), and what is left
// is encoded by TextEncoder into a Uint8Array of its own.
import {
  uncurryThis, functionCall, promiseThen, OriginalTypeError, SymbolCtor, Uint8ArrayCtor, StringCtor, StringPrototypeCharCodeAt,
  StringPrototypeSlice,
} from '../intrinsics.js';
import { codedError } from '../errors.js';
import { nativeChunkOutcome } from './natives.js';
import { promiseRejectedWith, resolvedUndefined } from '../promise.js';
import { createCodecTransform, enqueueOutput, readableOf, writableOf } from './codec-transform.js';
import { brandError, defineCodecShape } from './shape.js';

const encoder = new TextEncoder();
const encode = uncurryThis(TextEncoder.prototype.encode);

/** Per stream: the high surrogate held back from the end of the last chunk ('' for none). */
class EncoderState {
  constructor() {
    this.pendingHighSurrogate = '';
  }
}

function isHighSurrogate(code) {
  return code >= 0xd800 && code <= 0xdbff;
}

// A Symbol chunk: WebIDL's DOMString conversion throws a TypeError, Node's
// class (20-26) takes String(symbol). Which one this Node does shows only when
// a write settles, so it is asked of Node's class at the first Symbol chunk.
const REFUSED = { ctor: 'TypeError', code: null };
const aSymbol = () => SymbolCtor('chunk');

function symbolChunk(controller, chunk) {
  const outcome = nativeChunkOutcome('TextEncoderStream', 'symbol', aSymbol, undefined, REFUSED);
  if (!outcome.settled) return promiseThen(outcome.promise, () => symbolChunk(controller, chunk));
  if (outcome.answer !== null) {
    return promiseRejectedWith(codedError(OriginalTypeError, outcome.answer.code, 'Cannot convert a Symbol value to a string'));
  }
  return functionCall(encodeAndEnqueue, controller, StringCtor(chunk));
}

// `this` is the controller record; its codec slot is the EncoderState.
function encodeAndEnqueue(chunk) {
  if (typeof chunk === 'symbol') return symbolChunk(this, chunk);
  try {
    const state = this.codec;
    let text = `${chunk}`;
    if (state.pendingHighSurrogate !== '') {
      text = state.pendingHighSurrogate + text;
      state.pendingHighSurrogate = '';
    }
    const length = text.length;
    if (length === 0) return undefined;
    if (isHighSurrogate(StringPrototypeCharCodeAt(text, length - 1))) {
      state.pendingHighSurrogate = text[length - 1];
      if (length === 1) return undefined;
      text = StringPrototypeSlice(text, 0, length - 1);
    }
    enqueueOutput(this, encode(encoder, text));
    return undefined;
  } catch (error) {
    return promiseRejectedWith(error);
  }
}

/** U+FFFD in UTF-8, written byte by byte: made from an array, a Uint8Array iterates it. */
function replacementCharacter() {
  const bytes = new Uint8ArrayCtor(3);
  bytes[0] = 0xef;
  bytes[1] = 0xbf;
  bytes[2] = 0xbd;
  return bytes;
}

function flushPending() {
  if (this.codec.pendingHighSurrogate !== '') {
    this.codec.pendingHighSurrogate = '';
    try {
      enqueueOutput(this, replacementCharacter());
    } catch (error) {
      return promiseRejectedWith(error);
    }
  }
  return resolvedUndefined();
}

export class TextEncoderStream {
  #transform;

  constructor() {
    this.#transform = createCodecTransform(new EncoderState(), encodeAndEnqueue, flushPending, resolvedUndefined);
  }

  get encoding() {
    if (!isTextEncoderStream(this)) throw brandError('TextEncoderStream', 'encoding');
    return 'utf-8';
  }

  get readable() {
    if (!isTextEncoderStream(this)) throw brandError('TextEncoderStream', 'readable');
    return readableOf(this.#transform);
  }

  get writable() {
    if (!isTextEncoderStream(this)) throw brandError('TextEncoderStream', 'writable');
    return writableOf(this.#transform);
  }

  static isInstance(value) {
    return typeof value === 'object' && value !== null && #transform in value;
  }
}
const isTextEncoderStream = TextEncoderStream.isInstance;
delete TextEncoderStream.isInstance;
defineCodecShape(TextEncoderStream, 'TextEncoderStream', ['encoding', 'readable', 'writable'], false);
