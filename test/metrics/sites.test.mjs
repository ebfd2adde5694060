// FAST_WEBSTREAMS_METRICS_SITES=1 (src/metrics/sites.js): spec-path chunks and
// fallbacks are attributed to the application line that created the stream,
// in the exit summary, the stderr JSON lines, /metrics and getSites().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, REGISTER_URL } from './helpers.mjs';

// An application file of its own, so the site names it. Line numbers matter:
// the transform whose transform() returns a promise is made on line 4, the
// synchronous one on line 5, and a writer's writes go to the sink of line 9.
// The app imports the module the preload loaded (the package's main), by path.
const MAIN_URL = new URL('../../dist/fast-webstreams.js', import.meta.url).href;
const APP = [
  `import { getSites } from ${JSON.stringify(MAIN_URL)};`,
  'const src = new ReadableStream({ start(c) { for (let i = 0; i < 40; i++) c.enqueue(i); c.close(); } });',
  'let sum = 0;',
  'const slow = new TransformStream({ async transform(x, c) { c.enqueue(x); } });',
  'const quick = new TransformStream({ transform(x, c) { c.enqueue(x); } });',
  'await src.pipeThrough(quick).pipeThrough(slow).pipeTo(new WritableStream({ write(x) { sum += x; } }));',
  'const top = getSites();',
  'console.log(JSON.stringify(top));',
  'const w = new WritableStream({ write() {} }).getWriter();',
  'for (let i = 0; i < 3; i++) await w.write(i);',
  '',
].join('\n');

function runApp(env) {
  const dir = mkdtempSync(join(tmpdir(), 'fws-sites-'));
  const app = join(dir, 'app.mjs');
  writeFileSync(app, APP);
  const child = spawn(process.execPath, ['--import', REGISTER_URL, app], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '', FAST_WEBSTREAMS: '', FAST_WEBSTREAMS_METRICS: '',
      FAST_WEBSTREAMS_METRICS_PORT: '', FAST_WEBSTREAMS_METRICS_SUMMARY: '1', FAST_WEBSTREAMS_METRICS_SITES: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, app })));
}

test('FAST_WEBSTREAMS_METRICS_SITES=1 names the line of the transform that returns a promise', { timeout: 30000 }, async () => {
  const { code, stdout, stderr, app } = await runApp({ FAST_WEBSTREAMS_METRICS_SITES: '1' });
  assert.equal(code, 0, stderr);
  const top = JSON.parse(stdout.trim());
  const slow = top.find((row) => row.site.startsWith(`${app}:4:`));
  assert.ok(slow, `no site on line 4 in ${stdout}`);
  assert.ok(slow.events['fallback:async-write'] > 0, JSON.stringify(slow));
  // The synchronous transform's own transform() never returned a promise: it
  // only waited for the slow one after it to read its output.
  const quick = top.find((row) => row.site.startsWith(`${app}:5:`));
  assert.equal(quick?.events['fallback:async-write'], undefined, stdout);
  assert.ok(quick.events['fallback:transform-output-unread'] > 0, stdout);
  // The exit summary's second line lists the sites, the writer's sink (line 9) among them.
  const line = stderr.split('\n').find((l) => l.startsWith('fast-webstreams: sites'));
  assert.ok(line, stderr);
  assert.match(line, new RegExp(`${app.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:\\d+ \\([^)]*fallback:async-write`));
  assert.match(line, /app\.mjs:9:\d+ \(specWrites 3\)/);
});

test('without FAST_WEBSTREAMS_METRICS_SITES nothing is attributed', { timeout: 30000 }, async () => {
  const { code, stdout, stderr } = await runApp({});
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout.trim()), []);
  assert.doesNotMatch(stderr, /fast-webstreams: sites/);
  assert.match(stderr, /^fast-webstreams: streams created/m);
});
