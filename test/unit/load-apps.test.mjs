// npm run load -- --apps=...: the options, the app definitions (bench/load/apps.mjs)
// against the sources and lock files in the repository, how each child is
// started, the LLM mock's stream, and the on-demand install cache. The real
// install and run of the framework apps is not here (minutes, and the
// registry): docs/load.md gives the command.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_ROUTES, APPS, BACKENDS, LLM_TOKENS, SERVERS } from '../../bench/load/apps.mjs';
import { prepareApp } from '../../bench/load/app-cache.mjs';
import { parseArgs, parseCrashHook } from '../../bench/load/options.mjs';
import { childSpec, neededBy, roleName, routeRoles, stepUses } from '../../bench/load/roles.mjs';
import { bodyDifference } from '../../bench/load/verdict.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

test('options: --apps picks route groups, --routes alone picks its apps, both must agree', () => {
  const byDefault = parseArgs([], '/tmp');
  assert.deepEqual(byDefault.apps, ['example']);
  assert.deepEqual(byDefault.routes, ['ssr', 'proxy', 'forward', 'ndjson', 'sse']);
  const apps = parseArgs(['--apps=next,hono,ai', '--quick'], '/tmp');
  assert.deepEqual(apps.apps, ['next', 'hono', 'ai']);
  assert.deepEqual(apps.routes, [...Object.keys(APPS.next.routes), ...Object.keys(APPS.hono.routes), ...Object.keys(APPS.ai.routes)]);
  assert.equal(apps.rounds, 2);
  assert.deepEqual(parseArgs(['--apps=example,hono,hono'], '/tmp').apps, ['example', 'hono']);
  assert.deepEqual(parseArgs(['--routes=ai-chat,next-page'], '/tmp').apps, ['ai', 'next']);
  assert.deepEqual(parseArgs(['--apps=ai', '--routes=ai-chain'], '/tmp').routes, ['ai-chain']);
  assert.throws(() => parseArgs(['--apps=hono', '--routes=ai-chat'], '/tmp'), /route ai-chat is in app ai, not in --apps=hono/);
  assert.throws(() => parseArgs(['--apps=express'], '/tmp'), /unknown app express \(known: example, next, hono, ai\)/);
  assert.throws(() => parseArgs(['--apps='], '/tmp'), /--apps needs at least one app/);
  assert.deepEqual(parseCrashHook('llm:/v1/responses:3:signal'), { role: 'llm', path: '/v1/responses', after: 3, how: 'signal' });
});

