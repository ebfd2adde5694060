// Which of Node's builtin modules this process has loaded so far:
// process.moduleLoadList, undocumented, lists them as 'NativeModule <id>'.
// Read to see whether Node's undici was loaded before the patch (it then holds
// Node's classes, src/patch/order.js), and whether the application loaded
// node:cluster (loading it ourselves costs ~10 ms, src/metrics/cluster.js).
//
// Probe: the list is an array naming node:module, which this module loads.
import 'node:module';

let usable;

/** True when process.moduleLoadList is there and names loaded builtins as expected. */
export function probeLoadedBuiltins() {
  const list = process.moduleLoadList;
  return Array.isArray(list) && list.includes('NativeModule module');
}

/**
 * Has the builtin `id` been loaded ('cluster', 'internal/deps/undici/undici')?
 * undefined when Node does not tell (the probe failed): the caller decides.
 */
export function isBuiltinLoaded(id) {
  usable ??= probeLoadedBuiltins();
  return usable ? process.moduleLoadList.includes(`NativeModule ${id}`) : undefined;
}
