// Node's internals the library relies on (src/node-internals/), each behind a
// probe. Per Node major, this table says which probes must match: a probe that
// stops matching (a feature silently turned off on a new Node) or starts to
// (something we could now use) fails here, naming the module to look at.
// A Node major missing from the table fails too, until someone adds its row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runProbes } from '../../src/node-internals/probes.js';

const [major, minor] = process.versions.node.split('.').map(Number);

// What each probe guards, for the failure message.
const WHERE = {
  moduleHooks: 'package-load.js: module.registerHooks (else the Module._load wrapper)',
  moduleLoadList: 'loaded-builtins.js: process.moduleLoadList',
  bufferBindingDetach: "buffer-binding.js: process.binding('buffer').detachArrayBuffer (needed only without ArrayBuffer.prototype.transfer)",
  nativeStreamSlots: 'native-stream-slots.js: kType/kState of Node\'s ReadableStream',
  streamSymbols: 'stream-symbols.js: the registered symbols Node\'s stream utilities read',
  prototypeLink: 'prototype-link.js: re-parenting Node\'s Web Streams prototypes',
  callSites: 'undici-callers.js: call sites with function names (V8\'s stack trace API)',
};

const common = { moduleLoadList: true, nativeStreamSlots: true, streamSymbols: true, prototypeLink: true, callSites: true };
const EXPECTED = {
  20: { ...common, moduleHooks: false, bufferBindingDetach: true },
  // registerHooks arrived in 22.15; ArrayBuffer.prototype.transfer in 21, and the binding's
  // detachArrayBuffer left process.binding after 22.15 (unused since transfer exists).
  22: { ...common, moduleHooks: minor >= 15, bufferBindingDetach: minor <= 15 },
  24: { ...common, moduleHooks: true, bufferBindingDetach: false },
  26: { ...common, moduleHooks: true, bufferBindingDetach: false },
};

test(`every probe of src/node-internals/ answers as expected on Node ${major}`, () => {
  const got = runProbes();
  assert.deepEqual(Object.keys(got).sort(), Object.keys(WHERE).sort(), 'a probe without a WHERE entry (or the reverse)');
  const expected = EXPECTED[major];
  assert.ok(expected !== undefined, `Node ${major} is not in this test's table: these probes answered ` +
    `${JSON.stringify(got)}; check each against what the library needs there, then add the row`);
  const wrong = Object.keys(expected).filter((name) => got[name] !== expected[name])
    .map((name) => `${name} is ${got[name]}, expected ${expected[name]} (src/node-internals/${WHERE[name]})`);
  assert.deepEqual(wrong, []);
});

test('where the probe matches, the library takes the faster path', async () => {
  const { packageLoadMechanism } = await import('../../src/node-internals/package-load.js');
  assert.equal(packageLoadMechanism, EXPECTED[major]?.moduleHooks ? 'registerHooks' : 'Module._load');
});

// The rest runs in a child: what it checks loads modules for good.
function child(code) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code],
    { cwd: fileURLToPath(new URL('../..', import.meta.url)), encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

test('process.moduleLoadList names undici and cluster once they are loaded, not before', () => {
  const result = child(`
    import { isBuiltinLoaded } from './src/node-internals/loaded-builtins.js';
    const ids = ['internal/deps/undici/undici', 'cluster'];
    const before = ids.map(isBuiltinLoaded);
    await (await fetch('data:,x')).text();
    process.getBuiltinModule?.('node:cluster') ?? (await import('node:module')).createRequire(import.meta.url)('node:cluster');
    console.log(JSON.stringify({ before, after: ids.map(isBuiltinLoaded) }));`);
  assert.deepEqual(result, { before: [false, false], after: [true, true] });
});

test('a watched package: enter and leave around its files, for require and import, until restored', () => {
  const result = child(`
    import { createRequire } from 'node:module';
    import { watchPackageLoads } from './src/node-internals/package-load.js';
    import { Journal } from './src/patch/restore.js';
    const journal = new Journal();
    const log = [];
    let depth = 0;
    watchPackageLoads(journal, 'undici', {
      enter() { depth++; },
      leave(exports) { depth--; if (typeof exports?.fetch === 'function' && typeof exports?.Response === 'function') log.push(depth); },
    });
    const imported = await import('undici');
    const required = createRequire(import.meta.url)('undici');
    journal.restore();
    // A second copy of the package (a fresh cache entry) after restore: no calls.
    const require = createRequire(import.meta.url);
    for (const key of Object.keys(require.cache)) if (key.includes('undici')) delete require.cache[key];
    require('undici');
    console.log(JSON.stringify({ log, depth, same: imported.default === required, fetch: typeof imported.fetch,
      dispatch: Object.getOwnPropertySymbols(globalThis).map(String).filter((s) => s.includes('fast-webstreams')) }));`);
  // A leave with the package's exports, for the outermost file, when every file has left: once
  // (registerHooks: the file loads once), or once per request (Module._load: import, then require).
  const { log, ...rest } = result;
  assert.deepEqual(rest, { depth: 0, same: true, fetch: 'function', dispatch: [] });
  assert.deepEqual(log, EXPECTED[major]?.moduleHooks ? [0] : [0, 0]);
});
