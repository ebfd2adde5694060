// The implementations the suite compares, and how a child process is started
// for each. Web-stream scenarios are written against the globals only, so an
// implementation is nothing more than the preload flags that replace them.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

export const IMPLS = {
  // Node's own Web Streams: no flags at all.
  native: { label: 'native', kind: 'web', flags: [] },
  // Exactly what our users run: the register preload.
  fast: { label: 'fast-webstreams', kind: 'web', flags: ['--import', join(root, 'register.mjs')] },
  // The published peer through its own global patch.
  peer: { label: 'experimental-fast-webstreams', kind: 'web', flags: ['--import', join(here, 'impls', 'peer-register.mjs')] },
  // Node's classic streams (object mode), for scenarios with a comparable pattern:
  // it shows what the same data flow costs without Web Streams at all.
  'node-stream': { label: 'node:stream', kind: 'node', flags: [] },
};

export const IMPL_ORDER = Object.keys(IMPLS);

// Accept the short keys and the full labels (`--impl=native,fast-webstreams`).
export function parseImpls(list) {
  const byLabel = Object.fromEntries(Object.entries(IMPLS).map(([k, v]) => [v.label, k]));
  const keys = list.split(',').map((s) => s.trim()).filter(Boolean).map((s) => (IMPLS[s] ? s : byLabel[s]));
  const bad = list.split(',').filter((s, i) => s.trim() && !keys[i]);
  if (bad.length) throw new Error(`unknown implementation(s): ${bad.join(', ')}; known: ${IMPL_ORDER.join(', ')}`);
  // Keep the canonical order so columns and interleaving are stable.
  return IMPL_ORDER.filter((k) => keys.includes(k));
}
