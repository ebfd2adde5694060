// FAST_WEBSTREAMS_FAST_PATHS=0: every stream on the spec path (src/tiers.js,
// src/fast/plug.js). The same program, under the preload with and without the
// fast paths, gives the same results; without them no fused or sync hop is
// counted, and every pipe's chunk is a spec hop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ROOT, cleanEnv } from './helpers.mjs';

// A fused chain into an async sink, a reader of queued chunks, an async
// iterator over a chain, a pipe that a sink error stops, tee, and from().
const PROGRAM = `
  const { getCounters } = await import('fast-webstreams');
  const out = [];
  const bytes = (n) => new ReadableStream({ start(c) { for (let i = 0; i < n; i++) c.enqueue(new Uint8Array([i])); c.close(); } });
  const upper = () => new TransformStream({ transform(c, ctl) { ctl.enqueue(c.map((x) => x + 1)); } });
  let sum = 0;
  await bytes(50).pipeThrough(upper()).pipeThrough(upper()).pipeTo(new WritableStream({ async write(c) { sum += c[0]; } }));
  out.push(sum);
  const reader = bytes(3).getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(r.value[0]);
  for await (const c of bytes(4).pipeThrough(upper())) out.push(c[0]);
  const failed = await bytes(10).pipeTo(new WritableStream({ write(c) { if (c[0] === 5) throw new Error('sink ' + c[0]); } }))
    .then(() => 'resolved', (e) => e.message);
  out.push(failed);
  const [a, b] = bytes(3).tee();
  out.push((await a.getReader().read()).value[0], (await b.getReader().read()).value[0]);
  for await (const x of ReadableStream.from(['x', 'y']).pipeThrough(new TransformStream())) out.push(x);
  const c = getCounters();
  console.log(JSON.stringify({ out, fast: c.fusedChunks + c.syncReads + c.syncWrites + c.syncPipeChunks + c.fusedChains,
    spec: c.specPipeChunks }));
`;

function run(env) {
  const r = spawnSync(process.execPath, ['--import', './register.mjs', '--input-type=module', '-e', PROGRAM],
    { cwd: ROOT, env: { ...cleanEnv(), ...env }, encoding: 'utf8', timeout: 30000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout.trim().split('\\n').pop());
}

test('FAST_WEBSTREAMS_FAST_PATHS=0: the same results, every hop on the spec path', () => {
  const fast = run({});
  const spec = run({ FAST_WEBSTREAMS_FAST_PATHS: '0' });
  assert.deepEqual(spec.out, fast.out);
  assert.ok(fast.fast > 0, 'the fast paths ran with the switch unset');
  assert.equal(spec.fast, 0, 'no fused or sync hop with the switch off');
  assert.ok(spec.spec > fast.spec, 'the pipes ran on the spec path');
});

test('FAST_WEBSTREAMS_FAST_PATHS: no warning for its words, a warning for another', () => {
  for (const [value, warns] of [['0', false], ['off', false], ['1', false], ['fast', true]]) {
    const r = spawnSync(process.execPath, ['--import', './register.mjs', '-e', 'void ReadableStream'],
      { cwd: ROOT, env: { ...cleanEnv(), FAST_WEBSTREAMS_FAST_PATHS: value }, encoding: 'utf8', timeout: 20000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(/FAST_WEBSTREAMS_FAST_PATHS/.test(r.stderr), warns, `${value}: ${r.stderr}`);
  }
});

test('FAST_WEBSTREAMS_FAST_PATHS=0 says so: NODE_DEBUG, the exit verdict, fast_webstreams_info', () => {
  const code = `
    const { renderMetrics } = await import('fast-webstreams');
    await new ReadableStream({ start(c) { c.enqueue(1); c.close(); } }).pipeTo(new WritableStream());
    console.log((await renderMetrics()).split('\\n').find((l) => l.startsWith('fast_webstreams_info')));`;
  const r = spawnSync(process.execPath, ['--import', './register.mjs', '--input-type=module', '-e', code], {
    cwd: ROOT, encoding: 'utf8', timeout: 30000,
    env: { ...cleanEnv(), FAST_WEBSTREAMS_FAST_PATHS: '0', FAST_WEBSTREAMS_METRICS_SUMMARY: '1', NODE_DEBUG: 'fast-webstreams' },
  });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /fast_paths="off"/);
  assert.match(r.stderr, /fast paths off \(FAST_WEBSTREAMS_FAST_PATHS=0\): every stream on the spec path/);
  assert.match(r.stderr, /verdict: the fast paths are switched off \(FAST_WEBSTREAMS_FAST_PATHS=0\)/);
});
