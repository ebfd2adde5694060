#!/usr/bin/env node
// The side-by-side benchmark harness. For each scenario it starts a fresh
// process per implementation, interleaved and in alternating direction
// (native, fast, peer, node:stream, then node:stream, peer, fast, native, ...),
// so that slow drift in machine load (other tenants, thermal state) spreads
// over every implementation instead of biasing one, and no implementation
// always runs right after the same neighbour; then reports the median of the
// runs and the ratio to native.
//
//   node bench/run.mjs [--filter=pipe,fetch] [--runs=3] [--chunk=1024|16384|65536]
//                      [--impl=native,fast,peer,node-stream] [--node=24] [--quick]
//                      [--out=bench/results] [--timeout=60] [--bytes=N] [--clock=wall|cpu] [--app-heap=MB] [--cold] [--list]
//
// --cold: a fresh process's first stream, as a server's first request or a CLI
// meets it: each child runs the scenario once with no warm-up, timed from the
// process's start (so what the preload costs to load counts too).
//
// What counting costs: --impl=fast,fast-nocounters (a copy of src/ with the
// tier-counter updates stripped); the report adds fast / fast-nocounters.
//
// See docs/benchmarks.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenarios } from './scenarios/index.mjs';
import { DEFAULT_IMPLS, IMPLS, IMPL_ORDER, parseImpls, runsScenario } from './impls.mjs';
import { renderTable } from './report/table.mjs';
import { renderMarkdown } from './report/markdown.mjs';
import { renderSvg } from './report/svg.mjs';
import { median } from './stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const CHUNKS = [1024, 16384, 65536];

export function parseArgs(argv) {
  const a = {};
  for (const arg of argv) {
    const m = /^--([^=]+)(?:=(.*))?$/s.exec(arg);
    if (!m) throw new Error(`unexpected argument: ${arg}`);
    a[m[1]] = m[2] ?? true;
  }
  const known = ['filter', 'runs', 'chunk', 'impl', 'node', 'quick', 'out', 'timeout', 'bytes', 'clock', 'app-heap', 'cold', 'only', 'help', 'list'];
  const unknown = Object.keys(a).filter((k) => !known.includes(k));
  if (unknown.length) throw new Error(`unknown option(s): ${unknown.map((k) => `--${k}`).join(' ')} (see docs/benchmarks.md)`);
  const flag = (name) => a[name] === true || a[name] === 'true';
  const quick = flag('quick');
  const cold = flag('cold');
  const chunk = Number(a.chunk ?? 1024);
  if (!CHUNKS.includes(chunk)) throw new Error(`--chunk must be one of ${CHUNKS.join(', ')}`);
  const clock = a.clock ?? 'wall';
  if (clock !== 'wall' && clock !== 'cpu') throw new Error('--clock must be wall or cpu');
  const runs = Number(a.runs ?? 3);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a positive integer');
  const appHeapMB = Number(a['app-heap'] ?? 0);
  if (!Number.isFinite(appHeapMB) || appHeapMB < 0) throw new Error('--app-heap must be a number of MB, 0 or more');
  // Same total for every implementation; rounded to whole chunks.
  const requested = Number(a.bytes ?? (quick ? 4 : 32) * 1024 * 1024);
  const totalBytes = Math.max(1, Math.ceil(requested / chunk)) * chunk;
  return {
    help: Boolean(a.help),
    list: Boolean(a.list),
    filter: typeof a.filter === 'string' ? a.filter.toLowerCase().split(',').filter(Boolean) : [],
    only: typeof a.only === 'string' ? a.only.split(',') : null, // exact names (used by quick.mjs)
    runs,
    chunk,
    totalBytes,
    quick,
    cold,
    clock,
    appHeapMB,
    impls: parseImpls(typeof a.impl === 'string' ? a.impl : DEFAULT_IMPLS.join(',')),
    node: a.node && a.node !== true ? Number(a.node) : null,
    out: a.out === undefined ? join(here, 'results') : a.out === 'none' ? null : resolve(a.out),
    timeoutMs: Number(a.timeout ?? (quick ? 30 : 60)) * 1000,
  };
}

// What counting costs in one scenario: fast's median over fast-nocounters'
// (1.00 = nothing; below 1 = counting slows it; for memory rows above 1 =
// counting costs memory), and the range of the ratios of the two processes
// run back to back in each round, to judge that figure against the noise.
export function countingRatio(on, off) {
  if (on?.median == null || !off?.median) return null;
  const rounds = on.samples.length === off.samples.length ? on.samples.map((v, i) => v / off.samples[i]) : [];
  return {
    ratio: on.median / off.median,
    min: rounds.length ? Math.min(...rounds) : null,
    max: rounds.length ? Math.max(...rounds) : null,
  };
}

