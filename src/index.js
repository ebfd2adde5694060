// Public entry point: the Web Streams classes, and install()/uninstall() which
// put them in place of Node's on globalThis. The package exports the same
// modules bundled into one, dist/fast-webstreams.js (tools/bundle.mjs).
import './patch/load-begin.js'; // first: under the preload, Node's globals back before any module reads one
import './fast/plug.js'; // the fast paths, on the spec's hooks before any stream exists (src/tiers.js)
export { ReadableStream } from './readable/readable-stream.js';
export { ReadableStreamDefaultReader } from './readable/default-reader.js';
export { ReadableStreamBYOBReader } from './readable/byob-reader.js';
export { ReadableStreamDefaultController } from './readable/default-controller.js';
export { ReadableByteStreamController, ReadableStreamBYOBRequest } from './readable/byte-controller.js';
export { WritableStream } from './writable/writable-stream.js';
export { WritableStreamDefaultWriter } from './writable/default-writer.js';
export { WritableStreamDefaultController } from './writable/default-controller.js';
export { TransformStream } from './transform/transform-stream.js';
export { TransformStreamDefaultController } from './transform/default-controller.js';
export { ByteLengthQueuingStrategy, CountQueuingStrategy } from './strategies.js';
export { TextEncoderStream } from './codecs/text-encoder-stream.js';
export { TextDecoderStream } from './codecs/text-decoder-stream.js';
export { CompressionStream } from './codecs/compression-stream.js';
export { DecompressionStream } from './codecs/decompression-stream.js';
export { install, uninstall, isInstalled, nativeClasses } from './patch/globals.js';
import { installOnLoad } from './patch/globals.js';
import { finishLoad } from './patch/lazy.js';
import { patchedStructuredClone } from './patch/transfer.js';
export { getCounters, resetCounters, getSites } from './metrics/api.js';
export { renderMetrics, registerPromClient, registerOpenTelemetry } from './metrics/integrations.js';
export { startFromEnv as startMetricsFromEnv } from './metrics/from-env.js';
import { startFromEnv } from './metrics/from-env.js';

// util.inspect / console.log print our objects as Node prints its own.
import { installInspect } from './inspect.js';
installInspect();

// Under the preload (src/patch/lazy.js), the patch is installed now that every module has run.
finishLoad({ install: installOnLoad, startMetrics: startFromEnv, structuredClone: patchedStructuredClone });
