// Every probe of this folder, run at once: what test/unit/node-internals.test.mjs
// compares, on each Node major, with what must hold there. Not loaded by the
// library (each module probes what it needs, when it needs it).
import { probeModuleHooks } from './package-load.js';
import { probeLoadedBuiltins } from './loaded-builtins.js';
import { probeDetachArrayBuffer } from './buffer-binding.js';
import { nativeStreamSlots } from './native-stream-slots.js';
import { probeStreamSymbols } from './stream-symbols.js';
import { probePrototypeLink } from './prototype-link.js';
import { probeCallSites } from './undici-callers.js';
import { natives } from '../bridge/natives.js';

/** name -> true when the probe matches on this Node. */
export function runProbes() {
  return {
    moduleHooks: probeModuleHooks(),
    moduleLoadList: probeLoadedBuiltins(),
    bufferBindingDetach: probeDetachArrayBuffer() !== undefined,
    nativeStreamSlots: nativeStreamSlots() !== null,
    streamSymbols: probeStreamSymbols(),
    prototypeLink: Object.keys(natives).every((name) => probePrototypeLink(name, natives[name])),
    callSites: probeCallSites(),
  };
}
