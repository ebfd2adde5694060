// docker/Dockerfile without a Docker engine: read its ENV (NODE_OPTIONS and the
// metrics variables), CMD and HEALTHCHECK, run that same command here with the
// repository as /app (ports swapped for free ones), and check that the preload
// is active, the routes answer, /metrics answers, and the health probe passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOCKERFILE = join(ROOT, 'docker', 'Dockerfile');
const CHILD_TIMEOUT_MS = 60000;

/** Instructions of a Dockerfile: [{ op, args }] with continuation lines joined and comments dropped. */
export function parseDockerfile(text) {
  const out = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (current === '' && /^\s*#/.test(line)) continue;
    if (current !== '' && /^\s*#/.test(line)) continue; // comments inside a continuation
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    current += line;
    const m = /^\s*([A-Za-z]+)\s*(.*)$/.exec(current);
    if (m) out.push({ op: m[1].toUpperCase(), args: m[2].trim() });
    current = '';
  }
  return out;
}

/** `ENV a=1 b="two words"` -> { a: '1', b: 'two words' } (the key=value form only). */
export function parseEnv(args) {
  const env = {};
  const re = /([A-Za-z_][A-Za-z0-9_]*)=("((?:[^"\\]|\\.)*)"|'([^']*)'|(\S*))/g;
  let m;
  while ((m = re.exec(args)) !== null) {
    env[m[1]] = m[3] !== undefined ? m[3].replace(/\\(.)/g, '$1') : m[4] !== undefined ? m[4] : m[5];
  }
  return env;
}

function recipe() {
  const instructions = parseDockerfile(readFileSync(DOCKERFILE, 'utf8'));
  const env = {};
  for (const { op, args } of instructions) if (op === 'ENV') Object.assign(env, parseEnv(args));
  const last = (op) => instructions.filter((i) => i.op === op).at(-1);
  const cmd = JSON.parse(last('CMD').args);
  const hc = last('HEALTHCHECK').args;
  const hcCmd = JSON.parse(hc.slice(hc.indexOf('CMD') + 3).trim());
  return { instructions, env, cmd, hcCmd, workdir: last('WORKDIR').args, user: last('USER')?.args, from: last('FROM').args };
}

function start(argv, env) {
  const child = spawn(argv[0], argv.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d) => { stdout += d; });
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
  const killer = setTimeout(() => child.kill('SIGKILL'), CHILD_TIMEOUT_MS);
  const done = new Promise((resolve) => child.on('close', (code, signal) => {
    clearTimeout(killer);
    resolve({ code, signal, stdout, stderr });
  }));
  const waitFor = (which, re) => new Promise((resolve, reject) => {
    const check = () => {
      const m = re.exec(which === 'stdout' ? stdout : stderr);
      if (m) {
        child[which].off('data', check);
        resolve(m);
      }
    };
    child[which].on('data', check);
    done.then((r) => reject(new Error(`process exited (${r.code ?? r.signal}) before ${re}:\n${r.stdout}\n${r.stderr}`)));
    check();
  });
  return { child, done, waitFor, output: () => ({ stdout, stderr }) };
}

test('the Dockerfile is a production recipe', () => {
  const r = recipe();
  assert.match(r.from, /^node:\d*[02468]-slim$/, 'an official node LTS (even major) slim image');
  assert.ok(r.instructions.some((i) => i.op === 'RUN' && /npm ci --omit=dev/.test(i.args)), 'npm ci --omit=dev');
  assert.ok(r.user && r.user !== 'root' && r.user !== '0', 'runs as a non-root user');
  assert.match(r.env.NODE_OPTIONS, /(^|\s)--import fast-webstreams\/register(\s|$)/);
  assert.match(r.env.FAST_WEBSTREAMS_METRICS_PORT, /^\d+$/);
  assert.equal(r.hcCmd.includes('curl'), false, 'slim images have no curl');
  assert.ok(r.hcCmd.includes('node'), 'the health check uses node');
  for (const { op, args } of r.instructions) {
    if (op !== 'COPY' || args.startsWith('--from')) continue;
    const sources = args.split(/\s+/).filter((a) => !a.startsWith('--')).slice(0, -1);
    for (const src of sources) assert.ok(existsSync(join(ROOT, src)), `COPY source ${src} exists`);
  }
  for (const ignored of ['node_modules', '.git']) {
    assert.match(readFileSync(join(ROOT, '.dockerignore'), 'utf8'), new RegExp(`^(\\*\\*/)?${ignored.replace('.', '\\.')}$`, 'm'));
  }
});

