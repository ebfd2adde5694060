// The preload in either order with another preload that loads undici first
// (issue 12): on Node 24/26 undici captures the global ReadableStream when it
// loads, and on Node 26 Node's ReadableStreamTee. Every body path of
// fixtures/order/bodies.mjs must work whatever ran first (on Node 26 that
// includes a redirect, which re-makes the request body and tees it with
// Node's tee), with no warning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import Module, { createRequire } from 'node:module';
import { join } from 'node:path';
import { T, ROOT, cleanEnv } from './helpers.mjs';

const FIX = join(ROOT, 'test', 'e2e', 'fixtures', 'order');
const BODIES = join(FIX, 'bodies.mjs');
const HTTP_FIRST = ['--import', join(FIX, 'http-first.mjs')];
const FETCH_FIRST = ['--import', join(FIX, 'fetch-first.mjs')];
const REQUIRE_FIRST = ['-r', join(FIX, 'require-first.cjs')];
const OURS = ['--import', 'fast-webstreams/register'];

const major = Number(process.versions.node.split('.')[0]);

const ALL = {
  patched: true, stringText: 'x', oursText: 'o', blobText: 'b', nativeStreamText: 'n', bodyRead: 'r',
  bodyIsOurs: true, clone: 'cc', requestText: 'q', fetchOursBody: 'echo:f', fetchBodyRead: 'echo:g',
  fetchRequestInput: 'echo:i', fetchRedirect307: 'echo:j', fetchRedirect308: 'echo:l=m,echo:n,true',
  // Node 20 and 22 natively: undici's first send detached the bytes it re-sends.
  fetchRedirectBytes: major >= 24 ? 'echo:k' : 'ERR fetch failed (Cannot perform ArrayBuffer.prototype.slice on a detached ArrayBuffer)',
  lookalikeIsOurs: true, fetchClone: 'echo:hecho:h', instanceof: true,
};

