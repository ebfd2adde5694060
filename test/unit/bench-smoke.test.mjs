// The benchmark suite's smoke run: every scenario once per implementation
// (bench/child.mjs with BENCH_SMOKE=1: no warm-up, no timing), in fresh
// processes started exactly as `npm run bench` starts them, on this Node. A
// scenario that throws, stalls or moves other than the bytes it was given
// fails here (child.mjs checks the total). No figure is asserted: speed is
// for `npm run bench`. The peer (experimental-fast-webstreams) is left out:
// its known failures are documented in docs/benchmarks.md, not ours to gate.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scenarios } from '../../bench/scenarios/index.mjs';
import { IMPLS, runsScenario } from '../../bench/impls.mjs';
import { runChild, startServer } from '../../bench/run.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const IMPL_KEYS = ['native', 'fast', 'fast-nocodecs', 'node-stream'];
// The rows of real chains (codecs, Node's adapters) also run with 64 KB chunks.
const BIG_CHUNK_ROWS = scenarios.filter((s) => s.codecs || /fromWeb|toWeb|pipeline\(|Response\(chain\)/.test(s.name));

function envFor(chunk, url) {
  const env = { ...process.env, NODE_OPTIONS: '', BENCH_SMOKE: '1', BENCH_QUICK: '1', BENCH_CHUNK: String(chunk), BENCH_BYTES: String(chunk * 64), BENCH_URL: url };
  delete env.FAST_WEBSTREAMS;
  delete env.FAST_WEBSTREAMS_CODECS;
  return env;
}

function smoke(t, list, chunk, url) {
  for (const scenario of list) {
    for (const impl of IMPL_KEYS.filter((k) => runsScenario(k, scenario))) {
      const r = runChild({ bin: process.execPath, impl, flags: IMPLS[impl].flags, scenario, env: envFor(chunk, url), timeoutMs: 30_000 });
      assert.equal(r.error, undefined, `${scenario.name} (${impl}, ${chunk} B chunks): ${r.error}`);
      assert.ok(r.value > 0, `${scenario.name} (${impl}): no value`);
    }
  }
}

test('bench scenarios run and move exactly their bytes', { timeout: 600_000 }, async (t) => {
  const server = await startServer(process.execPath);
  t.after(() => server.child.kill('SIGTERM'));
  await t.test('every scenario, 1 KB chunks', () => smoke(t, scenarios, 1024, server.url));
  await t.test('real chains, 64 KB chunks', () => smoke(t, BIG_CHUNK_ROWS, 65536, server.url));
});

test('fast-nocodecs runs only the scenarios through a codec class', () => {
  const codecRows = scenarios.filter((s) => runsScenario('fast-nocodecs', s)).map((s) => s.name);
  assert.deepEqual(codecRows, ['SSE: fetch -> TextDecoderStream', 'gzip round trip', 'TextEncoderStream',
    'token chain: decode -> SSE -> JSON -> encode']);
});

// The two columns must differ in exactly this: fast has our codec classes in
// the globals, fast-nocodecs keeps Node's.
test('fast installs our codecs, fast-nocodecs keeps Node\'s', () => {
  const probe = "const lib = await import('fast-webstreams'); " +
    "console.log(['TextDecoderStream', 'TextEncoderStream', 'CompressionStream', 'DecompressionStream'].map((n) => globalThis[n] === lib[n]).join())";
  for (const [impl, expected] of [['fast', 'true,true,true,true'], ['fast-nocodecs', 'false,false,false,false']]) {
    const env = { ...envFor(1024, ''), ...IMPLS[impl].env };
    const r = spawnSync(process.execPath, [...IMPLS[impl].flags, '--input-type=module', '-e', probe], { cwd: root, encoding: 'utf8', env });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), expected, impl);
  }
});
