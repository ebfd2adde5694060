// The crash that made codes matter: under the preload, aborting a fetch whose
// body is held by a reader must not kill the process (undici swallows only a
// cancel() rejection coded ERR_INVALID_STATE).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const fixture = join(here, 'fixtures', 'fetch-abort.mjs');

function run(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, timeout: 20_000, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => resolve({ code: error ? error.code ?? error.signal : 0, stdout, stderr }));
  });
}

test('native: an aborted fetch with a held body leaves the process alive', { timeout: 30_000 }, async () => {
  const r = await run([fixture]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /still alive/);
});

test('preload: an aborted fetch with a held body leaves the process alive', { timeout: 30_000 }, async () => {
  const r = await run(['--import', join(root, 'register.mjs'), fixture]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /still alive/);
});
