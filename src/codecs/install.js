// Puts the codec classes in place of Node's (globalThis and node:stream/web),
// and puts Node's back. The global patch (src/patch) calls these when its
// codecs feature is on; they are independent of the stream-class patch, but
// are meant to run after it (our codecs' streams are our ReadableStream etc.).
import { builtin } from '../patch/builtins.js';
import { TextEncoderStream } from './text-encoder-stream.js';
import { TextDecoderStream } from './text-decoder-stream.js';
import { CompressionStream } from './compression-stream.js';
import { DecompressionStream } from './decompression-stream.js';
import { codecNames } from './natives.js';

/** name -> our class. */
export const codecClasses = { TextEncoderStream, TextDecoderStream, CompressionStream, DecompressionStream };

let saved; // [target, name, descriptor or undefined][] while installed

/**
 * Replaces each codec global that this Node has (but those in `keep`: see
 * installOnLoad()), and (unless streamWeb is false, for
 * FAST_WEBSTREAMS_STREAM_WEB=0) node:stream/web's export of it, with ours.
 * Returns false if already installed.
 */
export function installCodecs({ streamWeb: patchStreamWeb = true, keep } = {}) {
  if (saved !== undefined) return false;
  saved = [];
  const streamWeb = builtin('node:stream/web');
  const { syncBuiltinESMExports } = builtin('node:module');
  for (const name of codecNames) {
    const before = Object.getOwnPropertyDescriptor(globalThis, name);
    if (before === undefined) continue;
    if (keep?.has(name) !== true) replace(globalThis, name, codecClasses[name]); // keep: the application's own
    if (patchStreamWeb && Object.getOwnPropertyDescriptor(streamWeb, name) !== undefined) {
      replace(streamWeb, name, codecClasses[name]);
    }
  }
  syncBuiltinESMExports();
  return true;
}

function replace(target, name, value) {
  const before = Object.getOwnPropertyDescriptor(target, name);
  saved.push([target, name, before]);
  Object.defineProperty(target, name, before.get === undefined && before.set === undefined
    ? { ...before, value }
    : { value, writable: true, enumerable: before.enumerable, configurable: true });
}

/** Puts back every property installCodecs() replaced, as it was. Returns false if not installed. */
export function uninstallCodecs() {
  if (saved === undefined) return false;
  for (let i = saved.length - 1; i >= 0; i--) {
    const [target, name, before] = saved[i];
    Object.defineProperty(target, name, before);
  }
  saved = undefined;
  builtin('node:module').syncBuiltinESMExports();
  return true;
}
