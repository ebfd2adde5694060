// Shared by the recipe tests: start a recipe with the preload in NODE_OPTIONS,
// wait for lines, drive HTTP traffic, scrape and parse /metrics.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const FIXTURES = join(ROOT, 'test', 'metrics', 'fixtures');
export const REGISTER_URL = pathToFileURL(join(ROOT, 'register.mjs')).href;
const CHILD_TIMEOUT_MS = 60000;

/** A port free right now on 127.0.0.1. */
export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The environment of a recipe: ours cleared, the preload in NODE_OPTIONS, `extra` on top. */
export function recipeEnv(extra) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('FAST_WEBSTREAMS')) delete env[key];
  return { ...env, NODE_OPTIONS: `--import=${REGISTER_URL}`, ...extra };
}

/** Spawns a recipe; `waitFor(regex)` resolves to the first matching line of stdout+stderr. */
export function startRecipe(argv, env, options = {}) {
  // Its own process group, so that stop() also ends what it started (npm's server, workers).
  const child = spawn(argv[0], argv.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...options });
  const killGroup = (signal) => {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // the group is gone already
    }
  };
  let output = '';
  const waiters = [];
  const onData = (data) => {
    output += data;
    for (const w of [...waiters]) {
      const m = w.re.exec(output);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  };
  child.stdout.setEncoding('utf8').on('data', onData);
  child.stderr.setEncoding('utf8').on('data', onData);
  const killer = setTimeout(() => killGroup('SIGKILL'), CHILD_TIMEOUT_MS);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => {
    clearTimeout(killer);
    for (const w of waiters) w.reject(new Error(`recipe exited (${code ?? signal}) before ${w.re}:\n${output}`));
    resolve({ code, signal });
  }));
  return {
    child,
    exited,
    output: () => output,
    waitFor(re) {
      const m = re.exec(output);
      if (m) return Promise.resolve(m);
      return new Promise((resolve, reject) => waiters.push({ re, resolve, reject }));
    },
    async stop() {
      killGroup('SIGTERM');
      const t = setTimeout(() => killGroup('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
      killGroup('SIGKILL'); // anything of the group still alive
    },
  };
}

/** `count` GET requests to `url`, `concurrency` at a time; returns the bodies. */
export async function drive(url, count, concurrency = 4) {
  const bodies = [];
  let next = 0;
  const one = async () => {
    while (next < count) {
      next++;
      const res = await fetch(url);
      bodies.push(await res.text());
    }
  };
  await Promise.all(Array.from({ length: concurrency }, one));
  return bodies;
}

/** Prometheus text -> [{ name, labels, value }]. */
export function parseMetrics(text) {
  const out = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`bad sample line: ${line}`);
    const labels = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-z_]+)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

export const sample = (samples, name, labels = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

/** Scrapes until `ok(samples)` holds (the workers report once a second), or throws after `ms`. */
export async function scrapeUntil(url, ok, ms = 10000) {
  const deadline = Date.now() + ms;
  let last = '';
  for (;;) {
    try {
      last = await (await fetch(url)).text();
      const samples = parseMetrics(last);
      if (ok(samples)) return { text: last, samples };
    } catch (err) {
      last = String(err);
    }
    if (Date.now() > deadline) throw new Error(`metrics never matched; last scrape:\n${last}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
