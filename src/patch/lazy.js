// The preload's eager part: all that a process with the preload loads at start
// (dist/preload.js, issue "what the preload costs every process"). It captures
// the intrinsics (src/intrinsics.js: the library, loaded later, takes them from
// here, so a program that patches builtins before its first stream cannot
// reach ours) and arms the first uses of Web Streams. The first of them loads
// the library (dist/fast-webstreams.js) and installs the patch before it
// returns: what it returns is ours, as if the library had been installed at
// start. A process that never uses a stream loads neither the library nor
// Node's web streams.
//
// First uses, each armed here:
//   - a read or write of a Web Streams global (an accessor in its place; Node's
//     undici reads the global ReadableStream when it loads, so fetch(),
//     Response and anything loading undici count too);
//   - a require or import of node:stream, node:stream/web, node:stream/promises,
//     node:worker_threads or node:fs/promises (a resolve hook, and
//     process.getBuiltinModule()), and a read of fs.promises: from there a program reaches functions the patch replaces
//     (Readable.fromWeb) and native streams (Readable.toWeb, FileHandle);
//   - Blob.prototype.stream() (Blob and File are loaded at start).
// Why all of these: a function the program fetched before the patch was
// installed stays Node's. In `Readable.fromWeb(new ReadableStream())` or
// `blob.stream().pipeThrough(new TextDecoderStream())`, Node's function is
// fetched first, and would refuse the stream of ours made in its arguments.
// So the patch is installed before the program can hold such a function.
//
// The library is loaded at start instead (as before the lazy install) where a
// later install would differ from one at start, or cannot be armed safely:
//   - Node has no in-thread module hooks (module.registerHooks: Node 22.15+,
//     23.5+; so Node 20 and 22 before 22.15): an ES module's import of
//     node:stream would go unseen;
//   - undici (Node's or the npm package) is loaded already: it holds Node's
//     classes, which install() adapts to while nothing else has run;
//   - a metrics output is asked for (its port listens from the start);
//   - FAST_WEBSTREAMS_LAZY=0.
import {
  ObjectDefineProperty, ObjectGetOwnPropertyDescriptor, ObjectGetPrototypeOf, PromisePrototypeThen, ReflectApply,
  ReflectDeleteProperty,
} from '../intrinsics.js';
import { builtin } from './builtins.js';
import { debug } from './debug.js';
import { builtinUndiciLoaded, npmUndiciLoaded } from './order.js';
import { nodeMajor } from '../node-version.js';
import { CODEC_CLASS_NAMES, STREAM_CLASS_NAMES } from '../global-names.js';

/** The globals whose first use loads the library: every class install() may replace. */
const NAMES = [...STREAM_CLASS_NAMES, ...CODEC_CLASS_NAMES];

/** Builtins whose require or import is a first use (with or without `node:`). */
const MODULES = new Set(['stream', 'stream/web', 'stream/promises', 'worker_threads', 'fs/promises',
  '_stream_readable', '_stream_writable', '_stream_duplex', '_stream_transform', '_stream_passthrough']);
const watched = (id) => typeof id === 'string' && MODULES.has(id.startsWith('node:') ? id.slice(5) : id);

const LIBRARY = '../../dist/fast-webstreams.js'; // from src/patch/ (import.meta.url is this file's, bundled too)

// idle: nothing asked (library mode); armed: the accessors wait for a first use;
// loading: the library is being evaluated; done: it ran its install (or failed).
let state = 'idle';
let how; // what finishLoad() installs with: { lazy, trigger }
let kept = new Set(); // armed globals the application replaced or deleted before the first use
const armed = new Map(); // global name -> { getter, original }: Node's descriptor (Node 20) or null (V8 lazy data, 22+)
const trampolines = []; // [object, key, Node's descriptor, ours]: the other armed properties
let hooks; // the resolve hook's registration
let library; // { install, startMetrics, structuredClone }: set when the library's entry has run

// features.js's isOff(), which stays out of this part (every process compiles
// what is here); test/unit/switches.test.mjs holds the two to the same words.
const OFF = /^\s*(0|false|off|no)\s*$/i;

