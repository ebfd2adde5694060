// The global patch: replaces Node's Web Streams classes on globalThis with ours
// and can put every original property back exactly as it was.
import { ObjectDefineProperty } from '../intrinsics.js';
import { natives, nativeDescriptors } from '../bridge/natives.js';
import { installTransferPatch, uninstallTransferPatch } from './transfer.js';
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

/** Our class for each global name we replace. */
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

const names = Object.keys(fastClasses);

/** Node's native classes, as they were before any patch. */
export function nativeClasses() {
  return { ...natives };
}

let installed = false;

export function isInstalled() {
  return installed;
}

/** Replaces the global Web Streams classes with ours. Calling it twice is harmless. */
export function install() {
  if (installed) return false;
  for (const name of names) {
    ObjectDefineProperty(globalThis, name, {
      value: fastClasses[name], writable: true, enumerable: false, configurable: true,
    });
  }
  installTransferPatch();
  installed = true;
  return true;
}

/** Restores every global exactly as it was before install(). */
export function uninstall() {
  if (!installed) return false;
  for (const name of names) {
    const descriptor = nativeDescriptors.get(name);
    if (descriptor === undefined) {
      delete globalThis[name];
    } else {
      ObjectDefineProperty(globalThis, name, descriptor);
    }
  }
  uninstallTransferPatch();
  installed = false;
  return true;
}
