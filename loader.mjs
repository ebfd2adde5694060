// Node module customization hooks (module.register('fast-webstreams/loader')).
// Registered by the preload so that modules which import Web Streams from Node
// builtins can be pointed at our classes. This foundation release passes every
// request through unchanged: the globals are patched by register.mjs, and the
// `node:stream/web` redirection is tracked in the preload issue.
export async function resolve(specifier, context, nextResolve) {
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  return nextLoad(url, context);
}
