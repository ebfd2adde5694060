// Every FAST_WEBSTREAMS* variable, and the one parser each kind of value goes
// through (install() reads the feature switches, src/metrics/from-env.js the
// metrics ones; both read them here, so a word means the same everywhere).
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
//   FAST_WEBSTREAMS_FAST_PATHS=0      every stream on the spec path: no fused or sync hop
//                                     (src/fast/plug.js), to bisect a suspected difference
//   FAST_WEBSTREAMS_LAZY=0            the preload loads the library at start, not on the
//                                     first use of a stream global (src/patch/lazy.js)
//   FAST_WEBSTREAMS_METRICS*          the metrics outputs (src/metrics/from-env.js)
// A switch is off for 0, false, off, no and on for 1, true, on, yes (any case,
// spaces ignored); unset or empty leaves its default. Any other value leaves the
// default, with a warning; so does a name that is none of VARIABLES (a typo).
export const FEATURES = {
  streamWeb: 'FAST_WEBSTREAMS_STREAM_WEB',
  instanceOf: 'FAST_WEBSTREAMS_INSTANCEOF',
  nodeConsumers: 'FAST_WEBSTREAMS_NODE_CONSUMERS',
  bodyShells: 'FAST_WEBSTREAMS_BODY_SHELLS',
  transfer: 'FAST_WEBSTREAMS_TRANSFER',
  codecs: 'FAST_WEBSTREAMS_CODECS',
};

const OFF = new Set(['0', 'false', 'off', 'no']);
const ON = new Set(['1', 'true', 'on', 'yes']);

/** A switch's value: true (on), false (off), undefined (unset or empty: the default), null (neither). */
export function readSwitch(value) {
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  if (word === '') return undefined;
  if (OFF.has(word)) return false;
  return ON.has(word) ? true : null;
}

/** True when a switch's value says "off" (register.mjs and register.cjs repeat this test: see its unit test). */
export function isOff(value) {
  return readSwitch(value) === false;
}

/** True when a switch that is off by default (the metrics summary, sites) is switched on. */
export function isOn(value) {
  return readSwitch(value) === true;
}

/** The metrics port: a number 0-65535, undefined when unset, null when it is not a port. */
export function readPort(value) {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const port = Number(value);
  return Number.isInteger(port) && port >= 0 && port <= 65535 ? port : null;
}

export const DEFAULT_INTERVAL_MS = 10000;

/** The metrics interval in ms (at least 10), undefined when unset, null when it is not one. */
export function readInterval(value) {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const ms = Number(value);
  return Number.isInteger(ms) && ms >= 10 ? ms : null;
}

export const OUTPUTS = ['stderr'];

/** FAST_WEBSTREAMS_METRICS: the comma-separated outputs, lower-cased (the unknown ones too). */
export function readOutputs(value) {
  if (typeof value !== 'string') return [];
  return value.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
}

const switchCheck = (defaultOn) => (name, value) => (readSwitch(value) === null
  ? `${name}=${value} is neither on (1, true, on, yes) nor off (0, false, off, no): left ${defaultOn ? 'on' : 'off'}`
  : undefined);

/** Every variable the package reads, and what is wrong with a value of it (undefined: nothing). */
export const VARIABLES = {
  FAST_WEBSTREAMS: switchCheck(true),
  ...Object.fromEntries(Object.values(FEATURES).map((name) => [name, switchCheck(true)])),
  FAST_WEBSTREAMS_LAZY: switchCheck(true),
  FAST_WEBSTREAMS_FAST_PATHS: switchCheck(true),
  FAST_WEBSTREAMS_METRICS: (name, value) => {
    const unknown = readOutputs(value).filter((part) => !OUTPUTS.includes(part));
    return unknown.length === 0 ? undefined
      : `ignoring unknown ${name} value${unknown.length === 1 ? '' : 's'} ${unknown.map((u) => `'${u}'`).join(', ')} (known: ${OUTPUTS.join(', ')})`;
  },
  FAST_WEBSTREAMS_METRICS_INTERVAL: (name, value) => (readInterval(value) === null
    ? `ignoring ${name}=${value} (want an integer >= 10, in ms); using ${DEFAULT_INTERVAL_MS}` : undefined),
  FAST_WEBSTREAMS_METRICS_PORT: (name, value) => (readPort(value) === null
    ? `ignoring ${name}=${value} (want a port number, 0-65535)` : undefined),
  FAST_WEBSTREAMS_METRICS_HOST: () => undefined,
  FAST_WEBSTREAMS_METRICS_SUMMARY: switchCheck(false),
  FAST_WEBSTREAMS_METRICS_SITES: switchCheck(false),
  // Written by the process that holds the metrics port, for the processes it starts (src/metrics/port.js).
  FAST_WEBSTREAMS_METRICS_PRIMARY: () => undefined,
};

export function enabledFeatures(env = process.env) {
  const out = {};
  for (const [feature, variable] of Object.entries(FEATURES)) {
    out[feature] = !isOff(env[variable]);
  }
  return out;
}

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
  for (const known of Object.keys(VARIABLES)) {
    const d = distance(name, known);
    if (d < bestDistance) [best, bestDistance] = [known, d];
  }
  return bestDistance <= 4 ? best : undefined;
}

// Names that look like ours: FAST_WEBSTREAMS*, and near misses (FAST_WEBSTREAM=0, FASTWEBSTREAMS_...).
const OURS = /^FAST[_-]?WEB[_-]?STREAM/i;

/** Problems with the FAST_WEBSTREAMS* variables: unknown names, and values their parser refuses. */
export function switchProblems(env = process.env) {
  const problems = [];
  for (const name of Object.keys(env)) {
    if (!OURS.test(name)) continue;
    const check = Object.hasOwn(VARIABLES, name) ? VARIABLES[name] : undefined;
    if (check === undefined) {
      const hint = closest(name.toUpperCase().replace(/-/g, '_'));
      problems.push(`unknown variable ${name}${hint === undefined ? '' : ` (did you mean ${hint}?)`}`);
    } else {
      const problem = check(name, env[name]);
      if (problem !== undefined) problems.push(problem);
    }
  }
  return problems;
}

let checked = false;

/**
 * switchProblems(), the first time it is asked in this process (then []): install()
 * and startMetricsFromEnv() both ask, and the answer is one warning, whichever asked first.
 */
export function unreportedSwitchProblems(env = process.env) {
  if (checked) return [];
  checked = true;
  return switchProblems(env);
}

/** Every warning of the package: one kind, which `node --no-warnings` hides as it hides Node's. */
export function emitFastWarning(message, code = 'FAST_WEBSTREAMS_SETUP') {
  process.emitWarning(message, { type: 'FastWebstreamsWarning', code });
}
