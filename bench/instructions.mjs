#!/usr/bin/env node
// Instructions per chunk of the suite's chain (bench/chains.mjs), counted by
// valgrind, not timed: the A/B for a change too small for this machine's
// noise (CPU time moves 1.5x from minute to minute here; a count repeats to
// about 0.1%). Each figure is (I(b) - I(a)) / (b - a), the instructions of
// two processes that run the same warm-up and then chains of a and b
// chunks, so start-up, compilation and the warm-up cancel out. Node runs
// with --predictable (no concurrent compiler or collector threads: the
// count is then the same run to run; the collector's work is in it).
//
//   node bench/instructions.mjs [--node=26] [--transforms=0,1,3] [--ways=ours,native,node:stream,floor]
//                               [--chunks=65536] [--jobs=2] [--patterns=readable-to-web,writable-to-web]
//                               [path/to/dist/fast-webstreams.js ...]
//
// --patterns adds rows for Node's toWeb adapters in a chain
// (bench/adapter-patterns.mjs; ways ours and native), as the suite's rows
// `Readable.toWeb -> transform` and `pipeTo(Writable.toWeb)` run them.
//
// Every path given is a `ours` column (the A/B of two checkouts: pass each
// checkout's bundle, built by `npm run bundle`; default: this checkout's).
// Measure the bundle, which the preload loads, not src/index.js: across
// src/'s modules every imported binding costs a load and a check (about 9
// instructions a counter update), which the one-module bundle does not pay,
// and V8 inlines differently. Instructions are not
// time (a load that misses the cache counts one), so it tells whether a change
// removed work, and the suite tells what that is worth: docs/benchmarks.md.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeBinary } from './run.mjs';
import { WAYS } from './chains.mjs';
import { patterns } from './adapter-patterns.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const WARM_UP = 20000;

const PATTERNS = Object.keys(patterns);

function parseArgs(argv) {
  const opts = {
    node: null, transforms: [0, 1, 3], ways: ['ours'], chunks: 65536, jobs: Math.min(2, availableParallelism()), libs: [],
    patterns: [],
  };
  for (const a of argv) {
    const m = /^--([^=]+)=(.*)$/.exec(a);
    if (!m) {
      if (a.startsWith('--')) throw new Error(`unexpected argument: ${a}`);
      opts.libs.push(resolve(a));
      continue;
    }
    const [, k, v] = m;
    if (k === 'node') opts.node = Number(v);
    else if (k === 'transforms') opts.transforms = v.split(',').map(Number);
    else if (k === 'ways') opts.ways = v.split(',');
    else if (k === 'chunks') opts.chunks = Number(v);
    else if (k === 'jobs') opts.jobs = Number(v);
    else if (k === 'patterns') opts.patterns = v.split(',');
    else throw new Error(`unexpected argument: ${a}`);
  }
  for (const w of opts.ways) {
    if (!WAYS.includes(w)) throw new Error(`--ways: unknown way ${w}`);
  }
  if (opts.transforms.some((n) => !Number.isInteger(n) || n < 0)) throw new Error('--transforms: whole numbers, 0 or more');
  for (const p of opts.patterns) if (!PATTERNS.includes(p)) throw new Error(`--patterns: unknown pattern ${p}`);
  if (!Number.isInteger(opts.chunks) || opts.chunks < 1000) throw new Error('--chunks: a whole number, 1000 or more');
  if (!Number.isInteger(opts.jobs) || opts.jobs < 1) throw new Error('--jobs: a whole number, 1 or more');
  if (opts.libs.length === 0) opts.libs.push(join(here, '..', 'dist', 'fast-webstreams.js'));
  for (const lib of opts.libs) {
    if (!existsSync(lib)) throw new Error(`${lib} does not exist (npm run bundle builds dist/)`);
  }
  return opts;
}

/** The instructions valgrind counted for one child process. */
function countInstructions(bin, args) {
  return new Promise((done, fail) => {
    const child = spawn('valgrind', ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null',
      bin, '--predictable', join(here, 'instructions-child.mjs'), ...args], { stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' } });
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', fail);
    child.on('close', (code) => {
      const m = /I\s+refs:\s+([\d,]+)/.exec(err);
      if (code !== 0 || !m) fail(new Error(`valgrind ${args.join(' ')} failed (${code}):\n${err.slice(-2000)}`));
      else done(Number(m[1].replace(/,/g, '')));
    });
  });
}

/** Runs the jobs' thunks, `limit` at a time. */
async function runLimited(thunks, limit) {
  const results = new Array(thunks.length);
  let next = 0;
  const worker = async () => {
    while (next < thunks.length) {
      const i = next++;
      results[i] = await thunks[i]();
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

const opts = parseArgs(process.argv.slice(2));
if (spawnSync('valgrind', ['--version']).status !== 0) {
  throw new Error('bench/instructions.mjs needs valgrind on the PATH (Debian: apt-get install valgrind)');
}
const { bin, version } = await nodeBinary(opts.node);
const columns = [];
for (const way of opts.ways) {
  if (way === 'ours') for (const lib of opts.libs) columns.push({ way, lib, name: opts.libs.length > 1 ? relative(process.cwd(), lib) || lib : 'ours' });
  else columns.push({ way, lib: '-', name: way });
}
const a = opts.chunks;
const b = 3 * opts.chunks;
// Rows: the chain with each number of transforms, then each pattern (for the ways that build it).
const rows = [...opts.transforms.map((n) => ({ label: String(n), n, pattern: 'chain' })),
  ...opts.patterns.map((pattern) => ({ label: pattern, n: 0, pattern }))];
const builds = (row, col) => row.pattern === 'chain' || col.way === 'ours' || col.way === 'native';
const cells = [];
for (const row of rows) for (const col of columns) if (builds(row, col)) cells.push({ row, col });
let done = 0;
const counts = await runLimited(cells.flatMap(({ row, col }) => [a, b].map((c) => async () => {
  const ir = await countInstructions(bin,
    [col.way, col.lib, String(row.n), String(WARM_UP), String(c), row.pattern]);
  process.stderr.write(`${++done}/${cells.length * 2}\r`);
  return ir;
})), opts.jobs);

console.log(`Node ${version}, instructions per 1 KB chunk (valgrind, --predictable; ${b} - ${a} chunks)`);
const width = Math.max(12, ...columns.map((c) => c.name.length + 2));
const labelWidth = Math.max(10, ...rows.map((r) => r.label.length));
console.log(`${'transforms'.padStart(labelWidth)}${columns.map((c) => c.name.padStart(width)).join('')}`);
for (const row of rows) {
  const values = columns.map((col) => {
    const i = cells.findIndex((c) => c.row === row && c.col === col);
    return i < 0 ? '-' : String(Math.round((counts[2 * i + 1] - counts[2 * i]) / (b - a)));
  });
  console.log(`${row.label.padStart(labelWidth)}${values.map((v) => v.padStart(width)).join('')}`);
}
