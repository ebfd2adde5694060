#!/usr/bin/env node
// Where the instructions of one chunk go, function by function: the chain of
// bench/instructions.mjs run under valgrind's callgrind twice (a and 2a
// chunks, the same warm-up), each instruction's count attributed to the
// function whose code holds its address (V8's --perf-basic-prof map for
// JIT code, callgrind's own names for Node's binary), and the difference
// divided by a. What it answers: which of our functions V8 did not inline
// (each one that is not is a row of its own), and what each costs a chunk.
// A row's name starts with V8's tier: * TurboFan, + Maglev, ^ Sparkplug.
//
//   node bench/instructions-by-function.mjs [--node=26] [--transforms=1] [--way=ours]
//                                           [--chunks=200000] [--top=25] [--pattern=writable-to-web]
//                                           [path/to/dist/fast-webstreams.js]
//
// --pattern profiles one of bench/adapter-patterns.mjs' patterns (ways ours
// and native) instead of the chain, as bench/instructions.mjs --patterns counts it.
//
// Slower than bench/instructions.mjs (callgrind: about a minute a run here)
// and a little higher (perf-basic-prof writes its map as code is made); use
// bench/instructions.mjs for the A/B, this for where to look.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeBinary } from './run.mjs';
import { WAYS } from './chains.mjs';
import { patterns } from './adapter-patterns.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const WARM_UP = 20000;

function parseArgs(argv) {
  const opts = {
    node: null, transforms: 1, way: 'ours', pattern: 'chain', chunks: 200000, top: 25,
    lib: join(here, '..', 'dist', 'fast-webstreams.js'),
  };
  for (const a of argv) {
    const m = /^--([^=]+)=(.*)$/.exec(a);
    if (!m) {
      if (a.startsWith('--')) throw new Error(`unexpected argument: ${a}`);
      opts.lib = resolve(a);
      continue;
    }
    const [, k, v] = m;
    if (k === 'node') opts.node = Number(v);
    else if (k === 'transforms') opts.transforms = Number(v);
    else if (k === 'way') opts.way = v;
    else if (k === 'chunks') opts.chunks = Number(v);
    else if (k === 'top') opts.top = Number(v);
    else if (k === 'pattern') opts.pattern = v;
    else throw new Error(`unexpected argument: ${a}`);
  }
  if (!WAYS.includes(opts.way)) throw new Error(`--way: unknown way ${opts.way}`);
  if (opts.pattern !== 'chain') {
    if (!Object.hasOwn(patterns, opts.pattern)) throw new Error(`--pattern: unknown pattern ${opts.pattern}`);
    if (opts.way !== 'ours' && opts.way !== 'native') throw new Error('--pattern: only the ways ours and native build it');
    opts.transforms = 0;
  }
  if (!Number.isInteger(opts.chunks) || opts.chunks < 1000) throw new Error('--chunks: a whole number, 1000 or more');
  return opts;
}

/** Runs the chain of `chunks` chunks under callgrind; returns its output file and V8's map of JIT code. */
function profile(bin, opts, chunks, dir) {
  const out = join(dir, `callgrind.${chunks}`);
  return new Promise((done, fail) => {
    const child = spawn('valgrind', ['--tool=callgrind', '--dump-instr=yes', `--callgrind-out-file=${out}`,
      bin, '--predictable', '--perf-basic-prof', join(here, 'instructions-child.mjs'),
      opts.way, opts.lib, String(opts.transforms), String(WARM_UP), String(chunks), opts.pattern],
    // In `dir`: --perf-basic-prof also writes V8's log (isolate-*.log) to the working directory.
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    let err = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', fail);
    child.on('close', (code) => {
      if (code !== 0) {
        fail(new Error(`callgrind failed (${code}):\n${err.slice(-2000)}`));
        return;
      }
      const pid = /^pid: (\d+)$/m.exec(readFileSync(out, 'utf8'))[1];
      done({ out, map: `/tmp/perf-${pid}.map` });
    });
  });
}

/** Self instructions by address, and by name for code callgrind names (Node's binary). */
function selfCosts(file) {
  const byAddress = new Map();
  const byName = new Map();
  const names = new Map();
  let address = 0;
  let name;
  let callCost = false; // the line after calls= is the call's inclusive cost, not self cost
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const fn = /^(c?)fn=\((\d+)\)(?: (.*))?$/.exec(line);
    if (fn) {
      if (fn[3] !== undefined) names.set(fn[2], fn[3]);
      if (fn[1] === '') name = names.get(fn[2]);
      continue;
    }
    if (line.startsWith('calls=')) {
      callCost = true;
      continue;
    }
    const cost = /^(0x[0-9a-f]+|[+-]\d+|\*)\s+\S+\s+(\d+)/.exec(line);
    if (!cost) continue;
    if (cost[1].startsWith('0x')) address = parseInt(cost[1], 16);
    else if (cost[1] !== '*') address += Number(cost[1]);
    if (callCost) {
      callCost = false;
      continue;
    }
    const n = Number(cost[2]);
    if (name !== undefined && !name.startsWith('0x')) byName.set(name, (byName.get(name) ?? 0) + n);
    else byAddress.set(address, (byAddress.get(address) ?? 0) + n);
  }
  return { byAddress, byName };
}

/** Instructions per function: JIT code through V8's map (start, size, name per line), the rest by callgrind's names. */
function perFunction({ out, map }) {
  const ranges = readFileSync(map, 'utf8').trim().split('\n').map((l) => {
    const [start, size, ...name] = l.split(' ');
    return { start: parseInt(start, 16), end: parseInt(start, 16) + parseInt(size, 16), name: name.join(' ') };
  }).sort((a, b) => a.start - b.start);
  const { byAddress, byName } = selfCosts(out);
  const totals = new Map(byName);
  for (const [address, n] of byAddress) {
    let lo = 0;
    let hi = ranges.length - 1;
    let hit;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (ranges[mid].start <= address) {
        hit = ranges[mid];
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    const key = hit !== undefined && address < hit.end ? hit.name : '(unmapped)';
    totals.set(key, (totals.get(key) ?? 0) + n);
  }
  return totals;
}

const opts = parseArgs(process.argv.slice(2));
if (spawnSync('valgrind', ['--version']).status !== 0) {
  throw new Error('bench/instructions-by-function.mjs needs valgrind on the PATH (Debian: apt-get install valgrind)');
}
const { bin, version } = await nodeBinary(opts.node);
const dir = mkdtempSync(join(tmpdir(), 'fws-callgrind-'));
try {
  const runs = await Promise.all([opts.chunks, 2 * opts.chunks].map((c) => profile(bin, opts, c, dir)));
  const [a, b] = runs.map(perFunction);
  for (const r of runs) rmSync(r.map, { force: true });
  const rows = [];
  let total = 0;
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const perChunk = ((b.get(key) ?? 0) - (a.get(key) ?? 0)) / opts.chunks;
    total += perChunk;
    rows.push([key.replace(/file:\/\/\S*\/(dist|bench)\//, '$1/'), perChunk]);
  }
  rows.sort((x, y) => y[1] - x[1]);
  const what = opts.pattern === 'chain' ? `${opts.transforms} transform(s)` : opts.pattern;
  console.log(`Node ${version}, ${opts.way}, ${what}: instructions per chunk by function ` +
    `(callgrind; ${2 * opts.chunks} - ${opts.chunks} chunks; total ${total.toFixed(0)})`);
  for (const [name, n] of rows.slice(0, opts.top)) console.log(`${n.toFixed(1).padStart(8)}  ${name}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
