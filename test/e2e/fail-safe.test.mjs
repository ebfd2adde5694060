// Every recognition of Node's or undici's internals fails safe (issue 34):
// where it does not find what it expects, that piece stays Node's (slower,
// never broken) and NODE_DEBUG says so. Each check is fed here what it has
// never seen: a stream made by "Node's" code (a file named node:...) from a
// source shaped as no undici shaped one, under a function name undici never
// used; a call stack that cannot be read; a global Request another library
// replaced, so that undici cannot be watched making a body.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { T, ROOT, cleanEnv } from './helpers.mjs';

const FIX = join(ROOT, 'test', 'e2e', 'fixtures', 'order');
const FETCH_FIRST = ['--import', join(FIX, 'fetch-first.mjs')];
const OURS = ['--import', 'fast-webstreams/register'];
const SCRIPT = join(FIX, 'fail-safe.mjs');

function run(args, scriptArgs = [], extraEnv = {}) {
  const r = spawnSync(process.execPath, [...args, SCRIPT, ...scriptArgs],
    { cwd: ROOT, env: cleanEnv({ NODE_DEBUG: 'fast-webstreams', ...extraEnv }), encoding: 'utf8', timeout: 20000 });
  assert.equal(r.status, 0, `child failed (${r.status ?? r.signal}): ${r.stderr}`);
  return { result: JSON.parse(r.stdout.trim().split('\n').pop()), stderr: r.stderr };
}

/** Whether this Node's undici, loaded first, tees with Node's ReadableStreamTee: the debug line says. */
const teesNatively = (stderr) => stderr.includes("undici holds Node's ReadableStreamTee");

test('natively, for reference: every stream Node\'s, the redirect works', T, () => {
  const { result } = run(FETCH_FIRST);
  assert.deepEqual(result, {
    futureUndiciIsNodes: true, responseBodyIsNodes: true, appByteStreamIsNodes: true, appStreamIsNodes: true,
    redirect: 'echo:j',
  });
});

test('a stream of a shape and caller undici never had is Node\'s; the application\'s stay ours', T, () => {
  const { result, stderr } = run([...FETCH_FIRST, ...OURS]);
  const tee = teesNatively(stderr);
  assert.deepEqual(result, {
    // Only where undici tees with Node's tee does a stream of Node's code have to be Node's.
    futureUndiciIsNodes: tee, responseBodyIsNodes: false, appByteStreamIsNodes: false, appStreamIsNodes: false,
    redirect: 'echo:j',
  }, stderr);
  if (tee) assert.match(stderr, /a stream Node's own code makes from a byte source is Node's/);
});

test('with no call stack to read, a byte stream is Node\'s and the redirect still works', T, () => {
  const { result, stderr } = run([...FETCH_FIRST, ...OURS], ['frozen-stack']);
  const tee = teesNatively(stderr);
  assert.deepEqual(result, {
    futureUndiciIsNodes: tee, responseBodyIsNodes: tee, appByteStreamIsNodes: tee, appStreamIsNodes: false,
    redirect: 'echo:j',
  }, stderr);
});

test('where undici cannot be watched making a body, the global ReadableStream stays Node\'s', T, () => {
  // A preload after fetch-first that replaced the global Request with a class that makes no body.
  const { result, stderr } = run([...FETCH_FIRST, '--import', join(FIX, 'replace-request.mjs'), ...OURS]);
  const tee = teesNatively(stderr);
  assert.deepEqual(result, {
    futureUndiciIsNodes: tee, responseBodyIsNodes: tee, appByteStreamIsNodes: tee, appStreamIsNodes: tee,
    redirect: 'echo:j',
  }, stderr);
  if (tee) assert.match(stderr, /the global ReadableStream is left Node's/);
});
