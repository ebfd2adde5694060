// The preload's switches, read from the environment when install() runs.
//   FAST_WEBSTREAMS=0                 the kill switch: register.mjs installs nothing
//   FAST_WEBSTREAMS_STREAM_WEB=0      leave node:stream/web exporting Node's classes
//   FAST_WEBSTREAMS_INSTANCEOF=0      no cross-instanceof between native classes and ours
//   FAST_WEBSTREAMS_NODE_CONSUMERS=0  no bridges for Readable/Writable/Duplex.fromWeb and
//                                     pipes between native streams and ours
//   FAST_WEBSTREAMS_BODY_SHELLS=0     Response/Request.prototype.body left as they are
//   FAST_WEBSTREAMS_TRANSFER=0        structuredClone/postMessage left as they are
// Any value other than "0" (or the variable being unset) leaves the feature on.
export const FEATURES = {
  streamWeb: 'FAST_WEBSTREAMS_STREAM_WEB',
  instanceOf: 'FAST_WEBSTREAMS_INSTANCEOF',
  nodeConsumers: 'FAST_WEBSTREAMS_NODE_CONSUMERS',
  bodyShells: 'FAST_WEBSTREAMS_BODY_SHELLS',
  transfer: 'FAST_WEBSTREAMS_TRANSFER',
};

export function enabledFeatures(env = process.env) {
  const out = {};
  for (const [feature, variable] of Object.entries(FEATURES)) out[feature] = env[variable] !== '0';
  return out;
}