/** Why the library must load at start, or undefined when it can wait for the first use. */
function loadAtStart(env) {
  if (OFF.test(env.FAST_WEBSTREAMS_LAZY ?? '')) return 'FAST_WEBSTREAMS_LAZY is off';
  if (typeof builtin('node:module').registerHooks !== 'function') return 'this Node has no module.registerHooks';
  const builtinUndici = builtinUndiciLoaded();
  if (builtinUndici !== false) return builtinUndici ? "Node's undici is loaded already" : 'Node does not say what it loaded';
  if (npmUndiciLoaded()) return 'the undici package is loaded already';
  for (const name of Object.keys(env)) {
    if (name.startsWith('FAST_WEBSTREAMS_METRICS') && env[name] !== '') return `${name} is set`;
  }
  return undefined;
}

/**
 * Called once by register.mjs / register.cjs: arms the accessors, or loads the
 * library now (see above). Either way the patch is in place before the
 * application's first stream.
 */
export function preload(env = process.env) {
  if (state !== 'idle') return;
  if (library !== undefined) {
    // The library ran before this preload (an earlier preload imported it): install it now.
    state = 'done';
    how = { lazy: false, trigger: 'start' };
    debug('loading the library at start: it was loaded before the preload');
    installLibrary();
    return;
  }
  const reason = loadAtStart(env);
  if (reason !== undefined) {
    debug('loading the library at start: %s', reason);
    how = { lazy: false, trigger: 'start' };
    state = 'armed'; // with nothing armed: restoreNodeGlobals() only moves on to 'loading'
    load();
    return;
  }
  // On Node 22+ the globals are V8 lazy data properties: reading one, even its
  // descriptor, loads Node's streams (and more); deleting one does not. Node's
  // class is then taken from node:stream/web, the same object, on first use.
  const readable = nodeMajor <= 20;
  for (const name of NAMES) {
    if (!(name in globalThis)) continue;
    const original = readable ? ObjectGetOwnPropertyDescriptor(globalThis, name) : null;
    if (original === undefined) continue; // inherited, not globalThis's own
    // A global another preload made non-configurable stays as it is (it cannot be replaced later either).
    if (!ReflectDeleteProperty(globalThis, name)) continue;
    // (An accessor named as Node's are: `get ReadableStream`.)
    const accessor = ObjectGetOwnPropertyDescriptor({
      get [name]() { firstUse(name); return globalThis[name]; },
      set [name](value) { firstUse(name); globalThis[name] = value; },
    }, name);
    accessor.enumerable = false;
    ObjectDefineProperty(globalThis, name, accessor);
    armed.set(name, { getter: accessor.get, original });
  }
  const Module = builtin('node:module');
  hooks = ReflectApply(Module.registerHooks, Module, [{ resolve: resolveHook }]);
  const { Blob } = builtin('node:buffer');
  // (Methods, not function expressions: like Node's, they cannot be constructed.)
  arm(Blob.prototype, 'stream', (original) => ({
    stream() {
      firstUse('Blob.prototype.stream()');
      return ReflectApply(original, this, arguments);
    },
  }).stream);
  // fs.promises: its open() arms FileHandle.prototype.readableWebStream on the first handle.
  // (Reading fs.promises is no first use: an ES module's import of node:fs reads it.)
  arm(builtin('node:fs'), 'promises', (original) => ({
    promises() {
      const promises = ReflectApply(original, this, arguments);
      if (state === 'armed' && !openArmed) {
        openArmed = true;
        arm(promises, 'open', armFileHandles);
      }
      return promises;
    },
  }).promises);
  // process.getBuiltinModule() passes no module hook (our own calls use the one captured at start).
  arm(process, 'getBuiltinModule', (original) => ({
    getBuiltinModule(id) {
      if (watched(id)) firstUse(`process.getBuiltinModule('${id}')`);
      return ReflectApply(original, this, arguments);
    },
  }).getBuiltinModule);
  // A structuredClone the program captured before its first stream transfers ours after it.
  arm(globalThis, 'structuredClone', (original) => ({
    structuredClone(value) { // eslint-disable-line no-unused-vars -- length 1, as Node's
      firstUse('structuredClone()');
      return ReflectApply(library?.structuredClone() ?? original, undefined, arguments);
    },
  }).structuredClone);
  state = 'armed';
  debug('armed: the library loads on the first use of a stream (FAST_WEBSTREAMS_LAZY=0 loads it at start)');
}

/**
 * fs.promises.open(), armed: the FileHandle it gives is seen before the
 * program's reaction to the promise runs (this reaction is registered first),
 * and its class's readableWebStream() becomes a first use. The promise
 * returned is Node's own.
 */