test('app definitions: every route is served by a known server and calls known backends, names unique', () => {
  const total = Object.values(APPS).reduce((n, app) => n + Object.keys(app.routes).length, 0);
  assert.equal(Object.keys(ALL_ROUTES).length, total, 'a route name is used by two apps');
  for (const [name, route] of Object.entries(ALL_ROUTES)) {
    assert.ok(SERVERS[route.server], `${name}: server ${route.server}`);
    assert.match(route.path, /^\//, name);
    assert.equal(typeof route.label, 'string', name);
    for (const b of route.backends) assert.ok(BACKENDS[b], `${name}: backend ${b}`);
    if (route.method === 'POST') assert.doesNotThrow(() => JSON.parse(route.body), name);
    if (route.tokens) assert.equal(route.tokens, LLM_TOKENS, name);
  }
  for (const backend of Object.values(BACKENDS)) assert.ok(existsSync(join(ROOT, backend.script)), backend.script);
  assert.deepEqual(neededBy(['ai-chat', 'next-proxy', 'hono-stream']), { servers: ['next', 'hono'], backends: ['upstream', 'llm'] });
});

test('app definitions: each framework app has its sources, an exact pin per dependency and a lock file that matches', () => {
  for (const [name, server] of Object.entries(SERVERS).filter(([, s]) => s.source)) {
    const dir = join(ROOT, server.source);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    assert.equal(lock.lockfileVersion, 3, name);
    assert.deepEqual(lock.packages[''].dependencies, pkg.dependencies, `${name}: lock file out of date (npm install --package-lock-only)`);
    for (const [dep, version] of Object.entries(pkg.dependencies)) {
      assert.match(version, /^\d+\.\d+\.\d+$/, `${name}: ${dep} pinned exactly`);
      assert.equal(lock.packages[`node_modules/${dep}`]?.version, version, `${name}: ${dep} in the lock file`);
    }
    // The script a server is started with is in its sources (or, for next, is its dependency's binary).
    const [script] = server.argv(1234);
    assert.ok(script.startsWith('node_modules/') ? pkg.dependencies[script.split('/')[1]] : existsSync(join(dir, script)), `${name}: ${script}`);
  }
  // Each route of an app has its handler in the sources.
  const next = join(ROOT, SERVERS.next.source, 'app');
  for (const route of Object.values(ALL_ROUTES).filter((r) => r.server === 'next')) {
    const file = route.path === '/' ? join(next, 'page.jsx') : join(next, route.path, 'route.js');
    assert.ok(existsSync(file), `${route.path}: ${file}`);
    if (route.method === 'POST') assert.match(readFileSync(file, 'utf8'), /export async function POST/, file);
  }
  const hono = readFileSync(join(ROOT, SERVERS.hono.source, 'server.mjs'), 'utf8');
  for (const route of Object.values(ALL_ROUTES).filter((r) => r.server === 'hono')) assert.ok(hono.includes(`app.get('${route.path}'`), route.path);
});

test('route checks: a short answer or an error part fails the start-up check', () => {
  const ui = (n) => `data: {"type":"start"}\n\n${'data: {"type":"text-delta","id":"0","delta":"x"}\n\n'.repeat(n)}data: [DONE]\n\n`;
  const check = ALL_ROUTES['ai-chat'].check;
  assert.equal(check(ui(LLM_TOKENS)), null);
  assert.match(check(ui(LLM_TOKENS - 1)), /999 text-delta parts, expected 1000/);
  assert.match(check(`${ui(LLM_TOKENS)}data: {"type":"error","errorText":"boom"}\n\n`), /an error part/);
  assert.equal(ALL_ROUTES['next-stream'].check('a\n'.repeat(200)), null);
  assert.match(ALL_ROUTES['hono-stream'].check('a\n'.repeat(20)), /20 lines, expected 200/);
  assert.match(ALL_ROUTES['next-proxy'].check('x'), /1 bytes, expected 65536/);
  // A fast server's body unlike the native one's is shown where it starts to differ.
  const diff = bodyDifference(Buffer.from('0123456789abc'), Buffer.from('0123456789aXc!'));
  assert.match(diff, /^a body unlike native's \(14 bytes, native 13; first difference at byte 11: "0123456789aXc!", native "0123456789abc"\)$/);
});

test('roles: how each child is started', () => {
  const base = { root: ROOT, nodeBin: '/bin/node', env: { A: '1' }, codecs: true, port: 0, urls: { upstream: 'http://u', llm: 'http://l' },
    appDirs: { next: '/cache/next', hono: '/cache/hono' }, crash: null };
  const example = childSpec('fast', base);
  assert.deepEqual(example.argv, ['/bin/node', 'examples/server/server.mjs']);
  assert.equal(example.env.NODE_OPTIONS, '--import fast-webstreams/register');
  assert.equal(example.cwd, ROOT);
  const next = childSpec('fast:next', { ...base, port: 4100, codecs: false });
  const preload = next.env.NODE_OPTIONS.replace('--import ', '');
  assert.ok(isAbsolute(preload) && existsSync(preload), preload); // the app runs under .cache/: a bare specifier would not resolve
  assert.deepEqual(next.argv.slice(1), ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', '4100']);
  assert.equal(next.cwd, '/cache/next');
  assert.equal(next.env.FAST_WEBSTREAMS_CODECS, '0');
  assert.equal(next.env.LLM_URL, 'http://l');
  assert.equal(next.env.NEXT_TELEMETRY_DISABLED, '1');
  assert.deepEqual(Object.keys(next.shownEnv), ['NODE_OPTIONS', 'FAST_WEBSTREAMS_METRICS_PORT', 'FAST_WEBSTREAMS_CODECS']);
  const native = childSpec('native:hono', base);
  assert.equal(native.env.NODE_OPTIONS, undefined);
  assert.deepEqual(native.shownEnv, {});
  const llm = childSpec('llm', { ...base, crash: { role: 'llm', path: '/v1/responses', after: 2, how: 'signal' } });
  assert.equal(llm.env.MOCK_LLM_TOKENS, String(LLM_TOKENS));
  assert.match(llm.argv.join(' '), /--import \S+crash-hook\.mjs bench\/load\/apps\/mock-openai\.mjs$/);
  assert.equal(llm.env.NODE_OPTIONS, undefined);
  assert.equal(roleName('fast:next'), 'fast Next.js server');
  assert.equal(roleName('native'), 'native server');
  assert.equal(roleName('llm'), 'LLM mock');
  assert.deepEqual(routeRoles('ai-chat'), ['native:next', 'fast:next', 'llm']);
  assert.equal(stepUses({ route: 'ai-chat', impl: 'fast' }, 'fast:next'), true);
  assert.equal(stepUses({ route: 'ai-chat', impl: 'native' }, 'fast:next'), false);
  assert.equal(stepUses({ route: 'next-stream', impl: 'fast' }, 'llm'), false);
});

/** Starts the LLM mock on a free port; resolves with its URL and a stop function. */
function startMock(tokens) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, BACKENDS.llm.script)], {
      env: { ...process.env, PORT: '0', MOCK_LLM_TOKENS: String(tokens), NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error('mock did not start')); }, 20_000);
    child.stdout.setEncoding('utf8').on('data', (d) => {
      const m = /listening on (http:\/\/\S+)/.exec(d);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], stop: () => child.kill('SIGKILL') });
      }
    });
  });
}

/** The events of an SSE body, each as the text of its lines. */
const sseEvents = (text) => text.split('\n\n').filter(Boolean);

