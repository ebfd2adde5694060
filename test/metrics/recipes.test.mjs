// Each deployment recipe of docs/metrics.md, started for real with the preload
// in NODE_OPTIONS and FAST_WEBSTREAMS_METRICS_PORT set for every process:
// traffic is driven, and the one port must show non-zero counters of the
// processes that did the stream work, by their pid (npm, a supervisor or a
// cluster primary holds the port from its start and serves them), with no
// EADDRINUSE anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { FIXTURES, drive, freePort, recipeEnv, sample, scrapeUntil, startRecipe } from './helpers.mjs';

const hops = (samples, labels = {}) => ['fused', 'sync', 'spec']
  .reduce((sum, tier) => sum + (sample(samples, 'fast_webstreams_chunk_hops_total', { ...labels, tier })?.value ?? 0), 0);

test('node:cluster with 3 workers: the primary serves every worker\'s counters, summed and per worker', { timeout: 90000 }, async () => {
  const [appPort, metricsPort] = [await freePort(), await freePort()];
  const run = startRecipe([process.execPath, join(FIXTURES, 'cluster-app.mjs')],
    recipeEnv({ PORT: String(appPort), WORKERS: '3', FAST_WEBSTREAMS_METRICS_PORT: String(metricsPort) }));
  try {
    await run.waitFor(/workers online 3/);
    const bodies = await drive(`http://127.0.0.1:${appPort}/`, 60);
    const workerPids = new Set(bodies.map((b) => b.split(' ')[0]));
    assert.equal(workerPids.size, 3, 'round-robin reached every worker');
    const { samples, text } = await scrapeUntil(`http://127.0.0.1:${metricsPort}/metrics`, (s) =>
      sample(s, 'fast_webstreams_cluster_workers')?.value === 3 &&
      sample(s, 'fast_webstreams_readable_streams_created_total')?.value === 60);
    assert.equal(sample(samples, 'fast_webstreams_info').labels.pid, String(run.child.pid), 'the primary serves');
    assert.equal(sample(samples, 'fast_webstreams_transform_streams_created_total').value, 60);
    const perWorker = samples.filter((s) => s.name === 'fast_webstreams_worker_streams_created_total');
    assert.deepEqual(new Set(perWorker.map((s) => s.labels.pid)), workerPids);
    let sumOfWorkers = 0;
    for (const s of perWorker) {
      assert.ok(s.value > 0, `worker ${s.labels.pid} counted its streams`);
      for (const tier of ['fused', 'sync', 'spec']) {
        sumOfWorkers += sample(samples, 'fast_webstreams_worker_chunk_hops_total', { pid: s.labels.pid, tier }).value;
      }
    }
    assert.ok(hops(samples) > 0);
    assert.equal(hops(samples), sumOfWorkers, 'the total is the workers\' sum (the primary made no stream)');
    assert.ok(sample(samples, 'fast_webstreams_fast_share').value > 0);
    assert.doesNotMatch(run.output(), /EADDRINUSE/);
    assert.equal(run.output().match(/Prometheus metrics at/g)?.length, 1, 'one process bound the port');
    if (process.env.SHOW_SCRAPE) console.log(text);
  } finally {
    await run.stop();
  }
});

