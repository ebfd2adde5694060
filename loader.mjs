// Node module customization hooks (`module.register('fast-webstreams/loader')`).
// Not needed and not registered by the preload: node:stream/web is patched
// through its exports object and module.syncBuiltinESMExports(), and the undici
// package when it loads (docs/interop.md). Kept as a pass-through so that
// programs which register it keep working.
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  return nextLoad(url, context);
}
