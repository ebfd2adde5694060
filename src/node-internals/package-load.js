// Watching the application load an npm package: the undici package captures
// the global ReadableStream when it loads, and makes Response/Request classes
// whose bodies the patch adapts (src/patch/bodies.js, undici-first.js).
//
// Where Node has in-thread module hooks (module.registerHooks: Node 22.15+,
// 23.5+), a load hook gives each CommonJS file of the package that is loaded
// from outside it (its entry, as a rule; the files that one requires run
// inside it) a source that calls enter() before its code and
// leave(module.exports) after it, even when it throws: the file's own source,
// on the same line numbers, inside try/finally (after its 'use strict'
// directive, kept). The hook sees require() and import alike; files are
// matched by their URL (.../node_modules/<name>/...).
// Elsewhere (Node 20, 22 before 22.15) Module._load, undocumented, is wrapped:
// enter/leave around each require or import whose request names the package.
//
// Probe, at load (cheap: it runs in every process): registerHooks is a
// function; else Module._load is. The per-Node test also runs
// probeModuleHooks(), which checks that hooks registered this way see a
// require(), give it its source, and can be deregistered (about a millisecond:
// too dear for every start).
import { ReflectApply } from '../intrinsics.js';
import { builtin } from '../patch/builtins.js';

const Module = builtin('node:module');
const registerHooks = Module.registerHooks;
const kDispatch = Symbol.for('fast-webstreams.package-file');

/** 'registerHooks', 'Module._load', or undefined when Node has neither. */
export const packageLoadMechanism = typeof registerHooks === 'function' ? 'registerHooks'
  : typeof Module._load === 'function' ? 'Module._load' : undefined;

/** Full check of registerHooks, for the per-Node test: a resolve and a load hook serve a require(). */
export function probeModuleHooks() {
  if (typeof registerHooks !== 'function') return false;
  const url = new URL('./fast-webstreams-hooks-probe.cjs', import.meta.url).href;
  const specifier = 'fast-webstreams-hooks-probe';
  let hooks;
  try {
    hooks = ReflectApply(registerHooks, Module, [{
      resolve: (s, context, next) => (s === specifier ? { url, format: 'commonjs', shortCircuit: true } : next(s, context)),
      load: (u, context, next) => (u === url ? { format: 'commonjs', source: 'module.exports = 42', shortCircuit: true }
        : next(u, context)),
    }]);
    const require = Module.createRequire(import.meta.url);
    const works = require(specifier) === 42;
    delete require.cache[builtin('node:url').fileURLToPath(url)];
    return works;
  } catch {
    return false;
  } finally {
    hooks?.deregister();
  }
}

// --- registerHooks ----------------------------------------------------------

/** Watchers: { pattern, enter, leave }. */
const watchers = [];
let hooks;

const STRICT = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(['"])use strict\1/;
const decoder = new TextDecoder();

function wrapSource(url, source) {
  const text = typeof source === 'string' ? source : decoder.decode(source);
  if (text.startsWith('#!')) return text; // a hashbang must stay first: such a file is not watched
  const call = (what) => `globalThis[Symbol.for('fast-webstreams.package-file')]?.${what}`;
  const u = JSON.stringify(url);
  return `${STRICT.test(text) ? "'use strict';" : ''}${call('enter')}(${u});try{${text}\n}finally{` +
    `${call('leave')}(${u},module.exports)}`;
}

/** How many wrapped files are running their code now (a file a wrapped one requires runs inside it). */
let running = 0;

function load(url, context, nextLoad) {
  const result = nextLoad(url, context);
  // A file required while a watched file runs is inside that file's enter/leave already: only
  // the files loaded from outside (the package's entry, as a rule) are given a new source.
  if (running > 0) return result;
  const commonjs = result.format === 'commonjs' || (result.format == null && /\.c?js$/.test(url));
  if (!commonjs || result.source == null || !watchers.some((w) => w.pattern.test(url))) return result;
  return { ...result, source: wrapSource(url, result.source) };
}

const dispatch = {
  enter(url) {
    running++;
    for (const w of watchers) if (w.pattern.test(url)) w.enter();
  },
  leave(url, exports) {
    running--;
    for (let i = watchers.length - 1; i >= 0; i--) if (watchers[i].pattern.test(url)) watchers[i].leave(exports);
  },
};

function watchWithHooks(journal, watcher) {
  if (hooks === undefined) {
    hooks = ReflectApply(registerHooks, Module, [{ load }]);
    Object.defineProperty(globalThis, kDispatch, { value: dispatch, configurable: true });
  }
  watchers.push(watcher);
  journal.onRestore(() => {
    watchers.splice(watchers.indexOf(watcher), 1);
    if (watchers.length > 0) return;
    hooks.deregister();
    hooks = undefined;
    delete globalThis[kDispatch];
  });
}

// --- Module._load -------------------------------------------------------------

function watchWithLoad(journal, name, { enter, leave }) {
  const originalLoad = Module._load;
  journal.replaceValue(Module, '_load', function _load(request) {
    if (typeof request !== 'string' || !request.includes(name)) return ReflectApply(originalLoad, this, arguments);
    let exports;
    enter();
    try {
      exports = ReflectApply(originalLoad, this, arguments);
    } finally {
      leave(exports);
    }
    return exports;
  });
}

/**
 * Calls enter() before the application loads a file of the npm package `name`
 * and leave(exports) after (exports undefined if it threw); the journal undoes
 * it. False when Node offers no way (nothing is watched then).
 */
export function watchPackageLoads(journal, name, { enter, leave }) {
  if (packageLoadMechanism === 'registerHooks') {
    watchWithHooks(journal, { pattern: new RegExp(`/node_modules/${name}/`), enter, leave });
  } else if (packageLoadMechanism === 'Module._load') {
    watchWithLoad(journal, name, { enter, leave });
  } else {
    return false;
  }
  return true;
}
