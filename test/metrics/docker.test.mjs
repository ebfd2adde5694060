// The Docker recipe without a Docker engine: docker/Dockerfile's ENV and CMD
// run here with the repository as /app (ports swapped for free ones, bound to
// 127.0.0.1); traffic on the example server, then non-zero counters of that
// server on the metrics port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, drive, freePort, sample, scrapeUntil, startRecipe } from './helpers.mjs';

/** ENV (key=value form) and the last CMD (exec form) of a Dockerfile. */
function envAndCmd(text) {
  const joined = text.replace(/\\\n/g, ' ').split('\n').filter((l) => !/^\s*#/.test(l));
  const env = {};
  let cmd;
  for (const line of joined) {
    const m = /^\s*(ENV|CMD)\s+(.*)$/.exec(line);
    if (!m) continue;
    if (m[1] === 'CMD') cmd = JSON.parse(m[2]);
    else for (const [, k, , q, bare] of m[2].matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("([^"]*)"|(\S*))/g)) env[k] = q ?? bare;
  }
  return { env, cmd };
}

test('docker/Dockerfile\'s command: the server serves its own counters on the metrics port', { timeout: 90000 }, async () => {
  const { env, cmd } = envAndCmd(readFileSync(join(ROOT, 'docker', 'Dockerfile'), 'utf8'));
  assert.equal(cmd[0], 'node');
  assert.match(env.NODE_OPTIONS, /--import fast-webstreams\/register/);
  const [appPort, metricsPort] = [await freePort(), await freePort()];
  const childEnv = { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(appPort), UPSTREAM_URL: 'http://127.0.0.1:9',
    FAST_WEBSTREAMS_METRICS_PORT: String(metricsPort), FAST_WEBSTREAMS_METRICS_HOST: '127.0.0.1' };
  const run = startRecipe([process.execPath, ...cmd.slice(1)], childEnv); // cwd: the repository, as WORKDIR /app
  try {
    await run.waitFor(new RegExp(`${appPort}`));
    await drive(`http://127.0.0.1:${appPort}/ssr`, 5, 2);
    await drive(`http://127.0.0.1:${appPort}/ndjson?rows=50`, 5, 2);
    const { samples } = await scrapeUntil(`http://127.0.0.1:${metricsPort}/metrics`,
      (s) => (sample(s, 'fast_webstreams_readable_streams_created_total')?.value ?? 0) > 0);
    assert.equal(sample(samples, 'fast_webstreams_info').labels.pid, String(run.child.pid));
    assert.equal(sample(samples, 'fast_webstreams_installed').value, 1);
    const hops = ['fused', 'sync', 'spec'].reduce((a, tier) => a + sample(samples, 'fast_webstreams_chunk_hops_total', { tier }).value, 0);
    assert.ok(hops > 0, 'chunks counted');
    assert.doesNotMatch(run.output(), /EADDRINUSE/);
  } finally {
    await run.stop();
  }
});
