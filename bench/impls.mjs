// The implementations the suite compares, and how a child process is started
// for each. Web-stream scenarios are written against the globals only, so an
// implementation is nothing more than the preload flags that replace them.
// An implementation with `prepare(bin)` has its flags made at bench start
// (it returns { flags, note, cleanup }); one with `optIn` runs only when
// --impl names it; `env` is added to its child's environment; one with
// `codecsOnly` runs only the scenarios that go through a codec class
// (`codecs: true`), where it differs from its neighbour.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareNoCounters } from './impls/strip-counters.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

export const IMPLS = {
  // Node's own Web Streams: no flags at all.
  native: { label: 'native', kind: 'web', flags: [] },
  // Exactly what our users run: the register preload (our codec classes included).
  fast: { label: 'fast-webstreams', kind: 'web', flags: ['--import', join(root, 'register.mjs')] },
  // The same preload with Node's TextEncoderStream, TextDecoderStream,
  // CompressionStream and DecompressionStream kept (FAST_WEBSTREAMS_CODECS=0):
  // a chain through one crosses the bridge to Node's streams (docs/codecs.md).
  'fast-nocodecs': {
    label: 'fast-webstreams-nativecodecs',
    kind: 'web',
    flags: ['--import', join(root, 'register.mjs')],
    env: { FAST_WEBSTREAMS_CODECS: '0' },
    codecsOnly: true,
  },
  // The same, with every tier-counter update stripped from a copy of src/ made
  // at bench start (bench/impls/strip-counters.mjs): `fast` against this one
  // is what counting costs. Listed right after `fast` so the two run back to back.
  'fast-nocounters': {
    label: 'fast-webstreams-nocounters',
    kind: 'web',
    optIn: true,
    prepare: (bin) => prepareNoCounters(root, bin),
  },
  // The published peer through its own global patch.
  peer: { label: 'experimental-fast-webstreams', kind: 'web', flags: ['--import', join(here, 'impls', 'peer-register.mjs')] },
  // Node's classic streams (object mode), for scenarios with a comparable pattern:
  // it shows what the same data flow costs without Web Streams at all.
  'node-stream': { label: 'node:stream', kind: 'node', flags: [] },
};

export const IMPL_ORDER = Object.keys(IMPLS);

// Whether `key` has something to run in `scenario`.
export function runsScenario(key, scenario) {
  const spec = IMPLS[key];
  return Boolean(scenario[spec.kind]) && (!spec.codecsOnly || Boolean(scenario.codecs));
}
// What runs without --impl.
export const DEFAULT_IMPLS = IMPL_ORDER.filter((k) => !IMPLS[k].optIn);

// Accept the short keys and the full labels (`--impl=native,fast-webstreams`).
export function parseImpls(list) {
  const byLabel = Object.fromEntries(Object.entries(IMPLS).map(([k, v]) => [v.label, k]));
  const keys = list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => (IMPLS[s] ? s : byLabel[s]));
  const bad = list.split(',').filter((s, i) => s.trim() && !keys[i]);
  if (bad.length) throw new Error(`unknown implementation(s): ${bad.join(', ')}; known: ${IMPL_ORDER.join(', ')}`);
  // Keep the canonical order so columns and interleaving are stable.
  return IMPL_ORDER.filter((k) => keys.includes(k));
}
