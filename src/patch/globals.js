// The global patch: replaces Node's Web Streams classes on globalThis with ours,
// plus every other way a program reaches Web Streams (docs/interop.md), and can
// put every original property and prototype back exactly as it was.
import { ObjectDefineProperty } from '../intrinsics.js';
import { natives, nativeDescriptors } from '../bridge/natives.js';
import '../bridge/node-symbols.js';
import { installTransferPatch, uninstallTransferPatch } from './transfer.js';
import { fastClasses } from './classes.js';
import { Journal } from './restore.js';
import { enabledFeatures, unreportedSwitchProblems, emitFastWarning, FEATURES } from './features.js';
import { installInstanceof } from './instanceof.js';
import { installStreamWeb } from './stream-web.js';
import { installConsumers } from './consumers.js';
import { installBodies } from './bodies.js';
import { undiciOrder } from './order.js';
import { installUndiciFirst } from './undici-first.js';
import { canGiveNativeFace } from './native-face.js';
import { builtin } from './builtins.js';
import { packageLoadMechanism } from '../node-internals/package-load.js';
import { installCodecs, uninstallCodecs } from '../codecs/install.js';
import { nodeMajor as major } from '../node-version.js';

export { fastClasses };

const names = Object.keys(fastClasses);

/** Node's native classes, as they were before any patch. */
export function nativeClasses() {
  return { ...natives };
}

let installed = false;
let journal;
let transferInstalled = false;
let codecsInstalled = false;

export function isInstalled() {
  return installed;
}

/**
 * Replaces the global Web Streams classes with ours, and (unless a
 * FAST_WEBSTREAMS_<FEATURE>=0 variable turns it off, src/patch/features.js)
 * node:stream/web, instanceof, Node's consumers, Response/Request bodies,
 * transfer and the codec classes. Calling it twice is harmless.
 */
export function install() {
  if (installed) return false;
  const features = enabledFeatures();
  const order = undiciOrder(); // while the globals are still Node's
  journal = new Journal();
  for (const name of names) {
    ObjectDefineProperty(globalThis, name, {
      value: fastClasses[name], writable: true, enumerable: false, configurable: true,
    });
  }
  // On Node 24+ undici needs the ReadableStream prototype link even without
  // the instanceof feature (src/patch/instanceof.js).
  const linkOnly = !features.instanceOf && major >= 24;
  const unlinked = features.instanceOf || linkOnly ? installInstanceof(journal, { ...order, linkOnly }) : [];
  const redirectsWork = installUndiciFirst(journal, order); // before bodies.js wraps the same methods
  if (features.streamWeb) installStreamWeb(journal);
  if (features.nodeConsumers) installConsumers(journal);
  if (features.bodyShells) installBodies(journal);
  if (features.transfer) {
    installTransferPatch();
    transferInstalled = true;
  }
  if (features.codecs) {
    installCodecs({ streamWeb: features.streamWeb });
    codecsInstalled = true;
  }
  installed = true;
  tellWhatWasDone(features, order, linkOnly, unlinked, redirectsWork);
  return true;
}

/** One warning for what the user should fix, and (NODE_DEBUG=fast-webstreams) what was done and why. */
function tellWhatWasDone(features, order, linkOnly, unlinked, redirectsWork) {
  const warnings = unreportedSwitchProblems();
  if (order.nativeTee) {
    // What src/patch/undici-first.js cannot cover where Node's probes failed.
    const broken = [
      ...(canGiveNativeFace() ? [] : ['Response/Request.clone() and a fetch() with a string, bytes or form body']),
      ...(redirectsWork ? [] : ['a fetch() that follows a 307/308 redirect or retries after a 401 with a string, bytes or form body']),
    ];
    if (broken.length > 0) {
      warnings.push(`Node's undici was loaded before fast-webstreams (by a preload that ran first): on this ` +
        `Node version ${broken.join(', and ')} fails. Fix: load fast-webstreams first, i.e. put --import ` +
        'fast-webstreams/register before the other --import/--require flags and NODE_OPTIONS preloads ' +
        '(docs/interop.md, "Preload order").');
    }
  }
  if (warnings.length > 0) {
    emitFastWarning(warnings.join('; '));
  }
  const debug = debuglog();
  if (!debug.enabled) return;
  const on = [`globals (${names.length} classes)`];
  const off = [];
  const label = { streamWeb: 'node:stream/web', instanceOf: 'instanceof', nodeConsumers: 'Node consumers and pipes',
    bodyShells: 'Response/Request body shells', transfer: 'transfer (structuredClone, postMessage)',
    codecs: 'codec classes (TextEncoderStream, TextDecoderStream, CompressionStream, DecompressionStream)' };
  for (const [feature, variable] of Object.entries(FEATURES)) {
    if (features[feature]) on.push(label[feature]);
    else off.push(`${label[feature]} (${variable}=${process.env[variable]})`);
  }
  debug('installed: %s', on.join(', '));
  debug('left native: %s', off.length === 0 ? 'nothing' : off.join(', '));
  if (linkOnly) debug('the ReadableStream prototype link stays: undici on Node 24+ checks bodies through it');
  if (unlinked.length > 0) {
    debug("instanceof left native for %s: Node's class failed the prototype-link probe " +
      '(src/node-internals/prototype-link.js)', unlinked.join(', '));
  }
  debug('the undici npm package is watched through %s', packageLoadMechanism ?? 'nothing (Node offers no way)');
  if (order.capturedNative) {
    debug('undici was loaded before the patch (a preload ran first): our ReadableStream.prototype inherits ' +
      "from Node's, so undici's captured check accepts both kinds of stream");
  }
  if (order.nativeTee) {
    debug("undici holds Node's ReadableStreamTee: clone() and fetch() lend a body of ours a native twin's slots" +
      (canGiveNativeFace() ? '' : ' (not possible on this Node version)') +
      "; fetch() makes its request bodies with Node's classes, and so does a redirect or a 401 retry" +
      (redirectsWork ? '' : ' (not possible on this Node version: the call stack cannot be read)'));
  }
}

let debugFn;
function debuglog() {
  debugFn ??= builtin('node:util').debuglog('fast-webstreams');
  return debugFn;
}

/** Restores every global, prototype and module export exactly as it was before install(). */
export function uninstall() {
  if (!installed) return false;
  if (codecsInstalled) {
    uninstallCodecs(); // restores its own record, before the journal's
    codecsInstalled = false;
  }
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
