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
import { debug, debugEnabled } from './debug.js';
import { packageLoadMechanism } from '../node-internals/package-load.js';
import { installCodecs, uninstallCodecs } from '../codecs/install.js';
import { nodeMajor as major } from '../node-version.js';
import { tiers } from '../tiers.js';

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
  return installPatch(undiciOrder(), new Set(), false); // while the globals are still Node's
}

/**
 * install() as the preload runs it, when the library has loaded
 * (src/patch/lazy.js): at start, or (lazy) on the first use of a stream
 * global. Then undici was not loaded at start, and any undici loaded since
 * read the global ReadableStream when it loaded, which is this first use: it
 * captures ours (it may be loading now: nothing here may touch it). `keep`:
 * the globals the application replaced before that, which stay its own.
 */
export function installOnLoad({ lazy, keep }) {
  return lazy ? installPatch({ capturedNative: false, builtinEarly: false }, keep, true) : install();
}

function installPatch(order, keep, late) {
  if (installed) return false;
  try {
    return installAll(order, keep, late);
  } catch (error) {
    // Never half-installed (a program froze a prototype the patch replaces,
    // before its first stream): everything recorded goes back, and the
    // process goes on with Node's classes.
    putEverythingBack();
    emitFastWarning(`fast-webstreams left everything native: installing the patch failed (${error?.message ?? error})`);
    debug('left native: everything (install failed: %s)', error?.stack ?? error);
    return false;
  }
}

function installAll(order, keep, late) {
  const features = enabledFeatures();
  journal = new Journal();
  for (const name of names) {
    if (keep.has(name)) {
      debug('left native: globalThis.%s, which the application replaced before its first stream', name);
      continue;
    }
    if (!journal.canRedefine(globalThis, name)) {
      debug('left native: globalThis.%s cannot be redefined (another library froze it)', name);
      continue;
    }
    ObjectDefineProperty(globalThis, name, {
      value: fastClasses[name], writable: true, enumerable: false, configurable: true,
    });
  }
  // On Node 24+ undici needs the ReadableStream prototype link even without
  // the instanceof feature (src/patch/instanceof.js).
  const linkOnly = !features.instanceOf && major >= 24;
  const unlinked = features.instanceOf || linkOnly ? installInstanceof(journal, { ...order, linkOnly }) : [];
  const undici = installUndiciFirst(journal, order); // before bodies.js wraps the same methods
  if (undici.nativeTee && !canGiveNativeFace()) {
    // Node's tee would refuse every body of ours, and this Node offers no way
    // around it: nothing is installed rather than a broken clone() and fetch().
    restoreGlobals();
    emitFastWarning("Node's undici was loaded before fast-webstreams (by a preload that ran first) and on " +
      'this Node version its Response/Request.clone() cannot take our streams: fast-webstreams left everything ' +
      'native. Fix: load fast-webstreams first, i.e. put --import fast-webstreams/register before the other ' +
      '--import/--require flags and NODE_OPTIONS preloads (docs/interop.md, "Preload order").');
    debug("left native: everything (Node's ReadableStreamTee refuses our streams and its slots were not found)");
    return false;
  }
  if (features.streamWeb) installStreamWeb(journal);
  if (features.nodeConsumers) installConsumers(journal);
  if (features.bodyShells) installBodies(journal, late);
  if (features.transfer) {
    transferInstalled = true; // before: a throw in it is undone too
    installTransferPatch(keep);
  }
  if (features.codecs) {
    codecsInstalled = true;
    installCodecs({ streamWeb: features.streamWeb, keep });
  }
  installed = true;
  tellWhatWasDone(features, order, linkOnly, unlinked, undici);
  return true;
}

/** What a body undici re-makes is, said by NODE_DEBUG (src/patch/undici-first.js). */
const BODIES = {
  'byte sources': "a stream Node's own code makes from a byte source is Node's (its caller is read)",
  'every stream': "a stream Node's own code makes is Node's (every construction has its caller read: this " +
    "Node's undici did not make its body from the byte source expected, so this is slower)",
  'left native': "the global ReadableStream is left Node's: the streams this Node's undici makes could not be " +
    "told from the application's (the call stack cannot be read, or it made no stream for a string body)",
};

/** One warning for what the user should fix, and (NODE_DEBUG=fast-webstreams) what was done and why. */
function tellWhatWasDone(features, order, linkOnly, unlinked, undici) {
  const warnings = unreportedSwitchProblems();
  if (warnings.length > 0) {
    emitFastWarning(warnings.join('; '));
  }
  if (!debugEnabled()) return;
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
  if (!tiers.on) debug('fast paths off (FAST_WEBSTREAMS_FAST_PATHS=%s): every stream on the spec path', process.env.FAST_WEBSTREAMS_FAST_PATHS);
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
  if (undici.nativeTee) {
    debug("undici holds Node's ReadableStreamTee (its clone() refused one of our streams): clone() and fetch() " +
      "lend a body of ours a native twin's slots; fetch() makes its request bodies with Node's classes; for a " +
      'redirect or a 401 retry, %s', BODIES[undici.bodies]);
  }
}

/** Puts the globals, and all the journal recorded, back as they were. */
function restoreGlobals() {
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
}

/** Restores every global, prototype and module export exactly as it was before install(). */
export function uninstall() {
  if (!installed) return false;
  putEverythingBack();
  return true;
}

/** uninstall()'s work, also what undoes an install() that failed part-way. */
function putEverythingBack() {
  if (codecsInstalled) {
    uninstallCodecs(); // restores its own record, before the journal's
    codecsInstalled = false;
  }
  if (journal !== undefined) restoreGlobals();
  if (transferInstalled) uninstallTransferPatch();
  transferInstalled = false;
  installed = false;
}
