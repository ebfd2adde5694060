// The preload's switches, read from the environment when install() runs.
//   FAST_WEBSTREAMS=0                 the kill switch: register.mjs installs nothing
//   FAST_WEBSTREAMS_STREAM_WEB=0      leave node:stream/web exporting Node's classes
//   FAST_WEBSTREAMS_INSTANCEOF=0      no cross-instanceof between native classes and ours
//                                     (on Node 24+ the ReadableStream prototype link stays:
//                                     undici checks bodies through it)
//   FAST_WEBSTREAMS_NODE_CONSUMERS=0  no bridges for Readable/Writable/Duplex.fromWeb and
//                                     pipes between native streams and ours
//   FAST_WEBSTREAMS_BODY_SHELLS=0     Response/Request.prototype.body left as they are
//   FAST_WEBSTREAMS_TRANSFER=0        structuredClone/postMessage left as they are
//   FAST_WEBSTREAMS_CODECS=0          keep Node's TextEncoderStream, TextDecoderStream,
//                                     CompressionStream and DecompressionStream (by default
//                                     ours replace them, so chains through them stay fused:
//                                     docs/codecs.md)
//   FAST_WEBSTREAMS_METRICS*          read by src/metrics/from-env.js
// "Off" is any of 0, false, off, no (any case, spaces ignored); unset, empty,
// 1, true, on and yes leave a feature on. Any other value leaves it on, with a
// warning; so does a FAST_WEBSTREAMS_* name that is none of the above (a typo).
export const FEATURES = {
  streamWeb: 'FAST_WEBSTREAMS_STREAM_WEB',
  instanceOf: 'FAST_WEBSTREAMS_INSTANCEOF',
  nodeConsumers: 'FAST_WEBSTREAMS_NODE_CONSUMERS',
  bodyShells: 'FAST_WEBSTREAMS_BODY_SHELLS',
  transfer: 'FAST_WEBSTREAMS_TRANSFER',
  codecs: 'FAST_WEBSTREAMS_CODECS',
};

const OFF = new Set(['0', 'false', 'off', 'no']);
const ON = new Set(['', '1', 'true', 'on', 'yes']);

/** True when a switch's value says "off" (register.mjs has its own copy of this test). */
export function isOff(value) {
  return typeof value === 'string' && OFF.has(value.trim().toLowerCase());
}

export function enabledFeatures(env = process.env) {
  const out = {};
  for (const [feature, variable] of Object.entries(FEATURES)) {
    out[feature] = !isOff(env[variable]);
  }
  return out;
}

const KNOWN = new Set(['FAST_WEBSTREAMS', 'FAST_WEBSTREAMS_METRICS', ...Object.values(FEATURES)]);
const isKnown = (name) => KNOWN.has(name) || name.startsWith('FAST_WEBSTREAMS_METRICS_');

/** Edit distance, to suggest the switch a typo meant. */
function distance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length];
}

function closest(name) {
  let best;
  let bestDistance = Infinity;
  for (const known of KNOWN) {
    const d = distance(name, known);
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return bestDistance <= 4 ? best : undefined;
}

/** Problems with the FAST_WEBSTREAMS_* variables: unknown names and values that are neither on nor off. */
export function switchProblems(env = process.env) {
  const problems = [];
  for (const name of Object.keys(env)) {
    if (!name.toUpperCase().startsWith('FAST_WEBSTREAMS')) continue;
    if (!isKnown(name)) {
      const hint = closest(name.toUpperCase());
      problems.push(`unknown variable ${name}${hint === undefined ? '' : ` (did you mean ${hint}?)`}`);
    } else if ((name === 'FAST_WEBSTREAMS' || Object.values(FEATURES).includes(name)) &&
        !isOff(env[name]) && !ON.has(env[name].trim().toLowerCase())) {
      problems.push(`${name}=${env[name]} is neither on (1, true, on, yes) nor off (0, false, off, no): left on`);
    }
  }
  return problems;
}
