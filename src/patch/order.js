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
 * True when Node's bundled undici has already been loaded in this process,
 * false when it has not, undefined when Node does not say
 * (src/node-internals/loaded-builtins.js).
 */
export function builtinUndiciLoaded() {
  return isBuiltinLoaded('internal/deps/undici/undici');
}

/**
 * Files of an npm undici package already in require's cache (it captured the
 * global class then). Any file of a folder named undici under node_modules
 * counts, whatever the package's layout: counting one too many only loads
 * Node's undici early (below), missing one breaks its bodies.
 */
export function npmUndiciLoaded() {
  return Object.keys(requireCache).some((file) => /[\\/]node_modules[\\/]undici[\\/]/.test(file));
}

/**
 * How this process found undici when install() ran:
 *   capturedNative  an undici that checks bodies against a captured class (Node
 *                   24+ builtin, or the npm package) holds Node's ReadableStream
 *   builtinEarly    Node's bundled undici is loaded: on Node 26 it may hold
 *                   Node's ReadableStreamTee, which src/patch/undici-first.js
 *                   finds out by trying it
 */
export function undiciOrder() {
  let loaded = builtinUndiciLoaded();
  const npmEarly = npmUndiciLoaded();
  if (major >= 24 && (loaded === undefined || (npmEarly && !loaded))) {
    // Where Node does not say whether its undici is loaded, or where the npm
    // package captured Node's class (Node's own undici, loaded later, would
    // capture ours, and one prototype direction cannot satisfy both), Node's
    // undici is loaded now, while the globals are still Node's: then it is
    // known to have captured Node's classes. Reading a lazy global loads it
    // (50-80 ms), in these rare cases only.
    void globalThis.Response;
    loaded = builtinUndiciLoaded() ?? true;
  }
  const builtinEarly = major >= 24 && loaded === true;
  return { capturedNative: builtinEarly || npmEarly, builtinEarly };
}