function armFileHandles(original) {
  let seen = false;
  const onHandle = (handle) => {
    if (seen || state !== 'armed' || handle === null || typeof handle !== 'object') return;
    seen = true;
    arm(ObjectGetPrototypeOf(handle), 'readableWebStream', (method) => ({
      readableWebStream() {
        firstUse('FileHandle.prototype.readableWebStream()');
        return ReflectApply(method, this, arguments);
      },
    }).readableWebStream);
  };
  return {
    open() {
      const opening = ReflectApply(original, this, arguments);
      if (!seen) ReflectApply(PromisePrototypeThen, opening, [onHandle, noop]);
      return opening;
    },
  }.open;
}

function noop() {}
let openArmed = false;

/** Puts our function in place of a method (or of an accessor's getter), Node's own called through it. */
function arm(object, key, make) {
  const descriptor = ObjectGetOwnPropertyDescriptor(object, key);
  if (descriptor?.configurable !== true) return;
  const accessor = typeof descriptor.get === 'function';
  const original = accessor ? descriptor.get : descriptor.value;
  if (typeof original !== 'function') return;
  const ours = make(original);
  ObjectDefineProperty(object, key, accessor ? { ...descriptor, get: ours } : { ...descriptor, value: ours });
  trampolines.push([object, key, descriptor, ours]);
}

function resolveHook(specifier, context, nextResolve) {
  if (state === 'armed' && watched(specifier)) firstUse(`import of ${specifier}`);
  return nextResolve(specifier, context);
}

/** The first use of a stream (`what` says which): the library loads and installs the patch, once. */
function firstUse(what) {
  if (state !== 'armed') return;
  how = { lazy: true, trigger: what };
  load();
  // Whatever happened, nothing may stay armed: an accessor left in place would call itself.
  if (state === 'armed') restoreNodeGlobals();
}

/** Loads the library (synchronously: require(esm)); it calls restoreNodeGlobals() and finishLoad() itself. */
function load() {
  try {
    ReflectApply(builtin('node:module').createRequire(import.meta.url), undefined, [LIBRARY]);
  } catch (error) {
    restoreNodeGlobals();
    if (error?.code === 'ERR_REQUIRE_ESM_RACE_CONDITION') {
      // The application's ES modules are importing the library at this moment
      // (import 'fast-webstreams' beside import 'node:stream'): its evaluation
      // comes soon and installs the patch (state stays 'loading'); until then
      // the globals are Node's.
      debug('the library is being imported: it installs the patch when it has run (%s)', how?.trigger);
      return;
    }
    // Whatever else failed (a program's patch of a builtin the library's top
    // level uses, a missing file), the process goes on with Node's classes.
    state = 'done';
    debug('left native: everything (the library failed to load: %s)', error?.stack ?? error);
  }
}

/**
 * The library's first module calls this before anything reads a global:
 * Node's classes go back where the accessors were, except where the
 * application replaced or deleted one in the meantime (install() leaves those).
 */
export function restoreNodeGlobals() {
  if (state !== 'armed') return;
  state = 'loading';
  const changed = new Set();
  let streamWeb;
  for (const [name, { getter, original }] of armed) {
    if (ObjectGetOwnPropertyDescriptor(globalThis, name)?.get !== getter) {
      changed.add(name);
      continue;
    }
    if (original !== null) {
      ObjectDefineProperty(globalThis, name, original);
    } else {
      streamWeb ??= builtin('node:stream/web');
      ObjectDefineProperty(globalThis, name, { value: streamWeb[name], writable: true, enumerable: false, configurable: true });
    }
  }
  armed.clear();
  for (const [object, key, descriptor, ours] of trampolines) {
    const now = ObjectGetOwnPropertyDescriptor(object, key);
    if (now?.value === ours || now?.get === ours) ObjectDefineProperty(object, key, descriptor);
    else if (object === globalThis) changed.add(key); // the application's own structuredClone
  }
  trampolines.length = 0;
  kept = changed;
  hooks?.deregister();
  hooks = undefined;
}

/**
 * The library's entry calls this when it has run, with { install,
 * startMetrics, structuredClone }: under the preload it installs the patch
 * and starts the metrics the environment asks for. Outside the preload
 * (library mode) it only keeps them, for a preload that comes later.
 */
export function finishLoad(entry) {
  library = entry;
  if (state !== 'loading') return;
  state = 'done';
  how ??= { lazy: true, trigger: 'the application imported it' };
  if (how.lazy) debug('the library loaded on first use (%s)', how.trigger);
  installLibrary();
}

function installLibrary() {
  library.install({ lazy: how.lazy, keep: kept });
  library.startMetrics();
}
