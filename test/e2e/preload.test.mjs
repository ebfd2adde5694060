// The preload in child processes: --import fast-webstreams/register and
// NODE_OPTIONS, the kill switch, a feature switch, and uninstall() restoring
// every original (globals, prototypes, module exports).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { T, runJson, cleanEnv } from './helpers.mjs';

const PROBE = `
  import { createRequire } from 'node:module';
  import * as web from 'node:stream/web';
  const require = createRequire(import.meta.url);
  const isOurs = (C) => String(C).includes('#impl');
  const res = new Response(new Blob(['b']));
  console.log(JSON.stringify({
    globals: isOurs(globalThis.ReadableStream) && isOurs(globalThis.WritableStream) && isOurs(globalThis.TransformStream),
    imported: isOurs(web.ReadableStream),
    required: isOurs(require('stream/web').ReadableStream),
    fetchBody: isOurs((await fetch('data:text/plain,x')).body.constructor),
    blobBodyShell: isOurs(res.body.constructor),
    text: await new Response(new Blob(['t'])).text(),
  }));`;

const ALL = { globals: true, imported: true, required: true, fetchBody: true, blobBodyShell: true, text: 't' };
const NONE = { globals: false, imported: false, required: false, fetchBody: false, blobBodyShell: false, text: 't' };

test('--import fast-webstreams/register patches globals, stream/web (import and require) and bodies', T, () => {
  assert.deepEqual(runJson(['--import', 'fast-webstreams/register'], PROBE), ALL);
});

test('NODE_OPTIONS="--import fast-webstreams/register" does the same', T, () => {
  assert.deepEqual(runJson([], PROBE, cleanEnv({ NODE_OPTIONS: '--import fast-webstreams/register' })), ALL);
});

test('importing the preload twice is harmless', T, () => {
  assert.deepEqual(runJson(['--import', 'fast-webstreams/register', '--import', './register.mjs'], PROBE), ALL);
});

test('FAST_WEBSTREAMS=0 is the kill switch: nothing changes', T, () => {
  assert.deepEqual(runJson(['--import', 'fast-webstreams/register'], PROBE, cleanEnv({ FAST_WEBSTREAMS: '0' })), NONE);
});

test('FAST_WEBSTREAMS_BODY_SHELLS=0 and FAST_WEBSTREAMS_STREAM_WEB=0 turn single features off', T, () => {
  assert.deepEqual(runJson(['--import', 'fast-webstreams/register'], PROBE,
    cleanEnv({ FAST_WEBSTREAMS_BODY_SHELLS: '0', FAST_WEBSTREAMS_STREAM_WEB: '0' })),
  { ...ALL, imported: false, required: false, blobBodyShell: false });
});

test('uninstall() restores every global, prototype and module export', T, () => {
  const code = `
    import { createRequire } from 'node:module';
    import * as web from 'node:stream/web';
    import { install, uninstall, nativeClasses } from 'fast-webstreams';
    const require = createRequire(import.meta.url);
    const stream = require('node:stream');
    const Module = require('node:module');
    const N = nativeClasses();
    // undici must not load before install() (it would capture Node's classes), and on
    // Node 22+ even reading the global Response descriptor loads it: only Node 20's
    // lazy accessors are compared; undici's prototypes are checked after uninstall.
    const lazyAccessors = process.versions.node.startsWith('20.');
    function snapshot() {
      const out = {};
      const d = (o, k) => Object.getOwnPropertyDescriptor(o, k);
      for (const name of Object.keys(N)) {
        // (Node 20 defines these as lazy accessors that turn into data properties when read:
        // compare what they give.)
        out['global.' + name] = globalThis[name];
        out['streamweb.' + name] = require('stream/web')[name];
        out['esm.' + name] = web[name];
        out['proto.' + name] = Object.getPrototypeOf(N[name].prototype);
        out['hasInstance.' + name] = d(N[name], Symbol.hasInstance);
      }
      out.tee = require('stream/web').ReadableStreamTee;
      for (const C of ['Readable', 'Writable', 'Duplex']) out[C + '.fromWeb'] = d(stream[C], 'fromWeb');
      for (const k of ['pipeTo', 'pipeThrough']) out['native.' + k] = d(N.ReadableStream.prototype, k);
      for (const k of ['structuredClone', 'fetch']) out['global.' + k] = d(globalThis, k);
      if (lazyAccessors) for (const k of ['Response', 'Request']) out['global.' + k] = d(globalThis, k);
      out.postMessage = d(MessagePort.prototype, 'postMessage');
      out.load = Module._load;
      out.hooks = globalThis[Symbol.for('fast-webstreams.package-file')]; // module.registerHooks' dispatcher
      return out;
    }
    const isDesc = (x) => x !== null && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype && 'configurable' in x;
    const same = (a, b) => a === b || (isDesc(a) && isDesc(b) && Object.keys({ ...a, ...b }).every((k) => a[k] === b[k]));
    const before = snapshot();
    install();
    const during = snapshot();
    await (await fetch('data:text/plain,x')).text();
    new Response(new Blob(['x'])).body;
    uninstall();
    const after = snapshot();
    const changed = Object.keys(before).filter((k) => !same(before[k], during[k]));
    const notRestored = Object.keys(before).filter((k) => !same(before[k], after[k]));
    for (const C of ['Response', 'Request']) {
      for (const k of ['body', 'text', 'json', 'arrayBuffer', 'blob', 'clone']) {
        const desc = Object.getOwnPropertyDescriptor(globalThis[C].prototype, k);
        if (String(desc.get ?? desc.value).includes('shell')) notRestored.push(C + '.' + k);
      }
    }
    console.log(JSON.stringify({ changed: changed.length, notRestored }));`;
  const result = runJson([], code);
  assert.deepEqual(result.notRestored, []);
  assert.ok(result.changed > 60, `install changed ${result.changed} things`);
});
