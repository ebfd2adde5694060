// What loaded before the patch. A preload that runs before ours (OpenTelemetry's
// register, anything importing node:http on Node 24+, an earlier NODE_OPTIONS
// preload) may already have loaded undici, which on Node 24+ (undici 7/8)
// captured Node's ReadableStream class for its body checks, and on Node 26 also
// Node's ReadableStreamTee. Those checks walk the prototype chain of the captured
// class and ignore Symbol.hasInstance, so the patch has to adapt
// (src/patch/instanceof.js, src/patch/bodies.js, docs/interop.md "Preload order").
import { createRequire } from 'node:module';
import { isBuiltinLoaded } from '../node-internals/loaded-builtins.js';
import { nodeMajor as major } from '../node-version.js';

const requireCache = createRequire(import.meta.url).cache; // require.cache: the same object for every require

/**
 * True when Node's bundled undici has already been loaded in this process
 * (false when Node does not say: src/node-internals/loaded-builtins.js).
 */
export function builtinUndiciLoaded() {
  return isBuiltinLoaded('internal/deps/undici/undici') === true;
}

/** Files of an npm undici package already in require's cache (it captured the global class then). */
export function npmUndiciLoaded() {
  return Object.keys(requireCache).some((file) => /[\\/]undici[\\/]lib[\\/]web[\\/]webidl[\\/]/.test(file));
}

/**
 * How this process found undici when install() ran:
 *   capturedNative  an undici that checks bodies against a captured class (Node
 *                   24+ builtin, or the npm package) holds Node's ReadableStream
 *   nativeTee       Node's bundled undici holds Node's ReadableStreamTee (Node 26+),
 *                   which only accepts native streams
 */
export function undiciOrder() {
  let builtinEarly = major >= 24 && builtinUndiciLoaded();
  const npmEarly = npmUndiciLoaded();
  if (npmEarly && major >= 24 && !builtinEarly) {
    // The npm package captured Node's class; Node's own undici, loaded later,
    // would capture ours, and one prototype direction cannot satisfy both. So
    // Node's undici is loaded now (the globals are still Node's), once, in this
    // rare case only: reading a lazy global loads it (50-80 ms).
    void globalThis.Response;
    builtinEarly = builtinUndiciLoaded();
  }
  return {
    capturedNative: builtinEarly || npmEarly,
    nativeTee: builtinEarly && major >= 26,
  };
}
