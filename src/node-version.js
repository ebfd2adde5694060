// The running Node's release, read once: the per-version behaviours
// (src/node-pace.js, src/bridge/node-adapters/node-behaviour.js) and the
// patch's load-order rules (src/patch/) are taken from it.
const [major, minor] = process.versions.node.split('.').map(Number);

/** Node's major version, 20 for v20.20.2. */
export const nodeMajor = major;
/** Node's minor version, 20 for v20.20.2. */
export const nodeMinor = minor;
