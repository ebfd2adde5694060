#!/usr/bin/env node
// What the preload adds to a process's start-up: `node -e <probe>` against
// `node --import fast-webstreams/register -e <probe>`, one fresh process per
// run, the variants interleaved and in alternating direction (A B C, C B A,
// ...) so that drifting machine load spreads over all of them. Reports
// medians per Node version.
//
//   node bench/startup.mjs [--node=20,22,24,26] [--runs=30] [--variants=native,preload] [--ref=main]
//
// Three clocks and two memory figures per run:
//   wall     spawn to exit, measured here (what a user waits for)
//   ready    performance.now() when the probe runs: process start to the
//            application's first line, measured in the child (no exec, no teardown)
//   cpu      process.cpuUsage() (user + system) when the probe runs: the least
//            sensitive to other load on the machine
//   rss      peak resident set size when the probe runs (process.resourceUsage().maxRSS)
//   heap     V8's used heap when the probe runs (process.memoryUsage().heapUsed, no collection forced)
// The probe (`-e`) is the same one-liner in every variant. Deltas are over
// `empty` when it runs (the cost of --import itself taken out), else over the
// first variant.
//
// The library is measured as users get it: the package's files (package.json
// "files") copied into node_modules/fast-webstreams of a temporary directory,
// which is the working directory of every run. Variants:
//   native    no flag
//   empty     --import of an empty ES module: what any --import preload costs
//   preload   --import fast-webstreams/register (the installed copy: dist/)
//   off       the same with FAST_WEBSTREAMS=0
//   cache     the same with NODE_COMPILE_CACHE set (a temporary directory,
//             filled by a first run; Node 22.1+)
//   src       src/ loaded as separate modules (what the preload did before
//             dist/): src/index.js, install(), startMetricsFromEnv()
//   checkout  --import <repository>/register.mjs: the repository itself
//   ref       with --ref=<git ref>: that commit's package, installed the same
//             way (git archive, and its dist/ built when it was not committed),
//             to compare a change with what it replaces
// dist/ is a build output: the repository's is rebuilt from src/ first.
// See docs/interop.md, "Start-up".
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolveNode } from '../test/wpt/node-versions.mjs';
import { writeBundle } from '../tools/bundle.mjs';
import { median } from './stats.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const PROBE = 'const c=process.cpuUsage();process.stdout.write(JSON.stringify([performance.now(),(c.user+c.system)/1000,' +
  'process.resourceUsage().maxRSS/1024,process.memoryUsage().heapUsed/1048576]))';

const opts = { node: '20,22,24,26', runs: '30', variants: 'native,empty,preload', ref: '' };
for (const arg of process.argv.slice(2)) {
  const m = /^--(node|runs|variants|ref)=(.+)$/.exec(arg);
  if (!m) {
    console.error(`startup.mjs: unknown argument ${arg} (see the header of bench/startup.mjs)`);
    process.exit(2);
  }
  opts[m[1]] = m[2];
}
const runs = Number(opts.runs);
const majors = opts.node.split(',').map(Number);
const variants = opts.variants.split(',');
if (opts.ref && !variants.includes('ref')) variants.push('ref');
if (variants.includes('ref') && !opts.ref) throw new Error('the ref variant needs --ref=<git ref>');

writeBundle(root);
// The installed layout, in a temporary directory that every run uses as its cwd.
const work = mkdtempSync(join(tmpdir(), 'fast-webstreams-startup-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const installed = join(work, 'node_modules', 'fast-webstreams');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const entry of ['package.json', ...pkg.files]) cpSync(join(root, entry), join(installed, entry), { recursive: true });
writeFileSync(join(work, 'package.json'), '{ "private": true }\n');
// --ref: that commit's package.json "files", installed beside.
const refWork = join(work, 'ref');
if (opts.ref) {
  const tree = join(refWork, 'tree');
  mkdirSync(tree, { recursive: true });
  const tar = spawnSync('git', ['archive', '--format=tar', opts.ref], { cwd: root, maxBuffer: 1 << 30 });
  if (tar.status !== 0) throw new Error(`git archive ${opts.ref}: ${tar.stderr}`);
  const x = spawnSync('tar', ['-x', '-C', tree], { input: tar.stdout });
  if (x.status !== 0) throw new Error(`tar: ${x.stderr}`);
  const refPkg = JSON.parse(readFileSync(join(tree, 'package.json'), 'utf8'));
  if (!existsSync(join(tree, 'dist')) && existsSync(join(tree, 'tools', 'bundle.mjs'))) {
    const built = spawnSync(process.execPath, ['tools/bundle.mjs'], { cwd: tree, encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`building ${opts.ref}'s dist/: ${built.stderr}`);
  }
  for (const entry of ['package.json', ...refPkg.files]) {
    cpSync(join(tree, entry), join(refWork, 'node_modules', 'fast-webstreams', entry), { recursive: true });
  }
  writeFileSync(join(refWork, 'package.json'), '{ "private": true }\n');
}
const emptyPreload = join(work, 'empty.mjs');
writeFileSync(emptyPreload, '');
const srcRegister = join(work, 'src-register.mjs');
writeFileSync(srcRegister, `const { install, startMetricsFromEnv } = await import(${JSON.stringify(pathToFileURL(join(installed, 'src', 'index.js')).href)});
install();
startMetricsFromEnv();
`);

function variantArgs(name, major) {
  const env = { ...process.env, NODE_OPTIONS: '' };
  delete env.NODE_COMPILE_CACHE;
  for (const key of Object.keys(env)) if (key.startsWith('FAST_WEBSTREAMS')) delete env[key];
  const preload = ['--import', 'fast-webstreams/register', '-e', PROBE];
  switch (name) {
    case 'native': return { args: ['-e', PROBE], env };
    case 'empty': return { args: ['--import', pathToFileURL(emptyPreload).href, '-e', PROBE], env };
    case 'preload': return { args: preload, env };
    case 'off': return { args: preload, env: { ...env, FAST_WEBSTREAMS: '0' } };
    case 'cache': {
      const dir = join(work, `compile-cache-${major}`);
      mkdirSync(dir, { recursive: true });
      return { args: preload, env: { ...env, NODE_COMPILE_CACHE: dir } };
    }
    case 'src': return { args: ['--import', pathToFileURL(srcRegister).href, '-e', PROBE], env };
    case 'checkout': return { args: ['--import', pathToFileURL(join(root, 'register.mjs')).href, '-e', PROBE], env };
    case 'ref': return { args: preload, env, cwd: refWork };
    default: throw new Error(`unknown variant ${name} (native, empty, preload, off, cache, src, checkout, ref)`);
  }
}

function runOnce(bin, { args, env, cwd = work }) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(bin, args, { cwd, env, encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${bin} ${args.join(' ')} failed:\n${r.stderr}`);
  const [ready, cpu, rss, heap] = JSON.parse(r.stdout);
  return { wall, ready, cpu, rss, heap };
}

const COLUMNS = ['wall', 'ready', 'cpu', 'rss', 'heap'];
const fmt = (x, digits = 1) => x.toFixed(digits).padStart(7);
for (const major of majors) {
  const { bin, version } = resolveNode(major);
  const setups = variants.map((v) => [v, variantArgs(v, major)]);
  for (const [, setup] of setups) runOnce(bin, setup); // warm the file cache (and the compile cache)
  const results = new Map(variants.map((v) => [v, { wall: [], ready: [], cpu: [], rss: [], heap: [] }]));
  for (let i = 0; i < runs; i++) {
    const order = i % 2 === 0 ? setups : [...setups].reverse();
    for (const [name, setup] of order) {
      const r = runOnce(bin, setup);
      const into = results.get(name);
      for (const key of COLUMNS) into[key].push(r[key]);
    }
  }
  const baseName = variants.includes('empty') ? 'empty' : variants[0];
  console.log(`\nNode ${version}, ${runs} runs per variant, medians (+ added over ${baseName}); ms, then MiB`);
  console.log(`${'variant'.padEnd(10)}${COLUMNS.map((k) => `${k.padStart(7)}${''.padStart(9)}`).join('')}`);
  const base = results.get(baseName);
  for (const [name, r] of results) {
    const cols = COLUMNS.map((k) => {
      const m = median(r[k]);
      const d = m - median(base[k]);
      const digits = k === 'rss' || k === 'heap' ? 2 : 1;
      return `${fmt(m, digits)} ${name === baseName ? ''.padStart(8) : `(${d >= 0 ? '+' : ''}${d.toFixed(digits)})`.padStart(8)}`;
    });
    console.log(`${name.padEnd(10)}${cols.join('')}`);
  }
}