test('LLM mock: chat completions and Responses API streams, one token per event of 50-200 bytes', { timeout: 30_000 }, async () => {
  const { url, stop } = await startMock(40);
  try {
    const post = (path, body) => fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const chat = sseEvents(await (await post('/v1/chat/completions', { model: 'm', stream: true })).text());
    assert.equal(chat.at(-1), 'data: [DONE]');
    const chunks = chat.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)));
    const deltas = chunks.filter((c) => c.choices[0]?.delta?.content);
    assert.equal(deltas.length, 40);
    assert.equal(chunks.at(-1).usage.completion_tokens, 40);
    assert.equal(chunks.find((c) => c.choices[0]?.finish_reason).choices[0].finish_reason, 'stop');
    for (const e of chat.slice(1, 41)) assert.ok(Buffer.byteLength(e) + 2 >= 50 && Buffer.byteLength(e) + 2 <= 200, e);

    const responses = sseEvents(await (await post('/v1/responses', { model: 'm', stream: true })).text());
    const types = responses.map((e) => /^event: (\S+)/.exec(e)[1]);
    assert.equal(types.filter((t) => t === 'response.output_text.delta').length, 40);
    assert.deepEqual([types[0], types.at(-1)], ['response.created', 'response.completed']);
    for (const e of responses.filter((x) => x.includes('output_text.delta'))) assert.ok(Buffer.byteLength(e) + 2 <= 200, e);

    assert.equal((await post('/v1/chat/completions', { model: 'm' })).status, 400); // only streams
    assert.equal((await fetch(`${url}/v1/models`)).status, 404);
  } finally {
    stop();
  }
});

test('app cache: installs once per lock file, builds once per change of the sources, drops removed files', { timeout: 120_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'load-app-cache-'));
  try {
    const src = join(root, 'apps', 'demo');
    mkdirSync(join(src, 'lib'), { recursive: true });
    writeFileSync(join(src, 'package.json'), '{"name":"demo","version":"0.0.0","private":true}\n');
    writeFileSync(join(src, 'package-lock.json'), JSON.stringify({
      name: 'demo', version: '0.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'demo', version: '0.0.0' } },
    }));
    writeFileSync(join(src, 'lib', 'a.js'), 'a');
    writeFileSync(join(src, 'lib', 'b.js'), 'b');
    // The "build" counts its runs in a file of the cache folder.
    const build = ['-e', "const f='builds';const fs=require('fs');fs.writeFileSync(f,String(Number(fs.existsSync(f)?fs.readFileSync(f,'utf8'):0)+1))"];
    const logs = [];
    const prepare = () => prepareApp({ root, name: 'demo', sourceDir: 'apps/demo', build, builtMarker: 'builds', nodeBin: process.execPath,
      env: { ...process.env, NODE_OPTIONS: '' }, log: (l) => logs.push(l) });
    const dest = prepare();
    assert.equal(dest, join(root, '.cache', 'load-apps', 'demo'));
    assert.equal(readFileSync(join(dest, 'lib', 'a.js'), 'utf8'), 'a');
    assert.equal(readFileSync(join(dest, 'builds'), 'utf8'), '1');
    assert.equal(logs.filter((l) => l.startsWith('installing')).length, 1);

    prepare(); // nothing changed: neither step runs again
    assert.equal(readFileSync(join(dest, 'builds'), 'utf8'), '1');
    assert.equal(logs.filter((l) => l.startsWith('installing')).length, 1);

    writeFileSync(join(src, 'lib', 'a.js'), 'a2');
    rmSync(join(src, 'lib', 'b.js'));
    prepare(); // a source changed: rebuilt, not reinstalled; the removed file is gone from the cache
    assert.equal(readFileSync(join(dest, 'builds'), 'utf8'), '2');
    assert.equal(readFileSync(join(dest, 'lib', 'a.js'), 'utf8'), 'a2');
    assert.equal(existsSync(join(dest, 'lib', 'b.js')), false);
    assert.equal(logs.filter((l) => l.startsWith('installing')).length, 1);

    writeFileSync(join(src, 'package.json'), '{"name":"demo","version":"0.0.1","private":true}\n');
    writeFileSync(join(src, 'package-lock.json'), JSON.stringify({
      name: 'demo', version: '0.0.1', lockfileVersion: 3, requires: true, packages: { '': { name: 'demo', version: '0.0.1' } },
    }));
    prepare(); // the lock changed: installed and built again
    assert.equal(logs.filter((l) => l.startsWith('installing')).length, 2);
    assert.equal(readFileSync(join(dest, 'builds'), 'utf8'), '3');

    writeFileSync(join(src, 'lib', 'a.js'), 'a3');
    const failing = () => prepareApp({ root, name: 'demo', sourceDir: 'apps/demo', build: ['-e', 'console.error("no such module");process.exit(3)'],
      nodeBin: process.execPath, env: process.env, log: () => {} });
    assert.throws(failing, /the build of demo failed \(exit code 3\)[^]*no such module/);
    assert.throws(failing, /the build of demo failed/, 'a failed build is tried again, not taken as done');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
