// Watching the application load an npm package: the undici package captures
// the global ReadableStream when it loads, and makes Response/Request classes
// whose bodies the patch adapts (src/patch/bodies.js, undici-first.js).
//
// Where Node has in-thread module hooks (module.registerHooks: Node 22.15+,
// 23.5+), the load hook of loader.mjs (the package's Node module hooks, at its
// root) is registered, and wraps each file of the package that is loaded from
// outside it in enter()/leave() calls.
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
import { dispatch, kPackageFileDispatch, load, packageWatchers } from '../../loader.mjs';

const Module = builtin('node:module');
const registerHooks = Module.registerHooks;

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

let hooks;

function watchWithHooks(journal, watcher) {
  if (hooks === undefined) {
    hooks = ReflectApply(registerHooks, Module, [{ load }]);
    Object.defineProperty(globalThis, kPackageFileDispatch, { value: dispatch, configurable: true });
  }
  packageWatchers.push(watcher);
  journal.onRestore(() => {
    packageWatchers.splice(packageWatchers.indexOf(watcher), 1);
    if (packageWatchers.length > 0) return;
    hooks.deregister();
    hooks = undefined;
    delete globalThis[kPackageFileDispatch];
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