function run(args, script, env = cleanEnv(), scriptArgs = []) {
  const r = spawnSync(process.execPath, [...args, script, ...scriptArgs], { cwd: ROOT, env, encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 0, `child failed (${r.status ?? r.signal}): ${r.stderr}`);
  return { result: JSON.parse(r.stdout.trim().split('\n').pop()), stderr: r.stderr };
}

const warnings = (stderr) => stderr.split('\n').filter((l) => l.includes('FastWebstreamsWarning')).length;

/** Checks a run where undici was (or was not) loaded before the patch: the same either way. */
function expectBodies({ result, stderr }) {
  assert.deepEqual(result, ALL);
  assert.equal(warnings(stderr), 0, stderr);
}

test('baseline: only our preload', T, () => {
  expectBodies(run(OURS, BODIES));
});

test("a preload importing node:http before ours (Node 24+ loads undici then)", T, () => {
  expectBodies(run([...HTTP_FIRST, ...OURS], BODIES));
});

test('a preload using Response and fetch before ours', T, () => {
  expectBodies(run([...FETCH_FIRST, ...OURS], BODIES));
});

test('a CommonJS preload (-r) using Response before ours', T, () => {
  expectBodies(run([...REQUIRE_FIRST, ...OURS], BODIES));
});

test('a NODE_OPTIONS preload (runs before command-line ones) using fetch before ours', T, () => {
  const env = cleanEnv({ NODE_OPTIONS: `--import ${JSON.stringify(join(FIX, 'fetch-first.mjs'))}` });
  expectBodies(run(OURS, BODIES, env));
});

test('ours first, then a preload that uses fetch', T, () => {
  expectBodies(run([...OURS, ...FETCH_FIRST], BODIES));
});

test('-r fast-webstreams/register after a CommonJS preload that used Response', T, () => {
  expectBodies(run([...REQUIRE_FIRST, '-r', 'fast-webstreams/register'], BODIES));
});

test('a CommonJS preload loading the undici npm package (not Node\'s) before ours', T, () => {
  const NPM_FIRST = ['-r', join(FIX, 'npm-undici-first.cjs')];
  expectBodies(run([...NPM_FIRST, ...OURS], BODIES));
  assert.deepEqual(run([...NPM_FIRST, ...OURS], join(FIX, 'npm-undici.mjs')).result,
    { stringText: 's', blobText: 'b', oursText: 'o', clone: 'cc' });
});

test('the undici npm package loaded after the patch, Node\'s undici loaded before it', T, () => {
  const expected = { stringText: 's', blobText: 'b', oursText: 'o', clone: 'cc' };
  assert.deepEqual(run([...FETCH_FIRST, ...OURS], join(FIX, 'npm-undici.mjs')).result, expected);
  assert.deepEqual(run(OURS, join(FIX, 'npm-undici.mjs')).result, expected);
  assert.deepEqual(run(OURS, join(FIX, 'npm-undici.mjs'), cleanEnv(), ['import']).result, expected);
});

// OpenTelemetry's register, which tells its users to load it first. Not a
// dependency of the project (about 100 MB): the test runs where it is installed.
const otel = (() => {
  try {
    return createRequire(join(ROOT, 'package.json')).resolve('@opentelemetry/auto-instrumentations-node/register');
  } catch {
    return undefined;
  }
})();

test('OpenTelemetry auto-instrumentations register before ours', {
  ...T, skip: otel === undefined && '@opentelemetry/auto-instrumentations-node is not installed',
}, () => {
  // Only the GCP resource detector (it loads undici through fetch, as the
  // default detectors do), pointed at a closed port on 127.0.0.1; no exporters.
  const env = cleanEnv({
    OTEL_NODE_RESOURCE_DETECTORS: 'gcp', GCE_METADATA_HOST: '127.0.0.1:9', GCE_METADATA_IP: '127.0.0.1:9',
    OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none',
  });
  expectBodies(run(['--import', '@opentelemetry/auto-instrumentations-node/register', ...OURS], BODIES, env));
  expectBodies(run([...OURS, '--import', '@opentelemetry/auto-instrumentations-node/register'], BODIES, env));
});

test('after an early undici, uninstall() still restores everything the patch changed', T, () => {
  const code = `
    import { createRequire } from 'node:module';
    import { ReadableStream as Ours, install, uninstall } from 'fast-webstreams';
    const require = createRequire(import.meta.url);
    const Module = require('node:module');
    const d = (o, k) => Object.getOwnPropertyDescriptor(o, k);
    const snapshot = () => ({
      global: globalThis.ReadableStream, proto: Object.getPrototypeOf(Ours.prototype),
      ownKeys: Reflect.ownKeys(Ours.prototype).length, hasInstance: d(Ours, Symbol.hasInstance),
      nativeHasInstance: d(globalThis.ReadableStream, Symbol.hasInstance), fetch: globalThis.fetch,
      load: Module._load, clone: Response.prototype.clone, requestClone: Request.prototype.clone,
      hooks: globalThis[Symbol.for('fast-webstreams.package-file')],
    });
    const before = snapshot();
    install();
    const during = snapshot();
    await new Response('x').clone().text();
    uninstall();
    const after = snapshot();
    const changed = Object.keys(before).filter((k) => before[k] !== during[k]);
    const notRestored = Object.keys(before).filter((k) => before[k] !== after[k]);
    console.log(JSON.stringify({ changed, notRestored }));`;
  const r = spawnSync(process.execPath, [...FETCH_FIRST, '--input-type=module', '-e', code],
    { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 0, r.stderr);
  const { changed, notRestored } = JSON.parse(r.stdout.trim().split('\n').pop());
  assert.deepEqual(notRestored, []);
  // The undici package is watched through module.registerHooks where Node has it, else Module._load.
  const watch = typeof Module.registerHooks === 'function' ? 'hooks' : 'load';
  assert.ok(changed.includes('global') && changed.includes('fetch') && changed.includes(watch), String(changed));
  if (major >= 24) assert.ok(changed.includes('proto') && changed.includes('ownKeys'), String(changed));
  if (major >= 26) assert.ok(changed.includes('clone') && changed.includes('requestClone'), String(changed));
});

test('after an early undici, read-only stack trace hooks leave construction working', T, () => {
  // On Node 26 the constructor reads the caller of a byte stream's construction: an application
  // that froze Error.prepareStackTrace and Error.stackTraceLimit must not see it throw. With no
  // stack to read, the stream may be one undici re-makes and tees: it is Node's (fail safe).
  const code = `
    for (const key of ['prepareStackTrace', 'stackTraceLimit']) {
      Object.defineProperty(Error, key, { value: Error[key], writable: false, configurable: false });
    }
    const pending = fetch('data:,x');
    const lookalike = new ReadableStream({ pull() {}, start() {}, cancel() {}, type: 'bytes' });
    const text = await (await pending).text();
    console.log(JSON.stringify({ ours: String(lookalike.constructor).includes('#impl'), text }));`;
  const r = spawnSync(process.execPath, [...FETCH_FIRST, ...OURS, '--input-type=module', '-e', code],
    { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout.trim().split('\n').pop()), { ours: major < 26, text: 'x' });
});