test('the Dockerfile command runs outside Docker with the patch active and /metrics answering', { timeout: 120000 }, async (t) => {
  const r = recipe();
  assert.equal(r.workdir, '/app', 'this test maps WORKDIR /app to the repository root');
  const base = { ...process.env };
  for (const key of Object.keys(base)) if (key.startsWith('FAST_WEBSTREAMS')) delete base[key];
  delete base.NODE_OPTIONS;

  const upstream = start([process.execPath, 'examples/server/upstream.mjs'], { ...base, PORT: '0', HOST: '127.0.0.1' });
  t.after(() => upstream.child.kill('SIGKILL'));
  const [, upstreamUrl] = await upstream.waitFor('stdout', /listening on (http:\/\/\S+)/);

  // The image's environment, with free ports and loopback addresses for this machine.
  const env = { ...base, ...r.env, PORT: '0', HOST: '127.0.0.1', UPSTREAM_URL: upstreamUrl,
    FAST_WEBSTREAMS_METRICS_PORT: '0', FAST_WEBSTREAMS_METRICS_HOST: '127.0.0.1' };
  const argv = r.cmd[0] === 'node' ? [process.execPath, ...r.cmd.slice(1)] : r.cmd;
  const server = start(argv, env);
  t.after(() => server.child.kill('SIGKILL'));
  const [, appUrl] = await server.waitFor('stdout', /listening on (http:\/\/\S+)/);

  const health = await (await fetch(`${appUrl}/health`)).json();
  assert.equal(health.webStreams, 'fast-webstreams', 'the preload from NODE_OPTIONS replaced the globals');

  const ssr = await fetch(`${appUrl}/ssr`);
  assert.equal(ssr.status, 200);
  assert.match(await ssr.text(), /<script>window\.__DATA__=.*<\/script><\/body><\/html>$/s);
  const proxy = await fetch(`${appUrl}/proxy?kb=32`);
  assert.equal(proxy.status, 200);
  const proxied = await proxy.text();
  assert.equal(proxied.length, 32 * 1024);
  assert.equal(proxied.includes('sk_live_'), false, 'the mask transform ran');
  const forward = await fetch(`${appUrl}/forward?rows=10`);
  assert.equal(forward.status, 200);
  assert.match(await forward.text(), /<\/table>\n$/);
  const ndjson = await (await fetch(`${appUrl}/ndjson?rows=120`)).text();
  assert.equal(ndjson.trim().split('\n').length, 120);

  // The port is bound by the process once it has streamed (src/metrics/port.js).
  const [, metricsUrl] = await server.waitFor('stderr', /Prometheus metrics at (http:\/\/\S+\/metrics)/);
  const metrics = await fetch(metricsUrl);
  assert.equal(metrics.status, 200);
  const text = await metrics.text();
  assert.match(text, /^fast_webstreams_installed 1$/m);
  const created = Number(/^fast_webstreams_readable_streams_created_total (\d+)$/m.exec(text)?.[1]);
  assert.ok(created >= 4, `our ReadableStreams were created by the routes (counter: ${created})`);

  // The HEALTHCHECK command, as Docker would run it inside the container.
  const hcArgv = r.hcCmd.map((a) => (a === 'node' ? process.execPath : a));
  const probe = start(hcArgv, { ...env, PORT: new URL(appUrl).port });
  const probed = await probe.done;
  assert.equal(probed.code, 0, `health check failed: ${probed.stderr}`);
  assert.equal(probed.stderr, '', 'the probe does not load the preload or bind the metrics port');

  // docker stop: SIGTERM, a clean exit and the exit summary the image asks for.
  server.child.kill('SIGTERM');
  const end = await server.done;
  assert.equal(end.code, 0, end.stderr);
  assert.match(end.stderr, /^fast-webstreams: streams created \d+/m);
});
