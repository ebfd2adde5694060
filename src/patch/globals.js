// The global patch: replaces Node's Web Streams classes on globalThis with ours,
// plus every other way a program reaches Web Streams (docs/interop.md), and can
// put every original property and prototype back exactly as it was.
import { ObjectDefineProperty } from '../intrinsics.js';
import { natives, nativeDescriptors } from '../bridge/natives.js';
import '../bridge/node-symbols.js';
import { installTransferPatch, uninstallTransferPatch } from './transfer.js';
import { fastClasses } from './classes.js';
import { Journal } from './restore.js';
import { enabledFeatures } from './features.js';
import { installInstanceof } from './instanceof.js';
import { installStreamWeb } from './stream-web.js';
import { installConsumers } from './consumers.js';
import { installBodies } from './bodies.js';
import { undiciOrder } from './order.js';

export { fastClasses };

const names = Object.keys(fastClasses);

/** Node's native classes, as they were before any patch. */
export function nativeClasses() {
  return { ...natives };
}

let installed = false;
let journal;
let transferInstalled = false;

export function isInstalled() {
  return installed;
}

/**
 * Replaces the global Web Streams classes with ours, and (unless a
 * FAST_WEBSTREAMS_<FEATURE>=0 variable turns it off, src/patch/features.js)
 * node:stream/web, instanceof, Node's consumers, Response/Request bodies and
 * transfer. Calling it twice is harmless.
 */
export function install() {
  if (installed) return false;
  const features = enabledFeatures();
  const order = undiciOrder(); // before anything below could load undici
  journal = new Journal();
  for (const name of names) {
    ObjectDefineProperty(globalThis, name, {
      value: fastClasses[name], writable: true, enumerable: false, configurable: true,
    });
  }
  if (features.instanceOf) installInstanceof(journal, order);
  if (features.streamWeb) installStreamWeb(journal);
  if (features.nodeConsumers) installConsumers(journal);
  if (features.bodyShells) installBodies(journal, order);
  if (features.transfer) {
    installTransferPatch();
    transferInstalled = true;
  }
  installed = true;
  return true;
}

/** Restores every global, prototype and module export exactly as it was before install(). */
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
  journal.restore();
  journal = undefined;
  if (transferInstalled) uninstallTransferPatch();
  transferInstalled = false;
  installed = false;
  return true;
}
