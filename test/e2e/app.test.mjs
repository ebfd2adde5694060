// A real application, unmodified (test/e2e/fixtures/app.mjs): React server
// rendering through a TransformStream into a Node HTTP response, and a fetch
// proxy (upstream in its own process) through transforms. Run with and without
// the preload: the bytes must be identical, and an error in the middle of a
// stream must close the connection the same way, with nothing hanging.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ROOT, T, startServer, get, cleanEnv } from './helpers.mjs';

const APP = join(ROOT, 'test', 'e2e', 'fixtures', 'app.mjs');
let upstream;
const apps = {};

before(async () => {
  upstream = await startServer(join(ROOT, 'test', 'e2e', 'fixtures', 'upstream.mjs'));
  const env = cleanEnv({ UPSTREAM: `http://127.0.0.1:${upstream.port}` });
  [apps.native, apps.flag, apps.nodeOptions] = await Promise.all([
    startServer(APP, [], env),
    startServer(APP, ['--import', 'fast-webstreams/register'], env),
    startServer(APP, [], { ...env, NODE_OPTIONS: '--import fast-webstreams/register' }),
  ]);
});

after(() => {
  upstream?.stop();
  for (const app of Object.values(apps)) app.stop();
});

test('the flag is active in the patched runs only', T, async () => {
  assert.deepEqual(JSON.parse((await get(apps.native.port, '/mode')).body), { ours: false });
  assert.deepEqual(JSON.parse((await get(apps.flag.port, '/mode')).body), { ours: true });
  assert.deepEqual(JSON.parse((await get(apps.nodeOptions.port, '/mode')).body), { ours: true });
});

for (const path of ['/react', '/proxy']) {
  test(`${path}: byte-identical output with and without the preload`, T, async () => {
    const native = await get(apps.native.port, path);
    assert.equal(native.ended, 'end');
    assert.ok(native.body.length > 1000, 'a real body');
    for (const mode of ['flag', 'nodeOptions']) {
      const patched = await get(apps[mode].port, path);
      assert.equal(patched.ended, 'end', mode);
      assert.equal(patched.status, native.status);
      assert.ok(patched.body.equals(native.body), `${mode}: same bytes`);
    }
  });
}

for (const path of ['/react-fail', '/proxy-fail']) {
  test(`${path}: an error mid-stream closes the connection the same way`, T, async () => {
    const native = await get(apps.native.port, path);
    assert.notEqual(native.ended, 'end', 'native closes the connection without a clean end');
    for (const mode of ['flag', 'nodeOptions']) {
      const patched = await get(apps[mode].port, path);
      assert.equal(patched.ended, native.ended, mode);
      assert.equal(patched.status, native.status, mode);
    }
    // The apps are still serving.
    assert.equal((await get(apps.flag.port, '/mode')).ended, 'end');
  });
}
