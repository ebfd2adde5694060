// undici decides on message text: its readableStreamClose swallows a close()
// error only when the message says the stream or controller is already closed.
// Under the preload undici's bodies are our streams, so our message must say
// it as native's does, or the program below dies of an uncaught TypeError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const fixture = join(here, 'fixtures', 'undici-close.mjs');

function run(args) {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd: root, timeout: 20_000, env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => resolve({ code: error ? error.code ?? error.signal : 0, stdout, stderr }));
  });
}

const register = join(root, 'register.mjs');
const runs = [['native', [fixture]], ['preload', ['--import', register, fixture]]];
// After a preload that used fetch() first (undici then holds Node's classes: docs/interop.md, "Preload order").
const fetchFirst = join(root, 'test', 'e2e', 'fixtures', 'order', 'fetch-first.mjs');
if (Number(process.versions.node.split('.')[0]) >= 24) {
  runs.push(['fetch() first, then the preload', ['--import', fetchFirst, '--import', register, fixture]]);
}

for (const [label, args] of runs) {
  test(`${label}: cancelling a string body in its first read's reaction leaves the process alive`, { timeout: 30_000 },
    async () => {
      const r = await run(args);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /read 13 bytes\nread 12 bytes\nstill alive/);
    });
}
