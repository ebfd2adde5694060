#!/usr/bin/env node
// Where one scenario spends its time, for one implementation: runs
// bench/child.mjs once under --cpu-prof, started as the suite starts it (the
// same preload flags and environment), and prints the functions with the most
// self time, the time per file, and the top functions of ours and of the bench,
// with lines of dist/ mapped back to src/ through the bundle's source map.
//
//   node bench/profile.mjs --scenario='gzip round trip' [--impl=fast] [--chunk=1024]
//                          [--node=26] [--top=15] [--keep] [--app-heap=MB]
//
// A profile is one process and includes start-up and warm-up: compare the
// shares of two implementations, not their absolute times (docs/benchmarks.md).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { byName } from './scenarios/index.mjs';
import { IMPLS, parseImpls } from './impls.mjs';
import { startServer } from './run.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const DIST = join(root, 'dist', 'fast-webstreams.js');

function parseArgs(argv) {
  const a = Object.fromEntries(argv.map((s) => {
    const m = /^--([^=]+)(?:=(.*))?$/s.exec(s);
    if (!m) throw new Error(`unexpected argument: ${s}`);
    return [m[1], m[2] ?? true];
  }));
  const scenario = byName.get(a.scenario);
  if (!scenario) throw new Error(`--scenario must name a scenario (node bench/run.mjs --list), got ${a.scenario}`);
  const [impl] = parseImpls(typeof a.impl === 'string' ? a.impl : 'fast');
  if (IMPLS[impl].prepare) throw new Error(`--impl=${impl} is not supported here`);
  return { scenario, impl, chunk: Number(a.chunk ?? 1024), node: a.node ? Number(a.node) : null, top: Number(a.top ?? 15), keep: Boolean(a.keep),
    appHeapMB: Number(a['app-heap'] ?? 0) };
}

// Our bundle's lines back to src/ (file:line), anything else as file:line.
function locator() {
  let map = null;
  try {
    map = new SourceMap(JSON.parse(readFileSync(`${DIST}.map`, 'utf8')));
  } catch { /* no map: dist lines stay as they are */ }
  return ({ url, lineNumber, columnNumber }) => {
    if (!url) return '';
    if (map && url.endsWith('/dist/fast-webstreams.js')) {
      const entry = map.findEntry(lineNumber, columnNumber);
      if (entry?.originalSource) return `src/${entry.originalSource.split('/src/').pop()}:${entry.originalLine + 1}`;
    }
    return `${basename(url)}:${lineNumber + 1}`;
  };
}

function selfTimes(profile, locate) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const d = profile.timeDeltas[i] ?? 0;
    const { callFrame } = nodes.get(profile.samples[i]);
    const key = `${callFrame.functionName || '(anonymous)'} ${locate(callFrame)}`.trim();
    self.set(key, (self.get(key) ?? 0) + d);
    total += d;
  }
  return { self, total };
}

function print(title, entries, total, n) {
  console.log(title);
  for (const [key, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(6)}%  ${key}`);
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  let bin = process.execPath;
  if (opts.node) bin = (await import('../test/wpt/node-versions.mjs')).resolveNode(opts.node).bin;
  const dir = mkdtempSync(join(tmpdir(), 'fws-profile-'));
  const server = opts.scenario.needsServer ? await startServer(bin) : null;
  try {
    const spec = IMPLS[opts.impl];
    const env = { ...process.env, NODE_OPTIONS: '', BENCH_CHUNK: String(opts.chunk), BENCH_APP_HEAP_MB: String(opts.appHeapMB), ...spec.env };
    if (spec.env?.FAST_WEBSTREAMS_CODECS === undefined) delete env.FAST_WEBSTREAMS_CODECS;
    delete env.FAST_WEBSTREAMS;
    if (server) env.BENCH_URL = server.url;
    const argv = ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250', ...spec.flags, ...opts.scenario.flags,
      join(here, 'child.mjs'), `--scenario=${opts.scenario.name}`, `--kind=${spec.kind}`];
    const r = spawnSync(bin, argv, { encoding: 'utf8', env, timeout: 120_000 });
    const line = JSON.parse(r.stdout.trim().split('\n').pop() || '{}');
    if (r.status !== 0 || line.error) throw new Error(`the child failed: ${line.error ?? r.stderr}`);
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    const { self, total } = selfTimes(JSON.parse(readFileSync(join(dir, file), 'utf8')), locator());
    console.log(`${opts.scenario.name} | ${IMPLS[opts.impl].label} | ${opts.chunk} B chunks | ${(line.value / 1e6).toFixed(1)} MB/s | ` +
      `${(total / 1e6).toFixed(2)} s profiled`);
    print('self time, top functions:', self, total, opts.top);
    const perFile = new Map();
    for (const [key, us] of self) {
      const where = key.split(' ').pop();
      const f = where.startsWith('src/') ? 'ours (src/)' : where.includes(':') ? where.replace(/:\d+$/, '') : key;
      perFile.set(f, (perFile.get(f) ?? 0) + us);
    }
    print('self time per file:', perFile, total, 10);
    print('ours and the bench:', [...self].filter(([k]) => / src\/| [\w-]+\.mjs:/.test(k)), total, opts.top);
    if (opts.keep) console.log(`profile kept in ${join(dir, file)}`);
  } finally {
    server?.child.kill('SIGTERM');
    if (!opts.keep) rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err.message);
    process.exit(1);
  });
}