test('PM2-like fork: the supervisor serves from its start, its app reports to it, across a restart', { timeout: 60000 }, async () => {
  const [appPort, metricsPort] = [await freePort(), await freePort()];
  const run = startRecipe([process.execPath, join(FIXTURES, 'supervisor.mjs')],
    recipeEnv({ PORT: String(appPort), FAST_WEBSTREAMS_METRICS_PORT: String(metricsPort) }));
  try {
    const [, supervisorPid] = await run.waitFor(/supervisor pid (\d+)/);
    // Up before any stream: a scrape right after a deploy finds the target.
    const early = await scrapeUntil(`http://127.0.0.1:${metricsPort}/metrics`, (s) => sample(s, 'fast_webstreams_info') !== undefined);
    assert.equal(sample(early.samples, 'fast_webstreams_info').labels.pid, supervisorPid, 'the supervisor holds the port');
    const [, , appPid] = await run.waitFor(/listening (\d+) pid (\d+)/);
    await drive(`http://127.0.0.1:${appPort}/`, 20);
    const { samples } = await scrapeUntil(`http://127.0.0.1:${metricsPort}/metrics`,
      (s) => sample(s, 'fast_webstreams_readable_streams_created_total')?.value === 20);
    // 20 requests, a ReadableStream and a TransformStream each.
    assert.equal(sample(samples, 'fast_webstreams_worker_streams_created_total', { worker: 'child', pid: appPid }).value, 40);
    assert.equal(sample(samples, 'fast_webstreams_child_processes').value, 1);
    assert.equal(sample(samples, 'fast_webstreams_cluster_workers'), undefined, 'not a cluster');
    assert.notEqual(appPid, supervisorPid);
    assert.ok(hops(samples) > 0);
    // The app dies and is restarted: the sums keep what the first one counted.
    process.kill(Number(appPid), 'SIGKILL');
    const [, , secondPid] = await run.waitFor(new RegExp(`listening (\\d+) pid (?!${appPid}\\b)(\\d+)`));
    await drive(`http://127.0.0.1:${appPort}/`, 10);
    const after = await scrapeUntil(`http://127.0.0.1:${metricsPort}/metrics`,
      (s) => sample(s, 'fast_webstreams_readable_streams_created_total')?.value === 30);
    assert.equal(sample(after.samples, 'fast_webstreams_worker_streams_created_total', { pid: secondPid }).value, 20);
    assert.doesNotMatch(run.output(), /EADDRINUSE|FastWebstreamsWarning/);
  } finally {
    await run.stop();
  }
});

function findNpmCli() {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const bin = join(dir, 'npm');
    if (!existsSync(bin)) continue;
    const cli = join(dirname(realpathSync(bin)), 'npm-cli.js');
    if (existsSync(cli)) return cli;
  }
  return undefined;
}

test('npm start: npm holds the port from its start; the server it starts reports to it', { timeout: 90000 }, async (t) => {
  const npmCli = findNpmCli();
  if (npmCli === undefined) return t.skip('no npm on PATH');
  const dir = mkdtempSync(join(tmpdir(), 'fws-npm-start-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module', scripts: { start: 'node server.mjs' } }));
  writeFileSync(join(dir, 'server.mjs'), `import { startServer } from ${JSON.stringify(join(FIXTURES, 'stream-server.mjs'))};\nstartServer();\n`);
  const [appPort, metricsPort] = [await freePort(), await freePort()];
  // npm runs on this Node, and so does the `node` of the start script.
  const env = recipeEnv({ PORT: String(appPort), FAST_WEBSTREAMS_METRICS_PORT: String(metricsPort),
    PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH}`, npm_config_update_notifier: 'false' });
  const run = startRecipe([process.execPath, npmCli, 'start', '--silent'], env, { cwd: dir });
  try {
    const [, , appPid] = await run.waitFor(/listening (\d+) pid (\d+)/);
    await drive(`http://127.0.0.1:${appPort}/`, 20);
    const { samples } = await scrapeUntil(`http://127.0.0.1:${metricsPort}/metrics`,
      (s) => sample(s, 'fast_webstreams_readable_streams_created_total')?.value === 20);
    assert.equal(sample(samples, 'fast_webstreams_info').labels.pid, String(run.child.pid), 'npm holds the port');
    assert.equal(sample(samples, 'fast_webstreams_worker_streams_created_total', { worker: 'child', pid: appPid }).value, 40,
      'the server\'s own counters (a ReadableStream and a TransformStream per request), by its pid');
    assert.ok(hops(samples) > 0);
    assert.doesNotMatch(run.output(), /EADDRINUSE|FastWebstreamsWarning/);
  } finally {
    await run.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
