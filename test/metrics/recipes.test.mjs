// Each deployment recipe of docs/metrics.md, started for real with the preload
// in NODE_OPTIONS and FAST_WEBSTREAMS_METRICS_PORT set for every process:
// traffic is driven, and the one port must show non-zero counters of the
// processes that did the stream work (not of npm, a supervisor or a primary
// that made no stream), with no EADDRINUSE anywhere.
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

test('PM2-like fork: a supervisor that makes no stream leaves the port to its app', { timeout: 60000 }, async () => {
  const [appPort, metricsPort] = [await freePort(), await freePort()];
  const run = startRecipe([process.execPath, join(FIXTURES, 'supervisor.mjs')],
    recipeEnv({ PORT: String(appPort), FAST_WEBSTREAMS_METRICS_PORT: String(metricsPort) }));
  try {
    const [, supervisorPid] = await run.waitFor(/supervisor pid (\d+)/);
    const [, , appPid] = await run.waitFor(/listening (\d+) pid (\d+)/);
    await drive(`http://127.0.0.1:${appPort}/`, 20);
    const { samples } = await scrapeUntil(`http://127.0.0.1:${metricsPort}/metrics`,
      (s) => sample(s, 'fast_webstreams_readable_streams_created_total')?.value === 20);
    assert.equal(sample(samples, 'fast_webstreams_info').labels.pid, appPid, 'the app serves, not the supervisor');
    assert.notEqual(appPid, supervisorPid);
    assert.ok(hops(samples) > 0);
    assert.doesNotMatch(run.output(), /EADDRINUSE/);
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

test('npm start: npm itself never takes the port; the server it starts does', { timeout: 90000 }, async (t) => {
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
    assert.equal(sample(samples, 'fast_webstreams_info').labels.pid, appPid, 'the server serves, not npm');
    assert.notEqual(appPid, String(run.child.pid));
    assert.ok(hops(samples) > 0);
    assert.doesNotMatch(run.output(), /EADDRINUSE/);
  } finally {
    await run.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
