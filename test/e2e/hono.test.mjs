// @hono/node-server replaces globalThis.Response with its own class, whose
// accessors cannot be redefined. The preload must leave that class alone and
// answer as natively: the first proxying request used to answer 500
// ("Cannot redefine property: body", thrown into the app's fetch()).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { T, ROOT, cleanEnv } from './helpers.mjs';

const APP = join(ROOT, 'test', 'e2e', 'fixtures', 'hono', 'proxy.mjs');
const FETCH_FIRST = ['--import', join(ROOT, 'test', 'e2e', 'fixtures', 'order', 'fetch-first.mjs')];
const OURS = ['--import', 'fast-webstreams/register'];

function run(args) {
  const r = spawnSync(process.execPath, [...args, APP], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 0, `child failed (${r.status ?? r.signal}): ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /Error|Warning/, r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const EXPECTED = ['200 upstream:/a', '200 upstream:/a', '200 upstream:/b', '200 plain'];

test('natively, for reference', T, () => {
  assert.deepEqual(run([]), EXPECTED);
});

test('under the preload, as natively', T, () => {
  assert.deepEqual(run(OURS), EXPECTED);
});

test('under the preload after one that used fetch() first', T, () => {
  assert.deepEqual(run([...FETCH_FIRST, ...OURS]), EXPECTED);
});
