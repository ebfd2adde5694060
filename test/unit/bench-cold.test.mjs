// bench/run.mjs --cold: each child runs its scenario once, with no warm-up,
// and its figure is the bytes over the time since the process started (the
// preload's loading inside it): a child that warmed up, ran more than once or
// timed only its run fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byName } from '../../bench/scenarios/index.mjs';
import { IMPLS } from '../../bench/impls.mjs';
import { parseArgs, runChild } from '../../bench/run.mjs';

test('--cold is parsed, off by default', () => {
  assert.equal(parseArgs([]).cold, false);
  assert.equal(parseArgs(['--cold']).cold, true);
});

for (const clock of ['wall', 'cpu']) {
  test(`a cold child runs once and times from its start (${clock} clock)`, () => {
    const scenario = byName.get('3 transforms');
    assert.ok(scenario, 'the 3 transforms row exists');
    const env = { ...process.env, NODE_OPTIONS: '', BENCH_COLD: '1', BENCH_QUICK: '1', BENCH_CLOCK: clock,
      BENCH_CHUNK: '1024', BENCH_BYTES: String(1024 * 256) };
    delete env.FAST_WEBSTREAMS;
    for (const impl of ['native', 'fast']) {
      const r = runChild({ bin: process.execPath, impl, flags: IMPLS[impl].flags, scenario, env, timeoutMs: 60_000 });
      assert.equal(r.error, undefined, `${impl}: ${r.error}`);
      assert.equal(r.runs, 1, `${impl} ran the scenario once`);
      assert.equal(r.amount, 1024 * 256);
      // The figure is the bytes over the time since the process started: the
      // process's own clock for the whole of it.
      const since = clock === 'cpu' ? r.cpuSeconds : r.seconds;
      assert.ok(Math.abs(r.value - r.amount / since) / r.value < 0.05,
        `${impl}: ${r.value} B/s is not ${r.amount} B over the process's ${since} s`);
    }
  });
}