// Which versions of the two libraries were measured (the peer is pinned in
// devDependencies, but a report should say so on its own).
function versions() {
  const read = (p) => {
    try { return JSON.parse(readFileSync(join(root, p), 'utf8')).version; } catch { return 'unknown'; }
  };
  return {
    'fast-webstreams': read('package.json'),
    'experimental-fast-webstreams': read('node_modules/experimental-fast-webstreams/package.json'),
  };
}

function git(args) {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

function revision() {
  const rev = git(['rev-parse', '--short', 'HEAD']) ?? 'unknown';
  // Tracked files only: the results this run writes are untracked and must not
  // mark the tree dirty by themselves.
  const dirty = git(['status', '--porcelain', '--untracked-files=no']);
  return dirty ? `${rev}-dirty` : rev;
}

// resolveNode logs on stdout; keep stdout for the table (bench/floors.mjs shares this).
export async function nodeBinary(major) {
  if (!major) return { bin: process.execPath, version: process.version };
  const { resolveNode } = await import('../test/wpt/node-versions.mjs');
  const log = console.log;
  console.log = (...xs) => console.error(...xs);
  try {
    const { bin, version } = resolveNode(major);
    return { bin, version };
  } finally {
    console.log = log;
  }
}

// The fetch scenario's upstream, in a separate process for the whole run.
export function startServer(bin) {
  return new Promise((resolveUrl, reject) => {
    const child = spawn(bin, [join(here, 'server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } });
    let buf = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      buf += d;
      const line = buf.split('\n')[0];
      if (buf.includes('\n')) resolveUrl({ url: line.trim(), child });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`bench server exited early (${code})`)));
  });
}

// One updating line on a terminal; one line per step when stderr is a file,
// so logs stay readable.
function progress(text) {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K${text}`);
  else if (text) process.stderr.write(`${text}\n`);
}

export function runChild({ bin, impl, flags, scenario, env, timeoutMs }) {
  const spec = IMPLS[impl];
  const argv = [...flags, ...scenario.flags, join(here, 'child.mjs'), `--scenario=${scenario.name}`, `--kind=${spec.kind}`];
  const r = spawnSync(bin, argv, { encoding: 'utf8', env: { ...env, ...spec.env }, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 << 20 });
  const last = r.stdout?.trim().split('\n').pop();
  let parsed = null;
  try { parsed = last ? JSON.parse(last) : null; } catch { /* not our JSON line */ }
  if (r.error?.code === 'ETIMEDOUT' || (r.signal && !parsed)) {
    return { error: `timed out after ${timeoutMs / 1000} s` };
  }
  if (parsed?.error) return { error: parsed.error };
  if (r.status === 13) {
    // Node's exit code for "the event loop emptied while top-level await was
    // pending": a stream stalled with no timer or I/O left to wake it.
    return { error: 'never finished: the stream stalled (event loop emptied with the scenario pending, exit 13)' };
  }
  if (r.status !== 0 || !parsed) {
    const why = (r.stderr || '').trim().split('\n').filter(Boolean).slice(-3).join(' | ');
    return { error: `exit ${r.status}${r.signal ? ` (${r.signal})` : ''}: ${why || 'no output'}` };
  }
  return parsed;
}

export async function main(argv, { banner = true } = {}) {
  const opts = parseArgs(argv);
  if (opts.help) {
    console.log('usage: node bench/run.mjs [--filter=a,b] [--runs=3] [--chunk=1024|16384|65536] ' +
      `[--impl=${DEFAULT_IMPLS.join(',')}] [--node=24] [--quick] [--out=dir|none] [--timeout=s] [--bytes=N] [--clock=wall|cpu] [--cold] [--list]\n` +
      'implementations: ' + IMPL_ORDER.map((k) => (IMPLS[k].optIn ? `${k} (only when named)` : k)).join(', ') + '\n' +
      'what counting costs: --impl=fast,fast-nocounters --clock=cpu');
    return null;
  }
  if (opts.list) {
    for (const s of scenarios) {
      const impls = DEFAULT_IMPLS.filter((k) => runsScenario(k, s)).join(', ');
      console.log(`${s.name.padEnd(32)}${s.about} [${impls}]`);
    }
    return null;
  }
  const { bin, version } = await nodeBinary(opts.node);
  const selected = scenarios.filter((s) => (opts.only ? opts.only.includes(s.name)
    : !opts.filter.length || opts.filter.some((f) => s.name.toLowerCase().includes(f))));
  if (!selected.length) throw new Error('no scenario matches the filter');

  const env = { ...process.env, NODE_OPTIONS: '', BENCH_CHUNK: String(opts.chunk), BENCH_BYTES: String(opts.totalBytes), BENCH_QUICK: opts.quick ? '1' : '0', BENCH_COLD: opts.cold ? '1' : '0', BENCH_CLOCK: opts.clock, BENCH_APP_HEAP_MB: String(opts.appHeapMB) };
  delete env.FAST_WEBSTREAMS; // the kill switch would silently turn "fast" into native
  delete env.FAST_WEBSTREAMS_CODECS; // only fast-nocodecs sets it, so fast is the default preload
  const cleanups = [];
  const flagsOf = {};
  let server = null;
  try {
    for (const key of opts.impls) {
      if (!IMPLS[key].prepare) { flagsOf[key] = IMPLS[key].flags; continue; }
      const prepared = IMPLS[key].prepare(bin);
      cleanups.push(prepared.cleanup);
      flagsOf[key] = prepared.flags;
      if (banner && prepared.note) console.error(`${key}: ${prepared.note}`);
    }
    if (selected.some((s) => s.needsServer)) {
      server = await startServer(bin);
      env.BENCH_URL = server.url;
    }
  } catch (err) {
    for (const cleanup of cleanups) cleanup();
    throw err;
  }

  const meta = {
    node: version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model?.trim() ?? 'unknown',
    chunk: opts.chunk,
    totalBytes: opts.totalBytes,
    runs: opts.runs,
    quick: opts.quick,
    cold: opts.cold,
    clock: opts.clock,
    appHeapMB: opts.appHeapMB,
    date: new Date().toISOString(),
    rev: revision(),
    versions: versions(),
  };
  const impls = opts.impls.map((key) => ({ key, label: IMPLS[key].label }));
  if (banner) console.error(`Running ${selected.length} scenario(s) x ${impls.length} implementation(s) x ${opts.runs} run(s) on Node ${version}`);

  const started = Date.now();
  const results = [];
  try {
    for (const [idx, scenario] of selected.entries()) {
      // Implementations with a body for this scenario; the others get no cell.
      const active = opts.impls.filter((k) => runsScenario(k, scenario));
      const per = Object.fromEntries(active.map((k) => [k, { samples: [], error: null }]));
      for (let run = 0; run < opts.runs; run++) {
        // Every other round in reverse: no implementation always follows the same one.
        for (const impl of run % 2 ? [...active].reverse() : active) {
          if (per[impl].error) continue; // a failure repeats; do not pay its timeout again
          progress(`[${idx + 1}/${selected.length}] ${scenario.name} run ${run + 1}/${opts.runs} ${impl}`);
          const r = runChild({ bin, impl, flags: flagsOf[impl], scenario, env, timeoutMs: opts.timeoutMs });
          if (r.error) per[impl].error = r.error;
          else per[impl].samples.push(r.value);
        }
      }
      const out = {};
      for (const impl of active) {
        const p = per[impl];
        out[impl] = p.error ? { error: p.error, samples: p.samples } : { samples: p.samples, median: median(p.samples) };
      }
      const base = out.native?.median;
      for (const impl of active) {
        if (out[impl].median != null && base) out[impl].ratio = out[impl].median / base;
      }
      const counting = countingRatio(out.fast, out['fast-nocounters']);
      results.push({ name: scenario.name, about: scenario.about, unit: scenario.unit, results: out, ...(counting && { counting }) });
    }
  } finally {
    progress('');
    server?.child.kill('SIGTERM');
    for (const cleanup of cleanups) cleanup();
  }

  const result = { meta: { ...meta, seconds: Math.round((Date.now() - started) / 1000) }, impls, scenarios: results };
  console.log(renderTable(result));
  if (opts.out) {
    mkdirSync(opts.out, { recursive: true });
    writeFileSync(join(opts.out, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
    writeFileSync(join(opts.out, 'latest.svg'), renderSvg(result));
    writeFileSync(join(opts.out, 'latest.md'), renderMarkdown(result, { svgName: 'latest.svg' }));
    console.error(`\nwrote ${join(opts.out, 'latest.{json,md,svg}')} (${result.meta.seconds} s)`);
  }
  return result;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`${process.stderr.isTTY ? '\r\x1b[K' : ''}${err.message}\n`);
    process.exit(1);
  });
}
